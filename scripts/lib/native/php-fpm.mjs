// One PHP-FPM master per site, with its own pool config, socket and logs.
// A static pool of `children` workers (at least 4) so that concurrent
// requests (duplicate callbacks, the browser's parallel loads) really run in
// parallel, as on a WooCommerce host.
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnLogged, stopChild } from '../process.mjs';
import { detectNative } from './detect.mjs';

const isRoot = process.getuid?.() === 0;

/**
 * A sendmail stand-in appending each message to logs/mail.log. Mail senders
 * append their own arguments (-f sender): they land in sh's positional
 * parameters, unused.
 */
export function mailSink(logDir) {
  return `/bin/sh -c '/bin/cat >> ${join(logDir, 'mail.log')}' sendmail`;
}

/**
 * One master. A site with several web servers (`server`: its name and its
 * own folders) starts one master each: its own config, socket, pid, logs,
 * temp, upload and session folders, its own OPcache (each master has its
 * own shared memory) and its own WordPress uploads folder (`uploads`,
 * relative to the site, passed as CARD2CRYPTO_UPLOADS for wp-config.php),
 * as on hosts whose web servers share only the database.
 *
 * @param {{ dir: string, socketDir: string, logDir: string, children?: number, timeoutMs?: number,
 *           server?: { name: string, tempDir: string, uploads: string } }} options
 * @return {Promise<{ socket: string, pid: number, child: import('node:child_process').ChildProcess, stop: () => Promise<void> }>}
 */
export async function startPhpFpm({ dir, socketDir, logDir, children = 4, timeoutMs = 30_000, server = null }) {
  const { programs } = detectNative();
  await mkdir(dir, { recursive: true });
  await mkdir(logDir, { recursive: true });
  const socket = join(socketDir, server ? `php-fpm-${server.name}.sock` : 'php-fpm.sock');
  const own = [];
  if (server) {
    for (const sub of ['tmp', 'uploads-tmp', 'sessions']) {
      await mkdir(join(server.tempDir, sub), { recursive: true });
    }
    own.push(
      `; ${server.name}: folders of its own, nothing shared with the other servers but the database.`,
      `env[CARD2CRYPTO_SERVER] = ${server.name}`,
      `env[CARD2CRYPTO_UPLOADS] = ${server.uploads}`,
      `php_admin_value[sys_temp_dir] = ${join(server.tempDir, 'tmp')}`,
      `php_admin_value[upload_tmp_dir] = ${join(server.tempDir, 'uploads-tmp')}`,
      `php_admin_value[session.save_path] = ${join(server.tempDir, 'sessions')}`,
    );
  }
  await rm(socket, { force: true });
  const config = join(dir, 'php-fpm.conf');
  const lines = [
    '; Written by scripts/lib/native/php-fpm.mjs at every start.',
    '[global]',
    `pid = ${join(dir, 'php-fpm.pid')}`,
    `error_log = ${join(logDir, 'php-fpm.log')}`,
    'daemonize = no',
    '',
    server ? `[${server.name}]` : '[site]',
    ...(isRoot ? ['user = root', 'group = root'] : []),
    `listen = ${socket}`,
    'listen.mode = 0600',
    'pm = static',
    `pm.max_children = ${Math.max(4, children)}`,
    'request_terminate_timeout = 300',
    'catch_workers_output = yes',
    // PHP-FPM clears its workers' environment; programs PHP runs (the mail sink) need a PATH.
    'env[PATH] = /usr/local/bin:/usr/bin:/bin',
    // A bench that moves the store's clock (libfaketime preloaded into the master) keeps its settings in the workers.
    ...Object.entries(process.env)
      .filter(([key]) => key.startsWith('FAKETIME'))
      .map(([key, value]) => `env[${key}] = ${value}`),
    'decorate_workers_output = no',
    `php_admin_value[error_log] = ${join(logDir, 'php-error.log')}`,
    'php_admin_flag[log_errors] = on',
    'php_admin_flag[display_errors] = off',
    'php_value[memory_limit] = 512M',
    'php_value[upload_max_filesize] = 64M',
    'php_value[post_max_size] = 64M',
    'php_value[max_execution_time] = 300',
    // No mail server here: mail goes to a file (WooCommerce would otherwise note
    // every failed e-mail on the order). Read it to see what a buyer was sent.
    `php_admin_value[sendmail_path] = "${mailSink(logDir)}"`,
    // Plugins are mounted from source in `npm start`: an edited file counts at the next request.
    'php_admin_value[opcache.revalidate_freq] = 0',
    ...own,
  ];
  await writeFile(config, `${lines.join('\n')}\n`);
  const args = ['--nodaemonize', '--fpm-config', config];
  if (isRoot) {
    args.push('--allow-to-run-as-root');
  }
  const logFile = join(logDir, 'php-fpm.log');
  const child = spawnLogged(programs.phpFpm, args, { logFile });
  const stop = () => stopChild(child);
  const deadline = Date.now() + timeoutMs;
  let exited = null;
  child.once('exit', (code, signal) => (exited = { code, signal }));
  while (!existsSync(socket)) {
    if (exited) {
      throw new Error(`PHP-FPM exited (code ${exited.code}, signal ${exited.signal}) while starting (log: ${logFile})`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`PHP-FPM did not start within ${timeoutMs / 1000} s (log: ${logFile})`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { socket, pid: child.pid, child, stop };
}

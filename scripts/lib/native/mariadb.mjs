// One MariaDB server per site, with its own data directory and socket under
// the site's state directory. It listens on no TCP port at all
// (--skip-networking), so sites never compete for a port and nothing is
// reachable from outside; WordPress connects through the socket.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { spawnLogged, stopChild } from '../process.mjs';
import { detectNative } from './detect.mjs';

const run = promisify(execFile);
const isRoot = process.getuid?.() === 0;

export const DATABASE = { name: 'wordpress', user: 'wordpress', password: 'wordpress' };

/** Runs SQL as the server's root user (socket authentication, no password). */
export async function sql(socket, statements) {
  const { programs } = detectNative();
  const { stdout } = await run(programs.mariadb, ['--no-defaults', `--socket=${socket}`, '-uroot', '--batch', '--skip-column-names', '-e', statements], {
    timeout: 60_000,
  });
  return stdout;
}

async function initialise(dataDir, tmpDir, logFile) {
  const { programs } = detectNative();
  await mkdir(dataDir, { recursive: true });
  const args = ['--no-defaults', `--datadir=${dataDir}`, `--tmpdir=${tmpDir}`, '--auth-root-authentication-method=socket', '--skip-test-db'];
  if (isRoot) {
    args.push('--user=root');
  }
  try {
    await run(programs.mariadbInstallDb, args, { timeout: 120_000 });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`mariadb-install-db failed for ${dataDir}: ${error.stderr || error.message} (log: ${logFile})`);
  }
}

/**
 * Starts (initialising on first use) the site's MariaDB and makes sure the
 * WordPress database and user exist.
 * @param {{ dir: string, socketDir: string, logFile: string, timeoutMs?: number }} options
 * @return {Promise<{ socket: string, pid: number, child: import('node:child_process').ChildProcess, stop: () => Promise<void> }>}
 */
export async function startMariaDb({ dir, socketDir, logFile, timeoutMs = 60_000 }) {
  const { programs } = detectNative();
  const dataDir = join(dir, 'data');
  // The site's own temporary files: two sites set up at once in the system's /tmp once saw
  // one's bootstrap fail deleting its temporary table ("Error on delete of '/tmp/#sql-temptable-…'").
  const tmpDir = join(dir, 'tmp');
  await mkdir(tmpDir, { recursive: true });
  if (!existsSync(join(dataDir, 'mysql'))) {
    await initialise(dataDir, tmpDir, logFile);
  }
  const socket = join(socketDir, 'mariadb.sock');
  await rm(socket, { force: true });
  const args = [
    '--no-defaults',
    `--datadir=${dataDir}`,
    `--socket=${socket}`,
    `--pid-file=${join(dir, 'mariadb.pid')}`,
    `--tmpdir=${tmpDir}`,
    '--skip-networking',
    // Sized for a development site beside five others on a small machine.
    '--innodb-buffer-pool-size=64M',
    '--max-connections=200',
    '--skip-log-bin',
    // A test or demo site survives a crash of its machine without flushing every commit.
    '--innodb-flush-log-at-trx-commit=2',
    '--character-set-server=utf8mb4',
    '--collation-server=utf8mb4_unicode_ci',
  ];
  if (isRoot) {
    args.push('--user=root');
  }
  const child = spawnLogged(programs.mariadbd, args, { logFile });
  const stop = () => stopChild(child, { graceMs: 30_000 });
  const deadline = Date.now() + timeoutMs;
  let exited = null;
  child.once('exit', (code, signal) => (exited = { code, signal }));
  for (;;) {
    if (exited) {
      throw new Error(`MariaDB exited (code ${exited.code}, signal ${exited.signal}) while starting (log: ${logFile})`);
    }
    try {
      if (existsSync(socket)) {
        await sql(socket, 'SELECT 1');
        break;
      }
    } catch {
      // not ready yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`MariaDB did not start within ${timeoutMs / 1000} s (log: ${logFile})`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  const { name, user, password } = DATABASE;
  await sql(
    socket,
    `CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;` +
      `CREATE USER IF NOT EXISTS '${user}'@'localhost' IDENTIFIED BY '${password}';` +
      `GRANT ALL PRIVILEGES ON \`${name}\`.* TO '${user}'@'localhost';`,
  );
  return { socket, pid: child.pid, child, stop };
}

// Start and stop WordPress in Playground (PHP compiled to WebAssembly, no
// Docker, no native PHP). The site lives in a host directory mounted at
// /wordpress before installation, so it persists between runs.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PLAYGROUND_CLI } from './paths.mjs';
import { spawnLogged, stopChild, waitForHttp } from './process.mjs';
import { PHP_VERSION } from './seed.mjs';

/**
 * @param {Object}                  options
 * @param {string}                  options.siteDir      host directory of the WordPress files (and its SQLite database)
 * @param {number}                  options.port
 * @param {string}                  [options.host]       the interface to listen on (127.0.0.1; 0.0.0.0 exposes the site)
 * @param {{installMode: string}}   options.wordpress    from resolveWordPress()
 * @param {Array<[string, string]>} [options.mounts]     [hostPath, vfsPath] pairs mounted after install
 * @param {string}                  [options.blueprint]  path of a blueprint JSON run at every boot
 * @param {Record<string, boolean>} [options.defineBool] PHP boolean constants
 * @param {string}                  options.logFile
 * @param {number}                  [options.timeoutMs]
 * @param {number}                  [options.workers]
 * @param {(line: string) => void}  [options.onLine]     sees every line Playground prints
 * @return {Promise<{url: string, pid: number, stop: () => Promise<void>, child: import('node:child_process').ChildProcess}>}
 */
export async function startPlayground({
  siteDir,
  port,
  host = '127.0.0.1',
  wordpress,
  mounts = [],
  blueprint,
  defineBool = {},
  logFile,
  timeoutMs = 15 * 60_000,
  workers = 2,
  onLine,
}) {
  if (!existsSync(PLAYGROUND_CLI)) {
    throw new Error(`WordPress Playground CLI not installed (${PLAYGROUND_CLI}); run npm install first.`);
  }
  const url = `http://127.0.0.1:${port}`;
  const args = [
    '--import',
    pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'playground-bind.mjs')).href,
    PLAYGROUND_CLI,
    'server',
    `--port=${port}`,
    `--site-url=${url}`,
    `--php=${PHP_VERSION}`,
    `--workers=${workers}`,
    `--mount-before-install=${siteDir}:/wordpress`,
    `--wordpress-install-mode=${wordpress.installMode}`,
  ];
  for (const [hostPath, vfsPath] of mounts) {
    args.push(`--mount=${hostPath}:${vfsPath}`);
  }
  for (const [name, value] of Object.entries(defineBool)) {
    args.push('--define-bool', name, String(value));
  }
  if (blueprint) {
    args.push(`--blueprint=${blueprint}`);
  }

  let ready = false;
  const problems = [];
  const child = spawnLogged(process.execPath, args, {
    logFile,
    env: { ...process.env, CARD2CRYPTO_BIND_HOST: host },
    onLine: (line) => {
      if (line.includes('Ready! WordPress is running')) {
        ready = true;
      }
      if (/error/i.test(line) && problems.length < 20) {
        problems.push(line);
      }
      onLine?.(line);
    },
  });
  const stop = () => stopChild(child);
  try {
    await waitForHttp(`${url}/wp-login.php`, { timeoutMs, child, what: 'WordPress Playground' });
    // The CLI listens before it finishes booting; "Ready!" marks the end of the blueprint.
    const deadline = Date.now() + timeoutMs;
    while (!ready && Date.now() < deadline && child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 200));
    }
    if (!ready) {
      throw new Error('WordPress Playground never said it was ready');
    }
  } catch (error) {
    await stop();
    const detail = problems.length ? `\n${problems.join('\n')}` : '';
    throw new Error(`${error.message} (log: ${logFile})${detail}`);
  }
  return { url, pid: child.pid, child, stop };
}

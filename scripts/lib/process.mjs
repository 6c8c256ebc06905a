// Child processes the harness starts: spawn with output into a log file,
// wait for readiness, stop by PID (TERM, then KILL).
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A server must not outlive the harness that started it, even one killed by
 * SIGKILL, which runs no exit handler: Linux's parent-death signal, set by
 * util-linux's setpriv before it executes the server, sends the server SIGTERM
 * when we die (nginx, PHP-FPM and MariaDB then stop their own workers).
 * Elsewhere the command runs as it is and the exit handlers are all there is.
 */
const SETPRIV = '/usr/bin/setpriv';
const dieWithUs = process.platform === 'linux' && existsSync(SETPRIV);

/** [file, args] that run `command args` so that it is sent SIGTERM when this process dies (above). */
export function diesWithUs(command, args) {
  return dieWithUs ? [SETPRIV, ['--pdeathsig', 'TERM', '--', command, ...args]] : [command, args];
}

/**
 * Spawn `command args` with stdout/stderr appended to `logFile`; the child is
 * sent SIGTERM when this process dies (where Linux allows, above).
 * `onLine` sees every output line (for readiness and address parsing).
 */
export function spawnLogged(command, args, { logFile, env = process.env, cwd, onLine } = {}) {
  mkdirSync(dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile, { flags: 'a' });
  log.write(`\n--- ${new Date().toISOString()} ${command} ${args.join(' ')}\n`);
  const [file, argv] = diesWithUs(command, args);
  const child = spawn(file, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let pending = '';
  const feed = (chunk) => {
    log.write(chunk);
    pending += chunk.toString('utf8');
    const lines = pending.split(/\r?\n/);
    pending = lines.pop();
    for (const line of lines) {
      onLine?.(line);
    }
  };
  child.stdout.on('data', feed);
  child.stderr.on('data', feed);
  child.on('exit', () => log.end());
  return child;
}

/** Resolves when `url` answers (any status below 500), rejects after `timeoutMs` or when `child` exits. */
export async function waitForHttp(url, { timeoutMs, child, what = url }) {
  const deadline = Date.now() + timeoutMs;
  let exited = null;
  child?.once('exit', (code, signal) => (exited = { code, signal }));
  while (Date.now() < deadline) {
    if (exited) {
      throw new Error(`${what} exited (code ${exited.code}, signal ${exited.signal}) before answering ${url}`);
    }
    try {
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(5000) });
      if (response.status < 500) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${what} did not answer ${url} within ${Math.round(timeoutMs / 1000)} s`);
}

/** Stop a child by PID: SIGTERM, then SIGKILL after `graceMs`. Resolves once it has exited. */
export function stopChild(child, { graceMs = 10_000 } = {}) {
  if (!child || child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise((resolveStop) => {
    const timer = setTimeout(() => {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveStop();
    });
    try {
      process.kill(child.pid, 'SIGTERM');
    } catch {
      clearTimeout(timer);
      resolveStop();
    }
  });
}

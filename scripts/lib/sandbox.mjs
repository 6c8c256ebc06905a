// Start and stop the card2crypto sandbox (packages/sandbox): a local fake of
// the service with one partner whose callbacks go to the store.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_BIN } from './paths.mjs';
import { spawnLogged, stopChild, waitForHttp } from './process.mjs';

/**
 * Labelled addresses printed by the sandbox ("Dashboard: http://...").
 * Keys are lower-cased labels; "base" is always the root address.
 */
export function parseSandboxAddresses(lines, baseUrl) {
  const urls = { base: baseUrl };
  for (const line of lines) {
    const match = /([A-Za-z][A-Za-z0-9 _-]*?)\s*[:=]?\s+(https?:\/\/\S+)/.exec(line.replace(/\x1b\[[0-9;]*m/g, ''));
    if (match) {
      urls[
        match[1]
          .trim()
          .toLowerCase()
          .replace(/[\s_-]+/g, ' ')
      ] = match[2].replace(/[),.]+$/, '');
    }
  }
  return urls;
}

/** The printed address whose label contains one of `words`, else `fallback`. */
export function pickAddress(urls, words, fallback) {
  for (const word of words) {
    const key = Object.keys(urls).find((label) => label.includes(word));
    if (key) {
      return urls[key];
    }
  }
  return fallback;
}

/**
 * @return {Promise<null | {url: string, urls: Record<string,string>, dashboardUrl: string, pid: number, child: import('node:child_process').ChildProcess, stop: () => Promise<void>}>}
 *   null (with `onMissing` told why) when the sandbox is not built yet.
 */
export async function startSandbox({ port, host = '127.0.0.1', partner, logFile, dataDir, extraArgs = [], timeoutMs = 60_000, onMissing = () => {} }) {
  if (!existsSync(SANDBOX_BIN)) {
    onMissing(`The sandbox is not built yet (${SANDBOX_BIN} missing): starting without it.`);
    return null;
  }
  const url = `http://127.0.0.1:${port}`;
  // The partner goes through a file readable by this user only: on the command
  // line its secret would show in ps and in the log line spawnLogged writes.
  const partnersDir = dataDir ?? mkdtempSync(join(tmpdir(), 'c2c-sandbox-'));
  mkdirSync(partnersDir, { recursive: true });
  const partnersFile = join(partnersDir, 'partners.json');
  // The name is the store's, as the service knows its partner: the sandbox's pages show the buyer whom they pay.
  const entry = { token: partner.token, secret: partner.secret, callback_url: partner.callbackUrl, ...(partner.name ? { name: partner.name } : {}) };
  writeFileSync(partnersFile, JSON.stringify([entry]), { mode: 0o600 });
  chmodSync(partnersFile, 0o600);
  const args = [SANDBOX_BIN, '--host', host, '--port', String(port), '--partners-file', partnersFile];
  if (dataDir) {
    args.push('--data-dir', dataDir);
  }
  args.push('--callback-ip', '127.0.0.1', ...extraArgs);
  const lines = [];
  const child = spawnLogged(process.execPath, args, { logFile, onLine: (line) => lines.push(line) });
  const stop = () => stopChild(child);
  try {
    await waitForHttp(`${url}/`, { timeoutMs, child, what: 'The sandbox' });
  } catch (error) {
    await stop();
    throw new Error(`${error.message}\n${lines.slice(-15).join('\n')}\n(log: ${logFile})`);
  }
  await new Promise((r) => setTimeout(r, 200)); // let it finish printing its addresses
  const urls = parseSandboxAddresses(lines, url);
  return { url, urls, dashboardUrl: pickAddress(urls, ['dashboard'], `${url}/`), pid: child.pid, child, stop };
}

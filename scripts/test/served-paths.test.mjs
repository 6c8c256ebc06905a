// What a local site's web server never hands out (lib/served-paths.mjs), and
// that Playground's server is really told so: a server started with the same
// preload the Playground CLI gets (lib/playground-bind.mjs) answers 403 for
// them, and 200 for everything else. The native side (nginx) is proven by the
// WordPress-level PHP suite; the Playground store by e2e/specs/store.spec.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { refusedPath } from '../lib/served-paths.mjs';

const REFUSED = [
  '/wp-content/debug.log',
  '/wp-content/DEBUG.LOG',
  '/wp-content/database/.ht.sqlite',
  '/wp-content/uploads/wc-logs/card2crypto-checkout-2026-11-23-abc.txt',
  '/wp-content/%2eht.sqlite',
  '/wp-content/debug%2elog?x=1',
  '/.git/config',
  '/backup.sql',
  '/%E0%A4%A',
];
const SERVED = ['/', '/wp-login.php', '/wp-content/plugins/x/build/view.js', '/shop/?orderby=price', '/wp-json/card2crypto/v1/callback', '/catalog.log-in/'];

test('refusedPath: dot files, logs, databases and WooCommerce logs, however they are spelt', () => {
  for (const path of REFUSED) {
    assert.equal(refusedPath(path), true, path);
  }
  for (const path of SERVED) {
    assert.equal(refusedPath(path), false, path);
  }
});

test("Playground's preload answers 403 for them before the server's own handler, and binds the host it is given", async () => {
  const preload = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '..', 'lib', 'playground-bind.mjs')).href;
  const server = `require('node:http').createServer((q, s) => s.end('served ' + q.url)).listen(0, function () { console.log(JSON.stringify(this.address())); });`;
  const child = spawn(process.execPath, ['--import', preload, '-e', server], {
    env: { ...process.env, CARD2CRYPTO_BIND_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const address = await new Promise((resolve, reject) => {
      child.stdout.once('data', (chunk) => resolve(JSON.parse(String(chunk))));
      child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    });
    assert.equal(address.address, '127.0.0.1', 'listen(port) bound to CARD2CRYPTO_BIND_HOST');
    for (const path of REFUSED) {
      const response = await fetch(`http://127.0.0.1:${address.port}${path}`);
      assert.equal(response.status, 403, path);
    }
    for (const path of SERVED) {
      const response = await fetch(`http://127.0.0.1:${address.port}${path}`);
      assert.equal(response.status, 200, path);
      assert.equal(await response.text(), `served ${path}`);
    }
  } finally {
    child.kill();
  }
});

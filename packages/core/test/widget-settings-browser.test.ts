/**
 * The browser entry (src/browser.ts) really runs in a browser: Debian's
 * Chromium loads the compiled modules over HTTP as ES modules and runs the
 * domain functions (and src/bip32, kept out of the browser entry but free of
 * node: imports all the same); the page writes its results into the DOM, which
 * `--dump-dom` prints. The audited packages they import (`@scure/base`,
 * `@noble/hashes`; for src/bip32 also `@scure/bip32`, `@noble/curves`) are served
 * from node_modules as installed, named in an import map as a bundler would
 * resolve them. Chromium is CHROMIUM_PATH, else Debian's headless shell (what
 * .ci/run installs), else Debian's full browser; skipped only when none is there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHROMIUM = [process.env.CHROMIUM_PATH ?? '', '/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => file !== '' && existsSync(file));
const distSrc = fileURLToPath(new URL('../src/', import.meta.url));

/** Each package's folder as Node resolves it from the module that imports it. */
const fromCore = createRequire(join(distSrc, 'index.js'));
const bip32Entry = fromCore.resolve('@scure/bip32');
const PACKAGES: Record<string, string> = {
  '@scure/base': dirname(fromCore.resolve('@scure/base')),
  '@noble/hashes': dirname(fromCore.resolve('@noble/hashes/sha2.js')),
  '@scure/bip32': dirname(bip32Entry),
  '@noble/curves': dirname(createRequire(bip32Entry).resolve('@noble/curves/secp256k1.js')),
};
const IMPORT_MAP = JSON.stringify({
  imports: {
    '@scure/base': '/pkg/@scure/base/index.js',
    '@scure/bip32': '/pkg/@scure/bip32/index.js',
    '@noble/hashes/': '/pkg/@noble/hashes/',
    '@noble/curves/': '/pkg/@noble/curves/',
  },
});

const PAGE = `<!doctype html><meta charset="utf-8"><body>pending</body>
<script type="importmap">${IMPORT_MAP}</script>
<script>window.addEventListener('error', (e) => { document.body.textContent = 'ERROR ' + (e.message || e.type); }, true);</script>
<script type="module">
import * as core from '/src/browser.js';
const out = {};
out.minor = core.toMinorUnits('0.1', 'EUR');
out.big = core.toMinorUnitsBig('123456789.123456789012345678', 'ETH').toString();
out.format = core.formatMinorUnits(1n, 'BTC');
out.bech32 = core.validateBtcAddress('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
out.base58 = core.validateBtcAddress('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa').type;
out.typo = core.validateBtcAddress('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb').valid;
out.css = core.partnerCss({ primaryFill: '#FF0000', backgroundColor: '#ffffff' });
out.problems = core.validateWidgetSettings({ partner_token: 't', from_amount: 5, lang: 'EN' }).map((p) => p.field + '/' + p.rule);
const params = { target_element: 'w', partner_token: 't', partner_operation_id: 'Заказ №42 ☕', timestamp: 1700000000000, signature: 'ab'.repeat(64) };
const url = core.buildLandingUrl('https://pay.example/landing', { params, callbacks: { success: 'https://s.example/ok', fail: 'https://s.example/no' } });
const parsed = core.parseLandingUrl(url, { validateParams: true });
out.landing = parsed.ok ? parsed.payload.params.partner_operation_id : parsed.problems;
out.amount = core.validateSettings('widget', { partner_token: 't', partner_secret: 's', default_amount: '30.5', default_fiat_currency: 'BHD' }).values.default_amount;
out.schemaPlugins = Object.keys(core.SETTINGS_SCHEMA.plugins);
// Not in the browser entry (the key stays on the server), but node-free all the same: BIP84's first address.
const bip32 = await import('/src/bip32/index.js');
out.bip32 = bip32.deriveAddresses('zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs')[0].address;
document.body.textContent = JSON.stringify(out);
</script>`;

test(
  'the domain modules run in Chromium',
  { skip: CHROMIUM ? false : 'no Chromium installed (CHROMIUM_PATH, /usr/bin/chromium-headless-shell, /usr/bin/chromium)' },
  async () => {
    const server = createServer((req, res) => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      if (path === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
        return;
      }
      const pkg = /^\/pkg\/(@[a-z]+\/[a-z0-9]+)\/(.*)$/.exec(path);
      const root = pkg === null ? distSrc : PACKAGES[pkg[1]!];
      const file = root === undefined ? '' : normalize(join(root, pkg === null ? path.replace(/^\/src\//, '') : pkg[2]!));
      if ((pkg === null && !path.startsWith('/src/')) || root === undefined || !file.startsWith(root) || !existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'application/octet-stream' }).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const profile = mkdtempSync(join(tmpdir(), 'c2c-chromium-'));
    try {
      const dom = await new Promise<string>((resolve, reject) => {
        execFile(
          CHROMIUM!,
          [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            `--user-data-dir=${profile}`,
            '--virtual-time-budget=10000',
            '--dump-dom',
            `http://127.0.0.1:${port}/`,
          ],
          { timeout: 90_000, maxBuffer: 10 * 1024 * 1024 },
          (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
        );
      });
      const body = /<body>([\s\S]*)<\/body>/.exec(dom)?.[1] ?? dom;
      const text = body
        .replace(/<script[\s\S]*?<\/script>/g, '')
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&')
        .trim();
      assert.ok(text.startsWith('{'), `page did not finish: ${text.slice(0, 500)}`);
      const out = JSON.parse(text);
      assert.equal(out.minor, 10);
      assert.equal(out.big, '123456789123456789012345678');
      assert.equal(out.format, '0.00000001');
      assert.deepEqual(out.bech32, { valid: true, network: 'mainnet', type: 'p2wpkh', encoding: 'bech32', witnessVersion: 0 });
      assert.equal(out.base58, 'p2pkh');
      assert.equal(out.typo, false);
      assert.equal(out.css, '.widgetColor {\n  --primaryFill: #ff0000;\n}\n');
      assert.deepEqual(out.problems, ['target_element/required', 'timestamp/required', 'signature/required', 'from_amount/requires', 'lang/lang']);
      assert.equal(out.landing, 'Заказ №42 ☕');
      assert.equal(out.amount, '30.500');
      assert.deepEqual(out.schemaPlugins, ['checkout', 'widget']);
      assert.equal(out.bip32, 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    } finally {
      server.close();
      rmSync(profile, { recursive: true, force: true });
    }
  },
);

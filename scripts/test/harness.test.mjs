// Pieces of the local-store harness that decide things without booting
// WordPress: which WordPress build is newest, where WooCommerce comes from,
// what the sandbox printed.
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { compareWordPressVersions, listNpmWordPressBuilds, wpVersionFromPhp } from '../lib/find-wordpress.mjs';
import { findWooCommerce, pluginHeaders } from '../lib/find-woocommerce.mjs';
import { freePort, isPortFree } from '../lib/ports.mjs';
import { parseSandboxAddresses, pickAddress, startSandbox } from '../lib/sandbox.mjs';

describe('WordPress versions', () => {
  test('pre-releases sort before their release and after the previous one', () => {
    const sorted = ['6.5.5', '6.7-alpha-58716', '6.6-RC3', '6.6', '6.6-beta2', '6.10'].sort(compareWordPressVersions);
    assert.deepEqual(sorted, ['6.5.5', '6.6-beta2', '6.6-RC3', '6.6', '6.7-alpha-58716', '6.10']);
  });

  test('reads $wp_version', () => {
    assert.equal(wpVersionFromPhp("<?php\n$wp_version = '6.7-alpha-58716';\n"), '6.7-alpha-58716');
    assert.throws(() => wpVersionFromPhp('<?php'), /No \$wp_version/);
  });

  test('the npm builds are listed newest first, each with its static files', async () => {
    const builds = await listNpmWordPressBuilds();
    assert.ok(builds.length > 0, '@wp-playground/wordpress-builds is a dev dependency');
    for (let i = 1; i < builds.length; i++) {
      assert.ok(compareWordPressVersions(builds[i - 1].version, builds[i].version) >= 0);
    }
    assert.match(builds[0].version, /^\d+\.\d+/);
  });
});

describe('findWooCommerce', () => {
  test('WOOCOMMERCE_DIR must hold woocommerce.php', async () => {
    await assert.rejects(findWooCommerce({ env: { WOOCOMMERCE_DIR: tmpdir() } }), /has no woocommerce\.php/);
  });

  test('WOOCOMMERCE_DIR wins and its headers are read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'c2c-wc-'));
    try {
      await writeFile(join(dir, 'woocommerce.php'), '<?php\n/**\n * Plugin Name: WooCommerce\n * Version: 9.8.3\n * Requires at least: 6.6\n */\n');
      const found = await findWooCommerce({ env: { WOOCOMMERCE_DIR: dir } });
      assert.deepEqual(found, { found: true, dir, source: 'WOOCOMMERCE_DIR', version: '9.8.3', requiresWordPress: '6.6' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('offline without a cache it says where to put WooCommerce', async () => {
    const cacheDir = join(tmpdir(), 'c2c-no-such-cache', 'woocommerce');
    const found = await findWooCommerce({ online: false, env: {}, cacheDir });
    assert.equal(found.found, false);
    assert.match(found.message, /WITHOUT WooCommerce/);
    assert.ok(found.message.includes(cacheDir), found.message);
    assert.match(found.message, /WOOCOMMERCE_DIR/);
  });

  test('plugin headers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'c2c-h-'));
    try {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'p.php'), "<?php\n/**\n * Plugin Name: X\n * Version: 1.0.0\n * Requires at least: 6.2\n */\ndefine( 'A', 1 );\n");
      const headers = pluginHeaders(join(dir, 'p.php'));
      assert.equal(headers['Plugin Name'], 'X');
      assert.equal(headers.Version, '1.0.0');
      assert.equal(headers['Requires at least'], '6.2');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('sandbox addresses', () => {
  const printed = [
    'base_url: http://127.0.0.1:8787',
    'widget_script_url: http://127.0.0.1:8787/widget.js',
    'dashboard_url: http://127.0.0.1:8787/dashboard',
    'callback_ip: 127.0.0.1',
    'ready',
  ];
  test('labelled URLs are collected', () => {
    const urls = parseSandboxAddresses(printed, 'http://127.0.0.1:8787');
    assert.equal(urls['widget script url'], 'http://127.0.0.1:8787/widget.js');
    assert.equal(pickAddress(urls, ['dashboard'], 'x'), 'http://127.0.0.1:8787/dashboard');
    assert.equal(pickAddress(urls, ['nothing'], 'fallback'), 'fallback');
  });
});

describe('ports', () => {
  test('a port in use is skipped', async () => {
    const { createServer } = await import('node:net');
    const server = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const busy = server.address().port;
    try {
      assert.equal(await isPortFree(busy), false);
      assert.notEqual(await freePort(busy, 5), busy);
    } finally {
      server.close();
    }
  });
});

describe('sandbox process', () => {
  test('the partner secret reaches the sandbox through a private file: not on its command line, not in sandbox.log', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'c2c-harness-'));
    const secret = 'harness-secret-5e7c1a9b';
    const logFile = join(dir, 'logs', 'sandbox.log');
    const sandbox = await startSandbox({
      port: await freePort(),
      partner: { token: 'harness-partner', secret, callbackUrl: 'http://127.0.0.1:9/cb' },
      logFile,
      dataDir: join(dir, 'data'),
    });
    try {
      assert.ok(sandbox, 'the sandbox is built (npm run build)');
      const cmdline = await readFile(`/proc/${sandbox.pid}/cmdline`, 'utf8').catch(() => sandbox.child.spawnargs.join('\0'));
      assert.match(cmdline, /--partners-file/);
      assert.doesNotMatch(cmdline, new RegExp(secret));
      assert.equal((await stat(join(dir, 'data', 'partners.json'))).mode & 0o077, 0, 'only the owner can read the partners file');
      const home = await fetch(`${sandbox.url}/dashboard/api/state`);
      assert.equal(home.status, 200);
      assert.deepEqual(
        (await home.json()).partners.map((p) => p.token),
        ['harness-partner'],
      );
    } finally {
      await sandbox?.stop();
    }
    const log = await readFile(logFile, 'utf8');
    assert.match(log, /partner: harness-partner/);
    assert.doesNotMatch(log, new RegExp(secret));
    await rm(dir, { recursive: true, force: true });
  });
});

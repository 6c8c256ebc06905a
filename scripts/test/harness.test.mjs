// Pieces of the local-store harness that decide things without booting
// WordPress: which WordPress build is newest, where WooCommerce comes from,
// what the sandbox printed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { claimedNewestPair, shortOfClaim } from '../lib/claimed-pair.mjs';
import { compareWordPressVersions, listNpmWordPressBuilds, wpVersionFromPhp } from '../lib/find-wordpress.mjs';
import { findWooCommerce, pluginHeaders } from '../lib/find-woocommerce.mjs';
import { detectNative } from '../lib/native/detect.mjs';
import { startNginx } from '../lib/native/nginx.mjs';
import { startPhpFpm } from '../lib/native/php-fpm.mjs';
import { wpConfig } from '../lib/native/site.mjs';
import { freePort, isPortFree } from '../lib/ports.mjs';
import { parseSandboxAddresses, pickAddress, startSandbox } from '../lib/sandbox.mjs';

describe('servers the harness starts', () => {
  // A runner killed by SIGKILL runs no exit handler; its servers must not run on (scripts/lib/process.mjs).
  test('die with the process that started them, even one killed by SIGKILL', { skip: process.platform !== 'linux' && 'Linux only' }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'c2c-orphan-'));
    const starter = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { spawnLogged } from ${JSON.stringify(new URL('../lib/process.mjs', import.meta.url).href)};
         console.log(spawnLogged('sleep', ['300'], { logFile: ${JSON.stringify(join(dir, 'sleep.log'))} }).pid);
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [line] = await once(starter.stdout, 'data');
    const pid = Number(String(line).trim());
    // Running (not a zombie awaiting its new parent's wait()).
    const running = () => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    try {
      assert.ok(running(), 'the server runs while its starter does');
      starter.kill('SIGKILL');
      const deadline = Date.now() + 5000;
      while (running() && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(running(), false, `sleep ${pid} still runs after its starter was killed`);
    } finally {
      if (running()) {
        process.kill(pid, 'SIGKILL');
      }
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('two web servers behind one nginx (startStore servers: 2)', () => {
  // The two-server bench (plugins/checkout/bench/scale-two-servers.ts) rests on this: two PHP-FPM
  // masters, each with its own folders and OPcache, both serving, each answer naming its server.
  test(
    'each master answers with its own folders; requests alternate; the header names the one that answered',
    { skip: !detectNative().available && 'no native runtime' },
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'c2c-servers-'));
      const root = join(dir, 'root');
      await mkdir(join(root, 'wp-includes', 'images'), { recursive: true });
      await writeFile(join(root, 'wp-includes', 'images', 'blank.gif'), 'GIF89a');
      await writeFile(
        join(root, 'index.php'),
        `<?php echo json_encode( array( 'server' => getenv( 'CARD2CRYPTO_SERVER' ), 'uploads' => getenv( 'CARD2CRYPTO_UPLOADS' ), 'temp' => sys_get_temp_dir(), 'upload_tmp' => ini_get( 'upload_tmp_dir' ), 'pid' => getmypid(), 'opcache' => function_exists( 'opcache_get_status' ) ) );`,
      );
      const stops = [];
      try {
        const servers = [];
        for (const name of ['server-1', 'server-2']) {
          const fpm = await startPhpFpm({
            dir: join(dir, name),
            socketDir: dir,
            logDir: join(dir, 'logs', name),
            server: { name, tempDir: join(dir, name), uploads: `wp-content/uploads-${name}` },
          });
          stops.push(fpm.stop);
          servers.push([name, fpm.socket, fpm.pid]);
        }
        assert.notEqual(servers[0][1], servers[1][1], 'a socket each');
        const port = await freePort(9890);
        const web = await startNginx({ dir, logDir: join(dir, 'logs'), port, root, fpmServers: servers.map(([name, socket]) => [name, socket]) }).catch(
          async (e) => {
            console.log(await readFile(join(dir, 'logs', 'nginx-error.log'), 'utf8'));
            throw e;
          },
        );
        stops.push(web.stop);
        const seen = new Map();
        for (let i = 0; i < 6; i++) {
          const response = await fetch(`${web.url}/index.php`);
          const body = await response.json();
          assert.equal(response.headers.get('x-card2crypto-server'), body.server, 'the header names the server that answered');
          seen.set(body.server, body);
        }
        assert.deepEqual([...seen.keys()].sort(), ['server-1', 'server-2'], 'both served');
        for (const [name] of servers) {
          const body = seen.get(name);
          assert.equal(body.temp, join(dir, name, 'tmp'));
          assert.equal(body.upload_tmp, join(dir, name, 'uploads-tmp'));
          assert.equal(body.uploads, `wp-content/uploads-${name}`);
        }
        // One server's site reads its own uploads folder from the pool (UPLOADS, relative to the site).
        assert.match(wpConfig({ url: 'http://x', dbSocket: '/s', salts: {}, serverUploads: true }), /define\( 'UPLOADS', getenv\( 'CARD2CRYPTO_UPLOADS' \) \)/);
        assert.doesNotMatch(wpConfig({ url: 'http://x', dbSocket: '/s', salts: {} }), /UPLOADS/, 'one server: wp-config as before');
      } finally {
        for (const stop of stops.reverse()) {
          await stop().catch(() => {});
        }
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('the newest pair the plugins claim', () => {
  test("is read from the checkout's readme and header, and a pair is measured against it", () => {
    const claimed = claimedNewestPair();
    assert.match(claimed.wordpress, /^\d+\.\d+/, 'readme.txt says "Tested up to"');
    assert.match(claimed.woocommerce, /^\d+\.\d+/, 'the main file says "WC tested up to"');
    const at = { wordpress: '7.1', woocommerce: '11.0' };
    const pair = (wordpress, woocommerce) => ({
      wordpress: { version: wordpress, source: 'cache' },
      woocommerce: woocommerce ? { found: true, version: woocommerce } : { found: false, message: 'WooCommerce was not found.' },
    });
    assert.deepEqual(shortOfClaim(pair('7.1', '11.0.1'), at), []);
    assert.deepEqual(shortOfClaim(pair('7.2.1', '11.1.0'), at), []);
    // The npm nightly and an older WooCommerce: each named.
    assert.deepEqual(shortOfClaim(pair('6.7-alpha-58716', '9.8.5'), at), [
      'WordPress 6.7-alpha-58716 (from cache) is older than "Tested up to: 7.1".',
      'WooCommerce 9.8.5 is older than "WC tested up to: 11.0".',
    ]);
    // A pre-release of the claimed version does not prove it.
    assert.equal(shortOfClaim(pair('7.1-RC1', '11.0.1'), at).length, 1);
    assert.deepEqual(shortOfClaim(pair('7.1', null), at), ["No WooCommerce: the checkout's specs skip. WooCommerce was not found."]);
    assert.deepEqual(shortOfClaim({ error: 'No WordPress.' }, at), ['No WordPress.']);
  });
});

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
      partner: { token: 'harness-partner', secret, callbackUrl: 'http://127.0.0.1:9/cb', name: 'Harness & Sons' },
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
      // The store's name reaches the sandbox with the partner: its landing page tells the buyer whom they pay.
      assert.match(await (await fetch(`${sandbox.url}/landing`)).text(), /Payment to <strong>Harness &amp; Sons<\/strong>/);
    } finally {
      await sandbox?.stop();
    }
    const log = await readFile(logFile, 'utf8');
    assert.match(log, /partner: harness-partner/);
    assert.doesNotMatch(log, new RegExp(secret));
    await rm(dir, { recursive: true, force: true });
  });
});

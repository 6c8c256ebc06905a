// WordPress and WooCommerce from wordpress.org (scripts/lib/wporg.mjs, through
// findWordPress and findWooCommerce), against a local fake of wordpress.org
// (scripts/lib/fake-wporg.mjs) serving the real endpoints' shapes from
// 127.0.0.1: what a user sees, what the cache holds after, and that nothing
// half-downloaded stays. Small release folders made here; the real releases
// are downloaded and booted by first-start.test.mjs.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startFakeWordPressOrg } from '../lib/fake-wporg.mjs';
import { findWordPress, installedWordPressVersion } from '../lib/find-wordpress.mjs';
import { findWooCommerce } from '../lib/find-woocommerce.mjs';
import { freePort } from '../lib/ports.mjs';
import { clearStaleDownloads, pluginChecksumProblems } from '../lib/wporg.mjs';

let root;
let fake;
const releases = { wordpress: [], woocommerce: [] };

async function makeWordPress(version) {
  const dir = join(root, 'releases', `wordpress-${version}`);
  await mkdir(join(dir, 'wp-includes'), { recursive: true });
  await mkdir(join(dir, 'wp-admin'), { recursive: true });
  await writeFile(join(dir, 'wp-includes', 'version.php'), `<?php\n$wp_version = '${version}';\n`);
  await writeFile(join(dir, 'index.php'), `<?php\n// WordPress ${version}\n${'/* padding */\n'.repeat(2000)}`);
  await writeFile(join(dir, 'wp-admin', 'index.php'), '<?php\n');
  releases.wordpress.push({ version, dir });
}

async function makeWooCommerce(version, requires) {
  const dir = join(root, 'releases', `woocommerce-${version}`);
  await mkdir(join(dir, 'includes'), { recursive: true });
  await writeFile(join(dir, 'woocommerce.php'), `<?php\n/**\n * Plugin Name: WooCommerce\n * Version: ${version}\n * Requires at least: ${requires}\n */\n`);
  await writeFile(join(dir, 'readme.txt'), `=== WooCommerce ===\nStable tag: ${version}\n`);
  await writeFile(join(dir, 'includes', 'class-wc.php'), `<?php\nclass WC {}\n${'// padding\n'.repeat(3000)}`);
  releases.woocommerce.push({ version, dir });
}

/** A fresh cache and the environment pointing at the fake (fast timeouts). */
async function freshCache(extra = {}) {
  const cache = await mkdtemp(join(root, 'cache-'));
  const env = { ...fake.env(), CARD2CRYPTO_WPORG_TIMEOUT_MS: '400', ...extra };
  const events = [];
  return {
    cache,
    env,
    events,
    wordpressOptions: { env, cacheDir: join(cache, 'wordpress'), progress: (event) => events.push(event) },
    woocommerceOptions: { env, cacheDir: join(cache, 'woocommerce'), progress: (event) => events.push(event) },
  };
}

/** Every name under the cache's two folders (hidden ones included): nothing half-written may stay. */
function cacheEntries(cache) {
  return ['wordpress', 'woocommerce'].flatMap((kind) => (existsSync(join(cache, kind)) ? readdirSync(join(cache, kind)).map((n) => `${kind}/${n}`) : []));
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'c2c-wporg-'));
  await makeWordPress('7.1');
  await makeWordPress('6.6.7');
  await makeWooCommerce('11.0.1', '6.9');
  await makeWooCommerce('10.3.2', '6.7');
  await makeWooCommerce('9.8.5', '6.6');
  fake = await startFakeWordPressOrg(releases);
});
after(async () => {
  await fake?.stop();
  await rm(root, { recursive: true, force: true });
});

describe('online: the newest pair from wordpress.org, verified and cached', () => {
  test('an empty cache gets the newest WordPress and the newest WooCommerce that fits, each verified', async () => {
    const { cache, events, wordpressOptions, woocommerceOptions } = await freshCache();
    const wordpress = await findWordPress(wordpressOptions);
    assert.deepEqual([wordpress.version, wordpress.source, wordpress.notice], ['7.1', 'wordpress.org, verified', undefined]);
    assert.equal(installedWordPressVersion(join(cache, 'wordpress', '7.1')), '7.1');
    const woocommerce = await findWooCommerce({ wordpressVersion: wordpress.version, ...woocommerceOptions });
    assert.deepEqual([woocommerce.found, woocommerce.version, woocommerce.source], [true, '11.0.1', 'wordpress.org, verified']);
    assert.equal(woocommerce.dir, join(cache, 'woocommerce', '11.0.1'));
    assert.deepEqual(cacheEntries(cache).sort(), ['woocommerce/11.0.1', 'wordpress/7.1']);
    // A progress line for each download, bytes and percent, up to 100 %.
    for (const name of ['WordPress 7.1', 'WooCommerce 11.0.1']) {
      const own = events.filter((e) => e.label.includes(name));
      assert.match(own[0].label, new RegExp(`^Downloading ${name} from 127\\.0\\.0\\.1:\\d+$`));
      const last = own.at(-1);
      assert.ok(last.done && last.received === last.total && last.total > 0, JSON.stringify(last));
    }
  });

  test('the second time the cache answers, without the network', async () => {
    const { wordpressOptions, woocommerceOptions } = await freshCache();
    await findWordPress(wordpressOptions);
    await findWooCommerce({ wordpressVersion: '7.1', ...woocommerceOptions });
    const asked = fake.requests.length;
    const wordpress = await findWordPress(wordpressOptions);
    const woocommerce = await findWooCommerce({ wordpressVersion: '7.1', ...woocommerceOptions });
    assert.deepEqual([wordpress.version, wordpress.source, woocommerce.version, woocommerce.source], ['7.1', 'cache', '11.0.1', 'cache']);
    assert.equal(fake.requests.length, asked, 'no request to wordpress.org');
  });

  test('WP_VERSION=6.6 is the newest 6.6.x wordpress.org offers; WP_VERSION=latest asks even when the cache has one', async () => {
    const { cache, wordpressOptions } = await freshCache({ WP_VERSION: '6.6' });
    const found = await findWordPress(wordpressOptions);
    assert.deepEqual([found.version, found.dir], ['6.6.7', join(cache, 'wordpress', '6.6.7')]);
    const latest = await findWordPress({ ...wordpressOptions, env: { ...wordpressOptions.env, WP_VERSION: 'latest' } });
    assert.deepEqual([latest.version, latest.source], ['7.1', 'wordpress.org, verified']);
  });

  test('a WordPress too old for the newest WooCommerce gets the newest older line that fits, said so', async () => {
    const { cache, woocommerceOptions } = await freshCache();
    const asked = fake.requests.length;
    const found = await findWooCommerce({ wordpressVersion: '6.6.7', ...woocommerceOptions });
    assert.deepEqual([found.found, found.version], [true, '9.8.5']);
    assert.equal(found.note, 'WooCommerce 11.0.1 needs WordPress 6.9, 10.3.2 needs WordPress 6.7; this site runs WordPress 6.6.7, so 9.8.5');
    // 11.0.1's "Requires at least" came from the plugin information API: not downloaded.
    assert.deepEqual(
      fake.requests.slice(asked).filter((r) => r.endsWith('.zip')),
      ['/downloads/plugin/woocommerce.10.3.2.zip', '/downloads/plugin/woocommerce.9.8.5.zip'],
    );
    assert.deepEqual(cacheEntries(cache).sort(), ['woocommerce/10.3.2', 'woocommerce/9.8.5']);
  });

  test('no WooCommerce on wordpress.org fits: the store starts without it, told what to do', async () => {
    const { woocommerceOptions } = await freshCache({ WC_VERSION: '11.0' });
    const found = await findWooCommerce({ wordpressVersion: '6.6.7', ...woocommerceOptions });
    assert.equal(found.found, false);
    assert.match(found.message, /^No WooCommerce on wordpress\.org runs on WordPress 6\.6\.7 .*11\.0\.1 needs WordPress 6\.9.*WITHOUT WooCommerce/);
    assert.match(found.message, /WP_VERSION=latest.*WC_VERSION=<x\.y> npm start/);
  });
});

describe('failures: said plainly, nothing half-downloaded kept', () => {
  test('a corrupt WordPress zip fails its published SHA-1, is deleted and named', async () => {
    const { cache, wordpressOptions } = await freshCache();
    fake.fault('/downloads/release/wordpress-7.1.zip', 'corrupt');
    try {
      await assert.rejects(
        findWordPress(wordpressOptions),
        /^Error: wordpress-7\.1\.zip from 127\.0\.0\.1:\d+ failed verification: its SHA1 is [0-9a-f]{40}, wordpress\.org publishes [0-9a-f]{40} \(.*wordpress-7\.1\.zip\.sha1\); the download was deleted/,
      );
    } finally {
      fake.fault('/downloads/release/wordpress-7.1.zip', null);
    }
    assert.deepEqual(cacheEntries(cache), []);
  });

  test('a corrupt WooCommerce zip does not unpack, is deleted and named', async () => {
    const { cache, woocommerceOptions } = await freshCache();
    fake.fault('/downloads/plugin/woocommerce.11.0.1.zip', 'corrupt');
    try {
      await assert.rejects(
        findWooCommerce({ wordpressVersion: '7.1', ...woocommerceOptions }),
        /woocommerce\.11\.0\.1\.zip could not be unpacked \(.+\): a corrupt download, deleted/,
      );
    } finally {
      fake.fault('/downloads/plugin/woocommerce.11.0.1.zip', null);
    }
    assert.deepEqual(cacheEntries(cache), []);
  });

  test('a WooCommerce file that differs from the plugin checksums fails verification, named by file', async () => {
    const { cache, woocommerceOptions } = await freshCache();
    fake.fault('/downloads/plugin/woocommerce.11.0.1.zip', 'tamper');
    try {
      await assert.rejects(
        findWooCommerce({ wordpressVersion: '7.1', ...woocommerceOptions }),
        /woocommerce\.11\.0\.1\.zip from 127\.0\.0\.1:\d+ failed verification against .*plugin-checksums\/woocommerce\/11\.0\.1\.json \(woocommerce\.php: sha256 does not match\); the download was deleted/,
      );
    } finally {
      fake.fault('/downloads/plugin/woocommerce.11.0.1.zip', null);
    }
    assert.deepEqual(cacheEntries(cache), []);
  });

  test('a version wordpress.org does not have is a 404, said as such', async () => {
    const { cache, wordpressOptions, woocommerceOptions } = await freshCache({ WP_VERSION: '7.9.9', WC_VERSION: '99.1' });
    await assert.rejects(
      findWordPress(wordpressOptions),
      /WordPress 7\.9\.9 is not on wordpress\.org \(.*wordpress-7\.9\.9\.zip\.sha1 and \.md5 answered 404\)/,
    );
    const woocommerce = await findWooCommerce({ wordpressVersion: '7.1', ...woocommerceOptions });
    assert.equal(woocommerce.found, false);
    assert.match(woocommerce.message, /^WC_VERSION=99\.1: wordpress\.org has no such WooCommerce \(its newest: 11\.0\.1, 10\.3\.2, 9\.8\.5\)/);
    assert.deepEqual(cacheEntries(cache), []);
  });

  test('an API that never answers: no hang, one line on what was not reachable and what fixes it, the npm nightly instead', async () => {
    const { cache, wordpressOptions, woocommerceOptions } = await freshCache();
    fake.fault('/api/core/version-check/1.7/', 'hang');
    fake.fault('/api/plugins/info/1.2/', 'hang');
    const started = Date.now();
    try {
      const wordpress = await findWordPress(wordpressOptions);
      assert.match(wordpress.source, /^@wp-playground\/wordpress-builds/);
      assert.match(
        wordpress.notice,
        /^wordpress\.org is not reachable \(127\.0\.0\.1:\d+ did not answer within 0\.4 s\): WordPress \S+, the \S+ build from the npm package @wp-playground\/wordpress-builds, instead\. For the newest from wordpress\.org run npm start online, or put a WordPress at .*wordpress\/<version>\/ \(or set WORDPRESS_DIR\)\.$/,
      );
      assert.ok(!wordpress.notice.includes('\n'), 'one line');
      const woocommerce = await findWooCommerce({ wordpressVersion: '7.1', ...woocommerceOptions });
      assert.equal(woocommerce.found, false);
      assert.match(woocommerce.message, /WITHOUT WooCommerce/);
      assert.match(woocommerce.message, /wordpress\.org is not reachable \(127\.0\.0\.1:\d+ did not answer within 0\.4 s\): run npm start online/);
    } finally {
      fake.fault('/api/core/version-check/1.7/', null);
      fake.fault('/api/plugins/info/1.2/', null);
    }
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    assert.deepEqual(cacheEntries(cache), []);
  });

  test('a download that stalls half way is abandoned and deleted', async () => {
    const { cache, wordpressOptions } = await freshCache();
    fake.fault('/downloads/release/wordpress-7.1.zip', 'stall');
    try {
      const wordpress = await findWordPress(wordpressOptions);
      assert.match(wordpress.notice, /^wordpress\.org is not reachable \(127\.0\.0\.1:\d+ did not answer within 0\.4 s\)/);
    } finally {
      fake.fault('/downloads/release/wordpress-7.1.zip', null);
    }
    assert.deepEqual(cacheEntries(cache), []);
  });

  test('no network at all (nothing listening): the cache, else the nightly, at once', async () => {
    const port = await freePort(47000);
    const env = { CARD2CRYPTO_WPORG_API_URL: `http://127.0.0.1:${port}`, CARD2CRYPTO_WPORG_DOWNLOADS_URL: `http://127.0.0.1:${port}` };
    const cache = await mkdtemp(join(root, 'cache-'));
    const wordpress = await findWordPress({ env, cacheDir: join(cache, 'wordpress'), progress: () => {} });
    assert.match(wordpress.notice, new RegExp(`^wordpress\\.org is not reachable \\(127\\.0\\.0\\.1:${port} refused the connection\\)`));
    const woocommerce = await findWooCommerce({ wordpressVersion: wordpress.version, env, cacheDir: join(cache, 'woocommerce'), progress: () => {} });
    assert.match(woocommerce.message, /^WooCommerce not found: the store starts WITHOUT WooCommerce/);
    assert.ok(woocommerce.message.includes(join(cache, 'woocommerce', '<version>')), woocommerce.message);
  });

  test('offline on purpose (CARD2CRYPTO_OFFLINE=1) asks nothing and says how to go online', async () => {
    const { wordpressOptions, woocommerceOptions } = await freshCache({ CARD2CRYPTO_OFFLINE: '1', WP_VERSION: 'latest' });
    const asked = fake.requests.length;
    const wordpress = await findWordPress(wordpressOptions);
    assert.match(wordpress.notice, /^offline on purpose \(--offline or CARD2CRYPTO_OFFLINE=1\): .*run npm start online without --offline/);
    const woocommerce = await findWooCommerce({ wordpressVersion: wordpress.version, ...woocommerceOptions });
    assert.match(woocommerce.message, /offline on purpose .*: run npm start online without --offline/);
    assert.equal(fake.requests.length, asked);
  });
});

describe('the cache stays whole', () => {
  test("a killed download's leftovers are cleared; a live process's are not; neither is ever used", async () => {
    const cache = await mkdtemp(join(root, 'cache-'));
    const dir = join(cache, 'wordpress');
    // A dead process's unpacked WordPress, complete but never published.
    const dead = join(dir, '.partial-unpack-7.1-999999');
    await mkdir(join(dead, 'wp-includes'), { recursive: true });
    await writeFile(join(dead, 'wp-includes', 'version.php'), "<?php\n$wp_version = '7.1';\n");
    const mine = join(dir, `.partial-unpack-6.6.7-${process.ppid}`);
    await mkdir(mine, { recursive: true });
    const offline = await findWordPress({ env: { CARD2CRYPTO_OFFLINE: '1' }, cacheDir: dir, progress: () => {} });
    assert.match(offline.source, /wordpress-builds/, 'a .partial folder is never a cached WordPress');
    await clearStaleDownloads(dir);
    assert.deepEqual(readdirSync(dir), [`.partial-unpack-6.6.7-${process.ppid}`]);
  });

  test('plugin checksums as WP-CLI checks them: missing, added and changed files; a list of accepted digests; readme.txt soft', async () => {
    const dir = await mkdtemp(join(root, 'plugin-'));
    await writeFile(join(dir, 'a.php'), 'a');
    await writeFile(join(dir, 'b.php'), 'b');
    await writeFile(join(dir, 'readme.txt'), 'changed readme');
    const sha = async (text) => (await import('node:crypto')).createHash('sha256').update(text).digest('hex');
    const files = {
      'a.php': { sha256: [await sha('x'), await sha('a')] },
      'readme.txt': { sha256: await sha('readme') },
      'gone.php': { md5: 'x' },
    };
    assert.deepEqual(await pluginChecksumProblems(dir, files), ['gone.php: missing', 'b.php: not in the published checksums (added)']);
    files['b.php'] = { md5: '0'.repeat(32) };
    assert.deepEqual(await pluginChecksumProblems(dir, files), ['gone.php: missing', 'b.php: md5 does not match']);
  });
});

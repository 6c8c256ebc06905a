// The runtime choice and the cache layout (wordpress/<version>/,
// woocommerce/<version>/), decided without booting anything (offline here:
// wordpress.org is scripts/test/wporg.test.mjs's); and the native
// site's wp-config.php. Booting is proven by the PHP WordPress-level tests
// and the e2e suite.
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findWordPress, versionMatches } from '../lib/find-wordpress.mjs';
import { findWooCommerce, listCachedWooCommerce, withResetHint } from '../lib/find-woocommerce.mjs';
import { detectNative } from '../lib/native/detect.mjs';
import { NETWORK_SETUP_CONSTANT, phpLiteral, wpConfig } from '../lib/native/site.mjs';
import { chooseRuntime } from '../lib/runtime.mjs';

let cache;
before(async () => {
  cache = await mkdtemp(join(tmpdir(), 'c2c-cache-'));
  for (const version of ['6.6.7', '7.1', '7.0.4']) {
    await mkdir(join(cache, 'wordpress', version, 'wp-includes'), { recursive: true });
    await writeFile(join(cache, 'wordpress', version, 'wp-includes', 'version.php'), `<?php\n$wp_version = '${version}';\n`);
  }
  for (const [version, requires] of [
    ['11.0.1', '6.9'],
    ['9.8.5', '6.6'],
    ['10.2.0', '6.7'],
  ]) {
    await mkdir(join(cache, 'woocommerce', version), { recursive: true });
    await writeFile(
      join(cache, 'woocommerce', version, 'woocommerce.php'),
      `<?php\n/**\n * Plugin Name: WooCommerce\n * Version: ${version}\n * Requires at least: ${requires}\n */\n`,
    );
  }
});
after(() => rm(cache, { recursive: true, force: true }));

describe('WordPress from the cache', () => {
  test('the newest version unless WP_VERSION picks one; "6.6" means any 6.6.x', async () => {
    assert.equal((await findWordPress({ env: {}, cacheDir: join(cache, 'wordpress') })).version, '7.1');
    assert.equal((await findWordPress({ env: { WP_VERSION: '6.6' }, cacheDir: join(cache, 'wordpress') })).version, '6.6.7');
    assert.equal((await findWordPress({ env: { WP_VERSION: '7.0' }, cacheDir: join(cache, 'wordpress') })).version, '7.0.4');
  });

  test('an unknown WP_VERSION names what the cache has and where to put it', async () => {
    await assert.rejects(
      findWordPress({ env: { WP_VERSION: '5.9' }, cacheDir: join(cache, 'wordpress'), online: false }),
      /WP_VERSION=5\.9.*7\.1, 7\.0\.4, 6\.6\.7.*wordpress\/5\.9/s,
    );
  });

  test('WORDPRESS_DIR wins, and must be a WordPress', async () => {
    const found = await findWordPress({ env: { WORDPRESS_DIR: join(cache, 'wordpress', '7.0.4') }, cacheDir: join(cache, 'wordpress') });
    assert.deepEqual([found.version, found.source], ['7.0.4', 'WORDPRESS_DIR']);
    await assert.rejects(findWordPress({ env: { WORDPRESS_DIR: cache } }), /has no wp-includes\/version\.php/);
  });

  test('version matching', () => {
    assert.ok(versionMatches('6.6.7', '6.6'));
    assert.ok(versionMatches('7.1', '7.1'));
    assert.ok(!versionMatches('6.60', '6.6'));
    assert.ok(!versionMatches('7.10', '7.1'));
  });
});

describe('WooCommerce from the cache', () => {
  test('listed newest first', async () => {
    assert.deepEqual(
      (await listCachedWooCommerce(join(cache, 'woocommerce'))).map((w) => w.version),
      ['11.0.1', '10.2.0', '9.8.5'],
    );
  });

  test("the newest that runs on the site's WordPress", async () => {
    const pick = (wordpressVersion, env = {}) => findWooCommerce({ wordpressVersion, env, cacheDir: join(cache, 'woocommerce'), online: false });
    assert.equal((await pick('7.1')).version, '11.0.1');
    assert.equal((await pick('6.8.1')).version, '10.2.0');
    assert.equal((await pick('6.6.7')).version, '9.8.5');
    assert.equal((await pick('6.7-alpha-58716')).version, '10.2.0');
    assert.equal((await pick('7.1', { WC_VERSION: '9.8' })).version, '9.8.5');
    const none = await pick('6.5');
    assert.equal(none.found, false);
    assert.match(none.message, /runs on WordPress 6\.5.*9\.8\.5 needs WordPress 6\.6/);
    const unknown = await pick('7.1', { WC_VERSION: '8.0' });
    assert.match(unknown.message, /WC_VERSION=8\.0: no such WooCommerce/);
  });

  test('an older one taken because of the WordPress is said so; a site kept from an earlier start is told about --reset', async () => {
    const pick = (wordpressVersion, env = {}) => findWooCommerce({ wordpressVersion, env, cacheDir: join(cache, 'woocommerce'), online: false });
    assert.equal((await pick('7.1')).note, undefined);
    const older = await pick('6.6.7');
    assert.equal(older.note, 'WooCommerce 11.0.1 needs WordPress 6.9, 10.2.0 needs WordPress 6.7; this site runs WordPress 6.6.7, so 9.8.5');
    // A new site (nothing kept): the note alone.
    assert.equal(withResetHint(older, null, '7.1'), older);
    assert.equal(
      withResetHint(older, '6.6.7', '7.1').note,
      `${older.note}; this site keeps WordPress 6.6.7 from an earlier start: npm start -- --reset starts it again on WordPress 7.1 (its orders and settings are deleted)`,
    );
    // The cache has nothing newer: the newest from wordpress.org.
    assert.match(withResetHint(older, '6.6.7', '6.6.7').note, /: WP_VERSION=latest npm start -- --reset starts it again on the newest WordPress/);
    // None fits: the hint comes right after the headline.
    const none = withResetHint(await pick('6.5'), '6.5', '7.1');
    assert.match(
      none.message.split('\n')[1],
      /^ {2}This site keeps WordPress 6\.5 from an earlier start: npm start -- --reset starts it again on WordPress 7\.1/,
    );
    // The newest fits: nothing to say.
    const newest = await pick('7.1');
    assert.equal(withResetHint(newest, '7.1', '7.1'), newest);
  });
});

describe('runtime choice', () => {
  test("CARD2CRYPTO_RUNTIME wins; unset, the caller's preference; auto follows what is installed", () => {
    assert.equal(chooseRuntime({ env: { CARD2CRYPTO_RUNTIME: 'playground' }, preferred: 'auto' }).runtime, 'playground');
    assert.equal(chooseRuntime({ env: {}, preferred: 'playground' }).runtime, 'playground');
    assert.equal(chooseRuntime({ env: {}, preferred: 'auto' }).runtime, detectNative().available ? 'native' : 'playground');
    assert.throws(
      () => chooseRuntime({ env: { CARD2CRYPTO_RUNTIME: 'docker' }, preferred: 'auto' }),
      /CARD2CRYPTO_RUNTIME=docker: expected one of native, playground/,
    );
    if (!detectNative().available) {
      assert.throws(() => chooseRuntime({ env: { CARD2CRYPTO_RUNTIME: 'native' }, preferred: 'auto' }), /npm run setup:native/);
    }
  });
});

describe('native wp-config.php', () => {
  test('constants are PHP literals, quotes and backslashes escaped', () => {
    assert.equal(phpLiteral(true), 'true');
    assert.equal(phpLiteral(42), '42');
    assert.equal(phpLiteral("it's a \\ path"), "'it\\'s a \\\\ path'");
    const config = wpConfig({
      url: 'http://127.0.0.1:9400',
      dbSocket: '/tmp/x/mariadb.sock',
      salts: { AUTH_KEY: 'k' },
      defines: { CARD2CRYPTO_PARTNER_TOKEN: "t'1" },
    });
    assert.match(config, /define\( 'DB_HOST', 'localhost:\/tmp\/x\/mariadb\.sock' \);/);
    assert.match(config, /define\( 'WP_HOME', 'http:\/\/127\.0\.0\.1:9400' \);/);
    assert.match(config, /define\( 'WP_HTTP_BLOCK_EXTERNAL', true \);/);
    assert.match(config, /define\( 'CARD2CRYPTO_PARTNER_TOKEN', 't\\'1' \);/);
    assert.match(config, /require_once ABSPATH \. 'wp-settings\.php';/);
    assert.doesNotMatch(config, /MULTISITE/, 'one site unless asked');
  });

  test('a multisite network: its constants wait for the install step, every site keeps its own address', () => {
    const config = wpConfig({ url: 'http://127.0.0.1:9881', dbSocket: '/tmp/x/mariadb.sock', salts: {}, multisite: true });
    assert.match(config, new RegExp(`if \\( ! defined\\( '${NETWORK_SETUP_CONSTANT}' \\) \\) \\{\\n\\tdefine\\( 'MULTISITE', true \\);`));
    assert.match(config, /define\( 'SUBDOMAIN_INSTALL', false \);/);
    assert.match(config, /define\( 'DOMAIN_CURRENT_SITE', '127\.0\.0\.1:9881' \);/, 'the port is part of the domain');
    assert.doesNotMatch(config, /WP_HOME|WP_SITEURL/, "a constant would give every site the main site's address");
    assert.ok(config.indexOf('MULTISITE') < config.indexOf("require_once ABSPATH . 'wp-settings.php'"));
  });
});

/**
 * Shared_Store->lock_name_for() on the oldest and newest supported PHP: a
 * named lock of MySQL or MariaDB is one for the whole server, so every lock
 * of the plugin is named per site: "c2c:", the name readable (without
 * "card2crypto_", cut to fit), ":" and 20 hex digits of a SHA-256 of the
 * plugin, the database, the table prefix and the whole name; never over the
 * 64 characters MySQL takes. Two sites of one database (two prefixes), or two
 * databases of one server, never share a lock.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

const BATCH = 'card2crypto_checkout_reconcile_batch';
const hash = (database: string, prefix: string, name: string) =>
  createHash('sha256').update(`card2crypto-checkout\0${database}\0${prefix}\0${name}`).digest('hex').slice(0, 20);

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: lock names per site`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    const names = async (cases: Array<[string, string, string]>): Promise<string[]> =>
      (await php.call(cases.map((c) => ['lock_name_for', ...c]))).map((r) => {
        assert.equal(r.error, undefined, String(r.error));
        return r.value as string;
      });

    test('the readable name, then a hash of the plugin, database, prefix and whole name', async () => {
      const md5 = 'd41d8cd98f00b204e9800998ecf8427e';
      const cases: Array<[string, string, string, string]> = [
        ['wordpress', 'wp_', BATCH, 'checkout_reconcile_batch'],
        ['wordpress', 'wp_', 'card2crypto_checkout_health', 'checkout_health'],
        ['wordpress', 'wp_', 'card2crypto_order_1234', 'order_1234'],
        ['wordpress', 'wp_', 'card2crypto_start_1234', 'start_1234'],
        // The longest names in use (a budget, a callback refusal count) fit whole: 39 characters.
        ['wordpress', 'wp_', `card2crypto_budget_${md5}`, `budget_${md5}`],
        ['wordpress', 'wp_', `card2crypto_cbfail_${md5}`, `cbfail_${md5}`],
        // Only ASCII letters, digits, "_", "." and "-" stay readable; the hash covers the name as given.
        ['wordpress', 'wp_', 'card2crypto_order_7 é;x', 'order_7x'],
        ['wordpress', 'wp_', 'other_card2crypto_lock', 'other_card2crypto_lock'],
        ['', '', '', ''],
      ];
      const got = await names(cases.map(([d, p, n]) => [d, p, n]));
      got.forEach((name, i) => {
        const [database, prefix, lock, readable] = cases[i]!;
        assert.equal(name, `c2c:${readable}:${hash(database, prefix, lock)}`, lock);
        assert.ok(name.length <= 64, `${name}: ${name.length} characters`);
      });
    });

    test('another table prefix (a multisite site, another store in the database) or another database: another lock', async () => {
      const got = await names([
        ['wordpress', 'wp_', BATCH],
        ['wordpress', 'wp_2_', BATCH],
        ['wordpress', 'shop2_', BATCH],
        ['other', 'wp_', BATCH],
        ['wordpress', 'wp_', 'card2crypto_order_12'],
        ['wordpress', 'wp_2_', 'card2crypto_order_12'],
        ['wordpress', 'wp_', 'card2crypto_order_12'],
        // The separators keep database and prefix apart: "ab" + "c" is not "a" + "bc".
        ['ab', 'c', BATCH],
        ['a', 'bc', BATCH],
        ['wordpress', 'wp_', BATCH],
      ]);
      assert.equal(got[9], got[0], 'the same site, the same name');
      assert.equal(got[4], got[6], 'the same order of the same site, the same name');
      const distinct = [got[0], got[1], got[2], got[3], got[4], got[5], got[7], got[8]];
      assert.equal(new Set(distinct).size, distinct.length, distinct.join('\n'));
      assert.ok(!got.includes(BATCH), 'never the old name, global to the server');
    });

    test('a name too long to keep whole is cut to 64 characters, and names alike in their first characters stay apart', async () => {
      const long = `card2crypto_${'x'.repeat(200)}`;
      const got = await names([
        ['wordpress', 'wp_', `${long}a`],
        ['wordpress', 'wp_', `${long}b`],
        ['wordpress'.repeat(30), 'wp_'.repeat(40), `${long}a`],
      ]);
      for (const name of got) {
        assert.equal(name.length, 64, name);
        assert.match(name, /^c2c:x{39}:[0-9a-f]{20}$/);
      }
      assert.equal(new Set(got).size, 3);
    });
  });
}

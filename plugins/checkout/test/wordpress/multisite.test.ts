/**
 * Two shops of one multisite network (issue 36, point 5): WordPress 7.1 as
 * a subdirectory network, WooCommerce active on each shop, both plugins
 * activated for the whole network, on the native runtime (PHP-FPM, nginx,
 * MariaDB). Each step runs as a request to one site of the network does
 * (the harness loads WordPress on the site its path names).
 *
 * - Network activation makes every site's tables under its own prefix; a
 *   site made later gets them when WordPress initialises it.
 * - Each shop's settings, attempts, addresses and index counters, budgets,
 *   named locks and Action Scheduler queue are its own.
 * - One wallet serves one shop: the second shop is refused its addresses,
 *   and its settings page says which shop uses the wallet.
 * - Deleting a site drops its tables and options, and no other site's.
 * - Deleting the plugins from the network removes each site's data only
 *   where that site asked for it (its "Delete data on uninstall" setting).
 *
 * Run alone (it starts a store): `node --test dist/test/wordpress/multisite.test.js`.
 * Skipped where the native runtime is missing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deriveAddresses } from '@card2crypto/core';
import { REPO_DIR } from '../support/php.js';
import { phpStep } from '../support/reconcile-store.js';
import { needsNative, startTestStore, type TestStore } from '../support/test-store.js';

interface Taken {
  order: number;
  partner_operation_id: string;
  address?: string;
  index?: number;
  refused?: string;
}
interface SiteState {
  site: number;
  options: Record<string, unknown>;
  tables: string[];
  pending: Record<string, number>;
}

const STEPS = path.join(REPO_DIR, 'plugins', 'checkout', 'test', 'support', 'multisite-steps.php');
const VECTORS = JSON.parse(readFileSync(path.join(REPO_DIR, 'packages', 'core', 'vectors', 'bip32-addresses.json'), 'utf8')) as {
  valid: Array<{ name: string; input: string }>;
};
const key = (name: string) => VECTORS.valid.find((v) => v.name === name)!.input;
/** Two testnet account keys: two wallets. */
const KEY_A = key('random-vpub-0');
const KEY_B = key('random-vpub-1');
const addressesOf = (k: string) => deriveAddresses(k, { from: 0, count: 3, environment: 'sandbox' }).map((a) => a.address);
const WALLET_A = addressesOf(KEY_A);
const WALLET_B = addressesOf(KEY_B);
/** Both plugins' tables of a site (the widget's: its visitors' budgets, Budget_Table). */
const PLUGIN_TABLES = ['address_counters', 'addresses', 'attempts', 'budgets', 'events', 'operations', 'widget_budgets'];
const tablesOf = (prefix: string) => PLUGIN_TABLES.map((t) => `${prefix}card2crypto_${t}`);
const BATCH = 'card2crypto_checkout_reconcile_batch';
/** The plugin's table version (Tables::DB_VERSION), as the kept site's option holds it. */
const DB_VERSION = /const DB_VERSION\s*=\s*'(\d+)'/.exec(
  readFileSync(path.join(REPO_DIR, 'plugins', 'checkout', 'includes', 'Attempts', 'Tables.php'), 'utf8'),
)![1];

describe('two shops of one multisite network', { skip: needsNative, timeout: 10 * 60_000 }, () => {
  let s: TestStore;
  const SHOP1 = '/';
  const SHOP2 = '/shop2/';
  const SHOP3 = '/shop3/';
  let shop2 = 0;
  let shop3 = 0;
  const step = <T>(site: string, action: string, input: Record<string, unknown> = {}) => phpStep<T>(s, STEPS, action, input, site);
  const tables = () => step<string[]>(SHOP1, 'tables');

  before(async () => {
    s = await startTestStore({ name: 'test-multisite', port: 9881, sandboxPort: 9891, multisite: true });
  });
  after(() => s?.stop());

  test('network activation makes each site its tables; a site made later gets its own at once', async () => {
    shop2 = (await step<{ id: number }>(SHOP1, 'make_site', { path: SHOP2, title: 'Shop two' })).id;
    assert.deepEqual(
      (await tables()).filter((t) => t.startsWith(`wp_${shop2}_`)),
      [],
      'active on the main site only: nothing made for the new site',
    );

    const sitewide = await step<string[]>(SHOP1, 'network_activate');
    assert.deepEqual(sitewide.sort(), ['card2crypto-checkout/card2crypto-checkout.php', 'card2crypto-widget/card2crypto-widget.php']);
    let all = await tables();
    assert.deepEqual(
      all.filter((t) => t.startsWith('wp_card2crypto_')),
      tablesOf('wp_'),
      'the main site keeps its tables',
    );
    assert.deepEqual(
      all.filter((t) => t.startsWith(`wp_${shop2}_`)),
      tablesOf(`wp_${shop2}_`),
      'network activation made the second site its own, under its own prefix',
    );

    shop3 = (await step<{ id: number }>(SHOP1, 'make_site', { path: SHOP3, title: 'Shop three' })).id;
    all = await tables();
    assert.deepEqual(
      all.filter((t) => t.startsWith(`wp_${shop3}_`)),
      tablesOf(`wp_${shop3}_`),
      'a site made later got them when WordPress initialised it',
    );

    // WooCommerce on the other shops, each activated on its own site (a request of its own, as in wp-admin).
    for (const site of [SHOP2, SHOP3]) {
      const active = await step<string[]>(site, 'activate_woocommerce');
      assert.ok(active.includes('woocommerce/woocommerce.php'));
    }
  });

  test("settings saved on one shop are not the other's", async () => {
    const one = await step<{ site: number; settings: Record<string, string> }>(SHOP1, 'settings', { values: { title: 'Card (shop one)' } });
    const two = await step<{ site: number; settings: Record<string, string> }>(SHOP2, 'settings', {
      values: { title: 'Card (shop two)', reconcile_rate: '3' },
    });
    assert.equal(one.site, 1);
    assert.equal(two.site, shop2);
    const again = await step<{ settings: Record<string, string> }>(SHOP1, 'settings');
    assert.equal(again.settings.title, 'Card (shop one)');
    assert.notEqual(again.settings.reconcile_rate, '3', "the second shop's change stays there");
    assert.equal((await step<{ settings: Record<string, string> }>(SHOP2, 'settings')).settings.title, 'Card (shop two)');
  });

  test("each shop's attempts, addresses, counters and budgets are its own; one wallet serves one shop", async () => {
    await step(SHOP1, 'wallet', { key: KEY_A });
    const first = await step<Taken>(SHOP1, 'take', { client: '203.0.113.7' });
    assert.equal(first.refused, undefined, JSON.stringify(first));
    assert.deepEqual([first.index, first.address], [0, WALLET_A[0]], "the first shop's first order: index 0 of its wallet");

    // The second shop given the same key: refused, never the address the first shop's order holds.
    await step(SHOP2, 'wallet', { key: KEY_A });
    const shared = await step<Taken>(SHOP2, 'take', { client: '203.0.113.7' });
    assert.equal(shared.address, undefined, 'no address of a wallet another shop uses');
    // The test store offers no other payment method: none is named (issue 32, point 6).
    assert.equal(shared.refused, 'Card payment is not available in this shop right now. Please try again later.');
    assert.deepEqual(Object.keys(await step<Record<string, number>>(SHOP2, 'counters')), [], 'the second shop claimed nothing');
    const notice = await step<string>(SHOP2, 'notice');
    assert.match(notice, /card2crypto-wallet-shared/);
    assert.match(notice, /another shop of this network already uses this wallet/);
    assert.ok(notice.includes(s.storeUrl), `the notice names the shop that uses it: ${notice}`);
    assert.doesNotMatch(notice, new RegExp(KEY_A), 'never the key itself');
    assert.doesNotMatch(await step<string>(SHOP1, 'notice'), /card2crypto-wallet-shared/, 'the shop that used it first is not warned');

    // Its own wallet: its own counter, from 0, beside the first shop's.
    await step(SHOP2, 'wallet', { key: KEY_B });
    const second = await step<Taken>(SHOP2, 'take', { client: '203.0.113.7' });
    assert.deepEqual([second.index, second.address], [0, WALLET_B[0]], "the second shop's first order: index 0 of its own wallet");
    const next = await step<Taken>(SHOP1, 'take', { client: '203.0.113.8' });
    assert.deepEqual([next.index, next.address], [1, WALLET_A[1]], "the first shop's counter went on from its own");
    assert.deepEqual(Object.values(await step<Record<string, number>>(SHOP1, 'counters')), [2]);
    assert.deepEqual(Object.values(await step<Record<string, number>>(SHOP2, 'counters')), [1]);

    // Attempts and address rows: each shop sees its own only.
    const mine = await step<{ attempt: { order_id: number } | null; address: { index: number } | null }>(SHOP1, 'find', {
      partner_operation_id: first.partner_operation_id,
      address: first.address,
    });
    assert.equal(mine.attempt?.order_id, first.order);
    assert.equal(mine.address?.index, 0);
    assert.deepEqual(await step(SHOP2, 'find', { partner_operation_id: first.partner_operation_id, address: first.address }), { attempt: null, address: null });
    assert.deepEqual(await step(SHOP1, 'find', { partner_operation_id: second.partner_operation_id, address: second.address }), {
      attempt: null,
      address: null,
    });

    // Budgets: the client's new addresses counted on each shop apart (two on the second: the refused take counted too).
    assert.equal(await step<number>(SHOP1, 'spent', { client: '203.0.113.7' }), 1);
    assert.equal(await step<number>(SHOP2, 'spent', { client: '203.0.113.7' }), 2);
    assert.equal(await step<number>(SHOP3, 'spent', { client: '203.0.113.7' }), 0);
  });

  test("named locks and Action Scheduler queues are each shop's own", async () => {
    const one = await step<{ mine: string; other: string; back: string }>(SHOP1, 'lock_names', { other: shop2 });
    const two = await step<{ mine: string; other: string; back: string }>(SHOP2, 'lock_names', { other: 1 });
    assert.notEqual(one.mine, two.mine, 'the batch lock is named per site');
    assert.equal(one.other, two.mine, "under switch_to_blog() the second site's own name");
    assert.equal(two.other, one.mine);
    assert.equal(one.back, one.mine, "and this site's again once restored");

    const pending = await step<Record<string, number>>(SHOP1, 'queue');
    assert.equal(pending[BATCH], 1, "the batch queued in the first shop's queue");
    assert.equal((await step<SiteState>(SHOP2, 'state')).pending[BATCH], undefined, "not in the second shop's");
    assert.equal((await step<Record<string, number>>(SHOP2, 'queue'))[BATCH], 1, 'the second shop queues its own');
    assert.equal((await step<SiteState>(SHOP1, 'state')).pending[BATCH], 1, 'still one in the first shop');
  });

  test("deleting a site drops its tables and options, and no other site's", async () => {
    await step(SHOP3, 'settings', { values: { title: 'Card (shop three)' } });
    const kept = await tables();
    assert.equal(kept.filter((t) => t.startsWith(`wp_${shop3}_`)).length, PLUGIN_TABLES.length);

    assert.equal(await step<number>(SHOP1, 'delete_site', { id: shop3 }), shop3);
    const left = await tables();
    assert.deepEqual(
      left.filter((t) => t.startsWith(`wp_${shop3}_`)),
      [],
      "the deleted site's plugin tables are gone",
    );
    assert.deepEqual(
      left,
      kept.filter((t) => !t.startsWith(`wp_${shop3}_`)),
      "every other site's tables are still there",
    );
    const one = await step<SiteState>(SHOP1, 'state');
    const two = await step<SiteState>(SHOP2, 'state');
    assert.equal((one.options.woocommerce_card2crypto_settings as Record<string, string>).title, 'Card (shop one)');
    assert.equal((two.options.woocommerce_card2crypto_settings as Record<string, string>).title, 'Card (shop two)');
    assert.deepEqual(one.tables, tablesOf('wp_'));
    assert.deepEqual(two.tables, tablesOf(`wp_${shop2}_`));
  });

  test("deleting the plugins from the network removes each site's data only where that site asked", async () => {
    // The first shop keeps its data; the second asked for its data to go.
    await step(SHOP1, 'settings', { values: { delete_data_on_uninstall: 'no' } });
    await step(SHOP2, 'settings', { values: { delete_data_on_uninstall: 'yes' } });
    await step(SHOP1, 'widget_settings', { values: { partner_token: 'widget-one', delete_data_on_uninstall: 'no' } });
    await step(SHOP2, 'widget_settings', { values: { partner_token: 'widget-two', delete_data_on_uninstall: 'yes' } });
    const before1 = await step<SiteState>(SHOP1, 'state');
    assert.ok('card2crypto_checkout_wallet_key_secret' in before1.options, 'the first shop has a key stored');
    assert.equal(before1.pending[BATCH], 1);

    const ran = await step<Record<string, boolean>>(SHOP1, 'uninstall');
    assert.deepEqual(ran, { 'card2crypto-checkout/card2crypto-checkout.php': true, 'card2crypto-widget/card2crypto-widget.php': true });

    const one = await step<SiteState>(SHOP1, 'state');
    assert.deepEqual(
      one.tables,
      tablesOf('wp_').filter((t) => !t.endsWith('_widget_budgets')),
      "the first shop keeps its tables (the widget's budgets, counts of the last minutes, go always)",
    );
    const settings1 = one.options.woocommerce_card2crypto_settings as Record<string, string>;
    assert.equal(settings1.title, 'Card (shop one)', 'and its settings');
    assert.equal(one.options.card2crypto_checkout_db_version, DB_VERSION, 'the kept site keeps its tables at the current version');
    assert.equal(one.pending[BATCH], 1, 'and its queued batch');
    assert.equal(one.options.card2crypto_checkout_wallet_key_secret, undefined, 'its wallet key is removed all the same');
    assert.equal(one.options.card2crypto_checkout_partner_secret, undefined, 'and its partner secret');
    assert.equal((one.options.card2crypto_widget_settings as Record<string, string>).partner_token, 'widget-one', "the widget's settings kept");

    const two = await step<SiteState>(SHOP2, 'state');
    assert.deepEqual(two.tables, [], "the second shop's tables are gone");
    assert.deepEqual(Object.keys(two.options), [], 'and every option of both plugins');
    assert.deepEqual(Object.keys(two.pending), [], 'and its queued actions');
  });
});

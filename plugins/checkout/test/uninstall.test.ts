/**
 * uninstall.php of both plugins against a minimal fake of the WordPress
 * functions it calls (test/php/uninstall.php): the partner secret goes
 * always; everything else only when the store asked (WC_REMOVE_ALL_DATA or
 * "Delete data on uninstall"); other plugins' data and orders never.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PLUGIN_DIR, PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

/** The widget's uninstall.php, handed to the runner as a file (only plugins/checkout is mounted). */
const WIDGET_UNINSTALL = readFileSync(path.resolve(PLUGIN_DIR, '../widget/uninstall.php'), 'utf8');
/** The widget's copy of the shared site loop its uninstall.php requires beside it (lib/shared, built). */
const WIDGET_SITES = readFileSync(path.resolve(PLUGIN_DIR, '../widget/lib/shared/Database/Network_Sites.php'), 'utf8');
const SECRET = 'sk-live-5e3c7e7-do-not-keep';

interface Left {
  options: Record<string, unknown>;
  tables: string[];
  unscheduled: unknown[];
  queries: string[];
}

const checkoutSettings = (deleteData: 'yes' | 'no') => ({
  partner_token: 'tok',
  partner_secret: SECRET,
  wallet_address: 'tb1q...',
  delete_data_on_uninstall: deleteData,
});
const STORE = {
  card2crypto_checkout_db_version: '1',
  card2crypto_checkout_countries_last: [276],
  _transient_card2crypto_checkout_countries: [276],
  _transient_timeout_card2crypto_checkout_countries: 99,
  _transient_card2crypto_checkout_cbfail_0123abcd: { start: 1, count: 3 },
  _transient_timeout_card2crypto_checkout_cbfail_0123abcd: 61,
  card2cryptoXcheckoutXlookalike: 'kept: "_" in the pattern is escaped',
  card2crypto_widget_settings: { partner_secret: 'widget-secret' },
  woocommerce_stripe_settings: { secret_key: 'other plugin' },
};
const TABLES = ['wp_card2crypto_attempts', 'wp_card2crypto_events', 'wp_posts', 'wp_wc_orders'];

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: uninstall.php`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());
    const run = (file: string, plugin: string, options: Record<string, unknown>, constants: Record<string, unknown> = {}, tables = TABLES) =>
      php.runJson<Left>('uninstall.php', {
        'uninstall.json': JSON.stringify({ file, plugin, options, constants, tables }),
        'widget-uninstall.php': WIDGET_UNINSTALL,
        'lib/shared/Database/Network_Sites.php': WIDGET_SITES,
      });
    const checkout = (options: Record<string, unknown>, constants: Record<string, unknown> = {}) =>
      run('/plugin/uninstall.php', 'card2crypto-checkout/card2crypto-checkout.php', options, constants);

    test('by default only the partner secret is removed', async () => {
      const left = await checkout({ ...STORE, woocommerce_card2crypto_settings: checkoutSettings('no') });
      assert.deepEqual(left.options.woocommerce_card2crypto_settings, { partner_token: 'tok', wallet_address: 'tb1q...', delete_data_on_uninstall: 'no' });
      assert.ok(!JSON.stringify(left.options).includes(SECRET));
      const { woocommerce_card2crypto_settings: _settings, ...rest } = left.options;
      assert.deepEqual(rest, STORE);
      assert.deepEqual(left.tables, TABLES);
      // The plugin is gone whatever is kept: its hourly clean-up of visitors' budgets and sweep of queued
      // confirmations have nothing left to run.
      assert.deepEqual(left.unscheduled, [
        ['wp-cron', 'card2crypto_checkout_clean_budgets'],
        ['wp-cron', 'card2crypto_checkout_confirm_sweep'],
      ]);
    });

    for (const [why, settings, constants] of [
      ['"Delete data on uninstall"', checkoutSettings('yes'), {}],
      ['WC_REMOVE_ALL_DATA', checkoutSettings('no'), { WC_REMOVE_ALL_DATA: true }],
    ] as const) {
      test(`with ${why}: settings, tables, options, transients and scheduled actions go; other data stays`, async () => {
        const left = await checkout({ ...STORE, woocommerce_card2crypto_settings: settings }, constants);
        assert.deepEqual(left.options, {
          card2cryptoXcheckoutXlookalike: STORE.card2cryptoXcheckoutXlookalike,
          card2crypto_widget_settings: STORE.card2crypto_widget_settings,
          woocommerce_stripe_settings: STORE.woocommerce_stripe_settings,
        });
        assert.deepEqual(left.tables, ['wp_posts', 'wp_wc_orders'], 'orders are kept');
        assert.deepEqual(left.unscheduled, [
          ['wp-cron', 'card2crypto_checkout_clean_budgets'],
          ['wp-cron', 'card2crypto_checkout_confirm_sweep'],
          ['', [], 'card2crypto-checkout'],
        ]);
      });
    }

    test('WC_REMOVE_ALL_DATA defined as anything but true deletes nothing more than the secret', async () => {
      const left = await checkout({ ...STORE, woocommerce_card2crypto_settings: checkoutSettings('no') }, { WC_REMOVE_ALL_DATA: 'yes' });
      assert.deepEqual(left.tables, TABLES);
      assert.equal(left.options.card2crypto_checkout_db_version, '1');
      assert.ok(!JSON.stringify(left.options.woocommerce_card2crypto_settings).includes(SECRET));
    });

    test('a site that never saved the settings gets no option written', async () => {
      const left = await checkout({ woocommerce_stripe_settings: STORE.woocommerce_stripe_settings });
      assert.deepEqual(left.options, { woocommerce_stripe_settings: STORE.woocommerce_stripe_settings });
      assert.deepEqual(left.queries, []);
    });

    test('the widget plugin: the secret always, its settings when asked (its setting or WC_REMOVE_ALL_DATA)', async () => {
      const widget = (deleteData: string, constants: Record<string, unknown> = {}) =>
        run(
          '/work/widget-uninstall.php',
          'card2crypto-widget/card2crypto-widget.php',
          {
            card2crypto_widget_partner_secret: { value: 'widget-secret' },
            // The last connection check (Connection_Check): a hash of the credentials, gone whatever is asked.
            card2crypto_widget_connection: { ok: false, fingerprint: 'f'.repeat(64), at: 1 },
            card2crypto_widget_settings: { partner_token: 't', partner_secret: 'widget-secret', delete_data_on_uninstall: deleteData },
          },
          constants,
          [...TABLES, 'wp_card2crypto_widget_budgets'],
        );
      const kept = { card2crypto_widget_settings: { partner_token: 't', delete_data_on_uninstall: 'no' } };
      const left = await widget('no');
      assert.deepEqual(left.options, kept);
      assert.deepEqual(
        left.unscheduled,
        [
          ['wp-cron', 'card2crypto_widget_check_connection'],
          ['wp-cron', 'card2crypto_widget_clean_budgets'],
        ],
        'its background check and its budgets clean-up unscheduled',
      );
      assert.deepEqual(left.tables, TABLES, 'its visitors budgets table dropped, whatever was asked');
      assert.deepEqual((await widget('yes')).options, {});
      // The site-wide request WooCommerce's plugins honour; the widget needs no WooCommerce but honours it too.
      assert.deepEqual((await widget('no', { WC_REMOVE_ALL_DATA: true })).options, {});
      assert.deepEqual((await widget('no', { WC_REMOVE_ALL_DATA: 'yes' })).options, kept, 'only true counts, as in the checkout');
    });
  });
}

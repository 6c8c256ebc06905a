/**
 * The embedded flow: after placing the order the buyer is on the order-pay
 * page, where the widget starts with settings signed by the store just
 * before it runs; paying there completes the order. The signing route
 * refuses a wrong order key.
 */
import { expect, test } from './fixtures';
import {
  CARDS,
  blockCheckout,
  loginAsAdmin,
  orderIdFromUrl,
  partnerSecret,
  payInWidget,
  requireWooCommerce,
  runningStore,
  setSettings,
  waitForOrder,
} from './checkout-helpers.js';

const store = runningStore();
const secret = partnerSecret(store);

test.describe('embedded widget on the order-pay page', () => {
  test.beforeEach(() => requireWooCommerce(store));

  test('the widget runs with freshly signed settings and the payment completes the order', async ({ browser }) => {
    test.setTimeout(900_000);
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    await setSettings(admin, { payment_flow: 'embedded' });
    try {
      const buyer = await browser.newPage();
      // Each answer's body, kept when its headers arrive (before the page can use it), so the count is exact
      // by the time the widget starts; pushed after awaiting the text, a busy machine could count it late.
      const signing: Array<Promise<string>> = [];
      buyer.on('response', (r) => {
        // The store's signing route only: the sandbox also serves core's widget-settings.js module.
        if (/card2crypto\/v1\/orders\/\d+\/widget-settings/.test(r.url())) {
          signing.push(r.text());
        }
      });
      await blockCheckout(buyer, store, 0, false);
      const orderId = orderIdFromUrl(buyer.url());
      await expect(buyer.locator('#card2crypto-widget iframe.card2crypto-widget-frame')).toBeAttached({ timeout: 120_000 });
      expect(signing).toHaveLength(1);
      const signed = await signing[0]!;
      const { settings } = JSON.parse(signed) as { settings: Record<string, unknown> };
      expect(settings.partner_operation_id).toMatch(new RegExp(`^wc-${orderId}-[0-9a-f]{24}$`));
      expect(settings.to_currency).toBe('BTC');
      // Fixed rates are the default: the widget runs on a rate fixed just now, amount and currencies locked.
      expect(typeof settings.calculation_id).toBe('string');
      expect(typeof settings.signature).toBe('string');
      expect(Math.abs(Number(settings.timestamp) - Date.now())).toBeLessThan(120_000);
      expect(signed.includes(secret)).toBe(false);

      const forged = await buyer.request.post(`${store.storeUrl}/wp-json/card2crypto/v1/orders/${orderId}/widget-settings`, {
        data: { key: 'wc_order_wrong', nonce: 'x' },
      });
      expect(forged.status()).toBe(404);

      await payInWidget(buyer, CARDS.success, '#card2crypto-widget iframe.card2crypto-widget-frame');
      await buyer.waitForURL(/order-received\/\d+/, { timeout: 180_000 });
      const view = await waitForOrder(admin, store, orderId, (v) => v.status === 'wc-processing' && Boolean(v.panel.transaction));
      expect(view.notes.some((n) => n.includes('BTC transaction:'))).toBe(true);
    } finally {
      await setSettings(admin, { payment_flow: 'redirect' });
    }
  });
});

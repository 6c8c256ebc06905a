/**
 * The classic (shortcode) checkout, paid in full through the sandbox: the
 * method's fields (what happens, accepted methods, BTC estimate), placing the
 * order, the landing page, and the order processing with its transaction id.
 */
import { expect, test } from './fixtures';
import {
  CARDS,
  classicCheckoutPage,
  fillClassicCheckout,
  loginAsAdmin,
  orderIdFromUrl,
  payInWidget,
  requireWooCommerce,
  runningStore,
  waitForOrder,
} from './checkout-helpers.js';

const store = runningStore();

test.describe('classic checkout through the sandbox', () => {
  test.beforeEach(() => requireWooCommerce(store));

  test('paid in full: order processing with the transaction id', async ({ browser }) => {
    test.setTimeout(900_000);
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    const pageUrl = await classicCheckoutPage(admin);

    const buyer = await browser.newPage();
    await fillClassicCheckout(buyer, store, pageUrl);
    await expect(buyer.locator('.card2crypto-payment-fields')).toContainText('Accepted: Visa, Maestro, MasterCard, SEPA, Google Pay.');
    await expect(buyer.locator('.card2crypto-payment-fields')).toContainText(/about 0\.\d{8} BTC/);
    await buyer.locator('#place_order').click();
    await buyer.waitForURL(/\/landing\/\?i=/, { timeout: 180_000 });
    await payInWidget(buyer, CARDS.success);
    await buyer.waitForURL(/order-received\/\d+/, { timeout: 180_000 });
    const orderId = orderIdFromUrl(buyer.url());
    const view = await waitForOrder(admin, store, orderId, (v) => v.status === 'wc-processing' && Boolean(v.panel.transaction));
    expect(view.notes.some((n) => n.includes('BTC transaction:'))).toBe(true);
  });
});

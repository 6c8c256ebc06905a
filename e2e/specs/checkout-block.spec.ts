/**
 * The buyer's path in a real browser: block checkout, the service's landing
 * page with the sandbox widget, back to the store. Paid in full (processing,
 * transaction id on the order), declined (told at once in words, recorded
 * on the order, pay again offered), and
 * the partner secret absent from every page the buyer sees.
 */
import { expect, test } from './fixtures';
import {
  expectDeclineToldAndRecorded,
  CARDS,
  blockCheckout,
  loginAsAdmin,
  orderIdFromUrl,
  partnerSecret,
  payInWidget,
  requireWooCommerce,
  runningStore,
  waitForOrder,
} from './checkout-helpers.js';

const store = runningStore();
const secret = partnerSecret(store);

test.describe('block checkout through the sandbox', () => {
  test.beforeEach(() => requireWooCommerce(store));

  test('paid in full: order processing with the transaction id; the secret never reaches the buyer', { tag: '@oldest' }, async ({ browser }) => {
    test.setTimeout(900_000);
    const buyer = await browser.newPage();
    const seen: string[] = [];
    buyer.on('response', async (response) => {
      const type = response.headers()['content-type'] ?? '';
      if (/html|json|javascript|text/.test(type)) {
        seen.push(`${response.url()}\n${await response.text().catch(() => '')}`);
      }
    });
    await blockCheckout(buyer, store);
    seen.push(buyer.url());
    await payInWidget(buyer, CARDS.success);
    await buyer.waitForURL(/order-received\/\d+/, { timeout: 180_000 });
    const orderId = orderIdFromUrl(buyer.url());
    await expect(buyer.locator('.card2crypto-payment-state')).toBeVisible();

    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    const view = await waitForOrder(admin, store, orderId, (v) => v.status === 'wc-processing' && Boolean(v.panel.transaction));
    expect(view.notes.some((n) => n.includes('Payment complete') && n.includes('BTC transaction:'))).toBe(true);
    expect(view.panel['card-country']).toMatch(/\p{L}/u); // the issuing country the service reports

    await buyer.reload();
    await expect(buyer.locator('.card2crypto-payment-state')).toContainText('Paid');
    await expect(buyer.locator('.card2crypto-payment-state a')).toHaveAttribute('href', /\/status\//);
    expect(seen.length).toBeGreaterThan(3);
    for (const text of seen) {
      expect(text.includes(secret), `the secret leaked in ${text.slice(0, 120)}`).toBe(false);
    }
  });

  test('declined card: told at once on the order-pay page, the order failed with the reason, the buyer can pay again', async ({ browser }) => {
    test.setTimeout(900_000);
    const buyer = await browser.newPage();
    await blockCheckout(buyer, store);
    await payInWidget(buyer, CARDS.refused);
    // The landing page's fail redirect reaches the store, which asks the service and sends the buyer on to order-pay.
    await buyer.waitForURL(/order-pay\/\d+/, { timeout: 180_000 });
    expect(buyer.url()).not.toContain('card2crypto-return');
    const orderId = orderIdFromUrl(buyer.url());
    const notice = buyer
      .locator('.woocommerce-error, .woocommerce-info, .wc-block-components-notice-banner')
      .filter({ hasText: 'Your card payment was declined.' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('You can pay again with another card.');

    // Recorded on the order by then, without reconciliation (its first check is 15 minutes away).
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    await expectDeclineToldAndRecorded(admin, store, orderId);

    // Told once: a reload shows the page without the notice; "Pay" starts a fresh attempt.
    await buyer.reload();
    await expect(buyer.getByText('Your card payment was declined.')).toHaveCount(0);
    await buyer.locator('#place_order').click();
    await buyer.waitForURL(/\/landing\/\?i=/, { timeout: 120_000 });
  });
});

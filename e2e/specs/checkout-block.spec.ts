/**
 * The buyer's path in a real browser: block checkout, the service's landing
 * page with the sandbox widget, back to the store. Paid in full (processing,
 * transaction id on the order), declined (failed, pay again offered), and
 * the partner secret absent from every page the buyer sees.
 */
import { expect, test } from '@playwright/test';
import {
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

  test('declined card: back on the order-pay page, order failed with the reason, the buyer can pay again', async ({ browser }) => {
    test.setTimeout(900_000);
    const buyer = await browser.newPage();
    await blockCheckout(buyer, store);
    await payInWidget(buyer, CARDS.refused);
    await buyer.waitForURL(/order-pay\/\d+/, { timeout: 180_000 });
    const orderId = orderIdFromUrl(buyer.url());
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    const view = await waitForOrder(admin, store, orderId, (v) => v.status === 'wc-failed');
    expect(view.notes.some((n) => n.includes('payment declined') && n.includes('The card payment was refused'))).toBe(true);

    await buyer.reload();
    await buyer.locator('#place_order').click();
    await buyer.waitForURL(/\/landing\/\?i=/, { timeout: 120_000 });
  });
});

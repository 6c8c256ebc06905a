/**
 * Truthful words for the owner (issue 21, point 7), in a real browser: an
 * order keeps one payment method title when the buyer pays it from its
 * payment page (test mode is a mark, in the orders list); an order that never
 * took money has no refund box; a sandbox payment's made-up transaction is
 * not sent to a real block explorer; notes say where the news came from in
 * the owner's words.
 */
import { expect, test, type Page } from './fixtures';
import {
  adminOrder,
  loginAsAdmin,
  operationData,
  partnerSecret,
  placeOrder,
  requireWooCommerce,
  runningStore,
  sendCallback,
  serviceHas,
} from './checkout-helpers.js';

const store = runningStore();

async function orderScreen(page: Page, orderId: number): Promise<void> {
  await page.goto(`${store.storeUrl}/wp-admin/admin.php?page=wc-orders&action=edit&id=${orderId}`, { waitUntil: 'domcontentloaded', timeout: 240_000 });
}

test.describe("the owner's words", () => {
  test.describe.configure({ timeout: 600_000 });
  test.beforeEach(() => requireWooCommerce(store));

  test('paid from its payment page in test mode: one title on the order, a test mark in the orders list', async ({ browser }) => {
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    const context = await browser.newContext();
    const buyer = await context.newPage();
    const order = await placeOrder(context.request, store);
    const payUrl = new URL(order.callbacks.fail);
    payUrl.searchParams.delete('card2crypto-return');
    await buyer.goto(payUrl.href, { waitUntil: 'domcontentloaded', timeout: 240_000 });
    // The buyer sees the mark ...
    await expect(buyer.locator('label[for="payment_method_card2crypto"]')).toContainText('(test mode)');
    await buyer.locator('#place_order').click();
    await buyer.waitForURL(/\/landing\/\?i=/, { timeout: 120_000 });

    // ... the order keeps its one title.
    await orderScreen(admin, order.id);
    const paymentLine = admin.locator('.woocommerce-order-data__meta');
    await expect(paymentLine).toContainText('Payment via');
    await expect(paymentLine).not.toContainText('(test mode)');
    await admin.goto(`${store.storeUrl}/wp-admin/admin.php?page=wc-orders`, { waitUntil: 'domcontentloaded', timeout: 240_000 });
    const row = admin.locator(`#order-${order.id}, tr:has(a[href*="id=${order.id}&"])`).first();
    await expect(row.locator('.card2crypto-test-order')).toHaveText('Test payment');
  });

  test('never paid: no refund box; a sandbox transaction is not linked to a real explorer; notes in plain words', async ({ browser }) => {
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    const secret = partnerSecret(store);

    const failed = await placeOrder(admin.request, store);
    const declined = operationData(failed, 'declined', 104);
    await serviceHas(store, secret, declined);
    expect(await sendCallback(store, secret, declined)).toBe('200 OK');
    await orderScreen(admin, failed.id);
    await expect(admin.locator('#order_status')).toHaveValue('wc-failed');
    await expect(admin.locator('button.refund-items')).toHaveCount(0);
    await expect(admin.locator('.card2crypto-refund-help')).toHaveCount(0);
    const notes = (await adminOrder(admin, store, failed.id)).notes;
    expect(notes.some((n) => n.includes('— reported by the service'))).toBe(true);
    expect(notes.filter((n) => /; callback|\(callback\)|asked when the buyer/.test(n))).toEqual([]);

    const paid = await placeOrder(admin.request, store);
    const success = operationData(paid, 'success', 6);
    await serviceHas(store, secret, success);
    expect(await sendCallback(store, secret, success)).toBe('200 OK');
    await orderScreen(admin, paid.id);
    await expect(admin.locator('#order_status')).toHaveValue('wc-processing');
    const panel = admin.locator('#card2crypto-checkout-payment');
    await expect(panel.getByRole('link', { name: 'View the transaction' })).toHaveCount(0);
    await expect(panel.locator('[data-card2crypto="simulated-transaction"]')).toContainText('not on the blockchain');
    // A paid order can be refunded (by hand): the box is there.
    await expect(admin.locator('button.refund-items')).toBeVisible();
  });
});

/**
 * WooCommerce's own "Pay" and "Cancel" order actions while a card payment
 * may be under way (issue 21, point 2), in a real browser. A buyer who
 * pressed Cancel on the thank-you page while on the service's confirm step
 * had the order cancelled (and the owner mailed), then paid it. While the
 * payment may be under way the page offers neither; a Cancel followed from
 * an older page is refused in plain words and nothing is cancelled.
 */
import { expect, test } from './fixtures';
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
const NOTICE = '.woocommerce-error, .woocommerce-info, .woocommerce-message, .wc-block-components-notice-banner';

test.describe("the buyer's Pay and Cancel", () => {
  test.describe.configure({ timeout: 600_000 });
  test.beforeEach(() => requireWooCommerce(store));

  test('under way: no Pay, no Cancel; a Cancel from an older page is refused and noted, the order is not cancelled', async ({ browser }) => {
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    const context = await browser.newContext();
    const buyer = await context.newPage();
    const order = await placeOrder(context.request, store);
    const secret = partnerSecret(store);

    // Sent to pay a moment ago: the payment may be under way, so the thank-you page offers neither.
    await buyer.goto(order.callbacks.success, { waitUntil: 'domcontentloaded', timeout: 240_000 });
    await expect(buyer.locator('.card2crypto-payment-state')).toBeVisible();
    await expect(buyer.locator('.order-actions-button.pay, .order-actions-button.cancel')).toHaveCount(0);

    // Declined: nothing is under way any more, and WooCommerce offers Cancel again (a failed order may be cancelled).
    const declined = operationData(order, 'declined', 104);
    await serviceHas(store, secret, declined);
    expect(await sendCallback(store, secret, declined)).toBe('200 OK');
    await buyer.reload({ waitUntil: 'domcontentloaded' });
    const cancel = buyer.locator('.order-actions-button.cancel');
    await expect(cancel).toBeVisible();
    const cancelUrl = (await cancel.getAttribute('href'))!;

    // In another tab the buyer tries again on the service and the card is charged (money moving).
    const moving = operationData(order, 'pending', 2, { id: `op-${order.id}-again` });
    await serviceHas(store, secret, moving);
    expect(await sendCallback(store, secret, moving)).toBe('200 OK');
    expect((await adminOrder(admin, store, order.id)).status).toBe('wc-on-hold');

    // The Cancel on the older page: refused in plain words, nothing cancelled.
    await buyer.goto(cancelUrl, { waitUntil: 'domcontentloaded', timeout: 240_000 });
    await expect(buyer.locator(NOTICE).filter({ hasText: 'A card payment for this order is under way, so the order cannot be cancelled now.' })).toBeVisible();
    const view = await adminOrder(admin, store, order.id);
    expect(view.status).toBe('wc-on-hold');
    expect(view.notes.some((n) => n.includes('asked to cancel the order while its card payment may be under way'))).toBe(true);
    expect(view.notes.some((n) => /cancelled by customer/i.test(n))).toBe(false);
  });
});

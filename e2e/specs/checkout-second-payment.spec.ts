/**
 * No second payment while one may be under way (issue 15, point 4), in a real
 * browser. The service holds the order's operation (serviceHas: no callback
 * reaches the store); the buyer opens the order's payment page and presses
 * Pay. The store asks the service first and applies its answer: pending 2 →
 * told it is under way, no new attempt; success 6 → the order is recorded
 * paid and the buyer sees "Paid" on the order-received page; created 1 with
 * no card entered (the buyer closed the payment tab) → cancelled at the
 * service and a new payment starts at once; a final decline → a new
 * attempt starts normally (the landing page, with a fresh
 * partner_operation_id).
 */
import { expect, test, type Browser, type Page } from './fixtures';
import { parseLandingUrl } from '@card2crypto/core';
import { runInfo } from '../run-info.ts';
import { adminOrder, operationData, partnerSecret, placeOrder, requireWooCommerce, runningStore, serviceHas, type PlacedOrder } from './checkout-helpers.js';

const store = runningStore();
const secret = partnerSecret(store);
const SENT = 'Card2Crypto: the buyer was sent to the payment page.';
const NOTICE = '.woocommerce-error, .woocommerce-info, .woocommerce-message, .wc-block-components-notice-banner';

/** The buyer's session places the order (redirect flow: its first attempt), the service holds `status code`, the buyer presses Pay on the order's payment page. */
async function payAgain(browser: Browser, status: string, code: number): Promise<{ buyer: Page; order: PlacedOrder }> {
  const context = await browser.newContext();
  const buyer = await context.newPage();
  const order = await placeOrder(context.request, store);
  await serviceHas(store, secret, operationData(order, status, code));
  const payUrl = new URL(order.callbacks.fail);
  payUrl.searchParams.delete('card2crypto-return');
  await buyer.goto(payUrl.href, { waitUntil: 'domcontentloaded', timeout: 240_000 });
  await buyer.locator('#place_order').click();
  return { buyer, order };
}

test.describe('no second payment while one may be under way', () => {
  test.describe.configure({ timeout: 300_000 });
  test.beforeEach(() => requireWooCommerce(store));

  let admin: Page;
  test.beforeAll(async ({ browser }) => {
    admin = await (await browser.newContext({ storageState: runInfo().adminStatePath })).newPage();
  });

  test('pending 2 at the service, no callback received: told it is under way, no new attempt', async ({ browser }) => {
    const { buyer, order } = await payAgain(browser, 'pending', 2);
    await expect(buyer.locator(NOTICE).filter({ hasText: 'A card payment for this order is already under way.' })).toBeVisible({ timeout: 120_000 });
    expect(buyer.url()).not.toMatch(/\/landing\//);
    const view = await adminOrder(admin, store, order.id);
    // The service's answer is recorded (money received: on hold until it completes); one attempt only.
    expect(view.status).toBe('wc-on-hold');
    expect(view.notes.filter((n) => n === SENT)).toHaveLength(1);
    expect(
      view.notes.some((n) => n.includes('asked to pay again') && n.includes('The buyer was told: "A card payment for this order is already under way.')),
    ).toBe(true);
  });

  test('success 6 at the service: the order is recorded paid and the buyer sees Paid', async ({ browser }) => {
    const { buyer, order } = await payAgain(browser, 'success', 6);
    await buyer.waitForURL(/order-received\/\d+/, { timeout: 120_000 });
    await expect(buyer.locator('.card2crypto-payment-state .card2crypto-payment-words')).toContainText('Paid');
    const view = await adminOrder(admin, store, order.id);
    expect(['wc-processing', 'wc-completed']).toContain(view.status);
    expect(view.notes.filter((n) => n === SENT)).toHaveLength(1);
  });

  test('the buyer closed the payment tab before entering a card: Pay starts again at once, the earlier payment is cancelled at the service', async ({
    browser,
  }) => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const order = await placeOrder(context.request, store);
    // On the landing page the buyer goes as far as the card step (the service has created the operation) and closes the tab.
    await tab.goto(order.redirect, { waitUntil: 'domcontentloaded', timeout: 240_000 });
    const frame = tab.frameLocator('iframe.card2crypto-widget-frame');
    await expect(frame.locator('#continue:not([disabled])')).toBeVisible({ timeout: 180_000 });
    await frame.locator('#continue').click();
    await frame.locator('#continue').click();
    await expect(frame.locator('button[data-card]').first()).toBeVisible({ timeout: 120_000 });
    await tab.close();

    const buyer = await context.newPage();
    const payUrl = new URL(order.callbacks.fail);
    payUrl.searchParams.delete('card2crypto-return');
    await buyer.goto(payUrl.href, { waitUntil: 'domcontentloaded', timeout: 240_000 });
    await buyer.locator('#place_order').click();
    // No hour-long wait: straight to a new payment.
    await buyer.waitForURL(/\/landing\/\?i=/, { timeout: 120_000 });
    const landing = parseLandingUrl(buyer.url());
    expect(landing.ok && landing.payload.params.partner_operation_id).not.toBe(order.params.partner_operation_id);
    const view = await adminOrder(admin, store, order.id);
    expect(
      view.notes.some((n) => n.includes('in which no card had been entered, was cancelled at the service')),
      view.notes.join('\n'),
    ).toBe(true);
    expect(view.notes.filter((n) => n === SENT)).toHaveLength(2);
    await context.close();
  });

  test('an earlier landing link followed while the service holds the payment: back on the order, told it is under way', async ({ browser }) => {
    const context = await browser.newContext();
    const buyer = await context.newPage();
    const order = await placeOrder(context.request, store);
    await serviceHas(store, secret, operationData(order, 'pending', 2));
    // The link placing the order sent the buyer to (the landing route, which signs at arrival), followed again: from the history, a second tab.
    const link = `${store.storeUrl}/?rest_route=/card2crypto/v1/orders/${order.id}/landing&key=${encodeURIComponent(order.key)}`;
    await buyer.goto(link, { waitUntil: 'domcontentloaded', timeout: 240_000 });
    await expect(buyer.locator(NOTICE).filter({ hasText: 'A card payment for this order is already under way.' })).toBeVisible({ timeout: 120_000 });
    expect(buyer.url()).toContain(`/order-pay/${order.id}/`);
    expect(buyer.url()).not.toContain('card2crypto-told');
    // The words are told once: a reload shows no notice.
    await buyer.reload({ waitUntil: 'domcontentloaded' });
    await expect(buyer.locator(NOTICE).filter({ hasText: 'already under way' })).toHaveCount(0);
    await context.close();
  });

  test('after a final decline a new attempt starts normally', async ({ browser }) => {
    const { buyer, order } = await payAgain(browser, 'declined', 101);
    await buyer.waitForURL(/\/landing\/\?i=/, { timeout: 120_000 });
    const landing = parseLandingUrl(buyer.url());
    expect(landing.ok).toBe(true);
    const fresh = landing.ok ? landing.payload.params.partner_operation_id : '';
    expect(fresh).toMatch(new RegExp(`^wc-${order.id}-[0-9a-f]{24}$`));
    expect(fresh).not.toBe(order.params.partner_operation_id);
    const view = await adminOrder(admin, store, order.id);
    expect(view.notes.filter((n) => n === SENT)).toHaveLength(2);
  });
});

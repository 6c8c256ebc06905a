/**
 * One payment attempt, several operations (issue 21, point 1), in a real
 * browser. After a declined card the service lets the buyer try again under
 * the same partner_operation_id: inside the embedded widget ("Try again" in
 * the widget itself), or on the landing page in another tab. The second
 * operation's success must pay the order: not "another operation … was not
 * applied", not "Failed", never "Pay again" one click from a double charge.
 */
import { expect, test, type Page } from './fixtures';
import {
  CARDS,
  adminOrder,
  blockCheckout,
  loginAsAdmin,
  operationData,
  orderIdFromUrl,
  partnerSecret,
  payInWidget,
  placeOrder,
  requireWooCommerce,
  runningStore,
  serviceHas,
  setSettings,
  waitForOrder,
} from './checkout-helpers.js';

const store = runningStore();
const WIDGET = '#card2crypto-widget iframe.card2crypto-widget-frame';
const DECLINED = 'Your card payment was declined.';
const PAID = 'Paid. The bitcoin was sent to the store.';
const NOTICE = '.woocommerce-error, .woocommerce-info, .woocommerce-message, .wc-block-components-notice-banner';

/** Nothing on the order says a payment was left out, and the owner was not asked to review one. */
function expectNoOperationLeftOut(notes: string[]): void {
  expect(
    notes.filter((n) => /not applied|belongs to operation|paid twice/i.test(n)),
    notes.join('\n'),
  ).toEqual([]);
}

test.describe('one attempt, several operations', () => {
  test.describe.configure({ timeout: 900_000 });
  test.beforeEach(() => requireWooCommerce(store));

  let admin: Page;
  test.beforeAll(async ({ browser }) => {
    admin = await browser.newPage();
    await loginAsAdmin(admin, store);
  });

  test('embedded: declined, then "Try again" inside the widget and a good card: the order is paid and the thank-you page says so @oldest', async ({
    browser,
  }) => {
    await setSettings(admin, { payment_flow: 'embedded' });
    try {
      const buyer = await browser.newPage();
      const signed: string[] = [];
      buyer.on('response', (r) => {
        if (/card2crypto\/v1\/orders\/\d+\/widget-settings/.test(r.url())) {
          signed.push(r.url());
        }
      });
      await blockCheckout(buyer, store, 0, false);
      const orderId = orderIdFromUrl(buyer.url());
      await expect(buyer.locator(WIDGET)).toBeAttached({ timeout: 120_000 });
      await payInWidget(buyer, CARDS.refused, WIDGET);
      const status = buyer.locator('.card2crypto-order-pay .card2crypto-status');
      await expect(status).toContainText(DECLINED, { timeout: 120_000 });
      // Not failed yet: the buyer may still try again in the widget (no "failed" mails while a retry can pay; issue 32).
      await waitForOrder(
        admin,
        store,
        orderId,
        (v) => v.status === 'wc-pending' && v.notes.some((n) => n.includes('The buyer can try again in the payment window')),
      );

      // The widget's own "Try again": the service makes a new operation under the same partner_operation_id.
      await buyer.frameLocator(WIDGET).locator('#again').click();
      await payInWidget(buyer, CARDS.success, WIDGET);
      await buyer.waitForURL(/order-received\/\d+/, { timeout: 180_000 });
      expect(signed, 'the store signed nothing more: the retry happened inside the widget').toHaveLength(1);

      const words = buyer.locator('.card2crypto-payment-state .card2crypto-payment-words');
      await expect(words).toHaveText(PAID, { timeout: 180_000 });
      await expect(buyer.locator('.card2crypto-payment-pay')).toBeHidden();
      const view = await waitForOrder(admin, store, orderId, (v) => ['wc-processing', 'wc-completed'].includes(v.status));
      expectNoOperationLeftOut(view.notes);
      expect(view.notes.some((n) => n.includes('Payment complete'))).toBe(true);
      expect(view.notes.some((n) => n.includes('The card payment was refused') || n.includes('declined'))).toBe(true);
    } finally {
      await setSettings(admin, { payment_flow: 'redirect' });
    }
  });

  test('redirect: declined on the landing page, paid in another tab, its callbacks lost: "Pay" finds the payment, no third one starts', async ({ browser }) => {
    const context = await browser.newContext();
    const buyer = await context.newPage();
    const order = await placeOrder(context.request, store);
    await buyer.goto(order.redirect, { waitUntil: 'domcontentloaded', timeout: 240_000 });
    await payInWidget(buyer, CARDS.refused);
    await buyer.waitForURL(/order-pay\/\d+/, { timeout: 180_000 });
    await expect(buyer.locator(NOTICE).filter({ hasText: DECLINED })).toBeVisible({ timeout: 120_000 });
    expect((await adminOrder(admin, store, order.id)).status).toBe('wc-failed');

    // Meanwhile the buyer paid on the landing page in another tab: a second operation of the same
    // attempt, complete at the service, whose callbacks never reached the store.
    const secret = partnerSecret(store);
    await serviceHas(store, secret, operationData(order, 'success', 0, { id: `op-${order.id}-retry` }));

    // Pay again on the order's payment page: the store asks the service first and finds the payment.
    await buyer.locator('#place_order').click();
    await buyer.waitForURL(/order-received\/\d+/, { timeout: 120_000 });
    expect(buyer.url()).not.toMatch(/\/landing\//);
    await expect(buyer.locator('.card2crypto-payment-state .card2crypto-payment-words')).toHaveText(PAID);
    const view = await adminOrder(admin, store, order.id);
    expect(['wc-processing', 'wc-completed']).toContain(view.status);
    expect(view.panel['operation-id'], JSON.stringify(view.panel)).toBe(`op-${order.id}-retry`);
    expectNoOperationLeftOut(view.notes);
    expect(
      view.notes.filter((n) => n === 'Card2Crypto: the buyer was sent to the payment page.'),
      'no second attempt',
    ).toHaveLength(1);
  });

  test('redirect: "Refresh from the service" finds the newer operation of a declined attempt', async ({ browser }) => {
    const context = await browser.newContext();
    const order = await placeOrder(context.request, store);
    const secret = partnerSecret(store);
    await serviceHas(store, secret, operationData(order, 'declined', 104));
    await admin.goto(`${store.storeUrl}/wp-admin/admin.php?page=wc-orders&action=edit&id=${order.id}`, { waitUntil: 'domcontentloaded' });
    await refresh(admin);
    expect((await adminOrder(admin, store, order.id)).status).toBe('wc-failed');

    await serviceHas(store, secret, operationData(order, 'success', 6, { id: `op-${order.id}-b` }));
    await refresh(admin);
    const view = await adminOrder(admin, store, order.id);
    expect(view.status).toBe('wc-processing');
    expectNoOperationLeftOut(view.notes);
  });
});

/** Follows the order panel's "Refresh from the service" link and waits for the order screen to come back. */
async function refresh(page: Page): Promise<void> {
  await Promise.all([
    page.waitForURL(/page=wc-orders&action=edit/, { waitUntil: 'domcontentloaded', timeout: 120_000 }),
    page.locator('#card2crypto-checkout-payment [data-card2crypto-action="refresh"]').click(),
  ]);
}

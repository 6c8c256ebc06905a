/**
 * The embedded flow with the order's payment page open twice (issue 32,
 * point 1), as a buyer sees it: re-opening the pay link from an e-mail or
 * the history while an older tab still holds the widget.
 *
 * - The first tab's widget at its Confirm step (the operation exists, no
 *   card entered): the second tab gets a widget, the first operation is
 *   cancelled at the service, and the first tab loses its widget and says so
 *   in the store's words; the second tab pays.
 * - The first tab's card payment under way (awaiting the owner's
 *   confirmation): the second tab lands on the order's own page, which says
 *   how the payment stands and offers nothing that could pay (no widget, no
 *   Pay), and says "Paid" once that payment completes (the sandbox's
 *   dashboard moves it: no waiting on timers).
 *
 * And what the embedded page tells (point 3): a second decline inside the
 * widget replaces the first's words; a block while the widget is open shows
 * the store's words, never the service's "Partner blocked.".
 */
import { expect, test, type Page } from './fixtures';
import {
  CARDS,
  adminOrder,
  blockCheckout,
  loginAsAdmin,
  orderIdFromUrl,
  payInWidget,
  requireWooCommerce,
  runningStore,
  setSettings,
} from './checkout-helpers.js';
import { blockPartner } from './widget-helpers.js';

const store = runningStore();
const FRAME = '#card2crypto-widget iframe.card2crypto-widget-frame';
const STATUS = '.card2crypto-order-pay .card2crypto-status';

/** The partner_operation_id each widget-settings answer of the page signed, in order. */
function signedPayments(page: Page): string[] {
  const ids: string[] = [];
  page.on('response', (r) => {
    if (/card2crypto\/v1\/orders\/\d+\/widget-settings/.test(r.url()) && r.status() === 200) {
      void r.json().then((b: { settings?: { partner_operation_id?: string } }) => ids.push(String(b.settings?.partner_operation_id ?? '')));
    }
  });
  return ids;
}

/** The service's operations of a payment (its dashboard). */
async function operationsOf(partnerOperationId: string): Promise<Array<{ id: string; status: string; status_code: number }>> {
  const state = (await (await fetch(`${store.sandbox!.url}/dashboard/api/state?limit=500`)).json()) as {
    operations: Array<{ id: string; partner_operation_id: string; status: string; status_code: number }>;
  };
  return state.operations.filter((op) => op.partner_operation_id === partnerOperationId);
}

test.describe('the embedded order-pay page open in two tabs', () => {
  test.describe.configure({ timeout: 600_000 });
  test.beforeEach(() => requireWooCommerce(store));

  test('widget at Confirm in the first tab: the second tab gets a widget, the first is ended at the service and says so', async ({ browser }) => {
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    await setSettings(admin, { payment_flow: 'embedded' });
    try {
      const context = await browser.newContext();
      const first = await context.newPage();
      const firstSigned = signedPayments(first);
      await blockCheckout(first, store, 0, false);
      const orderId = orderIdFromUrl(first.url());
      // To the Confirm step: the operation exists at the service, no card sent yet.
      const frame = first.frameLocator(FRAME);
      await expect(frame.locator('#continue:not([disabled])')).toBeVisible({ timeout: 180_000 });
      await frame.locator('#continue').click();
      await frame.locator('#continue').click();
      await frame.locator(`button[data-card="${CARDS.success}"]`).click();
      await frame.locator('#continue').click();
      await expect(frame.locator('#pay')).toBeVisible({ timeout: 60_000 });
      await expect.poll(() => firstSigned.length).toBe(1);
      expect((await operationsOf(firstSigned[0]!)).map((op) => op.status_code)).toEqual([1]);

      // The same pay link in a second tab.
      const second = await context.newPage();
      const secondSigned = signedPayments(second);
      await second.goto(first.url(), { waitUntil: 'domcontentloaded', timeout: 240_000 });
      await expect(second.locator(FRAME)).toBeAttached({ timeout: 120_000 });
      await expect.poll(() => secondSigned.length).toBe(1);
      expect(secondSigned[0]).not.toBe(firstSigned[0]);
      // The first tab's operation can no longer be paid: the service cancelled it at the store's request.
      expect((await operationsOf(firstSigned[0]!)).map((op) => [op.status, op.status_code])).toEqual([['declined', 106]]);

      // The first tab loses its widget and tells the buyer, in the store's words.
      await first.bringToFront();
      await expect(first.locator(STATUS)).toContainText('This payment window is no longer in use', { timeout: 60_000 });
      await expect(first.locator(FRAME)).toHaveCount(0);

      // The second tab pays; the order is paid once.
      await second.bringToFront();
      await payInWidget(second, CARDS.success, FRAME);
      await second.waitForURL(/order-received\/\d+/, { timeout: 180_000 });
      const view = await adminOrder(admin, store, orderId);
      expect(view.notes.filter((n) => n.includes('in which no card had been entered, was cancelled at the service'))).toHaveLength(1);
      expect(view.notes.some((n) => /paid twice/i.test(n))).toBe(false);
      await context.close();
    } finally {
      await setSettings(admin, { payment_flow: 'redirect' });
    }
  });

  test('a card payment under way in the first tab: the second tab offers nothing that could pay, and follows it to Paid', async ({ browser }) => {
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    // The payment then waits at the service for the owner's confirmation (awaiting confirm 8): money has moved.
    await setSettings(admin, { payment_flow: 'embedded', auto_confirm: false });
    try {
      const context = await browser.newContext();
      const first = await context.newPage();
      const firstSigned = signedPayments(first);
      await blockCheckout(first, store, 0, false);
      await payInWidget(first, CARDS.confirmation, FRAME);
      await expect.poll(() => firstSigned.length).toBe(1);
      await expect.poll(async () => (await operationsOf(firstSigned[0]!)).map((op) => op.status_code), { timeout: 120_000 }).toEqual([8]);

      // The same pay link in a second tab: the order is held while the money moves, so the order's own page says how the
      // payment stands, in the store's words, with no widget and no Pay or Cancel.
      const second = await context.newPage();
      await second.goto(first.url(), { waitUntil: 'domcontentloaded', timeout: 240_000 });
      await second.waitForURL(/order-received\/\d+/, { timeout: 120_000 });
      const words = second.locator('.card2crypto-payment-state .card2crypto-payment-words');
      await expect(words).toContainText('Your card was charged; the store is confirming the payment.', { timeout: 60_000 });
      await expect(second.locator(FRAME)).toHaveCount(0);
      await expect(second.locator('a.pay, a.button.pay, #place_order')).toHaveCount(0);
      await expect(second.getByText('cannot be paid for')).toHaveCount(0);

      // The payment completes (the dashboard moves it on at once); the second tab follows it to the paid order.
      const [operation] = await operationsOf(firstSigned[0]!);
      const moved = await fetch(`${store.sandbox!.url}/dashboard/api/operations/${encodeURIComponent(operation!.id)}/move`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-card2crypto-dashboard': '1' },
        body: JSON.stringify({ status_code: 0 }),
      });
      expect(moved.status).toBe(200);
      await expect(words).toContainText('Paid', { timeout: 180_000 });
      await context.close();
    } finally {
      await setSettings(admin, { payment_flow: 'redirect', auto_confirm: true });
    }
  });

  test("two declines inside the widget, then a block: the second decline's words replace the first's, the block is told in the store's words", async ({
    browser,
  }) => {
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    await setSettings(admin, { payment_flow: 'embedded' });
    const buyer = await browser.newPage();
    try {
      await blockCheckout(buyer, store, 0, false);
      const orderId = orderIdFromUrl(buyer.url());
      await payInWidget(buyer, CARDS.refused, FRAME);
      await expect(buyer.locator(STATUS)).toContainText('Your card payment was declined.', { timeout: 120_000 });
      // The widget's own "Try again": a new operation of the same payment, declined by card verification this time.
      const frame = buyer.frameLocator(FRAME);
      await frame.locator('#again').click();
      await payInWidget(buyer, '4000010400000007', FRAME);
      await expect(buyer.locator(STATUS)).toContainText('Your bank card could not be verified.', { timeout: 120_000 });
      await expect(buyer.locator(STATUS)).not.toContainText('was declined');
      const view = await adminOrder(admin, store, orderId);
      expect(view.notes.filter((n) => n.includes('The buyer can try again in the payment window'))).toHaveLength(2);

      // The service blocks the store while the widget is open: the widget stops; the buyer reads the store's words.
      await blockPartner(store, true);
      await frame.locator('#again').click();
      await expect(buyer.getByText('Card payment is unavailable right now.').first()).toBeVisible({ timeout: 120_000 });
      await expect(buyer.getByText(/Partner blocked/i)).toHaveCount(0);
    } finally {
      await blockPartner(store, false);
      await setSettings(admin, { payment_flow: 'redirect' });
      // The refusal the store found stands for its minute; the owner's status box asks the service at once and records
      // its answer, so the specs that follow find card payment offered (no spec waits out the minute).
      await admin.goto(`${store.storeUrl}/wp-admin/admin.php?page=wc-settings&tab=checkout&section=card2crypto`, { waitUntil: 'domcontentloaded' });
      await expect(admin.locator('[data-card2crypto="connection"]')).toContainText('Connected', { timeout: 60_000 });
    }
  });
});

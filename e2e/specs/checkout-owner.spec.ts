/**
 * The owner's side: the settings status box, the awaiting-confirmation path
 * confirmed and cancelled from the order screen, and a callback that never
 * comes, recovered by the reconciliation job (Action Scheduler).
 */
import { expect, test, type Page } from './fixtures';
import { PartnerApiClient, parseLandingUrl, type OperationData } from '@card2crypto/core';
import {
  CARDS,
  adminOrder,
  blockCheckout,
  loginAsAdmin,
  orderIdFromUrl,
  partnerSecret,
  payInWidget,
  pendingReconcile,
  reconcilePlan,
  requireWooCommerce,
  runReconcile,
  runningStore,
  setSettings,
  waitForOrder,
} from './checkout-helpers.js';

const store = runningStore();

async function buy(page: Page, card: string): Promise<{ orderId: number; partnerOperationId: string }> {
  await blockCheckout(page, store);
  const landing = parseLandingUrl(page.url());
  if (!landing.ok) {
    throw new Error(`not a landing URL: ${page.url()}`);
  }
  const partnerOperationId = String(landing.payload.params.partner_operation_id);
  await payInWidget(page, card);
  if (card === CARDS.confirmation) {
    // The operation now waits for the store: the buyer stays on the landing page, which names the order.
    return { orderId: Number(/^wc-(\d+)-/.exec(partnerOperationId)![1]), partnerOperationId };
  }
  await page.waitForURL(/order-(received|pay)\/\d+/, { timeout: 180_000 });
  return { orderId: orderIdFromUrl(page.url()), partnerOperationId };
}

async function buyWith(page: Page, card: string): Promise<number> {
  return (await buy(page, card)).orderId;
}

/** Asks the sandbox (operation-info endpoint, signed like the store signs) until `done` holds. */
async function waitForOperation(partnerOperationId: string, done: (op: OperationData) => boolean, timeoutMs = 120_000): Promise<OperationData> {
  const client = new PartnerApiClient({ baseUrl: store.sandbox!.url, partnerToken: store.partner.token, partnerSecret: partnerSecret(store) });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const op = await client.operation({ partnerOperationId });
    if (done(op)) {
      return op;
    }
    if (Date.now() > deadline) {
      throw new Error(`operation ${partnerOperationId} stayed at ${op.status} ${op.status_code}`);
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

test.describe('owner', () => {
  test.describe.configure({ mode: 'serial' });
  test.beforeEach(() => requireWooCommerce(store));

  test('the settings page says the credentials work, shows the commission and the callback URL', async ({ page }) => {
    await loginAsAdmin(page, store);
    await page.goto(`${store.storeUrl}/wp-admin/admin.php?page=wc-settings&tab=checkout&section=card2crypto`);
    await expect(page.locator('[data-card2crypto="connection"]')).toContainText('Connected');
    await expect(page.locator('[data-card2crypto="fee"]')).toContainText('1%');
    await expect(page.locator('[data-card2crypto="callback-url"]')).toHaveText(`${store.storeUrl}/wp-json/card2crypto/v1/callback`);
  });

  test('awaiting confirmation: the owner confirms one payment and cancels another', async ({ browser }) => {
    test.setTimeout(1_200_000);
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    await setSettings(admin, { auto_confirm: false });
    try {
      for (const action of ['confirm', 'cancel'] as const) {
        const buyer = await browser.newPage();
        const orderId = await buyWith(buyer, CARDS.confirmation);
        const waiting = await waitForOrder(
          admin,
          store,
          orderId,
          (v) => v.status === 'wc-on-hold' && v.notes.some((n) => n.includes('waits for your confirmation')),
        );
        expect(waiting.panel['status-code']).toMatch(/^8 /);
        // The button's request calls the service and refreshes the order before redirecting back: allow it time.
        const href = await admin.locator(`[data-card2crypto-action="${action}"]`).getAttribute('href');
        await admin.goto(href!, { waitUntil: 'domcontentloaded', timeout: 300_000 });
        if (action === 'confirm') {
          const paid = await waitForOrder(admin, store, orderId, (v) => v.status === 'wc-processing');
          expect(paid.notes.some((n) => n.includes('confirmed the payment'))).toBe(true);
        } else {
          const cancelled = await waitForOrder(admin, store, orderId, (v) => v.status === 'wc-failed');
          expect(cancelled.notes.some((n) => n.includes('cancelled the payment at the service'))).toBe(true);
          expect(cancelled.notes.some((n) => n.includes('Cancelled by the store'))).toBe(true);
        }
        await buyer.close();
      }
    } finally {
      await setSettings(admin, { auto_confirm: true });
    }
  });

  test('a callback that never comes: the reconciliation job finds the payment and completes the order', async ({ browser }) => {
    test.setTimeout(1_200_000);
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    // Callbacks from the sandbox (127.0.0.1) are now refused (403): none reaches the store.
    await setSettings(admin, { callback_ips: '203.0.113.9' });
    try {
      const buyer = await browser.newPage();
      const { orderId, partnerOperationId } = await buy(buyer, CARDS.success);
      await buyer.close();
      // The service completes the operation (status page and operation info say so) ...
      const operation = await waitForOperation(partnerOperationId, (op) => op.status === 'success' && op.status_code === 0);
      const txId = operation.operation_info.to?.withdrawal_method_info?.blockchain_tx_id;
      expect(txId).toBeTruthy();
      // ... but the store never heard of it.
      const before = await adminOrder(admin, store, orderId);
      expect(before.status).toBe('wc-pending');

      // Placing the order planned the first check 15 minutes out; it runs now through the batch action's "Run" in
      // Tools → Scheduled Actions (Action Scheduler processes it as its queue runner would).
      const job = await pendingReconcile(admin, store, orderId);
      expect(job.delaySeconds).toBe(900);
      await runReconcile(admin, store, orderId);

      const view = await waitForOrder(admin, store, orderId, (v) => v.status === 'wc-processing');
      expect(view.panel.transaction).toBe(txId);
      expect(view.panel['status-code']).toMatch(/^0 /);
      expect(
        view.notes.some(
          (n) => n.includes('found when the store checked with the service') && n.includes('Payment complete') && n.includes(`BTC transaction: ${txId}`),
        ),
      ).toBe(true);
      // Complete (0) is final: checked once, nothing more planned.
      const plan = await reconcilePlan(admin, store, orderId);
      expect(plan.checks).toBe(1);
      expect(plan.nextCheckAt).toBeNull();
    } finally {
      await setSettings(admin, { callback_ips: '' });
    }
  });
});

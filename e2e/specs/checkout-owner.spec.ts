/**
 * The owner's side: the settings status box, the awaiting-confirmation path
 * confirmed and cancelled from the order screen, and a callback that never
 * comes, recovered by the reconciliation job (Action Scheduler).
 */
import { expect, test, type Page } from '@playwright/test';
import { parseLandingUrl } from '@card2crypto/core';
import { CARDS, blockCheckout, loginAsAdmin, orderIdFromUrl, payInWidget, requireWooCommerce, runningStore, saveSettings, waitForOrder } from './checkout-helpers.js';

const store = runningStore();

async function buyWith(page: Page, card: string): Promise<number> {
  await blockCheckout(page, store);
  const landing = parseLandingUrl(page.url());
  await payInWidget(page, card);
  if (card === CARDS.confirmation) {
    // The operation now waits for the store: the buyer stays on the landing page, which names the order.
    if (!landing.ok) throw new Error(`not a landing URL: ${page.url()}`);
    return Number(/^wc-(\d+)-/.exec(String(landing.payload.params.partner_operation_id))![1]);
  }
  await page.waitForURL(/order-(received|pay)\/\d+/, { timeout: 180_000 });
  return orderIdFromUrl(page.url());
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
    await saveSettings(admin, store, { check: { auto_confirm: false } });
    try {
      for (const action of ['confirm', 'cancel'] as const) {
        const buyer = await browser.newPage();
        const orderId = await buyWith(buyer, CARDS.confirmation);
        const waiting = await waitForOrder(admin, store, orderId, (v) => v.status === 'wc-on-hold' && v.notes.some((n) => n.includes('waits for your confirmation')));
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
          expect(cancelled.notes.some((n) => n.includes('Cancelled by the partner'))).toBe(true);
        }
        await buyer.close();
      }
    } finally {
      await saveSettings(admin, store, { check: { auto_confirm: true } });
    }
  });

  // FIXME (issue 6, open): the spec cannot yet find the job's row on WooCommerce's Scheduled
  // Actions screen (the row selector below), so whether the job itself completes the order is
  // unproven end to end. The job runs the same code as the order panel's "Refresh" button, which
  // the confirm/cancel test above exercises. Re-enable once the row is found reliably.
  test.fixme('a callback that never comes: the reconciliation job finds the payment and completes the order', async ({ browser }) => {
    test.setTimeout(1_200_000);
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    // Callbacks from the sandbox (127.0.0.1) are now refused: none reaches the store.
    await saveSettings(admin, store, { fill: { callback_ips: '203.0.113.9' } });
    try {
      const buyer = await browser.newPage();
      const orderId = await buyWith(buyer, CARDS.success);
      await buyer.waitForTimeout(20_000); // the sandbox walks the operation to success meanwhile
      const before = await waitForOrder(admin, store, orderId, () => true);
      expect(before.status).toBe('wc-pending');

      // Run the scheduled reconciliation now, from WooCommerce's Scheduled Actions screen
      // (callbacks are still refused, so only the job can tell the store).
      await admin.goto(`${store.storeUrl}/wp-admin/admin.php?page=wc-status&tab=action-scheduler&status=pending&s=card2crypto_checkout_reconcile`);
      const row = admin.locator('tr', { hasText: 'card2crypto_checkout_reconcile' }).filter({ hasText: new RegExp(`\\b${orderId}\\b`) }).first();
      await row.hover();
      const run = await row.locator('.row-actions .run a').getAttribute('href');
      await admin.goto(new URL(run!, admin.url()).href, { waitUntil: 'domcontentloaded', timeout: 300_000 });
      const view = await waitForOrder(admin, store, orderId, (v) => v.status === 'wc-processing');
      expect(view.notes.some((n) => n.includes('found by reconciliation'))).toBe(true);
    } finally {
      await saveSettings(admin, store, { fill: { callback_ips: '' } });
    }
  });
});

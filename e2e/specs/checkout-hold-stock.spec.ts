/**
 * WooCommerce's hold-stock timer against a real WooCommerce: with "Hold
 * stock" at one minute, WooCommerce's own job (woocommerce_cancel_unpaid_orders,
 * an Action Scheduler action, or a WP-Cron event on older WooCommerce)
 * cancels unpaid classic-checkout orders. The test moves the orders' clock
 * past the hold time and runs the job on demand (test probe), never waiting
 * for the minute. It must leave alone an order whose
 * buyer is paying right now, and it still cancels one whose buyer never
 * started paying (the control: proof that the timer really ran).
 */
import { expect, test, type Page } from '@playwright/test';
import { parseLandingUrl } from '@card2crypto/core';
import {
  adminOrder,
  classicCheckoutPage,
  fillClassicCheckout,
  loginAsAdmin,
  moveStoreClock,
  requireWooCommerce,
  runningStore,
  setSettings,
  submitWooCommerceSettings,
} from './checkout-helpers.js';

const store = runningStore();
const INVENTORY = () => `${store.storeUrl}/wp-admin/admin.php?page=wc-settings&tab=products&section=inventory`;

/** Sets "Manage stock" and "Hold stock (minutes)" through WooCommerce → Settings → Products → Inventory. */
async function setHoldStock(page: Page, manage: boolean, minutes: string): Promise<void> {
  await page.goto(INVENTORY(), { waitUntil: 'domcontentloaded', timeout: 240_000 });
  // The minutes field shows only while "Manage stock" is on.
  await page.locator('#woocommerce_manage_stock').setChecked(true);
  await page.locator('#woocommerce_hold_stock_minutes').fill(minutes);
  await page.locator('#woocommerce_manage_stock').setChecked(manage);
  if (!(await submitWooCommerceSettings(page))) {
    return;
  } // nothing changed
  await expect(page.locator('#woocommerce_hold_stock_minutes')).toHaveValue(minutes);
}

/** The classic (shortcode) checkout up to "Place order", as a guest buying the first sample product. */
async function classicCheckout(page: Page, checkoutUrl: string): Promise<void> {
  await fillClassicCheckout(page, store, checkoutUrl);
  await page.locator('#place_order').click();
}

test.describe('hold-stock timer', () => {
  test.beforeEach(() => requireWooCommerce(store));

  test('never cancels an order whose payment is in flight; still cancels one never paid', async ({ browser }) => {
    test.setTimeout(900_000);
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    await admin.goto(INVENTORY(), { waitUntil: 'domcontentloaded', timeout: 240_000 });
    const previous = {
      manage: await admin.locator('#woocommerce_manage_stock').isChecked(),
      minutes: await admin.locator('#woocommerce_hold_stock_minutes').inputValue(),
    };
    // Only classic-checkout orders are candidates for the timer ('checkout' === created_via).
    const checkoutUrl = await classicCheckoutPage(admin);
    await setSettings(admin, { payment_flow: 'redirect' });
    await setHoldStock(admin, true, '1');
    try {
      // In flight: the buyer was sent to the service's payment page and is paying there.
      const paying = await browser.newPage();
      await classicCheckout(paying, checkoutUrl);
      await paying.waitForURL(/\/landing\/\?i=/, { timeout: 180_000 });
      const landing = parseLandingUrl(paying.url());
      if (!landing.ok) {
        throw new Error(`not a landing URL: ${paying.url()}`);
      }
      const inFlight = Number(/^wc-(\d+)-/.exec(String(landing.payload.params.partner_operation_id))![1]);
      await paying.close();

      // The control: an order placed (embedded flow) whose buyer left before the payment page opened.
      await setSettings(admin, { payment_flow: 'embedded' });
      let abandoned = 0;
      try {
        const leaving = await browser.newPage();
        // The checkout script sends the browser to the order-pay page: stop it there and note the address.
        let payUrl = '';
        await leaving.route(/order-pay\//, (route) => {
          payUrl = route.request().url();
          return route.abort();
        });
        await classicCheckout(leaving, checkoutUrl);
        await expect.poll(() => payUrl, { timeout: 180_000 }).toMatch(/order-pay\/\d+/);
        abandoned = Number(/order-pay\/(\d+)/.exec(payUrl)![1]);
        expect(abandoned).toBeGreaterThan(inFlight);
        await leaving.close();
      } finally {
        await setSettings(admin, { payment_flow: 'redirect' });
      }
      expect((await adminOrder(admin, store, inFlight)).status).toBe('wc-pending');

      // Both orders older than the hold time: their clock moves two minutes back (no waiting for the minute), and
      // WooCommerce's job runs now, as its scheduler runs it once the hold time is up.
      await moveStoreClock(admin, store, 'orders', { orders: [inFlight, abandoned], seconds: 120 });
      await moveStoreClock(admin, store, 'run', { hook: 'woocommerce_cancel_unpaid_orders' });
      const control = await adminOrder(admin, store, abandoned);
      expect(control.status, `the hold-stock job cancelled order ${abandoned}: ${JSON.stringify(control)}`).toBe('wc-cancelled');
      // WordPress texturizes the note's " - " into an en dash on the order screen.
      expect(control.notes.some((n) => /Unpaid order cancelled \S time limit reached\./.test(n))).toBe(true);
      const kept = await adminOrder(admin, store, inFlight);
      expect(kept.status).toBe('wc-pending');
      expect(kept.notes.some((n) => n.includes('Unpaid order cancelled'))).toBe(false);
    } finally {
      await setHoldStock(admin, previous.manage, previous.minutes);
    }
  });
});

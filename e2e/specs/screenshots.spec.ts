// The README's pictures, taken from the real run: the store with the widget
// in its sidebar, the checkout, the widget itself, the payment settings, the
// sandbox dashboard, a declined buyer's order-pay page and the thank-you page
// once it has turned to "Paid". Written to docs/screenshots/ (a page that does
// not exist in this run is skipped, not faked).
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from './fixtures';
import { WOOCOMMERCE_MISSING, runInfo } from '../run-info.ts';
import {
  CARDS,
  blockCheckout,
  operationData,
  partnerSecret,
  payInWidget,
  placeOrder,
  requireWooCommerce,
  runningStore,
  sendCallback,
  serviceHas,
} from './checkout-helpers.js';

const info = runInfo();
const DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
mkdirSync(DIR, { recursive: true });
test.use({ baseURL: info.storeUrl, viewport: { width: 1280, height: 900 } });
test.skip(!info.booted, 'Screenshots are taken of the store the harness boots, not of an external WordPress.');

/** Let the page settle (widget iframes, block checkout) before the picture. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 60_000 }).catch(() => {});
  await page.waitForTimeout(1500);
}

test('store', async ({ page }) => {
  await page.goto('/');
  await settle(page);
  await page.screenshot({ path: `${DIR}store.png` });
});

test('widget', async ({ page }) => {
  await page.goto('/');
  const widget = page.locator('aside.widget-area .widget').filter({ has: page.locator('.wp-block-card2crypto-widget') });
  await expect(widget).toBeVisible();
  await settle(page);
  await widget.screenshot({ path: `${DIR}widget.png` });
});

test('checkout', async ({ page }) => {
  test.skip(!info.hasWooCommerce, WOOCOMMERCE_MISSING);
  await page.goto(info.products[0]?.url ?? '/');
  await page.locator('button[name="add-to-cart"]').first().click();
  await page.waitForLoadState('load');
  await page.goto('/checkout/');
  await expect(page.locator('input[value="card2crypto"]').first()).toBeAttached();
  await page
    .locator('input[value="card2crypto"]')
    .first()
    .check({ force: true })
    .catch(() => {});
  await settle(page);
  await page.screenshot({ path: `${DIR}checkout.png`, fullPage: true });
});

test.describe('admin', () => {
  test.use({ storageState: info.adminStatePath });
  test('checkout settings', async ({ page }) => {
    test.skip(!info.hasWooCommerce, WOOCOMMERCE_MISSING);
    await page.goto('/wp-admin/admin.php?page=wc-settings&tab=checkout&section=card2crypto');
    await settle(page);
    await page.screenshot({ path: `${DIR}checkout-settings.png` });
  });
});

test('sandbox dashboard', async ({ page }) => {
  test.skip(!info.sandbox, 'The sandbox did not run.');
  const response = await page.goto(info.sandbox!.dashboardUrl);
  test.skip((response?.status() ?? 500) >= 400, `The sandbox dashboard answered ${response?.status()}.`);
  await settle(page);
  await page.screenshot({ path: `${DIR}sandbox-dashboard.png` });
});

test.describe('buyer', () => {
  test.beforeEach(() => {
    test.skip(!info.hasWooCommerce, WOOCOMMERCE_MISSING);
    requireWooCommerce(runningStore());
  });

  test('declined payment on the order-pay page', async ({ page }) => {
    test.setTimeout(600_000);
    // Block checkout, then the sandbox widget on the landing page with the card the sandbox always declines.
    await blockCheckout(page, runningStore());
    await payInWidget(page, CARDS.refused);
    await page.waitForURL(/order-pay\/\d+/, { timeout: 180_000 });
    const notice = page
      .locator('.woocommerce-error, .woocommerce-info, .wc-block-components-notice-banner')
      .filter({ hasText: 'Your card payment was declined.' });
    await expect(notice).toBeVisible();
    await settle(page);
    await notice.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${DIR}order-pay-declined.png` });
  });

  test('thank-you page turned to "Paid"', async ({ page }) => {
    test.setTimeout(600_000);
    const store = runningStore();
    const secret = partnerSecret(store);
    // The buyer's session places the order; the service has taken the card (pending 2) when the buyer comes back.
    const order = await placeOrder(page.context().request, store);
    const funds = operationData(order, 'pending', 2);
    await serviceHas(store, secret, funds);
    expect(await sendCallback(store, secret, funds)).toBe('200 OK');
    await page.goto(order.callbacks.success);
    const words = page.locator('.card2crypto-payment-state .card2crypto-payment-words');
    await expect(words).toHaveText('Your payment is being processed.');
    // The bitcoin is sent: the open page turns to "Paid" by itself.
    const success = operationData(order, 'success', 6);
    await serviceHas(store, secret, success);
    expect(await sendCallback(store, secret, success)).toBe('200 OK');
    await expect(words).toHaveText('Paid. The bitcoin was sent to the store.', { timeout: 120_000 });
    await settle(page);
    await words.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${DIR}thank-you-paid.png` });
  });
});

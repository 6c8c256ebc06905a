// The README's pictures, taken from the real run: the store with the widget
// in its sidebar, the checkout, the widget itself, the payment settings and
// the sandbox dashboard. Written to docs/screenshots/ (a page that does not
// exist in this run is skipped, not faked).
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { WOOCOMMERCE_MISSING, runInfo } from '../run-info.ts';

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

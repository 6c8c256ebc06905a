// The store the harness seeds, as a buyer sees it after the plugins are
// installed: products priced in EUR, the widget block in the sidebar, the
// card payment method at checkout.
import { expect, test } from './fixtures';
import { collectJsErrors, phpProblemsIn } from '../checks.ts';
import { WOOCOMMERCE_MISSING, runInfo } from '../run-info.ts';

const info = runInfo();
test.use({ baseURL: info.storeUrl });

test('the sidebar holds the card2crypto widget block', async ({ page }) => {
  test.skip(!info.booted, 'The widget placement is seeded by the harness; not checked on an external WordPress.');
  const jsErrors = collectJsErrors(page, info.storeUrl);
  await page.goto('/');
  const widget = page.locator('aside.widget-area .wp-block-card2crypto-widget');
  await expect(widget).toBeVisible();
  expect(phpProblemsIn(await page.locator('body').innerText())).toEqual([]);
  expect(jsErrors).toEqual([]);
});

test('the store hands out no log file and no database, on Playground as on nginx', async ({ request }) => {
  test.skip(!info.booted, "The web server is the harness's only when it booted WordPress here.");
  for (const path of [
    '/wp-content/debug.log',
    '/wp-content/database/.ht.sqlite',
    '/wp-content/uploads/wc-logs/card2crypto-checkout.log',
    '/wp-content/debug%2elog',
  ]) {
    expect((await request.get(path)).status(), path).toBe(403);
  }
});

test.describe('with WooCommerce', () => {
  test.skip(!info.hasWooCommerce, WOOCOMMERCE_MISSING);

  test('the shop lists the sample products priced in EUR', async ({ page }) => {
    test.skip(!info.booted, 'Sample products are seeded by the harness.');
    await page.goto('/');
    const products = page.locator('ul.products li.product');
    await expect(products).toHaveCount(info.products.length);
    for (const price of await products.locator('.price').allInnerTexts()) {
      expect(price).toContain('€');
    }
  });

  test('a buyer can choose the card payment method at checkout', async ({ page }) => {
    const jsErrors = collectJsErrors(page, info.storeUrl);
    await page.goto(info.products[0]?.url ?? '/');
    await page.locator('button[name="add-to-cart"], a.add_to_cart_button').first().click();
    await page.waitForLoadState('load');
    await page.goto('/checkout/');
    await expect(page.locator('input[value="card2crypto"]').first()).toBeAttached();
    expect(phpProblemsIn(await page.locator('body').innerText())).toEqual([]);
    expect(jsErrors).toEqual([]);
  });

  test('beside the block checkout, a classic (shortcode) checkout page offers the card payment', async ({ page }) => {
    test.skip(!info.booted, 'The classic checkout page is seeded by the harness.');
    const classic = info.pages?.classic_checkout;
    expect(classic, 'the seed reports the classic checkout page (npm start prints it)').toBeTruthy();
    const jsErrors = collectJsErrors(page, info.storeUrl);
    await page.goto(info.products[0]?.url ?? '/');
    await page.locator('button[name="add-to-cart"], a.add_to_cart_button').first().click();
    await page.waitForLoadState('load');
    await page.goto(info.pages!.checkout!);
    await expect(page.locator('.wp-block-woocommerce-checkout').first()).toBeAttached();
    await page.goto(classic!);
    // The classic form, not the block: WooCommerce's shortcode markup with its payment list.
    await expect(page.locator('form.woocommerce-checkout')).toBeVisible();
    await expect(page.locator('.wp-block-woocommerce-checkout')).toHaveCount(0);
    await expect(page.locator('#payment input[name="payment_method"][value="card2crypto"]')).toBeAttached();
    expect(phpProblemsIn(await page.locator('body').innerText())).toEqual([]);
    expect(jsErrors).toEqual([]);
  });
});

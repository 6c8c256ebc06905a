/**
 * Outside the service's range for the currency the card method cannot be
 * used: the block checkout (by its payment options), the cart and the classic
 * checkout (above its payment methods) say why, in words and money (Range_Notice;
 * in the blocks through the checkout script's notice, which follows the cart's
 * total), instead of leaving the buyer with "no payment methods available".
 * Below the minimum the buyer is told to add to the order, above the maximum
 * to split it; back in range the method is offered and the sentence is gone.
 */
import { expect, test, type Page } from './fixtures';
import { addToCart, classicCheckoutPage, loginAsAdmin, requireWooCommerce, runningStore } from './checkout-helpers.js';

const store = runningStore();
const RANGE = 'Card payment is available for orders from €50.00 to €5,000.00.';
// The test store offers no other payment method: the words offer none either.
const ADD = 'Add to your order to pay by card.';
const SPLIT = 'Split your order to pay by card.';

function product(sku: string): number {
  const found = store.woocommerce!.products.find((p) => p.sku === sku);
  if (!found?.id) {
    throw new Error(`the seeded store has no product ${sku}`);
  }
  return found.id;
}

/** The cart holds `quantity` of `sku` and nothing else. */
async function cartOf(page: Page, sku: string, quantity: number): Promise<void> {
  await page.context().clearCookies();
  await addToCart(page, store, product(sku), quantity);
}

/** Our sentence as shown on the page: a block notice, or the classic pages' own (not the screen reader's live region, which repeats it). */
const told = (page: Page, text: string) => page.locator('.wc-block-components-notice-banner, .card2crypto-range-notice').filter({ hasText: text });

const cardMethod = (page: Page) =>
  page
    .locator('.wc-block-components-radio-control__label, .wc-block-components-payment-method-label, label[for="payment_method_card2crypto"]')
    .filter({ hasText: /card/i });

test.describe('the order total outside the service range', () => {
  test.beforeEach(() => requireWooCommerce(store));

  test('below the minimum: the block checkout, the cart and the classic checkout say why card payment is not offered, until the total is in range', async ({
    page,
    browser,
  }) => {
    test.setTimeout(300_000);
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    const classic = await classicCheckoutPage(admin);
    await admin.close();

    // A sticker pack: 4.90 EUR.
    await cartOf(page, 'c2c-sticker-pack', 1);
    await page.goto(`${store.storeUrl}/checkout/`, { waitUntil: 'domcontentloaded' });
    // Once, by the payment options (the checkout would also show a cart notice at its top).
    const payments = page.locator('.wp-block-woocommerce-checkout-payment-block');
    await expect(payments.locator('.wc-block-components-notice-banner').filter({ hasText: RANGE })).toBeVisible({ timeout: 60_000 });
    await expect(told(page, RANGE)).toHaveCount(1);
    await expect(told(page, ADD)).toBeVisible();
    await expect(cardMethod(page)).toHaveCount(0);
    // One message that fits the store (its only method is ours): WooCommerce's own red "no payment methods", which it
    // renders here, gives way to ours.
    const wooNoMethods = page.locator('.wc-block-checkout__no-payment-methods-notice');
    await expect(wooNoMethods).toHaveCount(1);
    await expect(wooNoMethods).toBeHidden();

    await page.goto(`${store.storeUrl}/cart/`, { waitUntil: 'domcontentloaded' });
    await expect(told(page, RANGE)).toBeVisible({ timeout: 60_000 });
    await expect(told(page, RANGE)).toHaveCount(1);

    await page.goto(classic, { waitUntil: 'domcontentloaded' });
    await expect(page.locator('#order_review').locator('.card2crypto-range-notice').filter({ hasText: RANGE })).toBeVisible({ timeout: 60_000 });
    await expect(told(page, ADD)).toBeVisible();
    await expect(cardMethod(page)).toHaveCount(0);
    // One message that fits the store: ours, in WooCommerce's own place, not beside its "no payment methods".
    await expect(told(page, RANGE)).toHaveCount(1);
    await expect(page.locator('#order_review').getByText(/no (available )?payment methods/i)).toHaveCount(0);

    // A hardware wallet more: 83.90 EUR.
    await addToCart(page, store, product('c2c-hardware-wallet'));
    await page.goto(`${store.storeUrl}/checkout/`, { waitUntil: 'domcontentloaded' });
    await expect(cardMethod(page).first()).toBeVisible({ timeout: 60_000 });
    await expect(told(page, RANGE)).toHaveCount(0);
    await page.goto(classic, { waitUntil: 'domcontentloaded' });
    await expect(cardMethod(page).first()).toBeVisible({ timeout: 60_000 });
    await expect(told(page, RANGE)).toHaveCount(0);
  });

  test('above the maximum: the buyer is told to split the order, and the cart follows a quantity change without a reload', async ({ page }) => {
    test.setTimeout(300_000);
    // 39 whitepaper prints: 5,031.00 EUR.
    await cartOf(page, 'c2c-whitepaper-print', 39);
    await page.goto(`${store.storeUrl}/checkout/`, { waitUntil: 'domcontentloaded' });
    await expect(told(page, RANGE)).toBeVisible({ timeout: 60_000 });
    await expect(told(page, SPLIT)).toBeVisible();
    await expect(cardMethod(page)).toHaveCount(0);

    await page.goto(`${store.storeUrl}/cart/`, { waitUntil: 'domcontentloaded' });
    await expect(told(page, SPLIT)).toBeVisible({ timeout: 60_000 });
    // One fewer (4,902.00 EUR), in the cart block itself: the notice goes as the total changes.
    await page
      .getByRole('button', { name: /Reduce quantity/i })
      .first()
      .click();
    await expect(told(page, RANGE)).toHaveCount(0, { timeout: 60_000 });
  });
});

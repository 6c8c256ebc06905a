/**
 * The buyer cannot change what the store is owed (issue 15, point 5). With
 * the default settings the rate is fixed (calculate) each time the buyer goes
 * to pay, and the widget locks the amount and the currencies at the order's
 * total. A payment that does not match the order is told as it is (on hold,
 * the store checks it, do not pay again) wherever the buyer lands. A fixed
 * rate that expired before paying (declined 105) is told, and paying again
 * fixes a fresh rate (a new calculation_id).
 */
import { expect, test, type Page } from './fixtures';
import { parseLandingUrl } from '@card2crypto/core';
import {
  loginAsAdmin,
  operationData,
  partnerSecret,
  payInWidget,
  placeOrder,
  requireWooCommerce,
  runningStore,
  sendCallback,
  serviceHas,
} from './checkout-helpers.js';

const store = runningStore();
const secret = partnerSecret(store);
const WIDGET = 'iframe.card2crypto-widget-frame';
/** Sandbox test card: declined 105, as when the fixed rate expired before paying (packages/sandbox/README.md). */
const RATE_EXPIRED_CARD = '4000010500000006';
const EXPIRED = 'The exchange rate reserved for your payment expired before the payment was made. You can pay again at a fresh rate.';
const ON_HOLD = 'Your payment is on hold: it does not match this order, so the store checks it by hand and will contact you. Please do not pay again.';
const NOTICES = '.woocommerce-error, .woocommerce-info, .woocommerce-message, .wc-block-components-notice-banner';

/** The calculation_id the landing page at `url` was signed with. */
function calculationOf(url: string): unknown {
  const parsed = parseLandingUrl(url);
  if (!parsed.ok) {
    throw new Error(`Not a landing URL: ${url}`);
  }
  return parsed.payload.params.calculation_id;
}

/** The widget on the landing page: amount and currencies locked at the order's total, the rate's expiry shown. */
async function expectLocked(page: Page, amount: string): Promise<void> {
  const frame = page.frameLocator(WIDGET);
  await expect(frame.locator('#from_amount')).toBeVisible({ timeout: 120_000 });
  await expect(frame.locator('#from_amount')).toBeDisabled();
  await expect(frame.locator('#from_amount')).toHaveValue(amount);
  await expect(frame.locator('#from_currency')).toBeDisabled();
  await expect(frame.locator('#from_currency')).toHaveValue('EUR');
  await expect(frame.locator('#to_currency')).toBeDisabled();
  await expect(frame.locator('#to_currency')).toHaveValue('BTC');
  await expect(frame.locator('#fixed-until')).toBeVisible();
}

test.describe('fixed rate by default: the buyer cannot change what the store is owed', () => {
  test.describe.configure({ timeout: 300_000 });
  test.beforeEach(() => requireWooCommerce(store));

  test('default settings: the rate is fixed and the widget locks amount and currencies; an expired rate is told and paying again fixes a fresh one', async ({
    browser,
  }) => {
    // Nothing stored for it (the seeded store): the settings page shows the schema default, on.
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    await admin.goto(`${store.storeUrl}/wp-admin/admin.php?page=wc-settings&tab=checkout&section=card2crypto`, { waitUntil: 'domcontentloaded' });
    await expect(admin.locator('#woocommerce_card2crypto_fix_rate')).toBeChecked();
    await admin.close();

    const buyerContext = await browser.newContext();
    const buyer = await buyerContext.newPage();
    const order = await placeOrder(buyerContext.request, store);
    const first = order.params.calculation_id;
    expect(typeof first).toBe('string');
    expect(order.params.from_amount).toBe(7900);
    await buyer.goto(order.redirect, { waitUntil: 'domcontentloaded' });
    await expectLocked(buyer, '79.00');

    // Declined 105: back on the order's payment page, told that the rate expired.
    await payInWidget(buyer, RATE_EXPIRED_CARD, WIDGET);
    await buyer.waitForURL(/order-pay\/\d+/, { timeout: 120_000 });
    await expect(buyer.locator(NOTICES).filter({ hasText: EXPIRED })).toBeVisible();

    // The order's page says the same, with "Pay again": a new attempt, at a fresh rate, locked again.
    await buyer.goto(order.callbacks.success, { waitUntil: 'domcontentloaded' });
    await expect(buyer.locator('.card2crypto-payment-words')).toHaveText(EXPIRED);
    await buyer.locator('.card2crypto-payment-pay').getByRole('link', { name: 'Pay again' }).click();
    await buyer.waitForURL(/order-pay\/\d+/);
    await buyer.locator('#payment_method_card2crypto').check({ force: true });
    await buyer.locator('#place_order').click();
    await buyer.waitForURL(/\/landing\/\?i=/, { timeout: 120_000 });
    const second = calculationOf(buyer.url());
    expect(typeof second).toBe('string');
    expect(second).not.toBe(first);
    await expectLocked(buyer, '79.00');
    await buyerContext.close();
  });

  test('a payment that does not match the order: the buyer is told it is on hold, not that it is being processed', async ({ browser }) => {
    const buyerContext = await browser.newContext();
    const buyer = await buyerContext.newPage();
    const order = await placeOrder(buyerContext.request, store);
    // The service reports a success for less than the order asks (EUR 50.00 for 79.00).
    const short = operationData(order, 'success', 0, { amount: 5000 });
    await serviceHas(store, secret, short);
    expect(await sendCallback(store, secret, short)).toBe('200 OK');

    // The success address (order-received page).
    await buyer.goto(order.callbacks.success, { waitUntil: 'domcontentloaded' });
    const words = buyer.locator('.card2crypto-payment-state .card2crypto-payment-words');
    await expect(words).toHaveText(ON_HOLD);
    await expect(words).toHaveAttribute('data-state', 'on_hold');
    await expect(buyer.getByText(/being processed/)).toHaveCount(0);
    await expect(buyer.locator('.card2crypto-payment-pay')).toBeHidden();

    // The fail address (the buyer closed the payment page, say): the same truth, as a notice.
    await buyer.goto(order.callbacks.fail, { waitUntil: 'domcontentloaded' });
    await expect(buyer.locator(NOTICES).filter({ hasText: ON_HOLD })).toBeVisible();
    await buyerContext.close();
  });
});

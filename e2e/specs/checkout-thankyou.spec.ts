/**
 * The live thank-you page (issue 15, point 3), in a real browser: the buyer
 * is back on the order-received page while the payment is not final; a
 * genuine callback (backed by the service, serviceHas) then changes the page
 * without a reload: paid, or declined with what happened and the order's pay
 * link. The page asks the store's read-only payment-state route (order key
 * required, never cached), stops asking at a final state, and is not loaded
 * at all once the state is final.
 */
import { expect, test, type Page, type Response } from './fixtures';
import { operationData, placeOrder, requireWooCommerce, runningStore, sendCallback, serviceHas, partnerSecret } from './checkout-helpers.js';

const store = runningStore();
const secret = partnerSecret(store);
const STATE = /\/card2crypto\/v1\/orders\/\d+\/payment-state\?/;
// The test store has no other payment method: none is named (issue 32, point 6).
const DECLINED = 'Your card payment was declined. You can pay again with another card.';

/** The buyer's page: every answer of the payment-state route, and every time the page itself loaded. */
function watchPage(page: Page): { answers: Response[]; loads: string[] } {
  const seen = { answers: [] as Response[], loads: [] as string[] };
  page.on('response', (r) => {
    if (STATE.test(r.url())) {
      seen.answers.push(r);
    }
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) {
      seen.loads.push(frame.url());
    }
  });
  return seen;
}

test.describe('the thank-you page updates itself', () => {
  // A WordPress on a busy machine answers one request in seconds.
  test.describe.configure({ timeout: 900_000 });
  test.beforeEach(() => requireWooCommerce(store));

  test('paid: processing, then the genuine success shows "Paid" without a reload; then it stops asking', async ({ browser }) => {
    const buyerContext = await browser.newContext();
    // The page's own timers run on a clock the test can move (it runs with real time until moved).
    await buyerContext.clock.install();
    const buyer = await buyerContext.newPage();
    // The buyer's own session places the order, as the checkout does; the service took the card (pending 2).
    const order = await placeOrder(buyerContext.request, store);
    expect(order.callbacks.success).toMatch(/order-received\/\d+/);
    const funds = operationData(order, 'pending', 2);
    await serviceHas(store, secret, funds);
    expect(await sendCallback(store, secret, funds)).toBe('200 OK');

    // The service sends the buyer back to the store's success address while the payment is still under way.
    const seen = watchPage(buyer);
    await buyer.goto(order.callbacks.success, { waitUntil: 'domcontentloaded', timeout: 240_000 });
    const words = buyer.locator('.card2crypto-payment-state .card2crypto-payment-words');
    await expect(words).toHaveText('Your payment is being processed.');
    await expect(words).toHaveAttribute('aria-live', 'polite');
    await expect.poll(() => seen.answers.length, { timeout: 120_000 }).toBeGreaterThan(0);
    const first = seen.answers[0]!;
    expect(first.request().method()).toBe('GET');
    expect(first.headers()['cache-control']).toBe('no-store');
    // The page names the state it shows (since): unchanged, the store answers before WooCommerce loads (State_Poll).
    const shown = new URL(first.url()).searchParams.get('since');
    expect(shown).toMatch(/^[0-9a-f]{16}$/);
    expect(await first.json()).toEqual({ changed: false });
    await buyer.evaluate(() => ((window as unknown as { c2cSamePage: boolean }).c2cSamePage = true));

    // Asked in full, the route says the state in words, with the version the page showed.
    const route = new URL(first.url());
    route.searchParams.delete('since');
    expect(await (await buyerContext.request.get(route.href)).json()).toEqual({
      state: 'processing',
      final: false,
      message: 'Your payment is being processed.',
      // The order's current payment: an open embedded page compares it with its own (issue 32 point 1).
      attempt: expect.stringMatching(new RegExp(`^wc-${order.id}-[0-9a-f]{24}$`)),
      v: shown,
    });
    // The route answers only with the order's key.
    route.searchParams.set('key', `${order.key}x`);
    expect((await buyerContext.request.get(route.href)).status()).toBe(404);

    const success = operationData(order, 'success', 6);
    await serviceHas(store, secret, success);
    expect(await sendCallback(store, secret, success)).toBe('200 OK');
    await expect(words).toHaveText('Paid. The bitcoin was sent to the store.', { timeout: 120_000 });
    expect(await buyer.evaluate(() => (window as unknown as { c2cSamePage?: boolean }).c2cSamePage)).toBe(true);
    expect(seen.loads).toHaveLength(1);
    await expect(buyer.locator('.card2crypto-payment-pay')).toBeHidden();

    // Final: no more questions. The page's clock moves a minute on (twice its longest wait between questions),
    // firing every timer due meanwhile, instead of the test waiting; a question then asked is seen as it is sent.
    const asked = seen.answers.length;
    const questions: string[] = [];
    buyer.on('request', (r) => {
      if (STATE.test(r.url())) {
        questions.push(r.url());
      }
    });
    await buyer.clock.runFor(60_000);
    await expect(words).toHaveText('Paid. The bitcoin was sent to the store.');
    expect(questions).toEqual([]);
    expect(seen.answers).toHaveLength(asked);

    // Loaded again once final, the page says "Paid" and does not load the script at all.
    await buyer.reload({ waitUntil: 'load', timeout: 240_000 });
    await expect(words).toHaveText('Paid. The bitcoin was sent to the store.');
    await expect(buyer.locator('script[src*="build/order-received.js"]')).toHaveCount(0);
    await buyerContext.close();
  });

  test('declined: the genuine decline shows what happened and the order pay link without a reload', async ({ browser }) => {
    const buyerContext = await browser.newContext();
    const buyer = await buyerContext.newPage();
    const order = await placeOrder(buyerContext.request, store);

    // Back on the store before the service said anything.
    const seen = watchPage(buyer);
    await buyer.goto(order.callbacks.success, { waitUntil: 'domcontentloaded', timeout: 240_000 });
    const words = buyer.locator('.card2crypto-payment-state .card2crypto-payment-words');
    await expect(words).toHaveText('Waiting for the payment. This page shows the result once the service reports it.');
    await expect(buyer.locator('.card2crypto-payment-pay a')).toHaveCount(0);
    await expect.poll(() => seen.answers.length, { timeout: 120_000 }).toBeGreaterThan(0);

    const declined = operationData(order, 'declined', 101);
    await serviceHas(store, secret, declined);
    expect(await sendCallback(store, secret, declined)).toBe('200 OK');
    await expect(words).toHaveText(DECLINED, { timeout: 120_000 });
    const pay = buyer.locator('.card2crypto-payment-pay a');
    await expect(pay).toHaveText('Pay again');
    await expect(pay).toHaveAttribute('href', new RegExp(`/order-pay/${order.id}/\\?pay_for_order=true&key=${order.key}$`));
    expect(seen.loads).toHaveLength(1);

    // The link leads to the order's payment page.
    await pay.click();
    await buyer.waitForURL(new RegExp(`/order-pay/${order.id}/`), { timeout: 240_000 });
    await expect(buyer.locator('#place_order, .card2crypto-order-pay').first()).toBeAttached();
    await buyerContext.close();
  });
});

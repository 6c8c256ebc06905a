/**
 * One anonymous visitor must not stop card payments for every buyer (issue
 * 22, point 2), over real HTTP against the real store and the sandbox: the
 * key of one's own order was enough to make the landing route ask the
 * service about every attempt and fix a rate on every GET, before the
 * hourly cap was checked, until the partner's rate limit at the service was
 * used up. Now each such request is budgeted before its first service call
 * (per order and per client address), answers are reused for a few seconds,
 * and the sandbox's own count of the store's API requests shows the cost.
 */
import { expect, test } from './fixtures';
import { parseLandingUrl } from '@card2crypto/core';
import { placeOrder, requireWooCommerce, runningStore } from './checkout-helpers.js';

const store = runningStore();

/** The store's partner API requests the sandbox has received so far, all endpoints together. */
async function serviceCalls(): Promise<number> {
  const state = (await (await fetch(`${store.sandbox!.url}/dashboard/api/state?limit=1`)).json()) as {
    partners: Array<{ token: string; api_calls?: Record<string, number> }>;
  };
  return Object.values(state.partners.find((p) => p.token === store.partner.token)?.api_calls ?? {}).reduce((a, b) => a + b, 0);
}

test.describe("a flood of one order's landing route", () => {
  test.beforeEach(() => requireWooCommerce(store));

  test('a fresh order costs at most 2 service calls, a reuse at most 1; past the budget no call is made and the buyer is told to wait', async ({ request }) => {
    const order = await placeOrder(request, store);
    const link = `${store.storeUrl}/wp-json/card2crypto/v1/orders/${order.id}/landing?key=${encodeURIComponent(order.key)}`;
    const follow = async () => {
      const response = await request.get(link, { maxRedirects: 0 });
      return response.headers().location ?? '';
    };

    // Placing the order already followed the link once (placeOrder): a fresh order, then its reuses.
    let before = await serviceCalls();
    expect(parseLandingUrl(await follow()).ok).toBe(true);
    expect(await serviceCalls()).toBeLessThanOrEqual(before + 1);

    const answers: string[] = [];
    before = await serviceCalls();
    for (let i = 0; i < 20; i++) {
      answers.push(await follow());
    }
    const spent = (await serviceCalls()) - before;
    const sent = answers.filter((a) => parseLandingUrl(a).ok).length;
    // The order's budget (12 a minute, two of them used above) lets some through, each a reuse (one call: the rate);
    // every other request is refused before asking anything.
    expect(sent).toBeLessThanOrEqual(11);
    expect(sent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(sent);
    const refused = answers.filter((a) => !parseLandingUrl(a).ok);
    expect(refused.length).toBe(20 - sent);
    for (const target of refused) {
      expect(target).toContain(`/order-pay/${order.id}/`);
    }
  });
});

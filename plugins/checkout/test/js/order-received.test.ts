/**
 * The live thank-you page (src/order-received.ts) against Order_View's
 * section as PHP renders it: it asks the payment-state route with back-off
 * (2 s growing to 30 s), puts the store's words in place, stops at a final
 * state (with the pay link after a failure), keeps asking through errors,
 * and after 10 minutes stops and says so. Timers are jest's; fetch answers
 * from a list.
 */
import { askUrl, FIRST_DELAY, GIVE_UP_AFTER, MAX_DELAY, nextDelay, watch, type OrderReceivedConfig, type PaymentState } from '../../src/order-received';

const CONFIG: OrderReceivedConfig = {
  rest: 'https://shop.test/wp-json/card2crypto/v1/orders/7/payment-state?key=wc_order_k',
  i18n: { pay: 'Pay again', stopped: 'This page has stopped checking for updates.' },
};
const WAITING: PaymentState = { state: 'waiting', final: false, message: 'Waiting for the payment.' };
const PROCESSING: PaymentState = { state: 'processing', final: false, message: 'Your payment is being processed.' };
const PAID: PaymentState = { state: 'paid', final: true, message: 'Paid. The bitcoin was sent to the store.' };
const FAILED: PaymentState = {
  state: 'failed',
  final: true,
  message: 'Your card payment was declined.',
  pay_url: 'https://shop.test/checkout/order-pay/7/?pay_for_order=true&key=wc_order_k',
};

type Reply = PaymentState | { status: number } | { changed: false } | 'network';
let replies: Reply[] = [];
let sinces: Array<string | null> = [];
let asked: number[] = [];
let fetchMock: jest.Mock;

function section(): HTMLElement {
  document.body.innerHTML = `<section class="card2crypto-payment-state"><h2>Card payment</h2>
    <p class="card2crypto-payment-words" data-state="waiting" role="status" aria-live="polite">${WAITING.message}</p>
    <p class="card2crypto-payment-pay" hidden></p></section>`;
  return document.querySelector<HTMLElement>('.card2crypto-payment-state')!;
}
const words = () => document.querySelector<HTMLElement>('.card2crypto-payment-words')!;
const pay = () => document.querySelector<HTMLElement>('.card2crypto-payment-pay')!;

beforeEach(() => {
  jest.useFakeTimers();
  replies = [];
  asked = [];
  sinces = [];
  const start = Date.now();
  fetchMock = jest.fn(async (url: string, init: RequestInit) => {
    if (url.split('&since=')[0] !== CONFIG.rest || init.cache !== 'no-store') {
      // Swallowed by the script like a network error: its words never change, so the test fails.
      throw new Error(`asked ${url} with cache ${String(init.cache)}`);
    }
    asked.push(Date.now() - start);
    sinces.push(new URL(url).searchParams.get('since'));
    const reply = replies.shift() ?? WAITING;
    if (reply === 'network') {
      throw new TypeError('Failed to fetch');
    }
    const status = 'status' in reply ? reply.status : 200;
    return { ok: status < 300, status, json: async () => ('status' in reply ? { code: 'x', message: 'Nope' } : reply) };
  });
  global.fetch = fetchMock as unknown as typeof fetch;
});
afterEach(() => {
  jest.useRealTimers();
});

test('the waits grow from 2 s by half again up to 30 s', () => {
  const waits = [FIRST_DELAY];
  while (waits.length < 8) {
    waits.push(nextDelay(waits[waits.length - 1]!));
  }
  expect(waits).toEqual([2000, 3000, 4500, 6750, 10125, 15188, 22782, 30000]);
  expect(MAX_DELAY).toBe(30_000);
});

test('asks with back-off, puts each answer in place, stops at paid', async () => {
  replies = [WAITING, PROCESSING, PROCESSING, PAID];
  watch(CONFIG, section());
  await jest.advanceTimersByTimeAsync(1_999);
  expect(fetchMock).not.toHaveBeenCalled();
  await jest.advanceTimersByTimeAsync(1);
  expect(asked).toEqual([2000]);
  expect(words()).toHaveTextContent(WAITING.message);
  await jest.advanceTimersByTimeAsync(3000);
  expect(asked).toEqual([2000, 5000]);
  expect(words()).toHaveTextContent(PROCESSING.message);
  expect(words().dataset.state).toBe('processing');
  await jest.advanceTimersByTimeAsync(4500 + 6750);
  expect(asked).toEqual([2000, 5000, 9500, 16250]);
  expect(words()).toHaveTextContent(PAID.message);
  expect(words().dataset.state).toBe('paid');
  expect(pay()).not.toBeVisible();
  // Final: never asked again.
  await jest.advanceTimersByTimeAsync(GIVE_UP_AFTER);
  expect(fetchMock).toHaveBeenCalledTimes(4);
  expect(words()).not.toHaveTextContent(CONFIG.i18n.stopped);
});

test('a failure shows what happened and the order pay link; a link that is not http(s) is never made', async () => {
  replies = [FAILED];
  watch(CONFIG, section());
  await jest.advanceTimersByTimeAsync(FIRST_DELAY);
  expect(words()).toHaveTextContent(FAILED.message);
  const link = pay().querySelector('a')!;
  expect(pay()).toBeVisible();
  expect(link).toHaveAttribute('href', FAILED.pay_url);
  expect(link).toHaveTextContent('Pay again');
  await jest.advanceTimersByTimeAsync(GIVE_UP_AFTER);
  expect(fetchMock).toHaveBeenCalledTimes(1);

  replies = [{ ...FAILED, pay_url: 'javascript:alert(1)' }];
  watch(CONFIG, section());
  await jest.advanceTimersByTimeAsync(FIRST_DELAY);
  expect(words()).toHaveTextContent(FAILED.message);
  expect(pay().querySelector('a')).toBeNull();
  expect(pay()).not.toBeVisible();
});

/** WooCommerce's order details table with its order actions, as it renders them for a pending order. */
function orderActions(): void {
  document.body.insertAdjacentHTML(
    'beforeend',
    `<table class="woocommerce-table--order-details"><tfoot><tr><th class="order-actions--heading">Actions:</th><td>
      <a href="https://shop.test/checkout/order-pay/7/?pay_for_order=true" class="woocommerce-button button pay order-actions-button ">Pay</a>
      <a href="https://shop.test/cart/?cancel_order=true" class="woocommerce-button button cancel order-actions-button ">Cancel</a>
    </td></tr><tr><th>Total:</th><td>79.00</td></tr></tfoot></table>`,
  );
}
const actionsRow = () => document.querySelector('.order-actions--heading');

test("WooCommerce's Pay and Cancel go once the payment is paid or under way, and stay after a failure", async () => {
  for (const [answer, kept] of [
    [PAID, false],
    [PROCESSING, false],
    [FAILED, true],
  ] as const) {
    replies = [answer];
    const root = section();
    orderActions();
    watch(CONFIG, root);
    expect(document.querySelectorAll('.order-actions-button')).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(FIRST_DELAY);
    expect(words()).toHaveTextContent(answer.message);
    expect(document.querySelectorAll('.order-actions-button.pay, .order-actions-button.cancel')).toHaveLength(kept ? 2 : 0);
    // The empty "Actions:" row goes with them; the rest of the table stays.
    expect(actionsRow() !== null).toBe(kept);
    expect(document.body).toHaveTextContent('Total:');
    jest.clearAllTimers();
  }
});

test('errors and odd answers change nothing and it keeps asking; after 10 minutes it stops and says so', async () => {
  replies = ['network', { status: 503 }, { status: 404 }, { state: 'x' } as unknown as PaymentState, PROCESSING];
  watch(CONFIG, section());
  await jest.advanceTimersByTimeAsync(2000 + 3000 + 4500 + 6750);
  expect(fetchMock).toHaveBeenCalledTimes(4);
  expect(words()).toHaveTextContent(WAITING.message);
  await jest.advanceTimersByTimeAsync(10125);
  expect(words()).toHaveTextContent(PROCESSING.message);
  await jest.advanceTimersByTimeAsync(GIVE_UP_AFTER);
  const calls = fetchMock.mock.calls.length;
  expect(asked[asked.length - 1]).toBeLessThanOrEqual(GIVE_UP_AFTER);
  // 2 + 3 + 4.5 + 6.75 + 10.1 + 15.2 + 22.8 s, then every 30 s: about 25 questions in 10 minutes, not hundreds.
  expect(calls).toBeGreaterThan(20);
  expect(calls).toBeLessThan(30);
  // The last answer (the list's end: waiting) and then that it stopped.
  expect(words()).toHaveTextContent(`${WAITING.message} ${CONFIG.i18n.stopped}`);
  await jest.advanceTimersByTimeAsync(GIVE_UP_AFTER);
  expect(fetchMock).toHaveBeenCalledTimes(calls);
});

test('runs by itself only on a page that hands it its data', async () => {
  section();
  jest.isolateModules(() => {
    require('../../src/order-received');
  });
  await jest.advanceTimersByTimeAsync(GIVE_UP_AFTER);
  expect(fetchMock).not.toHaveBeenCalled();

  (window as unknown as { card2cryptoOrderReceived: OrderReceivedConfig }).card2cryptoOrderReceived = CONFIG;
  replies = [PAID];
  jest.isolateModules(() => {
    require('../../src/order-received');
  });
  await jest.advanceTimersByTimeAsync(FIRST_DELAY);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(words()).toHaveTextContent(PAID.message);
  delete (window as unknown as { card2cryptoOrderReceived?: OrderReceivedConfig }).card2cryptoOrderReceived;
});

test('names the state it shows; an unchanged answer changes nothing, a new state brings its own version', async () => {
  const UNCHANGED = { changed: false } as const;
  replies = [UNCHANGED, UNCHANGED, { ...PROCESSING, v: 'v2' }, UNCHANGED, { ...PAID, v: 'v3' }];
  watch({ ...CONFIG, v: 'v1' }, section());
  await jest.advanceTimersByTimeAsync(2000 + 3000);
  // The page's own state (v1) is named; "unchanged" leaves its words and it asks again with the same version.
  expect(sinces).toEqual(['v1', 'v1']);
  expect(words()).toHaveTextContent(WAITING.message);
  await jest.advanceTimersByTimeAsync(4500);
  expect(words()).toHaveTextContent(PROCESSING.message);
  await jest.advanceTimersByTimeAsync(6750 + 10125);
  expect(sinces).toEqual(['v1', 'v1', 'v1', 'v2', 'v2']);
  expect(words()).toHaveTextContent(PAID.message);
  await jest.advanceTimersByTimeAsync(GIVE_UP_AFTER);
  expect(fetchMock).toHaveBeenCalledTimes(5);
});

test('askUrl adds the version to the route, keeping its key', () => {
  expect(askUrl(CONFIG.rest, undefined)).toBe(CONFIG.rest);
  expect(askUrl(CONFIG.rest, 'ab12')).toBe(`${CONFIG.rest}&since=ab12`);
  expect(askUrl('https://shop.test/?rest_route=%2Fcard2crypto%2Fv1%2Forders%2F7%2Fpayment-state&key=k', 'ab12')).toBe(
    'https://shop.test/?rest_route=%2Fcard2crypto%2Fv1%2Forders%2F7%2Fpayment-state&key=k&since=ab12',
  );
});

test('a hidden page asks nothing; seen again, it asks at once and goes on', async () => {
  let visibility: DocumentVisibilityState = 'hidden';
  const spy = jest.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  replies = [PROCESSING, PAID];
  watch(CONFIG, section());
  await jest.advanceTimersByTimeAsync(60_000);
  expect(fetchMock).not.toHaveBeenCalled();
  visibility = 'visible';
  document.dispatchEvent(new Event('visibilitychange'));
  await jest.advanceTimersByTimeAsync(0);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(words()).toHaveTextContent(PROCESSING.message);
  // Seen again and again asks nothing more than its waits allow.
  document.dispatchEvent(new Event('visibilitychange'));
  await jest.advanceTimersByTimeAsync(0);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  await jest.advanceTimersByTimeAsync(3000);
  expect(fetchMock).toHaveBeenCalledTimes(2);
  expect(words()).toHaveTextContent(PAID.message);
  spy.mockRestore();
});

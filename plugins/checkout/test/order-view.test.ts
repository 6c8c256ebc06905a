/**
 * The live thank-you page (issue 15, point 3), its PHP side: Order_View says
 * the payment's state in the buyer's words (one function for the rendered
 * page and the route), which states are final (paid, failed with what to do,
 * on hold, cancelled, refunded); the read-only payment-state route answers
 * only with the right order key, with those words and the order's pay link
 * after a failure, never cached, without writing anything or asking the
 * service.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { orderScenario } from './support/order-scenario.js';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

interface State {
  state: string;
  final: boolean;
  message: string;
  pay_url?: string;
}
interface Answer {
  status: number;
  error?: string;
  data?: State;
  headers?: Record<string, string>;
  wrote: boolean;
  service_calls: number;
}

const DECLINED = 'Your card payment was declined. You can pay again with another card, or choose another payment method.';
const EXPIRED =
  'The exchange rate reserved for your payment expired before the payment was made. You can pay again at a fresh rate, or choose another payment method.';
const ON_HOLD = 'Your payment is on hold: it does not match this order, so the store checks it by hand and will contact you. Please do not pay again.';
const WAITING = 'Waiting for the payment. This page shows the result once the service reports it.';
const PAID = 'Paid. The bitcoin was sent to the store.';

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: the buyer's payment state`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    const words = async (...facts: object[]) =>
      (
        await php.runJson<Array<{ value?: State; error?: string }>>('words.php', {
          'store.json': 'null',
          'calls.json': JSON.stringify(
            facts.map((f) => ['view', { paid: false, order_status: 'on-hold', status: null, status_code: null, mismatch: false, ...f }]),
          ),
        })
      ).map((r) => r.value ?? r.error);

    test('final states: paid, failed per code with what to do, on hold when it does not match, cancelled, refunded', async () => {
      const states = (await words(
        { paid: true, order_status: 'processing', status: 'success', status_code: 6 },
        { paid: true, order_status: 'completed', status: 'declined', status_code: 101 },
        { order_status: 'failed', status: 'declined', status_code: 101 },
        { order_status: 'failed', status: 'declined', status_code: '105' },
        { status: 'success', status_code: 6, mismatch: true },
        { status: 'pending', status_code: 2, mismatch: true },
        { order_status: 'failed', status: 'declined', status_code: 102, mismatch: true },
        { order_status: 'cancelled' },
        { order_status: 'refunded', status: 'success', status_code: 0 },
      )) as State[];
      assert.deepEqual(
        states.map((s) => [s.state, s.final]),
        [
          ['paid', true],
          ['paid', true],
          ['failed', true],
          ['failed', true],
          ['on_hold', true],
          ['on_hold', true],
          ['failed', true],
          ['cancelled', true],
          ['refunded', true],
        ],
      );
      assert.equal(states[0]!.message, PAID);
      assert.equal(states[2]!.message, DECLINED);
      assert.equal(states[3]!.message, EXPIRED);
      assert.equal(states[4]!.message, ON_HOLD);
      assert.match(states[7]!.message, /cancelled/);
      assert.match(states[8]!.message, /refunded/);
    });

    test('not final while money may still move: waiting, processing, confirming, checked by the store; an unknown pair is reviewed', async () => {
      const states = (await words(
        { order_status: 'pending' },
        { order_status: 'pending', status: 'pending', status_code: 1 },
        { status: 'pending', status_code: 2 },
        { status: 'pending', status_code: 9 },
        { status: 'awaiting confirm', status_code: 8 },
        // A success the order has not followed (yet): never called final, so a page asking in between keeps asking.
        { status: 'success', status_code: 6 },
        { status: 'success', status_code: 2 },
      )) as State[];
      assert.deepEqual(
        states.map((s) => [s.state, s.final, s.message]),
        [
          ['waiting', false, WAITING],
          ['waiting', false, WAITING],
          ['processing', false, 'Your payment is being processed.'],
          ['processing', false, 'Your payment is being processed.'],
          ['processing', false, 'Your card was charged; the store is confirming the payment.'],
          ['processing', false, 'Your payment was received and is being checked by the store.'],
          ['processing', false, 'The payment is being reviewed by the store.'],
        ],
      );
    });

    const ask = (requests: unknown[]) => php.runJson<Answer[]>('view.php', { 'scenario.json': JSON.stringify(orderScenario({ requests })) });

    test("a registered customer's order: the key alone is not enough, its customer must be logged in (issue 22, point 8)", async () => {
      const answers = await ask([
        // The attack: someone who has the key (a forwarded e-mail, a shared link) but is not the customer.
        { order_id: 7, key: 'wc_order_key7', customer: 42 },
        { order_id: 7, key: 'wc_order_key7', customer: 42, user: 43 },
        { order_id: 7, key: 'wc_order_key7', customer: 42, cookie_user: 43 },
        // The customer: through the REST API's own login, or its logged-in cookie (a request without the REST nonce).
        { order_id: 7, key: 'wc_order_key7', customer: 42, user: 42 },
        { order_id: 7, key: 'wc_order_key7', customer: 42, cookie_user: 42 },
        // A guest's order: the key is the proof, whoever asks.
        { order_id: 7, key: 'wc_order_key7', customer: 0, user: 43 },
        { order_id: 7, key: 'wc_order_key8', customer: 42, user: 42 },
      ]);
      assert.deepEqual(
        answers.map((a) => [a.status, a.error ?? a.data!.state]),
        [
          [403, 'card2crypto_login'],
          [403, 'card2crypto_login'],
          [403, 'card2crypto_login'],
          [200, 'waiting'],
          [200, 'waiting'],
          [200, 'waiting'],
          [404, 'card2crypto_order'],
        ],
      );
    });

    test('the route: only with the order key; its words, never cached; the pay link after a failure; nothing written, the service never asked', async () => {
      const answers = await ask([
        { order_id: 7, key: 'wc_order_key8' },
        { order_id: 7, key: '' },
        { order_id: 8, key: 'wc_order_key7' },
        { order_id: 7, key: 'wc_order_key7' },
        { order_id: 7, key: 'wc_order_key7', order_status: 'on-hold', attempt: { status: 'pending', status_code: 2 } },
        { order_id: 7, key: 'wc_order_key7', order_status: 'failed', attempt: { status: 'declined', status_code: 101 } },
        { order_id: 7, key: 'wc_order_key7', order_status: 'on-hold', attempt: { status: 'success', status_code: 6, mismatch: true } },
        { order_id: 7, key: 'wc_order_key7', order_status: 'processing', attempt: { status: 'success', status_code: 6 } },
        { order_id: 7, key: 'wc_order_key7', method: 'bacs' },
      ]);
      assert.deepEqual(
        answers.map((a) => [a.status, a.error ?? a.data!.state]),
        [
          [404, 'card2crypto_order'],
          [404, 'card2crypto_order'],
          [404, 'card2crypto_order'],
          [200, 'waiting'],
          [200, 'processing'],
          [200, 'failed'],
          [200, 'on_hold'],
          [200, 'paid'],
          [409, 'card2crypto_state'],
        ],
      );
      for (const answer of answers.filter((a) => a.status === 200)) {
        assert.equal(answer.headers!['Cache-Control'], 'no-store');
        assert.deepEqual(
          Object.keys(answer.data!).sort(),
          answer.data!.state === 'failed' ? ['attempt', 'final', 'message', 'pay_url', 'state', 'v'] : ['attempt', 'final', 'message', 'state', 'v'],
        );
        // Which payment is the order's own now: an order-pay page whose widget runs another one was replaced (issue 32).
        const attempt = (answer.data as State & { attempt: unknown }).attempt;
        assert.ok(attempt === null || /^wc-\d+-/.test(String(attempt)), String(attempt));
        // The version the page names next time (State_Poll).
        assert.match((answer.data as State & { v: string }).v, /^[0-9a-f]{16}$/);
      }
      const withoutVersion = (data?: State) => Object.fromEntries(Object.entries(data ?? {}).filter(([k]) => k !== 'v' && k !== 'attempt'));
      assert.deepEqual(withoutVersion(answers[5]!.data), {
        state: 'failed',
        final: true,
        // The store in these fakes offers no other payment method: none is named.
        message: 'Your card payment was declined. You can pay again with another card.',
        pay_url: 'https://shop.test/checkout/order-pay/7/?pay_for_order=true&key=wc_order_key7',
      });
      assert.deepEqual(withoutVersion(answers[6]!.data), { state: 'on_hold', final: true, message: ON_HOLD });
      // A different state is a different version.
      const shown = answers.filter((a) => a.status === 200).map((a) => a.data as State & { v: string });
      assert.ok(new Set(shown.map((d) => d.v)).size >= new Set(shown.map((d) => d.state)).size);
      assert.deepEqual(
        answers.map((a) => [a.wrote, a.service_calls]),
        answers.map(() => [false, 0]),
      );
    });
  });
}

/**
 * A buyer back from a payment that did not succeed (issue 15, point 2):
 * Buyer_Words says in plain words, per failure code, what happened and what
 * the buyer can do; Buyer_Return::tell() asks the service at once (no waiting
 * for reconciliation), applies the answer through Operation_Events (a success
 * completes the order, nothing moves backwards), notes what the buyer was
 * told, and says honestly when the payment could not be confirmed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';
import { orderScenario, POID, WALLET } from './support/order-scenario.js';

interface Told {
  kind: string;
  code: number | null;
  type: string;
  message: string;
  retry: boolean;
}
interface Step {
  told?: Told;
  error?: string;
  status: string;
  new_notes: string[];
  attempt: string;
  service_calls: number;
}

const STATUS_OF: Record<number, string> = { 1: 'pending', 2: 'pending', 0: 'success', 6: 'success', 8: 'awaiting confirm' };

function op(code: number, id = 'op-1', amount = 7900) {
  return {
    status: STATUS_OF[code] ?? 'declined',
    status_code: code,
    operation_info: {
      id,
      from: { amount, currency: { code: 'EUR', decimals: 2 } },
      to: {
        amount: 120000,
        currency: { code: 'BTC', decimals: 8 },
        withdrawal_method_info: { blockchain_address: WALLET, blockchain_tx_id: 'ab12cd', blockchain_explorer_url: 'https://mempool.space/testnet/tx/ab12cd' },
      },
    },
    partner_info: { operation_id: POID },
  };
}

const UNKNOWN = { status: 400, error: { code: 'invalid_parameter', field: 'partner_operation_id', message: 'no such operation' } };

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: the buyer told at once`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    const words = async (calls: unknown[]) =>
      (await php.runJson<Array<{ value?: Told | string; error?: string }>>('words.php', { 'store.json': 'null', 'calls.json': JSON.stringify(calls) })).map(
        (r) => r.value ?? r.error,
      );
    const tell = (steps: unknown[], order: { status?: string } = {}) =>
      php.runJson<Step[]>('return.php', { 'scenario.json': JSON.stringify(orderScenario({ settings: { auto_confirm: 'no' }, order, steps })) });

    test('each failure code in its own plain words, saying what the buyer can do', async () => {
      const texts = (await words([101, 102, 103, 104, 105, 106, 999].map((code) => ['failure', code]))) as string[];
      assert.equal(new Set(texts).size, 7, 'one text per code');
      assert.match(texts[0]!, /declined.*another card.*another payment method/);
      assert.match(texts[1]!, /not completed.*before your card was charged/);
      assert.match(texts[2]!, /identity verification/);
      assert.match(texts[3]!, /bank card could not be verified.*another card/);
      assert.match(texts[4]!, /exchange rate.*expired.*fresh rate/);
      assert.match(texts[5]!, /cancelled by the store/);
      for (const text of texts) {
        assert.match(text, /another payment method/);
        assert.doesNotMatch(text, /declined \(|status|code|\d{3}/, 'no service jargon');
      }
    });

    test('a store with no other payment method never points to one; each text still says what the buyer can do', async () => {
      const codes = [101, 102, 103, 104, 105, 106, 999];
      const withOthers = (await words(codes.map((code) => ['failure', code, true]))) as string[];
      const alone = (await words(codes.map((code) => ['failure', code, false]))) as string[];
      alone.forEach((text, i) => {
        assert.doesNotMatch(text, /another payment method/, text);
        assert.equal(text.split('. ')[0], withOthers[i]!.split('. ')[0], 'the same account of what happened');
        assert.match(text, /You can (pay|try) again/);
      });
      const facts = [
        { paid: false, asked: 'answered', status: 'declined', status_code: 101, event: 'fail' },
        { paid: false, asked: 'answered', status: 'pending', status_code: 1, event: 'exit' },
        { paid: false, asked: 'unknown', status: null, status_code: null, event: 'exit' },
        { paid: false, asked: 'unreachable', status: null, status_code: null, event: 'fail' },
      ];
      const told = (await words(facts.map((f) => ['buyer', { ...f, others: false }]))) as Told[];
      const withOther = (await words(facts.map((f) => ['buyer', { ...f, others: true }]))) as Told[];
      told.forEach((t, i) => {
        assert.doesNotMatch(t.message, /another payment method/, t.message);
        assert.match(t.message, /pay again/);
        assert.match(withOther[i]!.message, /choose another payment method/, 'with another method offered, it is named');
        assert.deepEqual([t.kind, t.retry], [withOther[i]!.kind, withOther[i]!.retry]);
      });
    });

    test('the decision: failed, paid, in progress, not finished, and an honest "not confirmed"', async () => {
      const [declined, expired, paid, pending, created, unknownFail, unknownExit, unreachable, strange, otherWindow] = (await words([
        ['buyer', { paid: false, asked: 'answered', status: 'declined', status_code: 101, event: 'fail' }],
        ['buyer', { paid: false, asked: 'answered', status: 'declined', status_code: 105, event: 'exit' }],
        ['buyer', { paid: true, asked: 'answered', status: 'success', status_code: 0, event: 'fail' }],
        ['buyer', { paid: false, asked: 'answered', status: 'pending', status_code: 2, event: 'fail' }],
        ['buyer', { paid: false, asked: 'answered', status: 'pending', status_code: 1, event: 'exit' }],
        ['buyer', { paid: false, asked: 'unknown', status: null, status_code: null, event: 'fail' }],
        ['buyer', { paid: false, asked: 'unknown', status: null, status_code: null, event: 'exit' }],
        ['buyer', { paid: false, asked: 'unreachable', status: null, status_code: null, event: 'fail' }],
        ['buyer', { paid: false, asked: 'answered', status: 'success', status_code: 101, event: 'fail' }],
        ['buyer', { paid: false, asked: 'unknown', status: null, status_code: null, event: 'exit', others_live: true }],
      ])) as Told[];
      assert.deepEqual([declined!.kind, declined!.code, declined!.type, declined!.retry], ['failed', 101, 'error', true]);
      assert.deepEqual([expired!.kind, expired!.code], ['failed', 105]);
      assert.equal(paid!.kind, 'paid');
      assert.deepEqual([pending!.kind, pending!.retry], ['in_progress', false]);
      assert.match(pending!.message, /do not pay again/);
      assert.deepEqual([created!.kind, created!.retry], ['not_finished', true]);
      assert.deepEqual([unknownFail!.kind, unknownFail!.type, unknownFail!.retry], ['unconfirmed', 'notice', true]);
      assert.match(unknownFail!.message, /^We could not confirm your payment yet\. If your card was charged, this order is updated automatically/);
      assert.equal(unknownExit!.kind, 'not_finished');
      // "Not charged" only when the service says so (created, no card): not for a window that made no payment.
      assert.match(created!.message, /your card was not charged by it/);
      assert.doesNotMatch(unknownExit!.message, /charged/);
      // Another window's payment may be moving money: not "pay again".
      assert.deepEqual([otherWindow!.kind, otherWindow!.retry], ['in_progress', false]);
      assert.match(otherWindow!.message, /already under way.*do not pay again/);
      assert.match(unreachable!.message, /could not reach the payment service/);
      assert.equal(strange!.kind, 'unconfirmed', 'a pair outside the flow is never told as a failure');
    });

    test('declined: asked at once, recorded on the order (failed), the buyer told in words', async () => {
      const [step] = await tell([{ event: 'fail', service: [{ operation_data: op(101) }] }]);
      assert.equal(step!.error, undefined, step!.error);
      assert.equal(step!.service_calls, 1);
      assert.equal(step!.attempt, 'declined 101');
      assert.equal(step!.status, 'failed');
      assert.deepEqual([step!.told!.kind, step!.told!.code, step!.told!.retry], ['failed', 101, true]);
      assert.ok(
        step!.new_notes.some((n) => n.includes('The card payment was refused') && n.includes('found when the buyer came back to the store')),
        step!.new_notes.join('\n'),
      );
      assert.ok(step!.new_notes.some((n) => n.includes('The buyer was told: "Your card payment was declined.')));
    });

    test('coming back again and again to the same state adds one note, not one per request', async () => {
      const again = { event: 'fail', service: [UNKNOWN] };
      const declined = { event: 'fail', service: [{ operation_data: op(101) }] };
      const steps = await tell([again, again, again, declined, declined]);
      for (const step of steps) {
        assert.equal(step.error, undefined, step.error);
      }
      const told = steps.map((step) => step.new_notes.filter((n) => n.includes('The buyer was told')).length);
      assert.deepEqual(told, [1, 0, 0, 1, 0], 'a note when what the buyer is told changes, none when it is the same');
    });

    test("the service's answer is told even while its callback, arriving at the same moment, is still applying it", async () => {
      // The callback claimed the decline and holds it: the return's answer is a duplicate, applied by the callback.
      const [step] = await tell([
        { event: 'fail', service: [{ operation_data: op(101) }], claimed: { operation_id: 'op-1', status: 'declined', status_code: 101 } },
      ]);
      assert.equal(step!.error, undefined, step!.error);
      assert.equal(step!.service_calls, 1);
      // Not applied twice: the order and the attempt are the callback's to change.
      assert.equal(step!.status, 'pending');
      assert.match(step!.attempt, / -1$/);
      // Told what the service said, never "could not confirm".
      assert.deepEqual([step!.told!.kind, step!.told!.code, step!.told!.retry], ['failed', 101, true]);
      assert.ok(
        step!.new_notes.some((n) => n.includes('the payment is "The card payment was refused (declined)"')),
        step!.new_notes.join('\n'),
      );
    });

    test('the service reports a success: the order is completed, the buyer sent to the thank-you page', async () => {
      const [step] = await tell([{ event: 'fail', service: [{ operation_data: op(0) }] }]);
      assert.equal(step!.status, 'processing');
      assert.equal(step!.told!.kind, 'paid');
    });

    test('never backwards: a paid order is not asked about nor changed; a failure older than a payment window is told without asking again', async () => {
      const [paid] = await tell([{ event: 'fail', service: [{ operation_data: op(101) }] }], { status: 'processing' });
      assert.equal(paid!.service_calls, 0);
      assert.equal(paid!.status, 'processing');
      assert.equal(paid!.told!.kind, 'paid');
      const [known] = await tell([{ event: 'exit', attempt: { status: 'declined', status_code: 106, minutes_ago: 61 } }], { status: 'failed' });
      assert.equal(known!.service_calls, 0);
      assert.deepEqual([known!.told!.kind, known!.told!.code], ['failed', 106]);
    });

    test('a recent failure is asked about again: the buyer may have tried again inside the widget, and that payment is told', async () => {
      const [again] = await tell([{ event: 'fail', attempt: { status: 'declined', status_code: 104 }, service: [{ operation_data: op(2, 'op-2') }] }], {
        status: 'failed',
      });
      assert.equal(again!.error, undefined, again!.error);
      assert.equal(again!.service_calls, 1);
      assert.equal(again!.attempt, 'pending 2', 'the attempt is where its newer operation is');
      assert.equal(again!.status, 'on-hold');
      assert.deepEqual([again!.told!.kind, again!.told!.retry], ['in_progress', false]);
    });

    test('not known to the service yet, or unreachable: said honestly, the order left for reconciliation', async () => {
      // Each on its own store.
      const [unknown] = await tell([{ event: 'fail', service: [UNKNOWN] }]);
      const [unreachable] = await tell([{ event: 'fail', service: [{ network: true }] }]);
      const [closed, again] = await tell([
        { event: 'exit', service: [UNKNOWN] },
        { event: 'exit', service: [UNKNOWN] },
      ]);
      // A buyer back from the service is never answered from memory: it may just have changed there.
      assert.equal(again!.service_calls, 1, 'asked again');
      assert.equal(again!.told!.kind, 'not_finished');
      for (const step of [unknown!, unreachable!, closed!]) {
        assert.equal(step.error, undefined, step.error);
        assert.equal(step.service_calls, 1);
        assert.equal(step.status, 'pending');
        assert.equal(step.attempt, ' -1');
      }
      assert.equal(unknown!.told!.kind, 'unconfirmed');
      assert.ok(unknown!.new_notes.some((n) => n.includes('not known to the service yet')));
      assert.equal(unreachable!.told!.kind, 'unconfirmed');
      assert.match(unreachable!.told!.message, /could not reach/);
      assert.ok(unreachable!.new_notes.some((n) => n.includes('the service could not be asked')));
      assert.equal(closed!.told!.kind, 'not_finished');
    });

    test('a payment that does not match the order: the buyer is told it is on hold and not to pay again, never "being processed"', async () => {
      const held = (await words([
        ['buyer', { paid: false, asked: 'answered', status: 'success', status_code: 0, event: 'exit', mismatch: true }],
        ['buyer', { paid: false, asked: 'answered', status: 'pending', status_code: 2, event: 'fail', mismatch: true }],
        ['buyer', { paid: false, asked: 'unreachable', status: null, status_code: null, event: 'fail', mismatch: true }],
        ['buyer', { paid: false, asked: 'answered', status: 'declined', status_code: 101, event: 'fail', mismatch: true }],
        ['view', { paid: false, order_status: 'on-hold', status: 'success', status_code: 0, mismatch: true }],
      ])) as Told[];
      for (const told of held.slice(0, 3)) {
        assert.deepEqual([told.kind, told.type, told.retry], ['on_hold', 'notice', false]);
        assert.match(
          told.message,
          /^Your payment is on hold: it does not match this order, so the store checks it by hand and will contact you\. Please do not pay again\.$/,
        );
      }
      assert.equal(held[3]!.kind, 'failed', 'a declined payment moved no money: it is told as declined');
      assert.equal((held[4] as unknown as { message: string }).message, held[0]!.message, 'the thank-you page says the same');

      const [step] = await tell([{ event: 'exit', service: [{ operation_data: op(0, 'op-1', 5000) }] }]);
      assert.equal(step!.error, undefined, step!.error);
      assert.equal(step!.status, 'on-hold');
      assert.deepEqual([step!.told!.kind, step!.told!.retry], ['on_hold', false]);
      assert.ok(
        step!.new_notes.some((n) => n.includes('The buyer was told: "Your payment is on hold')),
        step!.new_notes.join('\n'),
      );
    });

    test('pending at the service: the buyer is told not to pay again', async () => {
      const [step] = await tell([{ event: 'exit', service: [{ operation_data: op(2) }] }]);
      assert.deepEqual([step!.told!.kind, step!.told!.retry], ['in_progress', false]);
      assert.notEqual(step!.status, 'failed');
    });
  });
}

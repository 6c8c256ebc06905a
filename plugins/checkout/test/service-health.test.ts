/**
 * The service refusing the store (issue 15, point 6), without WordPress
 * (test/php/health.php, case "service_health"): one cached state decides
 * whether the method is offered; checkout pages never ask the service: a
 * stale state (ok: 5 minutes, refused: 1 minute) queues one background check,
 * so the method comes back on its own; a real request refused for the store itself (wrong signature,
 * blocked partner) marks it refused at once, a per-operation error never
 * does; before the buyer is sent to the service one real signed request is
 * made; the buyer is told in plain words and the owner sees why.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { orderScenario } from './support/order-scenario.js';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

interface Step {
  result: unknown;
  calls: string[];
  state: 'ok' | 'refused' | null;
  reason: string | null;
  owner: string | null;
  queued: number;
}
interface Result {
  decide: Record<string, string>;
  steps: Step[];
  buyer: string;
  others: string;
  alone: string;
  log: string[];
}

const PARAMS_OK = { signed: { service_fee: 0.01 } };
const BLOCKED = { status: 403, body: { error: { code: 'partner_blocked', message: 'this partner is blocked' } } };
const WRONG_SECRET = { status: 401, body: 'Wrong signature' };
const UNKNOWN_OPERATION = { status: 400, body: { error: { code: 'invalid_parameter', field: 'partner_operation_id', message: 'no such operation' } } };
const BUSY = { status: 429, body: { error: { code: 'too_many_requests', message: 'slow down' } } };
const BROKEN = { status: 500, body: { error: { code: 'internal_error', message: 'try later' } } };
/** A rate fixed by calculate for the scenario's order (EUR 79.00). */
const RATE = (changes: Record<string, unknown> = {}) => ({
  signed: {
    from_currency: 'EUR',
    to_currency: 'BTC',
    from_amount: 7900,
    to_amount: 123456,
    calculation_id: 'calc-1',
    expired_at: '2030-01-01T00:10:00.0000000Z',
    ...changes,
  },
});
const NOT_PREPARED = 'Card payment could not be prepared. Please try again in a minute.';

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: the service refusing the store`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());
    const run = (steps: unknown[], settings: Record<string, string> = {}) =>
      php.runJson<Result>('health.php', {
        'scenario.json': JSON.stringify(orderScenario({ settings: { debug_logging: 'yes', ...settings }, case: 'service_health', steps })),
      });

    test('the cached state: fresh, stale, other credentials; a payment start asks again unless refused', async () => {
      const { decide } = await run([]);
      assert.deepEqual(decide, {
        none: 'stale',
        other_settings: 'stale',
        ok_299s: 'ok',
        ok_300s: 'stale',
        refused_59s: 'refused',
        refused_60s: 'stale',
        from_the_future: 'stale',
        ok_ask_again: 'stale',
        refused_no_again: 'refused',
        ok_busy_wait: 'ok',
        refused_busy: 'refused',
        busy_waits: 'ok',
        busy_over: 'stale',
        busy_too_far: 'stale',
      });
    });

    test('withdrawn at once on a real refusal; pages never ask the service, a background check does; back on its own', async () => {
      // Rates not fixed: before sending the buyer, the params check is the real request (with fixed rates, calculate is: below).
      const r = await run(
        [
          { do: 'available' },
          { do: 'run_queue', answers: [PARAMS_OK] },
          { do: 'available' },
          { do: 'reconcile', answers: [UNKNOWN_OPERATION] },
          { do: 'reconcile', answers: [BLOCKED] },
          { do: 'available' },
          { do: 'before_sending' },
          { do: 'age', seconds: 61 },
          { do: 'available' },
          { do: 'available' },
          { do: 'run_queue', answers: [BLOCKED] },
          { do: 'age', seconds: 61 },
          { do: 'available' },
          { do: 'run_queue', answers: [PARAMS_OK] },
          { do: 'available' },
          { do: 'confirm', answers: [PARAMS_OK] },
          { do: 'before_sending', answers: [WRONG_SECRET] },
          { do: 'age', seconds: 61 },
          { do: 'available' },
          { do: 'run_queue', answers: [BUSY] },
          { do: 'age', seconds: 61 },
          { do: 'available' },
          { do: 'run_queue', answers: [{ network: true }] },
          { do: 'age', seconds: 61 },
          { do: 'available' },
          { do: 'run_queue', answers: [PARAMS_OK] },
          { do: 'age', seconds: 301 },
          { do: 'available' },
          { do: 'run_queue', answers: [BROKEN] },
          { do: 'age', seconds: 301 },
          { do: 'available' },
          { do: 'confirm', answers: [PARAMS_OK] },
          { do: 'run_queue' },
        ],
        { fix_rate: 'no' },
      );
      const s = r.steps;
      const view = (i: number) => [s[i]!.result, s[i]!.calls.length, s[i]!.state, s[i]!.queued];
      assert.deepEqual(view(0), [true, 0, null, 1], 'no state yet: offered, and one background check queued, nothing asked on the page');
      assert.deepEqual(view(1), [1, 1, 'ok', 0], 'the background check: one signed params request');
      assert.deepEqual(view(2), [true, 0, 'ok', 0], 'a fresh answer: nothing asked, nothing queued');
      assert.deepEqual(view(3), [false, 1, 'ok', 0], 'a per-operation error leaves the store accepted');
      assert.deepEqual(view(4), [false, 1, 'refused', 0], 'a blocked partner on a real request: refused at once');
      assert.match(s[4]!.owner!, /withdrawn from the checkout: the service refuses this store .*blocked this partner.*offers card payment again/);
      // The reason is its own sentence (it ends "(…)."): never wrapped in another bracket, which read ".).".
      assert.doesNotMatch(s[4]!.owner!, /\.\)\./, s[4]!.owner!);
      assert.deepEqual(view(5), [false, 0, 'refused', 0], 'withdrawn without asking');
      assert.deepEqual(view(6), [`Service_Refused: ${r.buyer}`, 0, 'refused', 0], 'no buyer is sent to the service');
      assert.deepEqual(view(8), [false, 0, 'refused', 1], 'after its lifetime the refusal stands on the page while a check is queued');
      assert.deepEqual(view(9), [false, 0, 'refused', 1], 'one check waits, however many pages are viewed');
      assert.deepEqual(view(10), [1, 1, 'refused', 0], 'the check asks: still blocked');
      assert.deepEqual(view(12), [false, 0, 'refused', 1]);
      assert.deepEqual(view(13), [1, 1, 'ok', 0], 'the service accepts again');
      // Accepted again: the orders whose buyers were told "kept" are queued for their pay-link e-mail (Outage_Pay_Links), once.
      const mail = (i: number) => (i < 0 ? 0 : (s[i] as unknown as { mail: number }).mail);
      const backAt = s.flatMap((step, i) => (i > 0 && s[i - 1]!.state === 'refused' && step.state === 'ok' ? [i] : []));
      assert.deepEqual(backAt, [13, 25]);
      assert.deepEqual(
        s.flatMap((_, i) => (mail(i) > mail(i - 1) ? [i] : [])),
        backAt,
        'queued exactly when the service accepts the store again',
      );
      assert.deepEqual(view(14), [true, 0, 'ok', 0], 'the method is back');
      assert.equal(s[14]!.owner, null);
      assert.deepEqual(view(15), [true, 1, 'ok', 0], 'a payment start asks even with a fresh ok');
      assert.deepEqual(view(16), [`Service_Refused: ${r.buyer}`, 1, 'refused', 0], 'a wrong secret before sending the buyer');
      assert.match(s[16]!.reason!, /partner secret is wrong/);
      assert.deepEqual(view(19), [1, 1, 'refused', 0], 'a 429 says nothing about the store: the last answer stands');
      assert.deepEqual(view(22), [1, 1, 'refused', 0], 'unreachable');
      assert.match(s[22]!.reason!, /could not be reached/);
      assert.deepEqual(view(25), [1, 1, 'ok', 0]);
      assert.deepEqual(view(27), [true, 0, 'ok', 1], 'a stale ok stays offered while the check waits');
      assert.deepEqual(view(28), [1, 1, 'ok', 0], 'a 500 does not withdraw the method');
      assert.deepEqual(view(31), [true, 1, 'ok', 1], 'a payment start asks itself');
      assert.deepEqual(view(32), [1, 0, 'ok', 0], 'a queued check finding the state fresh asks nothing');
      assert.equal(r.log.filter((l) => l.startsWith('warning: The service refuses this store')).length, 2, r.log.join('\n'));
      assert.ok(r.log.some((l) => l.startsWith('info: The service accepts this store again')));
    });

    test('with fixed rates the calculate request is the real one; its refusal withdraws the method', async () => {
      const r = await run(
        [
          { do: 'confirm', answers: [PARAMS_OK] },
          { do: 'before_sending' },
          { do: 'fixed_rate', answers: [BROKEN] },
          { do: 'fixed_rate', answers: [BLOCKED] },
          { do: 'status_box', answers: [BLOCKED] },
        ],
        { fix_rate: 'yes' },
      );
      const s = r.steps;
      assert.deepEqual([s[1]!.result, s[1]!.calls.length], ['sent', 0], 'no params request: calculate follows');
      assert.deepEqual([s[2]!.result, s[2]!.state], [`Payment_Refused: ${NOT_PREPARED}`, 'ok'], 'a failed rate is not a refusal of the store');
      assert.deepEqual([s[3]!.result, s[3]!.state], [`Service_Refused: ${r.buyer}`, 'refused']);
      const box = s[4]!.result as { ok: boolean; message: string };
      assert.equal(s[4]!.calls.length, 1, 'the status box asks again instead of a cached "Connected"');
      assert.equal(box.ok, false);
    });

    test('a rate that has already expired is not signed; an attempt whose rate could not be fixed does not count toward the cap until it is sent', async () => {
      const r = await run([
        { do: 'started' },
        { do: 'fixed_rate', answers: [RATE({ expired_at: '2020-01-01T00:00:00.0000000Z' })] },
        { do: 'started' },
        { do: 'fixed_rate', answers: [RATE({ expired_at: 'soon' })] },
        { do: 'fixed_rate', answers: [RATE()] },
        { do: 'started' },
      ]);
      assert.deepEqual(
        r.steps.map((s) => s.result),
        [1, `Payment_Refused: ${NOT_PREPARED}`, 0, `Payment_Refused: ${NOT_PREPARED}`, r.steps[4]!.result, 1],
      );
      assert.equal((r.steps[4]!.result as { calculation_id: string }).calculation_id, 'calc-1');
      assert.ok(r.log.some((l) => l.includes('fixed a rate that expired at 2020-01-01T00:00:00.0000000Z')));
    });

    test('a rate fixed for an attempt is reused to sign the same attempt again while it lives; another amount fixes a new one', async () => {
      const r = await run([
        { do: 'fixed_rate', answers: [RATE()] },
        { do: 'fixed_rate', answers: [] },
      ]);
      assert.equal((r.steps[0]!.result as { calculation_id: string }).calculation_id, 'calc-1');
      assert.equal((r.steps[1]!.result as { calculation_id: string }).calculation_id, 'calc-1');
      assert.deepEqual(
        r.steps.map((s) => s.calls.length),
        [1, 0],
        'no second calculate',
      );
    });

    test('fixed rates are the default; a store that saved them off keeps them off', async () => {
      const byDefault = await run([{ do: 'fixed_rate', answers: [RATE()] }]);
      const rate = byDefault.steps[0]!;
      assert.deepEqual(rate.calls, ['calculate'], 'no fix_rate stored: the schema default (on) asks for a rate');
      assert.deepEqual([(rate.result as { calculation_id: string }).calculation_id, (rate.result as { from_amount: number }).from_amount], ['calc-1', 7900]);
      const off = await run([{ do: 'fixed_rate', answers: [RATE()] }], { fix_rate: 'no' });
      assert.deepEqual([off.steps[0]!.result, off.steps[0]!.calls.length], [null, 0], 'saved off: no rate, the widget runs at the current rate');
    });

    test('with fixed rates on, a rate that cannot be fixed starts no unlocked payment: the buyer is asked to try again, the owner reads why', async () => {
      const r = await run([
        { do: 'fixed_rate', answers: [BROKEN] },
        { do: 'fixed_rate', answers: [BUSY] },
        // The 429 paused every request of the store for its Retry-After (at least 1 s: Service_Gateway); it passes.
        { do: 'age', seconds: 2 },
        { do: 'fixed_rate', answers: [{ network: true }] },
        { do: 'fixed_rate', answers: [UNKNOWN_OPERATION] },
        { do: 'fixed_rate', answers: [RATE({ from_amount: 5000 })] },
        { do: 'landing_url', answers: [BROKEN] },
        { do: 'landing_url', answers: [BLOCKED] },
        { do: 'fixed_rate', answers: [RATE()] },
      ]);
      // Redirect flow: the landing route sends the buyer back to the order with these words (Return_Pages::told_url()).
      assert.equal(r.steps[6]!.result, `Payment_Refused: ${NOT_PREPARED}`, 'redirect flow: no landing address at an unfixed rate');
      assert.equal(r.steps[7]!.result, `Service_Refused: ${r.buyer}`, 'a refusal of the store still goes to Service_Health');
      for (const [i, step] of r.steps.slice(0, 6).entries()) {
        if (i === 2) {
          continue; // The pause passing.
        }
        assert.equal(step.result, `Payment_Refused: ${NOT_PREPARED}`, `step ${i}`);
        assert.equal(step.state === 'refused', false, `step ${i}: the store is not marked refused`);
      }
      assert.equal((r.steps[8]!.result as { calculation_id: string }).calculation_id, 'calc-1');
      const lines = r.log.filter((l) => l.startsWith('error: Order 7: '));
      assert.equal(
        lines.filter((l) => l.includes('the rate could not be fixed') && l.includes('no payment was started at an unfixed rate')).length,
        5,
        r.log.join('\n'),
      );
      assert.ok(
        lines.some((l) => l.includes('fixed a rate for 5000 minor units, not the 7900 the order asks')),
        r.log.join('\n'),
      );
      assert.doesNotMatch(NOT_PREPARED, /rate|service|500|429/i, 'plain words for the buyer');
    });

    test('the buyer is told in plain words, never the service message; another method only where there is one', async () => {
      const { buyer, others, alone } = await run([]);
      assert.match(others, /^Card payment is unavailable right now\. Please choose another payment method\.$/);
      assert.match(alone, /^Card payment is unavailable right now\. Please try again later\.$/);
      // Without WooCommerce's list of methods, none is promised.
      assert.equal(buyer, alone);
      for (const words of [buyer, others, alone]) {
        assert.doesNotMatch(words, /blocked|signature|partner|403|401/i);
      }
    });
  });
}

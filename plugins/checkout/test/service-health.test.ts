/**
 * The service refusing the store (issue 15, point 6), without WordPress
 * (test/php/health.php, case "service_health"): one cached state decides
 * whether the method is offered; checkout pages ask the service only when it
 * is stale (ok: 5 minutes, refused: 1 minute), so the method comes back on
 * its own; a real request refused for the store itself (wrong signature,
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
}
interface Result {
  decide: Record<string, string>;
  steps: Step[];
  buyer: string;
  log: string[];
}

const PARAMS_OK = { signed: { service_fee: 0.01 } };
const BLOCKED = { status: 403, body: { error: { code: 'partner_blocked', message: 'this partner is blocked' } } };
const WRONG_SECRET = { status: 401, body: 'Wrong signature' };
const UNKNOWN_OPERATION = { status: 400, body: { error: { code: 'invalid_parameter', field: 'partner_operation_id', message: 'no such operation' } } };
const BUSY = { status: 429, body: { error: { code: 'too_many_requests', message: 'slow down' } } };
const BROKEN = { status: 500, body: { error: { code: 'internal_error', message: 'try later' } } };

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
      });
    });

    test('withdrawn at once on a real refusal, never asked on every page, back on its own', async () => {
      const r = await run([
        { do: 'available', answers: [PARAMS_OK] },
        { do: 'available' },
        { do: 'reconcile', answers: [UNKNOWN_OPERATION] },
        { do: 'reconcile', answers: [BLOCKED] },
        { do: 'available' },
        { do: 'before_sending' },
        { do: 'age', seconds: 61 },
        { do: 'available', answers: [BLOCKED] },
        { do: 'age', seconds: 61 },
        { do: 'available', answers: [PARAMS_OK] },
        { do: 'confirm', answers: [PARAMS_OK] },
        { do: 'before_sending', answers: [WRONG_SECRET] },
        { do: 'age', seconds: 61 },
        { do: 'available', answers: [BUSY] },
        { do: 'age', seconds: 61 },
        { do: 'available', answers: [{ network: true }] },
        { do: 'age', seconds: 61 },
        { do: 'available', answers: [PARAMS_OK] },
        { do: 'age', seconds: 301 },
        { do: 'available', answers: [BROKEN] },
      ]);
      const s = r.steps;
      const view = (i: number) => [s[i]!.result, s[i]!.calls.length, s[i]!.state];
      assert.deepEqual(view(0), [true, 1, 'ok'], 'no state yet: one signed params request');
      assert.deepEqual(view(1), [true, 0, 'ok'], 'a fresh answer: no request');
      assert.deepEqual(view(2), [false, 1, 'ok'], 'a per-operation error leaves the store accepted');
      assert.deepEqual(view(3), [false, 1, 'refused'], 'a blocked partner on a real request: refused at once');
      assert.match(s[3]!.owner!, /withdrawn from the checkout: the service refuses this store .*blocked this partner.*offers card payment again/);
      assert.deepEqual(view(4), [false, 0, 'refused'], 'withdrawn without asking');
      assert.deepEqual(view(5), [`Service_Refused: ${r.buyer}`, 0, 'refused'], 'no buyer is sent to the service');
      assert.deepEqual(view(7), [false, 1, 'refused'], 'after its lifetime the refusal is checked again');
      assert.deepEqual(view(9), [true, 1, 'ok'], 'the service accepts again: the method is back');
      assert.equal(s[9]!.owner, null);
      assert.deepEqual(view(10), [true, 1, 'ok'], 'a payment start asks even with a fresh ok');
      assert.deepEqual(view(11), [`Service_Refused: ${r.buyer}`, 1, 'refused'], 'a wrong secret before sending the buyer');
      assert.match(s[11]!.reason!, /partner secret is wrong/);
      assert.deepEqual(view(13), [false, 1, 'refused'], 'a 429 says nothing about the store: the last answer stands');
      assert.deepEqual(view(15), [false, 1, 'refused'], 'unreachable');
      assert.match(s[15]!.reason!, /could not be reached/);
      assert.deepEqual(view(17), [true, 1, 'ok']);
      assert.deepEqual(view(19), [true, 1, 'ok'], 'a 500 does not withdraw the method');
      assert.equal(r.log.filter((l) => l.startsWith('warning: The service refuses this store')).length, 2, r.log.join('\n'));
      assert.ok(r.log.some((l) => l.startsWith('info: The service accepts this store again')));
    });

    test('with fixed rates the calculate request is the real one; its refusal withdraws the method', async () => {
      const r = await run(
        [
          { do: 'available', answers: [PARAMS_OK] },
          { do: 'before_sending' },
          { do: 'fixed_rate', answers: [BROKEN] },
          { do: 'fixed_rate', answers: [BLOCKED] },
          { do: 'status_box', answers: [BLOCKED] },
        ],
        { fix_rate: 'yes' },
      );
      const s = r.steps;
      assert.deepEqual([s[1]!.result, s[1]!.calls.length], ['sent', 0], 'no params request: calculate follows');
      assert.deepEqual([s[2]!.result, s[2]!.state], [null, 'ok'], 'a failed rate is not a refusal of the store');
      assert.deepEqual([s[3]!.result, s[3]!.state], [`Service_Refused: ${r.buyer}`, 'refused']);
      const box = s[4]!.result as { ok: boolean; message: string };
      assert.equal(s[4]!.calls.length, 1, 'the status box asks again instead of a cached "Connected"');
      assert.equal(box.ok, false);
    });

    test('the buyer is told in plain words, never the service message', async () => {
      const { buyer } = await run([]);
      assert.match(buyer, /^Card payment is unavailable right now\. Please choose another payment method\.$/);
      assert.doesNotMatch(buyer, /blocked|signature|partner|403|401/i);
    });
  });
}

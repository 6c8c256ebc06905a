/**
 * Callback health and the credentials check without WordPress
 * (test/php/health.php): refused callbacks counted by reason in hourly
 * buckets over 24 hours, the last verified callback, "failing" while
 * refusals are the latest news; recording that fails never changes a
 * callback's answer; the settings check names why the service refuses
 * (wrong secret, unknown token, blocked partner, unreachable address) and
 * the field at fault, and a save asks afresh; an attempt the buyer never
 * started is not logged as an error.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { orderScenario, POID, WALLET } from './support/order-scenario.js';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

interface Summary {
  verified: number | null;
  refused_at: number | null;
  refused: Record<string, number>;
  total: number;
  failing: boolean;
}

interface Check {
  ok: boolean;
  message: string;
  fee?: string;
  field?: string | null;
}

function op(poid = POID) {
  return {
    status: 'pending',
    status_code: 2,
    operation_info: {
      id: 'op-1',
      from: { amount: 7900, currency: { code: 'EUR', decimals: 2 }, payment_method_info: { card_holder: 'TEST BUYER' } },
      to: { currency: { code: 'BTC', decimals: 8 }, withdrawal_method_info: { blockchain_address: WALLET } },
    },
    partner_info: { operation_id: poid },
  };
}

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: callback health and the settings check`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());
    const run = <T>(changes: Record<string, unknown>) => php.runJson<T>('health.php', { 'scenario.json': JSON.stringify(orderScenario(changes)) });

    test('refusals counted by reason; failing until a verified callback arrives; unknown operations counted', async () => {
      const steps = await run<Array<{ status: number; summary: Summary }>>({
        case: 'callbacks',
        requests: [
          { ip: '10.0.0.1', sign: 'wrong', operation: op() },
          { ip: '10.0.0.1', raw: 'x', raw_times: 65537 },
          { ip: '10.0.0.1', raw: 'not json' },
          { ip: '10.0.0.1', sign: 'right', operation: op() },
          { ip: '10.0.0.1', sign: 'right', operation: op('wc-999-unknown') },
        ],
      });
      assert.deepEqual(
        steps.map((s) => s.status),
        [401, 413, 400, 200, 200],
      );
      assert.deepEqual(steps[0]!.summary.refused, { signature: 1 });
      assert.equal(steps[0]!.summary.failing, true);
      assert.equal(steps[0]!.summary.verified, null);
      assert.deepEqual(steps[2]!.summary.refused, { signature: 1, invalid: 1, too_large: 1 });
      assert.equal(steps[2]!.summary.total, 3);
      assert.equal(steps[3]!.summary.failing, false, 'a verified callback after the refusals');
      assert.ok(steps[3]!.summary.verified !== null && Math.abs(steps[3]!.summary.verified - Date.now() / 1000) < 60);
      assert.deepEqual(steps[4]!.summary.refused, { signature: 1, unknown_operation: 1, invalid: 1, too_large: 1 });
    });

    test('an allowlist refusal and the rate limit are counted too', async () => {
      const steps = await run<Array<{ status: number; summary: Summary }>>({
        settings: { callback_ips: '203.0.113.10' },
        case: 'callbacks',
        requests: [{ ip: '10.0.0.1', sign: 'right', operation: op() }],
      });
      assert.equal(steps[0]!.status, 403);
      assert.deepEqual(steps[0]!.summary.refused, { allowlist: 1 });
      const limited = await run<Array<{ status: number; summary: Summary }>>({
        case: 'callbacks',
        requests: Array.from({ length: 21 }, () => ({ ip: '10.0.0.9', sign: 'wrong', operation: op() })),
      });
      assert.equal(limited[20]!.status, 429);
      assert.deepEqual(limited[20]!.summary.refused, { signature: 20, rate_limited: 1 });
    });

    test('recording that fails never changes a callback answer', async () => {
      const steps = await run<Array<{ status: number }>>({
        case: 'broken_option',
        requests: [
          { ip: '10.0.0.1', sign: 'wrong', operation: op() },
          { ip: '10.0.0.1', sign: 'right', operation: op() },
        ],
      });
      assert.deepEqual(
        steps.map((s) => s.status),
        [401, 200],
      );
    });

    test('hourly buckets: only the last 24 hours count, older buckets are pruned', async () => {
      const result = await run<{ summary: Summary; hours: number }>({ case: 'buckets', refusals: [30 * 3600, 26 * 3600, 5 * 3600, 60, 0] });
      assert.equal(result.summary.total, 3);
      assert.ok(result.hours <= 3, `kept ${result.hours} buckets`);
    });

    test('the settings check names why the service refuses and the field at fault', async () => {
      const cases: Array<[unknown, string, RegExp]> = [
        [{ status: 401, body: 'Wrong signature: the signature does not match' }, 'partner_secret', /partner secret is wrong/],
        [
          { status: 404, body: { error: { code: 'partner_not_found', message: 'no partner has this partner_token', field: 'partner_token' } } },
          'partner_token',
          /does not know this partner token/,
        ],
        [{ status: 403, body: { error: { code: 'partner_blocked', message: 'this partner is blocked' } } }, 'partner_token', /blocked this partner/],
        [{ network: true }, 'base_url', /could not be reached/],
        [{ status: 404, body: '<html>Not here</html>' }, 'base_url', /check the partner API address/],
        [{ signed: { service_fee: 0.01 }, secret: 'another-secret' }, 'partner_secret', /not signed with this partner secret/],
      ];
      for (const [answer, field, why] of cases) {
        const result = await run<{ checks: Check[] }>({ case: 'check', answers: [answer], fresh: [true] });
        const check = result.checks[0]!;
        assert.equal(check.ok, false, JSON.stringify(answer));
        assert.equal(check.field, field, check.message);
        assert.match(check.message, why);
        assert.match(check.message, /^Not connected: /);
      }
    });

    test('a save asks afresh (the page render reuses the minute cache)', async () => {
      const result = await run<{ checks: Check[]; calls: number }>({
        case: 'check',
        answers: [{ signed: { service_fee: 0.01 } }, { status: 401, body: 'Wrong signature' }],
        fresh: [false, false, true, false],
      });
      assert.deepEqual(
        result.checks.map((c) => c.ok),
        [true, true, false, false],
      );
      assert.equal(result.calls, 2);
      assert.equal(result.checks[0]!.fee, '1%');
    });

    test('an attempt the buyer never started is logged as info, not as an error', async () => {
      const result = await run<{ check: { ok: boolean; message: string }; log: string[] }>({
        settings: { debug_logging: 'yes' },
        case: 'reconcile',
        answers: [
          { status: 400, body: { error: { code: 'invalid_parameter', field: 'partner_operation_id', message: 'no operation has this partner_operation_id' } } },
        ],
      });
      assert.equal(result.check.ok, false);
      assert.match(result.check.message, /has not started paying/);
      assert.deepEqual(
        result.log.filter((l) => /^(error|warning):/.test(l)),
        [],
        result.log.join('\n'),
      );
      assert.ok(result.log.some((l) => l.startsWith('info: Order 7 (reconcile): The service has no operation')));
    });

    test('a service that cannot be asked during reconciliation is still an error', async () => {
      const result = await run<{ check: { ok: boolean }; log: string[] }>({ case: 'reconcile', answers: [{ network: true }] });
      assert.equal(result.check.ok, false);
      assert.equal(result.log.filter((l) => l.startsWith('error: Order 7 (reconcile): The service could not be asked')).length, 1, result.log.join('\n'));
    });
  });
}

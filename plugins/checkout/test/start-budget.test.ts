/**
 * Start_Budget's pure rules on the oldest and newest supported PHP (issue
 * 33): sliding windows instead of fixed ones (a burst at a window's edge
 * does not double the budget), refused requests of a client not counted,
 * and an IPv6 client keyed on its /64.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Start_Budget`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    test('a sliding window: the previous minute weighs as much as it still overlaps the last minute', async () => {
      const t = 1_800_000_000;
      const cases: Array<[number[], number, boolean, boolean[], string]> = [
        [
          [t, t + 1, t + 2, t + 3, t + 59, t + 60, t + 61, t + 80, t + 100, t + 120],
          3,
          false,
          [true, true, true, false, false, false, false, true, true, true],
          'three fit; the next minute frees them as they slide out (a fixed window gave all three back at t + 60)',
        ],
        [
          [t, t + 58, t + 58, t + 60, t + 60, t + 60],
          3,
          false,
          [true, true, true, false, false, false],
          'a burst at the window edge does not double the budget',
        ],
        [
          [t, t + 1, t + 2, t + 3, t + 4, t + 121],
          3,
          true,
          [true, true, true, false, false, true],
          "an order's refused requests count; two minutes later it is fresh",
        ],
        [[t, t - 100, t - 99], 1, true, [true, true, false], 'a clock that went back starts a fresh window'],
      ];
      const got = await php.call(cases.map(([times, limit, countRefused]) => ['budget_take', times, limit, countRefused]));
      got.forEach((r, i) => assert.deepEqual(r.value, cases[i]![3], cases[i]![4]));
    });

    test('a refused request of a client is not counted: behind one shared address, the others get in again as the window slides', async () => {
      const t = 1_800_000_000;
      // A visitor floods every second for two minutes; the client's budget is 120 a minute.
      const times = Array.from({ length: 120 }, (_, i) => t + Math.floor(i / 2));
      const flood = [...times, ...Array.from({ length: 120 }, (_, i) => t + 60 + i)];
      const [counted] = await php.call([['budget_take', flood, 120, false]]);
      const fit = counted!.value as boolean[];
      assert.equal(fit.slice(0, 120).filter(Boolean).length, 120, 'the first minute: 120 fit');
      assert.ok(fit.slice(120).filter(Boolean).length >= 55, `the next minute still lets requests in: ${fit.slice(120).filter(Boolean).length}`);
    });

    test("a fixed rate's expiry: still valid only while ahead of now; an unreadable time is not (Service_Times)", async () => {
      const now = Date.parse('2026-11-28T12:00:00Z') / 1000;
      const cases: Array<[string, number, boolean, string]> = [
        ['2026-11-28T12:05:00Z', now, true, 'five minutes ahead'],
        ['2026-11-28T12:05:00.1234567Z', now, true, 'seven fractional digits read'],
        ['2026-11-28T12:00:00Z', now, false, 'now is not ahead'],
        ['2026-11-28T11:59:59.9Z', now, false, 'a second ago'],
        ['2026-11-28T12:05:00.12345678Z', now, false, 'eight fractional digits'],
        ['2026-11-28T12:05:00+00:00', now, false, 'an offset instead of Z'],
        ['2026-11-28 12:05:00', now, false, 'no T, no Z'],
        ['', now, false, 'empty'],
      ];
      const got = await php.call(cases.map(([at, t]) => ['rate_valid', at, t]));
      got.forEach((r, i) => assert.equal(r.value, cases[i]![2], cases[i]![3]));
    });

    test("a payment's start: the later of sent and created, never after now (Service_Times)", async () => {
      const sent = '2026-11-28 12:00:00';
      const t = Date.parse('2026-11-28T12:00:00Z') / 1000;
      const cases: Array<[string | null, number, number, string]> = [
        [null, t + 600, t, 'no operation: when the buyer was sent'],
        ['', t + 600, t, 'an empty created_at: when the buyer was sent'],
        ['2026-11-28T12:02:00.1234567Z', t + 600, t + 120, 'created after: its created_at, fractions dropped'],
        ['2026-11-28T11:58:00Z', t + 600, t, 'created before: when the buyer was sent'],
        ['2026-11-28T13:00:00Z', t + 600, t + 600, 'created in the future: clamped to now'],
        ['2026-11-28T13:00:00Z', t - 60, t, 'a clock behind the sending: never before it'],
        ['garbage', t + 600, t, 'an unreadable created_at: when the buyer was sent'],
      ];
      const got = await php.call(cases.map(([created, now]) => ['window_start', sent, created, now]));
      got.forEach((r, i) => assert.equal(r.value, cases[i]![2], cases[i]![3]));
    });

    test('a forwarding header arriving: which one (what the owner reads is tested in WordPress: privacy-health)', async () => {
      const got = await php.call([
        ['forwarding', { REMOTE_ADDR: '10.0.0.5' }],
        ['forwarding', { HTTP_X_FORWARDED_FOR: '203.0.113.9' }],
        ['forwarding', { HTTP_FORWARDED: 'for=203.0.113.9' }],
        ['forwarding', { HTTP_X_REAL_IP: '203.0.113.9' }],
        ['forwarding', { HTTP_X_FORWARDED_FOR: '  ' }],
      ]);
      assert.deepEqual(
        got.slice(0, 5).map((r) => r.value),
        [null, 'X-Forwarded-For', 'Forwarded', 'X-Real-IP', null],
      );
    });
  });
}

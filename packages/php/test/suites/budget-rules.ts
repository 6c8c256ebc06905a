/**
 * The visitors' budget both plugins count on (Budget\Visitor_Budget, which
 * each plugin carries under its own namespace; the checkout's order and
 * client budgets, the widget's routes), its pure rules on every PHP of
 * TEST_PHP_VERSIONS: sliding windows (a burst at a window's edge does not
 * double the budget), refused requests counted only when asked, the wait a
 * refusal is told, an IPv6 client keyed on its /64, and the per-plugin,
 * per-site lock names (Database\Site_Lock). Counting on a real database,
 * many takers at once, is the WordPress-level suite's (wordpress/suite.ts).
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PhpSandbox } from '../support/php.js';

const T = 1_800_000_000;

export function budgetRulesSuite(version: string): void {
  describe(`PHP ${version}: Visitor_Budget and Site_Lock`, () => {
    let php: PhpSandbox;
    before(async () => {
      php = await PhpSandbox.start(version);
    });

    test('a sliding window: the previous window weighs as much as it still overlaps; a refusal is told when one more fits', async () => {
      // [times, limit, count refused, per request: 0 when it fit, else the seconds until one more fits, why]
      const cases: Array<[number[], number, boolean, number[], string]> = [
        [
          [T, T + 1, T + 2, T + 3, T + 59, T + 60, T + 61, T + 80, T + 100, T + 120],
          3,
          false,
          [0, 0, 0, 77, 21, 20, 19, 0, 0, 0],
          'three fit; the next minute frees them as they slide out (a fixed window gave all three back at T + 60)',
        ],
        [[T, T + 58, T + 58, T + 60, T + 60, T + 60], 3, false, [0, 0, 0, 20, 20, 20], 'a burst at the window edge does not double the budget'],
        [
          [T, T + 1, T + 2, T + 3, T + 4, T + 121],
          3,
          true,
          [0, 0, 0, 87, 92, 0],
          'refused requests counted: a flood waits longer; two windows later it is fresh',
        ],
        [[T, T - 100, T - 99], 1, true, [0, 0, 119], 'a clock that went back starts a fresh window'],
      ];
      const got = await php.call(cases.map(([times, limit, countRefused]) => ['budget_window', times, limit, countRefused]));
      got.forEach((r, i) => assert.deepEqual(r.value ?? r.error, cases[i]![3], cases[i]![4]));
    });

    test('a refused request not counted: behind one shared address, the others get in again as the window slides', async () => {
      const times = Array.from({ length: 120 }, (_, i) => T + Math.floor(i / 2));
      const flood = [...times, ...Array.from({ length: 120 }, (_, i) => T + 60 + i)];
      const [counted] = await php.call([['budget_window', flood, 120, false]]);
      const fit = (counted!.value as number[]).map((wait) => wait === 0);
      assert.equal(fit.slice(0, 120).filter(Boolean).length, 120, 'the first minute: 120 fit');
      assert.ok(fit.slice(120).filter(Boolean).length >= 55, `the next minute still lets requests in: ${fit.slice(120).filter(Boolean).length}`);
    });

    test('who a budget counts: an IPv4 address; an IPv6 address by its /64; an IPv4-mapped one as IPv4', async () => {
      const cases: Array<[string, string]> = [
        ['203.0.113.7', '203.0.113.7'],
        [' 203.0.113.8 ', '203.0.113.8'],
        ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
        ['2001:DB8:1:2:ffff::1', '2001:db8:1:2::/64'],
        ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
        ['::ffff:192.0.2.1', '192.0.2.1'],
        ['::1', '::/64'],
        ['not an address', 'not an address'],
      ];
      const got = await php.call(cases.map(([address]) => ['budget_client_key', address]));
      got.forEach((r, i) => assert.equal(r.value, cases[i]![1], cases[i]![0]));
    });

    test("a lock's name is per plugin, database and site, readable, and never over MySQL's 64 characters", async () => {
      const [a, b, c, d, long] = (
        await php.call([
          ['lock_name_for', 'card2crypto-checkout', 'shop', 'wp_', 'card2crypto_budget_x'],
          ['lock_name_for', 'card2crypto-widget', 'shop', 'wp_', 'card2crypto_budget_x'],
          ['lock_name_for', 'card2crypto-checkout', 'shop', 'wp_2_', 'card2crypto_budget_x'],
          ['lock_name_for', 'card2crypto-checkout', 'other', 'wp_', 'card2crypto_budget_x'],
          ['lock_name_for', 'card2crypto-widget', 'shop', 'wp_', `card2crypto_budget_${'f'.repeat(40)}`],
        ])
      ).map((r) => r.value as string);
      assert.match(a!, /^c2c:budget_x:[0-9a-f]{20}$/);
      assert.equal(new Set([a, b, c, d]).size, 4, 'another plugin, site or database never takes the same lock');
      assert.ok(long!.length <= 64, long);
      assert.match(long!, /^c2c:budget_f+:[0-9a-f]{20}$/);
    });

    test("a GET_LOCK answer: held, held by another, or no named locks (none, or Playground SQLite's '1=1' stand-in)", async () => {
      const cases: Array<[unknown, boolean | null, string]> = [
        ['1', true, 'MariaDB/MySQL: taken'],
        [1, true, 'taken, as a number'],
        ['0', false, 'another request holds it'],
        [0, false, 'another request holds it, as a number'],
        [null, null, 'no answer: a database without named locks'],
        ['1=1', null, "Playground's SQLite answers '1=1' to every GET_LOCK: no named locks, never 'busy'"],
      ];
      const got = await php.call(cases.map(([answer]) => ['lock_taken', answer]));
      got.forEach((r, i) => assert.equal(r.value, cases[i]![1], cases[i]![2]));
    });
  });
}

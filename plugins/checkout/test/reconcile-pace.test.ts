/**
 * Reconcile_Pace on the oldest and newest supported PHP: reconciliation's
 * requests leave evenly spaced at the owner's rate (never two in one
 * interval, so no second holds more than the rate), a 429 waits its
 * Retry-After (at least 1 s, also when absent; at most an hour), and a batch
 * claims what its time allows at that rate.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Reconcile_Pace`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    test('requests are spaced one interval apart at the rate, rounded toward slower', async () => {
      // A second and 50 ms (the network's jitter) for each rate + 1 requests in a row.
      const intervals: Array<[number, number]> = [
        [1, 1050],
        [3, 350],
        [10, 105],
        [20, 53],
        [7, 150],
        [100, 11],
        [0, 1050],
      ];
      const got = await php.call(intervals.map(([rate]) => ['interval_ms', rate]));
      got.forEach((r, i) => assert.equal(r.value, intervals[i]![1], `rate ${intervals[i]![0]}`));
      const sends: Array<[number | null, number, number, number, string]> = [
        [null, 10, 5000, 5000, 'the first request leaves at once'],
        [5000, 10, 5000, 5105, 'the next waits one interval'],
        [5000, 10, 5040, 5105, 'part of the interval has passed'],
        [5000, 10, 5300, 5300, 'the interval passed long ago: at once, no catching up'],
        [5000, 3, 5000, 5350, 'three a second'],
      ];
      const next = await php.call(sends.map(([last, rate, now]) => ['next_send_ms', last, rate, now]));
      next.forEach((r, i) => assert.equal(r.value, sends[i]![3], sends[i]![4]));
      // However a batch's checks are timed, no wall-clock second ever holds more than the rate, even with each request
      // shifted by up to 50 ms on its way (here: every other one). About 1,500 questions, each depending on the one
      // before: one PHP process answers them all (a process each took over two minutes on a busy 2-core machine).
      const session = await php.session();
      try {
        for (const rate of [1, 3, 7, 10, 20]) {
          let last: number | null = null;
          const times: number[] = [];
          for (let now = 12_345; times.length < rate * 5; now += 17) {
            const at = (await session.call([['next_send_ms', last, rate, now]]))[0]!.value as number;
            if (at <= now) {
              times.push(now);
              last = now;
            }
          }
          const perSecond = new Map<number, number>();
          times.map((t, i) => (i % 2 === 0 ? t + 49 : t)).forEach((t) => perSecond.set(Math.floor(t / 1000), (perSecond.get(Math.floor(t / 1000)) ?? 0) + 1));
          assert.ok(Math.max(...perSecond.values()) <= rate, `rate ${rate}: ${JSON.stringify([...perSecond])}`);
        }
      } finally {
        session.close();
      }
    });

    test('after a 429: its Retry-After, at least 1 s, at most an hour', async () => {
      const cases: Array<[number | null, number]> = [
        [null, 1],
        [0, 1],
        [-5, 1],
        [1, 1],
        [12, 12],
        [3600, 3600],
        [86400, 3600],
      ];
      const got = await php.call(cases.map(([wait]) => ['retry_wait', wait]));
      got.forEach((r, i) => assert.equal(r.value, cases[i]![1], `Retry-After ${cases[i]![0]}`));
    });

    test('a batch claims what its time allows at the rate, 1 to 500', async () => {
      const cases: Array<[number, number, number]> = [
        [10, 20, 200],
        [1, 20, 20],
        [20, 20, 400],
        [100, 20, 500],
        [0, 0, 1],
      ];
      const got = await php.call(cases.map(([rate, seconds]) => ['batch_size', rate, seconds]));
      got.forEach((r, i) => assert.equal(r.value, cases[i]![2], `rate ${cases[i]![0]}, ${cases[i]![1]} s`));
    });
  });
}

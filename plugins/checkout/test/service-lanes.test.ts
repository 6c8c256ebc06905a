/**
 * Service_Lanes on the oldest and newest supported PHP (issue 33): the
 * store-wide token bucket every request to the service takes from, the
 * share of it each lane leaves to the lanes before it, and a 429's pause of
 * the whole store.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

const LANES = ['paying', 'start', 'admin', 'info', 'background'] as const;

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Service_Lanes`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    test('the setting: 1 to 100 requests a second, 10 for anything else', async () => {
      const cases: Array<[string, number]> = [
        ['10', 10],
        ['1', 1],
        ['100', 100],
        [' 20 ', 20],
        ['0', 10],
        ['101', 10],
        ['2.5', 10],
        ['ten', 10],
        ['', 10],
      ];
      const got = await php.call(cases.map(([text]) => ['lane_rate', text]));
      got.forEach((r, i) => assert.equal(r.value, cases[i]![1], JSON.stringify(cases[i]![0])));
    });

    test('lanes, first in line first; an unknown lane is the last', async () => {
      const got = await php.call([...LANES.map((l) => ['lane_of', l]), ['lane_of', 'anything'], ['lane_of', '']]);
      assert.deepEqual(
        got.map((r) => r.value),
        [...LANES, 'background', 'background'],
      );
    });

    test('visitor lanes (their calls share the request deadline): paying, start, info; not admin, background', async () => {
      const got = await php.call(LANES.map((l) => ['lane_for_visitors', l]));
      assert.deepEqual(
        got.map((r) => r.value),
        [true, true, false, true, false],
      );
    });

    test('reserves: each lane leaves a larger share of the bucket (all but the one token it takes); at 1 a second none can', async () => {
      const rates = [10, 20, 1];
      const got = await php.call(rates.flatMap((rate) => LANES.map((lane) => ['lane_reserve', lane, rate])));
      const table = rates.map((_, r) => got.slice(r * LANES.length, (r + 1) * LANES.length).map((x) => Math.round((x.value as number) * 100) / 100));
      assert.deepEqual(table, [
        [0, 1.8, 2.7, 3.6, 4.5],
        [0, 3.8, 5.7, 7.6, 9.5],
        [0, 0, 0, 0, 0],
      ]);
    });

    test('a full bucket: each lane takes until its reserve, and no further; paying buyers take the rest', async () => {
      // At 10 a second, all at one moment: background takes while 5.5 are left (its reserve 4.5, and the token it takes),
      // pages while 4.6 are, starting buyers while 2.8 are; paying buyers take what is left.
      const at = 1_000_000;
      const sequence = (lane: string, n: number) => Array.from({ length: n }, () => [lane, at] as [string, number]);
      const got = (
        await php.call([['lane_requests', [...sequence('background', 7), ...sequence('info', 2), ...sequence('start', 3), ...sequence('paying', 4)], 10]])
      )[0]!.value as Array<string | number>;
      assert.deepEqual(got.slice(0, 7), ['ok', 'ok', 'ok', 'ok', 'ok', 50, 50], 'background: 5 of 10, then told to wait until the bucket holds 5.5');
      assert.deepEqual(got.slice(7, 9), ['ok', 60], 'info: one more (down to 4), then 60 ms until 4.6');
      assert.deepEqual(got.slice(9, 12), ['ok', 'ok', 80], 'start: down to 2 tokens, then 80 ms until 2.8');
      assert.deepEqual(got.slice(12), ['ok', 'ok', 100, 100], 'paying: the last tokens, then the bucket is empty for everyone');
    });

    test('refill: the rate a second, never above one second of tokens; a clock behind the stored time never refills backwards', async () => {
      const rate = 10;
      const t = 5_000_000;
      const drain = Array.from({ length: 10 }, () => ['paying', t] as [string, number]);
      const got = (
        await php.call([
          [
            'lane_requests',
            [
              ...drain,
              ['paying', t], // empty: 100 ms to the next token
              ['paying', t + 100], // one token back
              ['paying', t + 150], // half a token
              ['paying', t + 200],
              ['paying', t + 100_000], // long idle: 10 tokens, not 1000
              ...Array.from({ length: 10 }, () => ['paying', t + 100_000] as [string, number]),
              ['paying', t + 50_000], // another server's clock, 50 s behind: nothing refills
            ],
            rate,
          ],
        ])
      )[0]!.value as Array<string | number>;
      assert.deepEqual(got.slice(0, 10), Array(10).fill('ok'));
      assert.deepEqual(got.slice(10, 14), [100, 'ok', 50, 'ok']);
      assert.deepEqual(got.slice(14, 24), Array(10).fill('ok'), 'a full bucket after a long idle holds one second of tokens');
      assert.equal(got[24], 100, 'one more in the same moment waits');
      assert.equal(got[25], 100, 'a clock behind the stored time refills nothing');
    });

    test('however requests arrive, no second holds more than the rate plus the bucket (what the service allows at the same rate)', async () => {
      // Requests of every lane, every 13 ms for 5 s; the accepted ones counted by wall-clock second and by any 1 s window.
      for (const rate of [5, 10, 20]) {
        const requests: Array<[string, number]> = [];
        for (let ms = 0; ms < 5000; ms += 13) {
          requests.push([LANES[(ms / 13) % LANES.length]!, 9_000_000 + ms]);
        }
        const got = (await php.call([['lane_requests', requests, rate]]))[0]!.value as Array<string | number>;
        const times = requests.filter((_, i) => got[i] === 'ok').map(([, ms]) => ms);
        // The service's own bucket: `rate` tokens, refilling `rate` a second (the sandbox's rule).
        let tokens = rate;
        let last = times[0]!;
        for (const ms of times) {
          tokens = Math.min(rate, tokens + ((ms - last) / 1000) * rate);
          last = ms;
          assert.ok(tokens >= 1 - 1e-9, `rate ${rate}: the service would refuse the request at ${ms}`);
          tokens -= 1;
        }
        assert.ok(times.length >= rate * 5 - 1, `rate ${rate}: ${times.length} accepted in 5 s`);
      }
    });

    test('a 429 pauses every lane until its Retry-After (at least 1 s, at most an hour); a longer pause already set stays', async () => {
      const now = 7_000_000;
      const got = await php.call([
        ['lane_pause', null, 3, 10, now],
        ['lane_pause', null, null, 10, now],
        ['lane_pause', null, 0, 10, now],
        ['lane_pause', null, 99_999, 10, now],
        ['lane_pause', { tokens: 4, at: now, paused_until: now + 60_000 }, 2, 10, now],
      ]);
      assert.deepEqual(
        got.map((r) => (r.value as { paused_until: number }).paused_until - now),
        [3000, 1000, 1000, 3_600_000, 60_000],
      );
      assert.equal((got[0]!.value as { tokens: number }).tokens, 0, 'the bucket is emptied');
      const paused = got[0]!.value;
      const takes = await php.call([...LANES.map((lane) => ['lane_take', paused, lane, 10, now + 2999]), ['lane_take', paused, 'paying', 10, now + 3000]]);
      for (const [i, t] of takes.slice(0, LANES.length).entries()) {
        assert.deepEqual([(t.value as { ok: boolean }).ok, (t.value as { wait_ms: number }).wait_ms], [false, 1], LANES[i]);
      }
      // Once the pause has passed, the bucket has refilled meanwhile.
      assert.equal((takes[LANES.length]!.value as { ok: boolean }).ok, true, 'after the pause');
    });

    test('a damaged or missing row is a full bucket, never an error', async () => {
      const got = await php.call([
        ['lane_take', 'junk', 'background', 10, 1000],
        ['lane_take', { tokens: 'x', at: 5 }, 'background', 10, 1000],
        ['lane_take', { tokens: -5, at: 1000 }, 'paying', 10, 1000],
        ['lane_take', { tokens: 1e9, at: 1000 }, 'background', 10, 1000],
      ]);
      assert.deepEqual(
        got.map((r) => [(r.value as { ok: boolean }).ok, Math.round((r.value as { state: { tokens: number } }).state.tokens * 10) / 10]),
        [
          [true, 9],
          [true, 9],
          [false, 0],
          [true, 9],
        ],
      );
    });
  });
}

/**
 * Address_Policy on the oldest and newest supported PHP ("a new address for
 * each order", issue 31): no index past the last paid one plus the gap limit
 * is ever handed out; the owner is warned before every address inside the gap
 * is in use, told when it is, and told when addresses were handed out past
 * it; an order's address goes to another order only once every payment
 * signed for it is dead.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

interface Gap {
  last_paid: number | null;
  highest: number | null;
  gap: number;
  free: number;
}
const gap = (last_paid: number | null, highest: number | null, free = 0): Gap => ({
  last_paid,
  highest,
  gap: highest === null ? 0 : highest - (last_paid ?? -1),
  free,
});
const attempt = (signed: boolean, retired: boolean, settled_unpaid: boolean) => ({ signed, retired, settled_unpaid });

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Address_Policy`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    test('the highest index handed out is the last paid one plus the gap limit', async () => {
      const cases: Array<[number | null, number, number]> = [
        [null, 20, 19],
        [0, 20, 20],
        [5, 20, 25],
        [99, 1000, 1099],
        [null, 0, 0], // A limit below 1 never lets the cap fall under the first index.
      ];
      const got = await php.call(cases.map(([paid, limit]) => ['address_cap', paid, limit]));
      got.forEach((r, i) => assert.equal(r.value, cases[i]![2], JSON.stringify(cases[i])));
    });

    test('the owner is told before the gap is full (near), when it is (full), and when addresses are past it', async () => {
      const cases: Array<[Gap, number, number, string, string]> = [
        [gap(null, null), 0, 20, 'ok', 'a new wallet'],
        [gap(null, 13), 14, 20, 'ok', '14 in use, none paid'],
        [gap(null, 14), 15, 20, 'near', '15 in use: 5 from the limit'],
        [gap(null, 18), 19, 20, 'near', '19 in use'],
        [gap(null, 19), 20, 20, 'full', 'all 20 in use: a new order waits'],
        [gap(null, 19, 1), 20, 20, 'near', 'all 20 handed out but one freed: it is taken next'],
        [gap(10, 30), 31, 20, 'full', 'paid at 10: indexes up to 30 are seen, all held'],
        [gap(25, 30), 31, 20, 'ok', 'paid at 25: 5 past it'],
        [gap(null, 200), 201, 20, 'past', 'handed out past the gap by an older version (or a lowered limit)'],
        [gap(null, 200, 3), 201, 1000, 'ok', 'the same wallet with a gap limit of 1000'],
      ];
      const got = await php.call(cases.map(([g, next, limit]) => ['address_standing', g, next, limit]));
      got.forEach((r, i) => assert.equal(r.value, cases[i]![3], cases[i]![4]));
    });

    test('an address goes to another order only when no payment signed for it can still be paid', async () => {
      const cases: Array<[boolean, ReturnType<typeof attempt>[], boolean, string]> = [
        [false, [], true, 'no payment of the order used it'],
        [false, [attempt(false, false, false)], true, 'never signed for the buyer: the service cannot know it'],
        [false, [attempt(true, true, false)], true, 'retired: the service never heard of it after its window'],
        [false, [attempt(true, false, true)], true, 'ended unpaid, confirmed, longer ago than a payment stays open'],
        [false, [attempt(true, false, false)], false, 'signed and not known dead: the buyer may still pay it'],
        [false, [attempt(true, true, false), attempt(true, false, false)], false, 'one dead, one still open (a second tab)'],
        [false, [attempt(true, true, false), attempt(true, false, true), attempt(false, false, false)], true, 'every signed one dead'],
        [true, [attempt(true, true, false)], false, 'a paid order keeps its address forever'],
      ];
      const got = await php.call(cases.map(([paid, attempts]) => ['address_releasable', paid, attempts]));
      got.forEach((r, i) => assert.equal(r.value, cases[i]![2], cases[i]![3]));
    });
  });
}

/**
 * Order_Decision (what an operation event does to its order) without
 * WordPress or WooCommerce, on the oldest and newest supported PHP: every
 * status/code of the flow, mismatches of each member, an order edited after
 * the attempt started, duplicates, out-of-order and conflicting events,
 * several operations under the same attempt (the buyer tried again inside
 * the widget), paid and earlier attempts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

const WALLET = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
const OTHER_WALLET = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';

interface Pair {
  status: string;
  status_code: number;
}
interface Facts {
  state: Pair | null;
  event: Pair & { operation_id: string };
  attempt: { partner_operation_id: string; mismatch: boolean; current: boolean };
  others_live: boolean;
  expected: { amount: number; currency: string; wallet: string };
  received: { amount?: number | null; currency?: string | null; wallet?: string | null; to_currency?: string | null };
  order: { paid: boolean; failed: boolean; paid_by: string; paid_by_operation: string; amount: number | null; currency: string };
  auto_confirm: boolean;
  widget_retry?: boolean;
}
interface Action {
  outcome: string;
  advance: boolean;
  order: string;
  reason: string;
  notify: boolean;
  flag_mismatch: boolean;
  why: string;
  problems: string[];
  missing: string[];
}

const STATUS_OF: Record<number, string> = {
  0: 'success',
  1: 'pending',
  2: 'pending',
  3: 'pending',
  4: 'pending',
  6: 'success',
  7: 'pending',
  8: 'awaiting confirm',
  9: 'pending',
};
for (const code of [101, 102, 103, 104, 105, 106]) {
  STATUS_OF[code] = 'declined';
}
const CODES = [0, 1, 2, 3, 4, 6, 7, 8, 9, 101, 102, 103, 104, 105, 106];
const pair = (code: number): Pair => ({ status: STATUS_OF[code]!, status_code: code });

/** A first event for the order's current attempt, paying exactly what the order asks. */
function facts(code: number, change: Record<string, unknown> = {}): Facts {
  const base: Facts = {
    state: null,
    event: { ...pair(code), operation_id: 'op-1' },
    attempt: { partner_operation_id: 'wc-7-aaaa', mismatch: false, current: true },
    others_live: false,
    expected: { amount: 7900, currency: 'EUR', wallet: WALLET },
    received: { amount: 7900, currency: 'EUR', wallet: WALLET, to_currency: 'BTC' },
    order: { paid: false, failed: false, paid_by: '', paid_by_operation: '', amount: 7900, currency: 'EUR' },
    auto_confirm: false,
  };
  const out = { ...base } as Record<string, unknown>;
  for (const [key, value] of Object.entries(change)) {
    out[key] = value === null || typeof value !== 'object' || key === 'state' ? value : { ...(base[key as keyof Facts] as object), ...value };
  }
  return out as unknown as Facts;
}

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Order_Decision`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());
    const decideAll = (cases: Facts[]) => php.one<Action[]>('order_decisions', cases);
    const brief = (a: Action) =>
      `${a.outcome}/${a.advance ? 'advance' : 'stay'}/${a.order}/${a.reason}${a.why ? `(${a.why})` : ''}${a.notify ? '/notify' : ''}`;

    test('every status/code, first event, matching payment, unpaid order', async () => {
      const got = await decideAll(CODES.map((code) => facts(code)));
      const expected: Record<number, string> = {
        0: 'applied/advance/complete/complete',
        1: 'applied/advance/note/progress',
        2: 'applied/advance/hold/progress',
        3: 'applied/advance/hold/progress',
        4: 'applied/advance/hold/progress',
        6: 'applied/advance/complete/complete',
        7: 'applied/advance/hold/progress',
        8: 'applied/advance/hold/await_confirmation(auto_confirm_off)/notify',
        9: 'applied/advance/hold/progress',
      };
      for (const code of [101, 102, 103, 104, 105, 106]) {
        expected[code] = 'applied/advance/fail/declined';
      }
      assert.deepEqual(Object.fromEntries(CODES.map((code, i) => [code, brief(got[i]!)])), expected);
      assert.ok(got.every((a) => !a.flag_mismatch && a.problems.length === 0));
    });

    test('awaiting confirmation is confirmed automatically only for a matching, current, unpaid attempt', async () => {
      const got = await decideAll([
        facts(8, { auto_confirm: true }),
        facts(8, { auto_confirm: true, attempt: { current: false } }),
        facts(8, { auto_confirm: true, order: { paid: true } }),
        facts(8, { auto_confirm: true, received: { to_currency: null } }),
        facts(8, { auto_confirm: true, received: { amount: 7899 } }),
      ]);
      assert.deepEqual(got.map(brief), [
        'applied/advance/confirm/confirm',
        'applied/advance/hold/await_confirmation(unchecked)/notify',
        'applied/advance/hold/await_confirmation(unchecked)/notify',
        'applied/advance/hold/await_confirmation(unchecked)/notify',
        'applied/advance/hold/mismatch/notify',
      ]);
      assert.deepEqual(got[3]!.missing, ['to_currency']);
    });

    test('a paid order is never failed or completed again; a second payer is reported', async () => {
      const got = await decideAll([
        facts(2, { order: { paid: true, paid_by: 'wc-7-aaaa' } }),
        facts(6, { order: { paid: true, paid_by: 'wc-7-aaaa' } }),
        facts(0, { order: { paid: true, paid_by: '' } }),
        facts(6, { order: { paid: true, paid_by: 'wc-7-bbbb' } }),
        facts(101, { order: { paid: true, paid_by: 'wc-7-aaaa' } }),
      ]);
      assert.deepEqual(got.map(brief), [
        'applied/advance/note/progress',
        'applied/advance/note/already_paid',
        'applied/advance/note/already_paid',
        'applied/advance/note/paid_twice/notify',
        'applied/advance/note/declined_after_paid',
      ]);
    });

    test('a decline of an earlier attempt only notes; its success still pays the order', async () => {
      const got = await decideAll([facts(104, { attempt: { current: false } }), facts(6, { attempt: { current: false } })]);
      assert.deepEqual(got.map(brief), ['applied/advance/note/earlier_attempt_declined', 'applied/advance/complete/complete']);
    });

    test('each mismatching member holds the order, flags the attempt and names the member, at every code that is not a decline', async () => {
      const variants: Array<[Partial<Facts['received']>, string]> = [
        [{ amount: 7899 }, 'amount'],
        [{ amount: 7901 }, 'amount'],
        [{ currency: 'USD' }, 'currency'],
        [{ wallet: OTHER_WALLET }, 'wallet'],
        [{ to_currency: 'ETH' }, 'to_currency'],
      ];
      const cases: Facts[] = [];
      const labels: string[] = [];
      for (const code of CODES.filter((c) => c < 100)) {
        for (const [received, member] of variants) {
          cases.push(facts(code, { received, auto_confirm: true }));
          labels.push(`${code} ${member}`);
        }
      }
      const got = await decideAll(cases);
      got.forEach((a, i) => {
        const member = labels[i]!.split(' ')[1]!;
        assert.equal(brief(a), 'applied/advance/hold/mismatch/notify', labels[i]);
        assert.equal(a.flag_mismatch, true, labels[i]);
        assert.equal(a.problems.length, 1, labels[i]);
        assert.match(a.problems[0]!, new RegExp(`^${member}:`), labels[i]);
      });
      // Declines are applied whatever the amounts say (nothing is paid).
      const declines = await decideAll([101, 106].map((code) => facts(code, { received: { amount: 1 } })));
      assert.deepEqual(declines.map(brief), ['applied/advance/fail/declined', 'applied/advance/fail/declined']);
    });

    test('once an attempt did not match, a later matching success still holds', async () => {
      const [a] = await decideAll([facts(6, { state: pair(2), attempt: { mismatch: true } })]);
      assert.equal(brief(a!), 'applied/advance/hold/mismatch/notify');
      assert.deepEqual(a!.problems, []);
      assert.equal(a!.flag_mismatch, false);
    });

    test('a success that does not say amount, currency, wallet or asset is held, never completed', async () => {
      const members = ['amount', 'currency', 'wallet', 'to_currency'] as const;
      const got = await decideAll(members.map((m) => facts(6, { received: { [m]: null } })));
      got.forEach((a, i) => {
        assert.equal(brief(a), 'applied/advance/hold/incomplete/notify', members[i]);
        assert.deepEqual(a.missing, [members[i]]);
      });
    });

    test('an order edited after the attempt started (79.00 paid, 237.00 asked) is held, not completed', async () => {
      const got = await decideAll([
        facts(6, { order: { amount: 23700 } }),
        facts(0, { order: { currency: 'USD' } }),
        facts(6, { order: { amount: null } }),
        facts(8, { order: { amount: 23700 }, auto_confirm: true }),
        facts(2, { order: { amount: 23700 } }),
      ]);
      for (const a of got) {
        assert.equal(brief(a), 'applied/advance/hold/mismatch/notify');
        assert.equal(a.flag_mismatch, true);
        assert.match(a.problems.join(), /^order:/);
      }
      assert.match(got[0]!.problems[0]!, /237\.00 EUR.*79\.00 EUR/);
    });

    test('a success to an address given to another order since is held, never completed, and the owner told', async () => {
      const got = await decideAll([
        facts(6, { address_elsewhere: 42 } as Record<string, unknown>),
        facts(0, { address_elsewhere: 42 } as Record<string, unknown>),
        facts(8, { address_elsewhere: 42, auto_confirm: true } as Record<string, unknown>),
        facts(0, { address_elsewhere: 0 } as Record<string, unknown>),
      ]);
      for (const a of got.slice(0, 3)) {
        assert.equal(brief(a), 'applied/advance/hold/mismatch/notify');
        assert.deepEqual(a.problems, [`wallet: the address ${WALLET} now belongs to order 42`]);
      }
      assert.equal(brief(got[3]!), 'applied/advance/complete/complete', 'an address no other order holds pays as before');
      // A decline to it changes nothing about whose the address is: the order fails as any decline does.
      assert.equal(brief((await decideAll([facts(104, { address_elsewhere: 42 } as Record<string, unknown>)]))[0]!), 'applied/advance/fail/declined');
    });

    test('duplicates, late and out-of-order events change nothing', async () => {
      const got = await decideAll([
        facts(6, { state: pair(6) }),
        facts(2, { state: pair(2) }),
        facts(2, { state: pair(0) }),
        facts(6, { state: pair(0) }),
        facts(4, { state: pair(7) }),
        facts(2, { state: pair(9) }),
        facts(101, { state: pair(104) }),
      ]);
      assert.deepEqual(got.map(brief), [
        'ignored/stay/none/ignored(duplicate)',
        'ignored/stay/none/ignored(duplicate)',
        'ignored/stay/none/ignored(after_final)',
        'ignored/stay/none/ignored(after_final)',
        'ignored/stay/none/ignored(stale)',
        'ignored/stay/none/ignored(stale)',
        'ignored/stay/none/ignored(after_final)',
      ]);
    });

    test('events that arrive in order move forward: 1, 2, 8, 9, 4, 7, 6, 0', async () => {
      const sequence = [1, 2, 8, 9, 4, 7, 6, 0];
      const got = await decideAll(sequence.map((code, i) => facts(code, { state: i === 0 ? null : pair(sequence[i - 1]!) })));
      assert.deepEqual(
        got.map((a) => a.order),
        ['note', 'hold', 'hold', 'hold', 'hold', 'hold', 'complete', 'complete'],
      );
      assert.ok(got.every((a) => a.advance));
    });

    test('success after a decline and a decline after a success are conflicts for review; the attempt stays', async () => {
      const got = await decideAll([facts(6, { state: pair(101) }), facts(102, { state: pair(6) }), facts(0, { state: pair(105) })]);
      assert.deepEqual(got.map(brief), [
        'review/stay/note/conflict(conflict)/notify',
        'review/stay/note/conflict(conflict)/notify',
        'review/stay/note/conflict(conflict)/notify',
      ]);
    });

    test('unknown pairs are reviewed, never applied', async () => {
      const unknown = [
        { status: 'success', status_code: 2 },
        { status: 'pending', status_code: 5 },
        { status: 'declined', status_code: 107 },
        { status: 'Pending', status_code: 2 },
      ];
      const got = await decideAll(unknown.map((p) => ({ ...facts(2), event: { ...p, operation_id: 'op-1' } })));
      assert.ok(
        got.every((a) => brief(a) === 'review/stay/note/unknown_pair(unknown)/notify'),
        JSON.stringify(got.map(brief)),
      );
    });

    test('several operations of one attempt: each on its own state, any matching success pays, a second success is paid twice', async () => {
      const cases: Array<[string, Facts]> = [
        // The buyer tried again inside the widget after a decline (the order failed): a new operation, no state yet.
        ['applied/advance/pending/retried', facts(1, { event: { ...pair(1), operation_id: 'op-2' }, order: { failed: true } })],
        ['applied/advance/hold/progress', facts(2, { event: { ...pair(2), operation_id: 'op-2' }, order: { failed: true } })],
        ['applied/advance/complete/complete', facts(6, { event: { ...pair(6), operation_id: 'op-2' }, order: { failed: true } })],
        ['applied/advance/complete/complete', facts(0, { event: { ...pair(0), operation_id: 'op-2' }, order: { failed: true } })],
        // A created operation of an order that did not fail is only a note.
        ['applied/advance/note/progress', facts(1, { event: { ...pair(1), operation_id: 'op-2' } })],
        // An earlier attempt's new operation does not move the order back to pending.
        ['applied/advance/note/progress', facts(1, { event: { ...pair(1), operation_id: 'op-2' }, order: { failed: true }, attempt: { current: false } })],
        // The old operation ends while the new one may still be paid: the order is not failed.
        ...[101, 102, 103, 104, 105, 106].map((code): [string, Facts] => ['applied/advance/note/declined_other_live', facts(code, { others_live: true })]),
        ...[101, 104].map((code): [string, Facts] => ['applied/advance/fail/declined', facts(code, { others_live: false })]),
        // Issue 32, point 3: inside the embedded widget the buyer may try again under the same payment: a decline waits
        // (a note; the order is failed, and WooCommerce's failed mails sent, once the outcome is known), each decline noted.
        ...[101, 104].map((code): [string, Facts] => ['applied/advance/wait/declined_may_retry', facts(code, { widget_retry: true })]),
        ['applied/advance/wait/declined_may_retry', facts(101, { widget_retry: true, event: { ...pair(101), operation_id: 'op-2' }, state: null })],
        // Paid, or another operation under way: as before.
        ['applied/advance/note/declined_other_live', facts(101, { widget_retry: true, others_live: true })],
        ['applied/advance/note/declined_after_paid', facts(101, { widget_retry: true, order: { paid: true } })],
        ['applied/advance/note/earlier_attempt_declined', facts(101, { widget_retry: true, attempt: { current: false } })],
        // Paid by one operation: its own later steps are no news, another's success is paid twice.
        ['applied/advance/note/already_paid', facts(0, { state: pair(6), order: { paid: true, paid_by: 'wc-7-aaaa', paid_by_operation: 'op-1' } })],
        [
          'applied/advance/note/paid_twice/notify',
          facts(6, { event: { ...pair(6), operation_id: 'op-2' }, order: { paid: true, paid_by: 'wc-7-aaaa', paid_by_operation: 'op-1' } }),
        ],
        // Paid before operations were recorded (no operation id kept): the attempt decides, as before.
        ['applied/advance/note/already_paid', facts(6, { event: { ...pair(6), operation_id: 'op-2' }, order: { paid: true, paid_by: 'wc-7-aaaa' } })],
      ];
      const got = await decideAll(cases.map(([, f]) => f));
      assert.deepEqual(
        got.map(brief),
        cases.map(([want]) => want),
      );
    });

    test('nothing that does not match ever completes or confirms (every code x every fault)', async () => {
      const faults: Array<Record<string, unknown>> = [
        { received: { amount: 7899 } },
        { received: { currency: 'GBP' } },
        { received: { wallet: OTHER_WALLET } },
        { received: { to_currency: 'LTC' } },
        { received: { to_currency: null } },
        { received: { amount: null } },
        { attempt: { mismatch: true } },
        { order: { amount: 23700 } },
      ];
      const cases = CODES.flatMap((code) => faults.map((fault) => facts(code, { ...fault, auto_confirm: true })));
      const got = await decideAll(cases);
      const bad = got.map((a, i) => ({ a, c: cases[i]! })).filter(({ a }) => a.order === 'complete' || a.order === 'confirm');
      assert.deepEqual(
        bad.map(({ c }) => JSON.stringify(c)),
        [],
      );
    });
  });
}

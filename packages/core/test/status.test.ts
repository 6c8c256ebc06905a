import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  OPERATION_FLOW,
  CALLBACK_CONDITIONS,
  STATUS_MEANINGS,
  STATUS_CODE_MEANINGS,
  classify,
  compareProgress,
  decideTransition,
  canTransition,
  findStep,
  type OperationState,
} from '../src/status.js';

const st = (status: string, status_code: number): OperationState => ({ status, status_code });

test('every status and every status code of the spec is covered exactly once', () => {
  assert.deepEqual(Object.keys(STATUS_MEANINGS).sort(), ['awaiting confirm', 'declined', 'pending', 'success']);
  const codes = OPERATION_FLOW.map((s) => s.status_code).sort((a, b) => a - b);
  assert.deepEqual(codes, [0, 1, 2, 3, 4, 6, 7, 8, 9, 101, 102, 103, 104, 105, 106]);
  assert.equal(STATUS_CODE_MEANINGS[8], 'Waiting for partner confirmation.');
  assert.equal(STATUS_CODE_MEANINGS[105], 'Rate hold time expired.');
});

test('the pairing table (decisions.md) is exactly this', () => {
  assert.deepEqual(
    OPERATION_FLOW.map((s) => `${s.status}/${s.status_code}/${s.phase}/${s.final ? 'final' : 'open'}`),
    [
      'pending/1/in_progress/open',
      'pending/2/in_progress/open',
      'pending/3/in_progress/open',
      'awaiting confirm/8/needs_partner_action/open',
      'pending/9/in_progress/open',
      'pending/4/in_progress/open',
      'pending/7/in_progress/open',
      'success/6/succeeded/open',
      'success/0/succeeded/final',
      'declined/101/failed/final',
      'declined/102/failed/final',
      'declined/103/failed/final',
      'declined/104/failed/final',
      'declined/105/failed/final',
      'declined/106/failed/final',
    ],
  );
});

test("callback conditions are exactly the spec's five, each a pair of the table (none for success 0)", () => {
  assert.deepEqual(
    CALLBACK_CONDITIONS.map((c) => [c.condition, c.status, c.status_code]),
    [
      ['payment_refused', 'declined', 101],
      ['partner_confirmation_pending', 'awaiting confirm', 8],
      ['partner_cancelled', 'declined', 106],
      ['funds_debited', 'pending', 2],
      ['withdrawal_transaction_created', 'success', 6],
    ],
  );
  for (const c of CALLBACK_CONDITIONS) {
    assert.ok(findStep(c.status, c.status_code), c.condition);
  }
});

test('classify: phases, finality, reasons and meanings', () => {
  assert.deepEqual(classify('pending', 2), { phase: 'in_progress', final: false, meaning: 'pending: Money received from the user.' });
  assert.equal(classify('awaiting confirm', 8).phase, 'needs_partner_action');
  assert.deepEqual(classify('success', 6), { phase: 'succeeded', final: false, meaning: 'success: Withdrawal transaction created.' });
  assert.equal(classify('success', 0).final, true);
  const reasons = [101, 102, 103, 104, 105, 106].map((c) => classify('declined', c));
  assert.deepEqual(
    reasons.map((r) => [r.phase, r.final, r.reason]),
    [
      ['failed', true, 'payment_refused'],
      ['failed', true, 'user_opt_out'],
      ['failed', true, 'user_failed_verification'],
      ['failed', true, 'card_failed_verification'],
      ['failed', true, 'rate_expired'],
      ['failed', true, 'cancelled_by_partner'],
    ],
  );
});

test('classify: unknown statuses, unknown codes and mismatched pairs are unknown', () => {
  for (const [s, c] of [
    ['pending', 5],
    ['refunded', 2],
    ['success', 2],
    ['declined', 0],
    ['pending', 101],
    ['Pending', 1],
    ['pending', '1'],
    [undefined, undefined],
  ] as const) {
    const r = classify(s, c);
    assert.equal(r.phase, 'unknown', `${String(s)}/${String(c)}`);
    assert.equal(r.final, false);
    assert.match(r.meaning, /Unknown status\/status_code pair/);
  }
});

test('compareProgress orders the flow and puts final outcomes level', () => {
  const order = [1, 2, 3, 8, 9, 4, 7, 6, 0];
  for (let i = 0; i < order.length - 1; i++) {
    assert.ok(compareProgress(order[i]!, order[i + 1]!) < 0, `${order[i]} before ${order[i + 1]}`);
    assert.ok(compareProgress(order[i + 1]!, order[i]!) > 0);
  }
  assert.equal(compareProgress(st('declined', 101), st('success', 0)), 0);
  assert.equal(compareProgress(101, 106), 0);
  assert.ok(compareProgress(7, 102) < 0);
  assert.equal(compareProgress(st('pending', 2), 2), 0);
  assert.throws(() => compareProgress(5, 1), RangeError);
  assert.throws(() => compareProgress(st('success', 2), 1), RangeError);
});

test('an older event never moves an operation backwards', () => {
  const inOrder = [
    st('pending', 1),
    st('pending', 2),
    st('pending', 3),
    st('awaiting confirm', 8),
    st('pending', 9),
    st('pending', 4),
    st('pending', 7),
    st('success', 6),
    st('success', 0),
  ];
  for (let i = 0; i < inOrder.length; i++) {
    for (let j = 0; j < inOrder.length; j++) {
      const d = decideTransition(inOrder[i], inOrder[j]!);
      if (j > i) {
        assert.deepEqual(d, { action: 'apply' }, `${i}->${j}`);
      } else if (j === i) {
        assert.deepEqual(d, { action: 'ignore', why: 'duplicate' });
      } else {
        assert.equal(d.action, 'ignore', `${i}->${j}`);
      }
    }
  }
  assert.deepEqual(decideTransition(st('pending', 7), st('pending', 2)), { action: 'ignore', why: 'stale' });
  assert.deepEqual(decideTransition(st('success', 0), st('success', 6)), { action: 'ignore', why: 'after_final' });
  assert.deepEqual(decideTransition(st('success', 6), st('pending', 7)), { action: 'ignore', why: 'stale' });
});

test('skipping steps is allowed (confirmation is optional)', () => {
  assert.ok(canTransition(st('pending', 3), st('pending', 4)));
  assert.ok(canTransition(st('pending', 1), st('success', 6)));
  assert.ok(canTransition(null, st('success', 0)));
  assert.ok(canTransition(undefined, st('pending', 2)));
});

test('declined is terminal; declined vs success is a conflict for review', () => {
  for (const from of [st('pending', 1), st('pending', 2), st('awaiting confirm', 8), st('pending', 9), st('pending', 7)]) {
    assert.deepEqual(decideTransition(from, st('declined', 106)), { action: 'apply' });
  }
  assert.deepEqual(decideTransition(st('declined', 101), st('pending', 2)), { action: 'ignore', why: 'after_final' });
  assert.deepEqual(decideTransition(st('declined', 101), st('declined', 106)), { action: 'ignore', why: 'after_final' });
  assert.deepEqual(decideTransition(st('declined', 101), st('declined', 101)), { action: 'ignore', why: 'duplicate' });
  assert.deepEqual(decideTransition(st('declined', 105), st('success', 6)), { action: 'review', why: 'conflict' });
  assert.deepEqual(decideTransition(st('success', 6), st('declined', 101)), { action: 'review', why: 'conflict' });
  assert.deepEqual(decideTransition(st('success', 0), st('declined', 106)), { action: 'review', why: 'conflict' });
  assert.equal(canTransition(st('success', 6), st('declined', 101)), false);
});

test('unknown pairs are never applied automatically', () => {
  assert.deepEqual(decideTransition(null, st('pending', 5)), { action: 'review', why: 'unknown' });
  assert.deepEqual(decideTransition(st('pending', 1), st('success', 2)), { action: 'review', why: 'unknown' });
  assert.deepEqual(decideTransition(st('refunded', 0), st('pending', 2)), { action: 'review', why: 'unknown' });
  assert.equal(canTransition(st('pending', 1), st('pending', 5)), false);
});

test('the tables are frozen', () => {
  assert.ok(Object.isFrozen(OPERATION_FLOW) && OPERATION_FLOW.every(Object.isFrozen));
  assert.ok(Object.isFrozen(CALLBACK_CONDITIONS) && CALLBACK_CONDITIONS.every(Object.isFrozen));
});

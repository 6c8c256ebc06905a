/**
 * Reconciliation at scale in a real store (issue 26, point 5): WordPress,
 * WooCommerce with its Action Scheduler, our plugins and the sandbox on the
 * native runtime (PHP-FPM, nginx, MariaDB), the sandbox limiting the partner
 * to 3 requests a second.
 *
 * - Stale attempts whose callbacks were lost are caught up by one queued
 *   batch action at a time (never one per attempt), at the owner's rate: the
 *   sandbox never sees more than the setting in a second, and answers no 429.
 * - An attempt the service never heard of is retired once its payment window
 *   has passed: a note, no more questions, whatever asks for a check.
 * - Per-order actions left queued by earlier versions still check their
 *   order, through the batch, and queue nothing more.
 * - The partner's rate spent by other traffic: the 429 stops the batch,
 *   which gives back what it did not check and queues the next batch after
 *   Retry-After.
 * - One order's schedule (moved down from e2e/specs/checkout-reconcile.spec.ts):
 *   the payment start plans one check; each check that finds nothing final
 *   plans the next further out (15 min, 30 min, 1 h); a decline by callback
 *   leaves one last look once the payment window has passed. Each check's
 *   time is made to come (never waited for) and the batch runs on demand.
 * - WooCommerce's hold-stock job (moved down from e2e/specs/checkout-hold-stock.spec.ts)
 *   never cancels an order whose card payment is in flight, and still
 *   cancels one whose buyer never started paying: the orders' time is moved
 *   past the hold and the job run on demand.
 *
 * Run alone (it starts a store): `node --test dist/test/wordpress/reconcile.test.js`
 * (npm run test:wordpress). Skipped where the native runtime is missing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLandingUrl, sign } from '@card2crypto/core';
import { SANDBOX_OPERATIONS_PATH, knownOperationBody, operationDataFor, type SignedPayment } from '@card2crypto/sandbox';
import { partnerParams, partnerSecret, serviceKnows, serviceRate, storeStep, type Outcome, type Pending, type Seeded } from '../support/reconcile-store.js';
import { needsNative, startTestStore, type TestStore } from '../support/test-store.js';

interface Round {
  at: number;
  ms: number;
  hook: 'batch' | 'per_order';
  pending: Pending;
  after: Pending;
  ended: number;
  due: number;
}
interface Run {
  rounds: Round[];
  pending: Pending;
}
interface OrderState {
  status: string;
  attempt: { status: string; status_code: string; checks: string; next_check_at: string | null; claim_token: string | null; retired_at: string | null };
  notes?: string[];
}
interface State {
  orders: Record<string, OrderState>;
  pending: Pending;
}

const ids = (seed: Seeded) => Array.from({ length: seed.last - seed.first + 1 }, (_, i) => seed.first + i);
const RETIRED_NOTE = /never started paying .*no longer checks it/;
const PAID = ['wc-processing', 'wc-completed'];

/** Seconds from now to a planned check (next_check_at, UTC), to the nearest minute; null without one. */
const delayOf = (at: string | null) => (at === null ? null : Math.round((Date.parse(`${at.replace(' ', 'T')}Z`) - Date.now()) / 60_000) * 60);

describe('reconciliation at scale in a real store', { skip: needsNative, timeout: 15 * 60_000 }, () => {
  let s: TestStore;
  let secret: string;
  before(async () => {
    s = await startTestStore({ name: 'test-reconcile', port: 9721, sandboxPort: 9771, sandboxArgs: ['--rate-limit', '3'] });
    secret = partnerSecret(s.dirs.harnessDir);
  });
  after(() => s?.stop());

  test('30 stale attempts: one batch action at a time, never over the rate; the unknown ones retired, never asked again', async () => {
    await storeStep(s, 'settings', { reconcile_rate: '3' });
    const seed = await storeStep<Seeded>(s, 'seed', { count: 30, age: 7200, tag: 'a' });
    assert.deepEqual(seed.pending, { batch: 1, per_order: 0, first: seed.pending.first }, 'one batch action, none per order');
    const orders = ids(seed);
    const outcome = (i: number): Outcome | null => (i < 17 ? 'paid' : i < 20 ? 'declined' : null);
    await serviceKnows(
      s,
      secret,
      seed,
      orders.flatMap((id, i) => (outcome(i) ? [[id, outcome(i)!] as [number, Outcome]] : [])),
    );
    await new Promise((resolve) => setTimeout(resolve, 1100)); // A full bucket.
    const before_ = await serviceRate(s);

    // Batches of 3 s at 3 requests a second: 9 attempts each at most, so several batches, one after the other.
    const started = Date.now();
    const run = await storeStep<Run>(s, 'run', { seconds: 120, batch_seconds: 3 });
    const rate = await serviceRate(s);
    const peak = Math.max(...rate.recent.filter(([second]) => second >= started - 1000).map(([, n]) => n));
    assert.ok(run.rounds.length >= 4, `${run.rounds.length} batches`);
    for (const round of run.rounds) {
      assert.equal(round.hook, 'batch');
      assert.equal(round.pending.batch, 1, `one batch action pending before each run: ${JSON.stringify(round)}`);
      assert.ok(round.after.batch <= 1, `at most one after: ${JSON.stringify(round)}`);
      assert.equal(round.after.per_order, 0, 'never an action per attempt');
      assert.ok(round.ms < 3000 + 1500, `a batch stays inside its time: ${round.ms} ms`);
    }
    assert.equal(run.rounds.at(-1)!.due, 0, 'nothing left due');
    assert.equal(rate.limited - before_.limited, 0, 'no 429');
    assert.ok(peak <= 3, `peak ${peak} a second, the setting 3: ${JSON.stringify(rate.recent)}`);
    assert.equal(rate.operation_calls - before_.operation_calls, 30, 'one question per attempt');

    const state = await storeStep<State>(s, 'state', { orders });
    const statuses = orders.map((id) => state.orders[id]!.status);
    assert.deepEqual(
      statuses.slice(0, 17).filter((x) => !PAID.includes(x)),
      [],
      'paid as the signed answer says',
    );
    assert.deepEqual(statuses.slice(17, 20), Array(3).fill('wc-failed'));
    for (const id of orders.slice(17, 20)) {
      // Found ended by the check itself: final, no further check (as before the batch; a decline that a callback
      // brought while a check was planned gets its last look after the payment window instead).
      assert.equal(state.orders[id]!.attempt.next_check_at, null);
      assert.equal(state.orders[id]!.attempt.retired_at, null);
    }
    for (const id of orders.slice(20)) {
      const o = state.orders[id]!;
      assert.equal(o.status, 'wc-pending', 'the order is left to WooCommerce');
      assert.ok(o.attempt.retired_at, `retired: ${JSON.stringify(o.attempt)}`);
      assert.equal(o.attempt.next_check_at, null);
      assert.equal(o.notes?.filter((n) => RETIRED_NOTE.test(n)).length, 1, JSON.stringify(o.notes));
    }
    assert.equal(state.pending.per_order, 0);

    const panel = await storeStep<string>(s, 'panel', { order: orders[20]! });
    assert.match(panel, /<dd data-card2crypto="background-checks">Stopped: the buyer never started paying, and the time to pay has passed\.<\/dd>/);

    // Whatever asks for a check of a retired attempt (a new plan, an old per-order action): never asked again.
    const retired = orders[25]!;
    await storeStep(s, 'schedule', { order: retired });
    await storeStep(s, 'old_action', { order: retired });
    const again = await storeStep<Run>(s, 'run', { seconds: 20, batch_seconds: 3 });
    assert.ok(again.rounds.length >= 1);
    assert.equal((await serviceRate(s)).operation_calls, rate.operation_calls, 'no question about a retired attempt');
    const later = await storeStep<State>(s, 'state', { orders: [retired] });
    assert.equal(later.orders[retired]!.attempt.next_check_at, null);
    assert.equal(later.orders[retired]!.notes?.filter((n) => RETIRED_NOTE.test(n)).length, 1, 'one note only');
    assert.equal(later.pending.per_order, 0, 'the old action queued nothing more');
  });

  test('per-order actions left by earlier versions check their order through the batch and queue nothing more', async () => {
    await storeStep(s, 'settings', { reconcile_rate: '3' });
    const seed = await storeStep<Seeded>(s, 'seed', { count: 3, age: 7200, tag: 'b', due: false });
    const orders = ids(seed);
    await serviceKnows(
      s,
      secret,
      seed,
      orders.map((id) => [id, 'paid'] as [number, Outcome]),
    );
    for (const order of orders) {
      await storeStep(s, 'old_action', { order });
    }
    const run = await storeStep<Run>(s, 'run', { seconds: 60, batch_seconds: 3 });
    // Each old action makes its attempt due and a batch checks it: the old ones only go, never come.
    assert.equal(run.rounds.filter((r) => r.hook === 'per_order').length, 3, JSON.stringify(run.rounds));
    for (const round of run.rounds) {
      assert.ok(round.after.batch <= 1, JSON.stringify(round));
      assert.ok(round.after.per_order <= round.pending.per_order, JSON.stringify(round));
    }
    assert.equal(run.pending.per_order, 0);
    const state = await storeStep<State>(s, 'state', { orders });
    assert.deepEqual(
      orders.map((id) => state.orders[id]!.status).filter((x) => !PAID.includes(x)),
      [],
    );
  });

  test('a 429 stops the batch, gives back the rest and queues the next batch after Retry-After', async () => {
    await storeStep(s, 'settings', { reconcile_rate: '3' });
    const seed = await storeStep<Seeded>(s, 'seed', { count: 12, age: 7200, tag: 'c' });
    const orders = ids(seed);
    await serviceKnows(
      s,
      secret,
      seed,
      orders.map((id) => [id, 'paid'] as [number, Outcome]),
    );
    const before_ = await serviceRate(s);
    // Other traffic of the partner (live buyers) spends the sandbox's 3 a second meanwhile: the batch meets a 429
    // however fast this machine runs its checks.
    let busy = true;
    const others = (async () => {
      while (busy) {
        await partnerParams(s, secret);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const first = await storeStep<Run>(s, 'run', { seconds: 30, batch_seconds: 20 }).finally(() => (busy = false));
    await others;
    assert.equal(first.rounds.length, 1, 'the next batch is not due yet');
    const round = first.rounds[0]!;
    assert.equal(round.after.batch, 1, 'one batch queued');
    assert.ok(round.after.first! >= round.ended + 1, `after Retry-After (at least 1 s): queued for ${round.after.first}, batch ended ${round.ended}`);
    assert.ok(round.ms < 5000, `stopped at the 429: ${round.ms} ms`);
    const state = await storeStep<State>(s, 'state', { orders });
    const paid = orders.filter((id) => PAID.includes(state.orders[id]!.status));
    assert.ok(paid.length < 12, `${paid.length} paid before the 429`);
    assert.equal((await serviceRate(s)).operation_calls - before_.operation_calls, paid.length + 1, 'the batch stopped at its first 429');
    for (const id of orders.filter((o) => !paid.includes(o))) {
      const a = state.orders[id]!.attempt;
      assert.equal(a.claim_token, null, 'given back');
      assert.ok(a.next_check_at && Date.parse(`${a.next_check_at.replace(' ', 'T')}Z`) <= Date.now(), 'still due');
      assert.equal(a.checks, '0', 'not counted as a check');
    }

    // Back under the limit: the next batches (after the wait) catch up the rest.
    await storeStep(s, 'settings', { reconcile_rate: '3' });
    const limited = (await serviceRate(s)).limited;
    const rest = await storeStep<Run>(s, 'run', { seconds: 60, batch_seconds: 20, wait: true });
    assert.ok(rest.rounds.length >= 1);
    const done = await storeStep<State>(s, 'state', { orders });
    assert.deepEqual(
      orders.map((id) => done.orders[id]!.status).filter((x) => !PAID.includes(x)),
      [],
    );
    assert.equal((await serviceRate(s)).limited, limited, 'no further 429');
  });
  test("one order's checks back off (15 min, 30 min, 1 h) while nothing is final; a decline leaves one last look after the payment window", async () => {
    await storeStep(s, 'settings', { reconcile_rate: '3' });
    // The buyer is sent to pay (the order's landing link, as the browser follows it) but never starts: the service
    // has no operation for this order yet.
    const order = await storeStep<{ id: number; landing: string }>(s, 'order', {});
    const sent = await fetch(order.landing, { redirect: 'manual' });
    await sent.arrayBuffer();
    assert.equal(sent.status, 302);
    const landing = parseLandingUrl(sent.headers.get('location') ?? '');
    assert.ok(landing.ok, `a landing URL: ${sent.headers.get('location')}`);
    const params = landing.payload.params as Record<string, string | number>;
    const plan = async () => (await storeStep<State>(s, 'state', { orders: [order.id] })).orders[order.id]!;
    /** The planned check's time comes now, and the batch runs as the queue runner would. */
    const runCheck = async () => {
      await storeStep(s, 'due', { order: order.id });
      const run = await storeStep<Run>(s, 'run', { seconds: 20 });
      assert.ok(run.rounds.length >= 1, 'a batch ran');
    };

    const first = await plan();
    assert.equal(delayOf(first.attempt.next_check_at), 900);
    await runCheck();
    const second = await plan();
    assert.equal(second.attempt.checks, '1');
    assert.equal(delayOf(second.attempt.next_check_at), 1800);
    await runCheck();
    const third = await plan();
    assert.equal(delayOf(third.attempt.next_check_at), 3600);
    assert.equal(third.status, 'wc-pending');

    // The payment ends (declined: a final state) by callback; the job still pending finds it ended, changes nothing
    // and leaves one last look for when the payment window (1 h) has passed: the buyer may still try again inside the
    // widget, a new operation whose callbacks may be lost too.
    const id = `op-${order.id}-a`;
    const operation = operationDataFor(params as unknown as SignedPayment, 'declined', 104, { id });
    const put = await fetch(`${s.sandbox!.url}${SANDBOX_OPERATIONS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(knownOperationBody(operation, s.partner.token, secret)),
    });
    assert.equal(put.status, 200, await put.text());
    const callback: Record<string, unknown> = { operation_data: operation };
    callback.signature = sign(callback, secret, { form: 'general' });
    const answer = await fetch(`${s.storeUrl}/wp-json/card2crypto/v1/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(callback),
    });
    assert.equal(`${answer.status} ${await answer.text()}`, '200 OK');
    const failed = await plan();
    assert.equal(failed.status, 'wc-failed');
    await runCheck();
    const last = await plan();
    const lastDelay = delayOf(last.attempt.next_check_at)!;
    assert.ok(lastDelay > 3000 && lastDelay <= 3600, `the last look in ${lastDelay} s`);
    // Two checks asked the service; the third found the payment ended and only planned the last look.
    assert.equal(last.attempt.checks, '2');
    assert.equal(last.attempt.retired_at, null);
    assert.equal(last.status, 'wc-failed');
    assert.deepEqual(last.notes, failed.notes);
  });
  test('the hold-stock job never cancels an order whose payment is in flight; it still cancels one never paid', async () => {
    // Both made as the checkouts make them ('checkout' === created_via: the only orders the job cancels).
    const inFlight = await storeStep<{ id: number; landing: string }>(s, 'order', { via: 'checkout' });
    // In flight: the buyer was sent to the service's payment page (the landing link, as the browser follows it).
    const sent = await fetch(inFlight.landing, { redirect: 'manual' });
    await sent.arrayBuffer();
    assert.equal(sent.status, 302);
    assert.ok(parseLandingUrl(sent.headers.get('location') ?? '').ok, `a landing URL: ${sent.headers.get('location')}`);
    // The control: placed, and the buyer left before the payment page opened.
    const abandoned = await storeStep<{ id: number }>(s, 'order', { via: 'checkout' });
    assert.ok(abandoned.id > inFlight.id);
    const before_ = await storeStep<State>(s, 'state', { orders: [inFlight.id] });
    assert.equal(before_.orders[inFlight.id]!.status, 'wc-pending');

    const after_ = await storeStep<Record<string, { status: string; notes: string[] }>>(s, 'hold_stock', { orders: [inFlight.id, abandoned.id], minutes: 1 });
    const control = after_[abandoned.id]!;
    assert.equal(control.status, 'wc-cancelled', `the hold-stock job cancelled order ${abandoned.id}: ${JSON.stringify(control)}`);
    assert.ok(
      control.notes.some((n) => n.includes('Unpaid order cancelled - time limit reached.')),
      JSON.stringify(control.notes),
    );
    const kept = after_[inFlight.id]!;
    assert.equal(kept.status, 'wc-pending');
    assert.ok(!kept.notes.some((n) => n.includes('Unpaid order cancelled')), JSON.stringify(kept.notes));
  });
});

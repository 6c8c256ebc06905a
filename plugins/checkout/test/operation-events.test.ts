/**
 * Operation_Events::process() run for real without WordPress
 * (test/php/events.php: the tables in SQLite, a WC_Order stand-in whose hooks
 * fail on request, the service as a transport answering signed
 * operation_data): a hook that fails once leaves the attempt where it was and
 * the re-delivery completes the order; success callbacks are confirmed with
 * the service, whose answer is applied; an unreachable service changes
 * nothing; an order edited to a larger total is held.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';
import { orderScenario, POID, WALLET } from './support/order-scenario.js';

interface Step {
  outcome?: string;
  error?: string;
  status: string;
  new_notes: string[];
  paid_by: string | null;
  paid_by_op: string | null;
  /** Each recorded operation: [operation id, status, status_code, version]. */
  operations: Array<[string, string, number, number]>;
  attempts: Array<{ partner_operation_id: string; operation_id: string | null; status: string; status_code: number; version: number; mismatch: number }>;
  events: string[];
  service_calls: Array<{ operation_id: string | null; partner_operation_id: string | null }>;
  mails: number;
  log: string[];
}

const STATUS_OF: Record<number, string> = {
  1: 'pending',
  2: 'pending',
  4: 'pending',
  7: 'pending',
  6: 'success',
  0: 'success',
  8: 'awaiting confirm',
  101: 'declined',
  104: 'declined',
};

/** operation_data as the service writes it for the attempt above. */
function op(code: number, change: { amount?: number; toCurrency?: string | null; id?: string; partnerId?: string } = {}) {
  const to: Record<string, unknown> = {
    amount: 120000,
    withdrawal_method_info: { blockchain_address: WALLET, blockchain_tx_id: 'ab12cd', blockchain_explorer_url: 'https://mempool.space/testnet/tx/ab12cd' },
  };
  if (change.toCurrency !== null) {
    to.currency = { code: change.toCurrency ?? 'BTC', decimals: 8 };
  }
  return {
    status: STATUS_OF[code],
    status_code: code,
    operation_info: { id: change.id ?? 'op-1', from: { amount: change.amount ?? 7900, currency: { code: 'EUR', decimals: 2 } }, to },
    partner_info: { operation_id: change.partnerId ?? POID },
  };
}

function scenario(steps: unknown[], order: { total?: string; status?: string } = {}) {
  return orderScenario({ settings: { auto_confirm: 'no' }, order, steps });
}

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Operation_Events`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());
    const run = (s: unknown) => php.runJson<Step[]>('events.php', { 'scenario.json': JSON.stringify(s) });
    const pluginNotes = (step: Step) => step.new_notes.filter((n) => n.startsWith('Card2Crypto:'));

    test('woocommerce_payment_complete fails once: not taken in, the attempt stays; the re-delivery is applied once', async () => {
      const [first, second, third] = await run(
        scenario([
          { operation: op(6), service: [{ operation_data: op(6) }], fail: { payment_complete: 'after' } },
          { operation: op(6), service: [{ operation_data: op(6) }] },
          { operation: op(6), service: [] },
        ]),
      );
      assert.match(first!.error!, /payment_complete\(\) failed/);
      assert.deepEqual(
        first!.attempts.map((a) => [a.status, a.status_code, a.operation_id]),
        [['', -1, null]],
        'the attempt moved back',
      );
      assert.deepEqual(first!.events, [], 'the claim was released');
      assert.ok(!first!.new_notes.some((n) => /Card2Crypto: .*Payment complete\./.test(n)), 'no "Payment complete." note of ours');

      assert.equal(second!.outcome, 'applied', 'the service sends it again; it is not judged a duplicate');
      assert.deepEqual(
        second!.attempts.map((a) => [a.status, a.status_code, a.operation_id]),
        [['success', 6, 'op-1']],
      );
      assert.deepEqual(second!.events, ['success 6 applied']);
      assert.equal(second!.status, 'processing');
      assert.equal(second!.paid_by, POID);

      assert.equal(third!.outcome, 'duplicate');
      assert.deepEqual(third!.service_calls, [], 'a success already applied is not asked about again');
    });

    test('woocommerce_pre_payment_complete fails once: the order stays pending, the re-delivery completes it with our note', async () => {
      const [first, second] = await run(
        scenario([
          { operation: op(6), service: [{ operation_data: op(6) }], fail: { payment_complete: 'before' } },
          { operation: op(6), service: [{ operation_data: op(6) }] },
        ]),
      );
      assert.match(first!.error!, /payment_complete\(\) failed/);
      assert.equal(first!.status, 'pending');
      assert.equal(first!.paid_by, null, 'not recorded as paid by the attempt');
      assert.equal(first!.attempts[0]!.status_code, -1);
      assert.equal(second!.outcome, 'applied');
      assert.equal(second!.paid_by, POID);
      assert.equal(second!.status, 'processing');
      assert.ok(
        pluginNotes(second!).some((n) => /Payment complete\. BTC transaction: ab12cd\./.test(n)),
        JSON.stringify(second!.new_notes),
      );
    });

    test('putting the order on hold fails once: the pending 2 event is applied on its re-delivery', async () => {
      const [first, second] = await run(scenario([{ operation: op(2), fail: { update_status: true } }, { operation: op(2) }]));
      assert.match(first!.error!, /could not be put on hold/);
      assert.equal(first!.attempts[0]!.status_code, -1);
      assert.equal(second!.outcome, 'applied');
      assert.equal(second!.status, 'on-hold');
      assert.deepEqual(second!.events, ['pending 2 applied']);
    });

    test('a success callback is confirmed with the service before the order is paid, and the note says so', async () => {
      const [step] = await run(scenario([{ operation: op(6), service: [{ operation_data: op(0) }] }]));
      assert.equal(step!.outcome, 'applied');
      assert.deepEqual(
        step!.service_calls.map((c) => [c.operation_id, c.partner_operation_id]),
        [['op-1', POID]],
      );
      assert.equal(step!.status, 'processing');
      assert.deepEqual(step!.events, ['success 0 applied'], 'the service answer (0) is what was applied');
      assert.ok(pluginNotes(step!).some((n) => n.includes('the service answers "Payment complete (success)"')));
      assert.ok(pluginNotes(step!).some((n) => n.includes('reported by the service and confirmed with it') && n.includes('Payment complete.')));
    });

    test('a forged success: the service says pending 2, so the order is held, never paid, and the callback is not taken in', async () => {
      const [step] = await run(scenario([{ operation: op(6), service: [{ operation_data: op(2) }] }]));
      assert.match(step!.error!, /^Card2Crypto\\Checkout\\Attempts\\Success_Unconfirmed: the callback reported "success" 6, the service reports "pending" 2/);
      assert.equal(step!.status, 'on-hold');
      assert.equal(step!.paid_by, null);
      assert.deepEqual(
        step!.attempts.map((a) => [a.status, a.status_code]),
        [['pending', 2]],
      );
    });

    test('a success the service does not report yet: its answer is applied, the callback sent again completes the order', async () => {
      const [early, again] = await run(
        scenario([
          { operation: op(6), service: [{ operation_data: op(7) }] },
          { operation: op(6), service: [{ operation_data: op(6) }] },
        ]),
      );
      assert.match(early!.error!, /Success_Unconfirmed/);
      assert.deepEqual(early!.events, ['pending 7 applied']);
      assert.equal(early!.status, 'on-hold');
      assert.equal(again!.outcome, 'applied');
      assert.equal(again!.status, 'processing');
    });

    test('the service does not know the operation (400): noted, nothing changed, 200 to the caller', async () => {
      const [step] = await run(
        scenario([{ operation: op(6), service: [{ status: 400, error: { code: 'invalid_parameter', field: 'operation_id', message: 'no such operation' } }] }]),
      );
      assert.equal(step!.outcome, 'review');
      assert.equal(step!.status, 'pending');
      assert.equal(step!.attempts[0]!.status_code, -1);
      assert.deepEqual(step!.events, []);
      assert.ok(pluginNotes(step!).some((n) => n.includes('does not confirm it')));
    });

    test('the service cannot be reached: not taken in (the callback is answered 500), the order is left as it was', async () => {
      const [down, up] = await run(
        scenario([
          { operation: op(6), service: [{ network: true }] },
          { operation: op(6), service: [{ operation_data: op(6) }] },
        ]),
      );
      assert.match(down!.error!, /could not confirm/);
      assert.equal(down!.status, 'pending');
      assert.deepEqual(down!.new_notes, []);
      assert.deepEqual(down!.events, []);
      assert.equal(down!.attempts[0]!.status_code, -1);
      assert.equal(up!.status, 'processing');
    });

    test('events that do not pay the order, and reconciliation answers, are not asked about again', async () => {
      const steps = await run(scenario([{ operation: op(2) }, { operation: op(2) }, { operation: op(6), source: 'reconcile' }]));
      assert.deepEqual(
        steps.map((s) => s.outcome),
        ['applied', 'duplicate', 'applied'],
      );
      assert.deepEqual(
        steps.map((s) => s.service_calls.length),
        [0, 0, 0],
      );
      assert.equal(steps[0]!.new_notes.length, 1, 'one note for the two deliveries');
      assert.equal(steps[2]!.status, 'processing');
    });

    test('79.00 EUR paid for an order edited to 237.00 EUR: held, flagged, not completed', async () => {
      const [step] = await run(scenario([{ operation: op(6), service: [{ operation_data: op(6) }] }], { total: '237.00' }));
      assert.equal(step!.status, 'on-hold');
      assert.equal(step!.paid_by, null);
      assert.equal(step!.attempts[0]!.mismatch, 1);
      assert.ok(
        pluginNotes(step!).some((n) => n.includes('does NOT match') && n.includes('237.00 EUR')),
        JSON.stringify(step!.new_notes),
      );
      assert.equal(step!.mails, 1);
    });

    test('a duplicate arriving while the first delivery changes the order is answered as already received: one transition, one note', async () => {
      const [step] = await run(scenario([{ operation: op(2), meanwhile: op(2) }]));
      assert.equal(step!.outcome, 'applied');
      assert.equal((step as Step & { meanwhile: string }).meanwhile, 'duplicate');
      assert.deepEqual(step!.events, ['pending 2 applied']);
      assert.equal(pluginNotes(step!).length, 1);
      assert.deepEqual(
        step!.attempts.map((a) => a.version),
        [1],
      );
    });

    test('a later event applied meanwhile is not undone when the first delivery fails; that one is then stale', async () => {
      const [first, retry] = await run(scenario([{ operation: op(2), fail: { update_status: true }, meanwhile: op(7) }, { operation: op(2) }]));
      assert.equal((first as Step & { meanwhile: string }).meanwhile, 'applied');
      assert.match(first!.error!, /could not be put on hold/);
      assert.deepEqual(
        first!.attempts.map((a) => [a.status, a.status_code]),
        [['pending', 7]],
        'the move back did not overwrite pending 7',
      );
      assert.deepEqual(first!.operations, [['op-1', 'pending', 7, 2]], 'the operation kept pending 7 (two swaps, no move back)');
      assert.deepEqual(first!.events, ['pending 7 applied'], 'the failed event was released');
      assert.equal(first!.status, 'on-hold');
      assert.equal(retry!.outcome, 'ignored');
    });

    test('a success without to.currency is held, not completed', async () => {
      const [step] = await run(scenario([{ operation: op(6, { toCurrency: null }), service: [{ operation_data: op(6, { toCurrency: null }) }] }]));
      assert.equal(step!.status, 'on-hold');
      assert.ok(pluginNotes(step!).some((n) => n.includes('does not say to_currency')));
    });

    test('a decline, then the buyer tries again inside the widget: the new operation of the same attempt pays the order', async () => {
      const steps = await run(
        scenario([
          { operation: op(104, { id: 'op-1' }) },
          { operation: op(1, { id: 'op-2' }), source: 'reconcile' },
          { operation: op(6, { id: 'op-2' }), service: [{ operation_data: op(6, { id: 'op-2' }) }] },
          { operation: op(104, { id: 'op-1' }) },
        ]),
      );
      const [declined, retried, paid, late] = steps;
      assert.equal(declined!.status, 'failed');
      assert.equal(retried!.outcome, 'applied');
      assert.equal(retried!.status, 'pending', 'the order waits for payment again');
      assert.ok(pluginNotes(retried!).some((n) => n.includes('tried again')));
      assert.equal(paid!.outcome, 'applied');
      assert.equal(paid!.status, 'processing');
      assert.deepEqual(
        paid!.service_calls.map((c) => [c.operation_id, c.partner_operation_id]),
        [['op-2', POID]],
        'the service was asked about the new operation',
      );
      assert.equal(paid!.paid_by, POID);
      assert.equal(paid!.paid_by_op, 'op-2');
      assert.equal(paid!.mails, 0, 'nothing for the owner to review');
      assert.equal(late!.outcome, 'duplicate');
      assert.deepEqual(late!.operations, [
        ['op-1', 'declined', 104, 1],
        ['op-2', 'success', 6, 2],
      ]);
      assert.deepEqual(
        late!.attempts.map((a) => [a.status, a.status_code, a.operation_id]),
        [['success', 6, 'op-2']],
        'the attempt is where its paying operation is',
      );
    });

    test('a decline, then a success of a new operation with no news between: failed to processing', async () => {
      const [declined, paid] = await run(
        scenario([{ operation: op(101, { id: 'op-1' }) }, { operation: op(6, { id: 'op-2' }), service: [{ operation_data: op(6, { id: 'op-2' }) }] }]),
      );
      assert.equal(declined!.status, 'failed');
      assert.equal(paid!.status, 'processing');
      assert.ok(!paid!.new_notes.some((n) => n.includes('not applied')), JSON.stringify(paid!.new_notes));
    });

    test('the old operation ends while the new one is under way: noted, the order is not failed', async () => {
      const [moving, ended] = await run(scenario([{ operation: op(2, { id: 'op-2' }) }, { operation: op(101, { id: 'op-1' }) }]));
      assert.equal(moving!.status, 'on-hold');
      assert.equal(ended!.outcome, 'applied');
      assert.equal(ended!.status, 'on-hold');
      assert.ok(
        pluginNotes(ended!).some((n) => n.includes('was not marked failed')),
        JSON.stringify(ended!.new_notes),
      );
      assert.deepEqual(
        ended!.attempts.map((a) => [a.status, a.status_code, a.operation_id]),
        [['pending', 2, 'op-2']],
      );
    });

    test('two operations of one order both succeed: paid twice, the owner is told, the order stays paid', async () => {
      const [first, second] = await run(
        scenario([
          { operation: op(6, { id: 'op-1' }), service: [{ operation_data: op(6, { id: 'op-1' }) }] },
          { operation: op(6, { id: 'op-2' }), service: [{ operation_data: op(6, { id: 'op-2' }) }] },
        ]),
      );
      assert.equal(first!.status, 'processing');
      assert.equal(second!.status, 'processing');
      assert.equal(second!.paid_by_op, 'op-1');
      assert.ok(
        pluginNotes(second!).some((n) => n.includes('paid twice')),
        JSON.stringify(second!.new_notes),
      );
      assert.equal(second!.mails, 1);
    });

    test('a payment to the wallet the store used before changing it completes the order, with a note saying so', async () => {
      const other = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';
      const [step] = await run(
        orderScenario({ settings: { auto_confirm: 'no', wallet_address: other }, steps: [{ operation: op(6), service: [{ operation_data: op(6) }] }] }),
      );
      assert.equal(step!.status, 'processing');
      assert.ok(
        pluginNotes(step!).some((n) => n.includes(`went to ${WALLET}`) && n.includes(`changed to ${other}`)),
        JSON.stringify(step!.new_notes),
      );
      const [same] = await run(scenario([{ operation: op(6), service: [{ operation_data: op(6) }] }]));
      assert.ok(!pluginNotes(same!).some((n) => n.includes('has since been changed')));
    });

    test("the service's answer names another payment (partner_info.operation_id): held, flagged, nothing applied", async () => {
      const [step] = await run(scenario([{ operation: op(6), service: [{ operation_data: op(6, { partnerId: 'wc-8-ffeeddccbbaa998877665544' }) }] }]));
      assert.equal(step!.outcome, 'review');
      assert.equal(step!.status, 'on-hold');
      assert.equal(step!.paid_by, null);
      assert.deepEqual(step!.events, []);
      assert.equal(step!.attempts[0]!.status_code, -1);
      assert.equal(step!.attempts[0]!.mismatch, 1);
      assert.ok(
        pluginNotes(step!).some((n) => n.includes('which is not this one')),
        JSON.stringify(step!.new_notes),
      );
      assert.equal(step!.mails, 1);
    });
  });
}

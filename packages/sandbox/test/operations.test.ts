/**
 * Operations walk core's status model, and callbacks go out signed on exactly
 * core's callback conditions, received here by a real HTTP endpoint.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { CALLBACK_CONDITIONS, OPERATION_FLOW, PARTNER_API_PATHS, PartnerApiClient, verifyCallback, type OperationData } from '@card2crypto/core';
import { CallbackReceiver, callApi, createOperation, OTHER, PARTNER, startTestSandbox, until, type TestSandbox } from './helpers.js';

const P = PARTNER_API_PATHS;

describe('operations and callbacks', () => {
  let sandbox: TestSandbox;
  let receiver: CallbackReceiver;
  let client: PartnerApiClient;

  before(async () => {
    receiver = await new CallbackReceiver().start();
    // 2000 sandbox ms between steps at speed 200: 10 real ms.
    sandbox = await startTestSandbox({
      clockSpeed: 200,
      stepDelayMs: 2000,
      partners: [{ ...PARTNER, callbackUrl: receiver.url }, OTHER],
    });
    client = new PartnerApiClient({ baseUrl: sandbox.urls.base_url, partnerToken: PARTNER.token, partnerSecret: PARTNER.secret });
  });
  after(async () => {
    await sandbox.dispose();
    await receiver.stop();
  });
  beforeEach(() => {
    receiver.received.length = 0;
  });

  const history = (id: string) => sandbox.context.store.history(id).map((h) => `${h.status} ${h.statusCode}`);
  const finalOf = (id: string) =>
    until(
      () => {
        const op = sandbox.context.operations.get(id)!;
        return OPERATION_FLOW.find((s) => s.status_code === op.statusCode)!.final && op.nextStepAt === null ? op : undefined;
      },
      5000,
      `operation ${id} to end`,
    );
  const callbacksFor = (id: string): OperationData[] =>
    receiver.received
      .map((r) => verifyCallback(r.body, PARTNER.secret))
      .map((v) => {
        assert.equal(v.ok, true, v.ok ? '' : v.message);
        return v.ok ? v.operation : (undefined as never);
      })
      .filter((d) => d.operation_info.id === id);
  const settle = async (id: string, count: number) => {
    await until(
      () => (sandbox.context.store.callbacksOf(id).filter((c) => c.state === 'delivered').length >= count ? true : undefined),
      5000,
      `${count} callbacks`,
    );
    return callbacksFor(id);
  };

  it('success walks 1, 2, 3, 4, 7, 6, 0 and calls back at 2 and 6 only (none at 0)', async () => {
    const op = createOperation(sandbox, { partnerOperationId: 'order-s' });
    await finalOf(op.id);
    assert.deepEqual(history(op.id), ['pending 1', 'pending 1', 'pending 2', 'pending 3', 'pending 4', 'pending 7', 'success 6', 'success 0']);
    const sent = await settle(op.id, 2);
    // Give a stray callback for success 0 time to arrive before asserting there is none.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(
      callbacksFor(op.id).map((d) => `${d.status} ${d.status_code}`),
      ['pending 2', 'success 6'],
    );
    assert.equal(sandbox.context.store.callbacksOf(op.id).length, 2);
    // Conditions are core's table, nothing else.
    const conditionCodes = new Set(CALLBACK_CONDITIONS.map((c) => c.status_code));
    for (const d of sent) {
      assert.ok(conditionCodes.has(d.status_code as never));
    }

    const [debited, created] = sent as [OperationData, OperationData];
    assert.equal(debited.operation_info.to?.withdrawal_method_info?.blockchain_tx_id, undefined);
    assert.equal(typeof debited.operation_info.paid_at, 'string');
    assert.match(created.operation_info.to?.withdrawal_method_info?.blockchain_tx_id ?? '', /^[0-9a-f]{64}$/);
    assert.match(created.operation_info.to?.withdrawal_method_info?.blockchain_explorer_url ?? '', /^https:\/\/mempool\.space\/tx\/[0-9a-f]{64}$/);
    assert.equal(created.operation_info.to?.withdrawal_method_info?.blockchain_address, 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    assert.equal(created.operation_info.from?.payment_method_info?.number, '424242******4242');
    assert.equal(created.operation_info.from?.currency?.code, 'EUR');
    assert.equal(created.operation_info.from?.amount, 10000);
    assert.equal(created.operation_info.to?.currency?.code, 'BTC');
    assert.equal(created.operation_info.to?.currency?.decimals, 8);
    assert.equal(created.partner_info?.operation_id, 'order-s');
    assert.equal(created.partner_info?.fee_info?.amount, 1661);
    assert.equal(created.operation_info.to?.amount, 164492);
    assert.equal(created.customer_info?.account, 'buyer@example.com');
    assert.deepEqual(created.customer_info?.country, { code: 'DE', name: 'Germany' });
    assert.equal(created.operation_info.status_url, `${sandbox.urls.status_page_url}/${op.id}`);
    // The partner API tells the same story.
    const info = await client.operation({ operationId: op.id });
    assert.equal(info.status, 'success');
    assert.equal(info.status_code, 0);
    // Callbacks are JSON POSTs.
    assert.match(String(receiver.received[0]!.headers['content-type']), /^application\/json/);
  });

  it('an ETH purchase: callbacks and operation info carry the exact wei amounts (beyond 2^53)', async () => {
    const op = createOperation(sandbox, { toCurrency: 'ETH', toAccount: `0x${'ab'.repeat(20)}` });
    await finalOf(op.id);
    const [debited, created] = await settle(op.id, 2);
    assert.equal(BigInt(op.toAmount) > BigInt(Number.MAX_SAFE_INTEGER), true);
    for (const data of [debited!, created!]) {
      assert.equal(data.operation_info.to?.amount, BigInt(op.toAmount));
      assert.equal(data.operation_info.to?.currency?.decimals, 18);
      assert.equal(data.operation_info.from?.amount, 10000);
    }
    const info = await client.operation({ operationId: op.id });
    assert.equal(info.operation_info.to?.amount, BigInt(op.toAmount));
  });

  const declines: Array<[string, string, string[], string[]]> = [
    ['4000010100000000', '101 payment refused', ['declined 101'], ['declined 101']],
    ['4000010200000009', '102 customer opt-out', ['declined 102'], []],
    ['4000010300000008', '103 identity verification failed', ['pending 2', 'declined 103'], ['pending 2']],
    ['4000010400000007', '104 card verification failed', ['declined 104'], []],
    ['4000010500000006', '105 rate hold expired', ['declined 105'], []],
  ];
  for (const [card, name, steps, callbacks] of declines) {
    it(`test card ${card}: ${name}, callbacks only on the listed conditions`, async () => {
      const op = createOperation(sandbox, { card });
      await finalOf(op.id);
      assert.deepEqual(history(op.id), ['pending 1', 'pending 1', ...steps]);
      const sent = await settle(op.id, callbacks.length);
      // Give any stray callback time to arrive before asserting there is none.
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(
        callbacksFor(op.id).map((d) => `${d.status} ${d.status_code}`),
        callbacks,
      );
      assert.equal(sent.length, callbacks.length);
    });
  }

  it('partner confirmation: 8 waits, confirm leads to 9 and success; confirming again is harmless', async () => {
    const op = createOperation(sandbox, { card: '4000000800000004', partnerOperationId: 'order-c' });
    await until(() => (sandbox.context.operations.get(op.id)!.statusCode === 8 ? true : undefined), 5000, 'awaiting confirm');
    let sent = await settle(op.id, 2);
    assert.deepEqual(
      sent.map((d) => `${d.status} ${d.status_code}`),
      ['pending 2', 'awaiting confirm 8'],
    );
    // Nothing moves without the partner.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(sandbox.context.operations.get(op.id)!.statusCode, 8);

    const reply = await callApi(sandbox, P.confirm, { partner_operation_id: 'order-c' });
    assert.equal(reply.status, 200);
    assert.equal(reply.text, '');
    await finalOf(op.id);
    assert.deepEqual(history(op.id).slice(-5), ['pending 9', 'pending 4', 'pending 7', 'success 6', 'success 0']);
    sent = await settle(op.id, 3);
    assert.deepEqual(
      sent.map((d) => `${d.status} ${d.status_code}`),
      ['pending 2', 'awaiting confirm 8', 'success 6'],
    );
    assert.equal(sandbox.context.store.callbacksOf(op.id).length, 3);
    await client.confirm({ operationId: op.id });
    await assert.rejects(client.cancel({ operationId: op.id }), /invalid_state|Invalid request/);
  });

  it('partner confirmation: cancel leads to declined 106 with a callback; cancelling again is harmless', async () => {
    const op = createOperation(sandbox, { card: '4000000800000004' });
    await until(() => (sandbox.context.operations.get(op.id)!.statusCode === 8 ? true : undefined), 5000, 'awaiting confirm');
    await client.cancel({ operationId: op.id });
    assert.equal(sandbox.context.operations.get(op.id)!.statusCode, 106);
    const sent = await settle(op.id, 3);
    assert.deepEqual(
      sent.map((d) => `${d.status} ${d.status_code}`),
      ['pending 2', 'awaiting confirm 8', 'declined 106'],
    );
    await client.cancel({ operationId: op.id });
    await assert.rejects(client.confirm({ operationId: op.id }), /invalid_state|Invalid request/);
  });

  it('an operation created and not paid (no card entered) can be cancelled: declined 106 with a callback; once paid it cannot', async () => {
    const open = createOperation(sandbox, { pay: false });
    assert.equal(open.statusCode, 1);
    await client.cancel({ operationId: open.id });
    assert.equal(sandbox.context.operations.get(open.id)!.statusCode, 106);
    const sent = await settle(open.id, 1);
    assert.deepEqual(
      sent.map((d) => `${d.status} ${d.status_code}`),
      ['declined 106'],
    );
    await client.cancel({ operationId: open.id });
    const paid = createOperation(sandbox);
    await assert.rejects(client.cancel({ operationId: paid.id }), /invalid_state|Invalid request/);
  });

  it('a partner without a callback URL gets no delivery; the callback is kept as no_url', async () => {
    const op = createOperation(sandbox, { partner: OTHER });
    await finalOf(op.id);
    const stored = sandbox.context.store.callbacksOf(op.id);
    assert.equal(stored.length, 2); // pending 2 and success 6
    assert.ok(stored.every((c) => c.state === 'no_url'));
    assert.equal(callbacksFor(op.id).length, 0);
  });

  it('an abandoned operation ends in 102 without a callback', async () => {
    const op = createOperation(sandbox, { pay: false });
    sandbox.context.operations.abandon(op, 'buyer went back');
    assert.equal(sandbox.context.operations.get(op.id)!.statusCode, 102);
    assert.equal(sandbox.context.store.callbacksOf(op.id).length, 0);
  });
});

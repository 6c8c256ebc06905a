/**
 * The test helper POST /sandbox/operations over real HTTP: it puts an
 * operation into the service's state, operation info then answers with it, it
 * sends no callback, it goes through the partner API's own checks, and every
 * member is checked naming it.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { PARTNER_API_PATHS, PartnerApiClient, verify } from '@card2crypto/core';
import { SANDBOX_OPERATIONS_PATH, knownOperationBody, operationDataFor } from '../src/index.js';
import { CallbackReceiver, callApi, createOperation, OTHER, PARTNER, post, signedBody, sleep, startTestSandbox, type TestSandbox } from './helpers.js';

const WALLET = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const TESTNET_WALLET = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';

/** A complete, valid body for an operation `id` at `status` `code`; `extra` overrides or adds members. */
function state(id: string, status: string, code: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    operation_id: id,
    partner_operation_id: `wc-${id}`,
    status,
    status_code: code,
    from_currency: 'EUR',
    from_amount: 7900,
    to_currency: 'BTC',
    to_amount: 123456,
    to_account: WALLET,
    ...extra,
  };
}

function assertError(reply: { status: number; json: () => any }, status: number, code: string, field: string): void {
  assert.equal(reply.status, status, JSON.stringify(reply.json()));
  const body = reply.json();
  assert.equal(body.error.code, code);
  assert.equal(body.error.field, field);
  assert.ok(body.error.message.includes(field) || field === 'to_account' || field === 'email', `the message names ${field}: ${body.error.message}`);
}

describe('test helper POST /sandbox/operations', () => {
  let sandbox: TestSandbox;
  let receiver: CallbackReceiver;
  let client: PartnerApiClient;
  const put = (params: Record<string, unknown>, partner = PARTNER) => callApi(sandbox, SANDBOX_OPERATIONS_PATH, params, partner);

  before(async () => {
    receiver = await new CallbackReceiver().start();
    // Steps of widget-made operations are far apart: only what a test does moves them.
    sandbox = await startTestSandbox({ clockSpeed: 100, stepDelayMs: 1e9, partners: [{ ...PARTNER, callbackUrl: receiver.url }, OTHER] });
    client = new PartnerApiClient({ baseUrl: sandbox.urls.base_url, partnerToken: PARTNER.token, partnerSecret: PARTNER.secret });
  });
  after(async () => {
    await sandbox.dispose();
    await receiver.stop();
  });
  beforeEach(() => {
    receiver.received.length = 0;
  });

  it('the shared fixtures: knownOperationBody() of operationDataFor() makes the sandbox answer what the callback fixture says', async () => {
    const payment = { partner_operation_id: 'wc-fixture-1', partner_token: PARTNER.token, from_currency: 'EUR', from_amount: 7900, to_account: WALLET };
    const operation = operationDataFor(payment, 'success', 6);
    const reply = await post(
      `${sandbox.urls.base_url}${SANDBOX_OPERATIONS_PATH}`,
      JSON.stringify(knownOperationBody(operation, PARTNER.token, PARTNER.secret)),
      {
        'content-type': 'application/json',
      },
    );
    assert.equal(reply.status, 200, reply.text);
    const data = await client.operation({ partnerOperationId: 'wc-fixture-1' });
    const info = operation.operation_info as { id: string; to: { amount: number; withdrawal_method_info: { blockchain_tx_id: string } } };
    assert.equal(data.operation_info.id, info.id);
    assert.equal(info.id, 'op-wc-fixture-1');
    assert.equal(data.status, 'success');
    assert.equal(data.status_code, 6);
    assert.equal(data.operation_info.from?.amount, 7900);
    assert.equal(data.operation_info.to?.amount, info.to.amount);
    assert.equal(data.operation_info.to?.withdrawal_method_info?.blockchain_address, WALLET);
    assert.equal(data.operation_info.to?.withdrawal_method_info?.blockchain_tx_id, info.to.withdrawal_method_info.blockchain_tx_id);
    // A short payment to another wallet: the options reach both.
    const short = operationDataFor(payment, 'declined', 104, { id: 'op-fixture-short', amount: 7800, wallet: WALLET });
    assert.equal((short.operation_info as { from: { amount: number } }).from.amount, 7800);
    assert.equal(knownOperationBody(short, PARTNER.token, PARTNER.secret).from_amount, 7800);
    assert.equal(knownOperationBody(short, PARTNER.token, PARTNER.secret).blockchain_tx_id, undefined);
  });

  it('creates the operation: operation info answers with it by either id, signed; no callback is sent', async () => {
    const reply = await put(
      state('op-created', 'success', 6, {
        blockchain_tx_id: 'tx-op-created',
        card_number: '5555555555554444',
        email: 'ada@example.com',
        customer_country: 'AT',
      }),
    );
    assert.equal(reply.status, 200, reply.text);
    assert.equal(verify(reply.text, PARTNER.secret).ok, true);
    const answered = reply.json().operation_data;

    for (const ids of [
      { operationId: 'op-created' },
      { partnerOperationId: 'wc-op-created' },
      { operationId: 'op-created', partnerOperationId: 'wc-op-created' },
    ]) {
      const data = await client.operation(ids);
      assert.equal(data.status, 'success');
      assert.equal(data.status_code, 6);
      assert.equal(data.operation_info.id, 'op-created');
      assert.equal(data.partner_info?.operation_id, 'wc-op-created');
      assert.equal(data.operation_info.from?.amount, 7900);
      assert.equal(data.operation_info.from?.currency?.code, 'EUR');
      assert.equal(data.operation_info.to?.amount, 123456);
      assert.equal(data.operation_info.to?.currency?.code, 'BTC');
      assert.equal(data.operation_info.to?.withdrawal_method_info?.blockchain_address, WALLET);
      assert.equal(data.operation_info.to?.withdrawal_method_info?.blockchain_tx_id, 'tx-op-created');
      assert.equal(data.operation_info.to?.withdrawal_method_info?.blockchain_explorer_url, 'https://mempool.space/tx/tx-op-created');
      assert.equal(data.operation_info.from?.payment_method_info?.number, '555555******4444');
      assert.equal(data.operation_info.from?.payment_method_info?.type, 'MASTERCARD');
      assert.equal(data.operation_info.from?.payment_method_info?.country?.code, 'AT');
      assert.equal(data.customer_info?.account, 'ada@example.com');
      assert.equal(typeof data.operation_info.paid_at, 'string');
      assert.equal(data.operation_info.status_url, `${sandbox.urls.status_page_url}/op-created`);
    }
    // The helper's answer is operation info's answer.
    const info = await callApi(sandbox, PARTNER_API_PATHS.operation, { operation_id: 'op-created' });
    assert.deepEqual(info.json().operation_data, answered);

    assert.deepEqual(sandbox.context.store.callbacksOf('op-created'), []);
    await sleep(200);
    assert.deepEqual(receiver.received, []);
  });

  it('writes only what exists at the status: no card before paying, no paid_at before the money, no transaction before success', async () => {
    const created = (await put(state('op-new', 'pending', 1))).json().operation_data;
    assert.deepEqual(created.operation_info.from.payment_method_info, {});
    assert.equal(created.operation_info.paid_at, undefined);
    assert.equal(created.operation_info.to.withdrawal_method_info.blockchain_tx_id, undefined);
    assert.equal(created.customer_info.account, 'buyer@example.com');
    assert.equal(created.customer_info.country.code, 'DE');

    const refused = (await put(state('op-refused', 'declined', 101))).json().operation_data;
    assert.equal(refused.operation_info.from.payment_method_info.number, '424242******4242');
    assert.equal(refused.operation_info.paid_at, undefined);

    const funds = (await put(state('op-funds', 'pending', 2, { to_account: TESTNET_WALLET }))).json().operation_data;
    assert.equal(typeof funds.operation_info.paid_at, 'string');
    assert.equal(funds.operation_info.to.withdrawal_method_info.blockchain_tx_id, undefined);

    // Success without a transaction id named: derived from the operation id, as the flow derives it.
    const paid = (await put(state('op-funds', 'success', 0, { to_account: TESTNET_WALLET }))).json().operation_data;
    const tx = paid.operation_info.to.withdrawal_method_info.blockchain_tx_id;
    assert.match(tx, /^[0-9a-f]{64}$/);
    assert.equal(paid.operation_info.to.withdrawal_method_info.blockchain_explorer_url, `https://mempool.space/testnet/tx/${tx}`);
    assert.match(paid.partner_info.fee_info.withdrawal_method_info.blockchain_tx_id, /^[0-9a-f]{64}$/);
    assert.equal(paid.operation_info.paid_at, funds.operation_info.paid_at, 'paid_at is kept once the money was received');
  });

  it('a second request replaces the operation, keeping its creation time, and is in its history; no callback for any of it', async () => {
    const first = (await put(state('op-moved', 'pending', 2))).json().operation_data;
    await sleep(5);
    const second = (await put(state('op-moved', 'awaiting confirm', 8, { from_amount: 7899 }))).json().operation_data;
    assert.equal(second.status, 'awaiting confirm');
    assert.equal(second.operation_info.created_at, first.operation_info.created_at);
    assert.equal(second.operation_info.from.amount, 7899);
    // Back to an earlier pair is allowed: the helper sets a state, it does not walk the flow.
    assert.equal((await put(state('op-moved', 'pending', 3))).json().operation_data.status_code, 3);
    const history = sandbox.context.store.history('op-moved').map((h) => `${h.status} ${h.statusCode} ${h.source}`);
    assert.deepEqual(history, ['pending 2 test', 'awaiting confirm 8 test', 'pending 3 test']);
    assert.deepEqual(sandbox.context.store.callbacksOf('op-moved'), []);
  });

  it('an operation it set is a real one: the partner confirms it and the flow goes on', async () => {
    await put(state('op-confirm', 'awaiting confirm', 8));
    const reply = await callApi(sandbox, PARTNER_API_PATHS.confirm, { operation_id: 'op-confirm' });
    assert.equal(reply.status, 200, reply.text);
    const op = sandbox.context.operations.get('op-confirm')!;
    assert.equal(op.statusCode, 9);
    assert.deepEqual(op.plan, [4, 7, 6, 0]);
  });

  it("stops a widget-made operation's automatic steps", async () => {
    const op = createOperation(sandbox, { partnerOperationId: 'wc-widget' });
    assert.notEqual(sandbox.context.operations.get(op.id)!.nextStepAt, null);
    const reply = await put(state(op.id, 'pending', 3, { partner_operation_id: 'wc-widget', from_amount: 10000 }));
    assert.equal(reply.status, 200, reply.text);
    const stored = sandbox.context.operations.get(op.id)!;
    assert.equal(stored.statusCode, 3);
    assert.deepEqual(stored.plan, []);
    assert.equal(stored.nextStepAt, null);
    assert.equal(stored.createdAt, op.createdAt);
  });

  it('goes through the partner API checks: signature, timestamp, partner, method', async () => {
    const url = sandbox.urls.base_url + SANDBOX_OPERATIONS_PATH;
    const wrong = signedBody(state('op-forged', 'success', 6), { token: PARTNER.token, secret: `${PARTNER.secret}x` });
    const forged = await post(url, JSON.stringify(wrong));
    assert.equal(forged.status, 401);
    assert.match(forged.text, /^Wrong signature/);
    assertError(await post(url, JSON.stringify(signedBody(state('op-forged', 'success', 6), PARTNER, null))), 400, 'missing_parameter', 'timestamp');
    assertError(
      await post(url, JSON.stringify(signedBody(state('op-forged', 'success', 6), PARTNER, Date.now() - 60_000))),
      400,
      'invalid_parameter',
      'timestamp',
    );
    const stranger = await post(url, JSON.stringify(signedBody(state('op-forged', 'success', 6), { token: 'nobody', secret: 'x' })));
    assertError(stranger, 404, 'partner_not_found', 'partner_token');
    const get = await fetch(url);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    assert.equal(sandbox.context.operations.get('op-forged'), undefined);
  });

  it("refuses another partner's operation id", async () => {
    await put(state('op-theirs', 'pending', 2), OTHER);
    assertError(await put(state('op-theirs', 'success', 6)), 400, 'invalid_parameter', 'operation_id');
    assert.equal(sandbox.context.operations.get('op-theirs')!.statusCode, 2);
  });

  it('checks every member, naming it', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [state('x', 'pending', 2, { operation_id: undefined }), 'missing_parameter', 'operation_id'],
      [state('a;b:c', 'pending', 2), 'invalid_parameter', 'operation_id'],
      [state('x', 'pending', 2, { operation_id: 7 }), 'invalid_parameter', 'operation_id'],
      [state('x', 'pending', 2, { partner_operation_id: 'wc 1' }), 'invalid_parameter', 'partner_operation_id'],
      [state('x', 'pending', 2, { status: undefined }), 'missing_parameter', 'status'],
      [state('x', 'paid', 2), 'invalid_parameter', 'status'],
      [state('x', 'pending', 2, { status_code: undefined }), 'missing_parameter', 'status_code'],
      [state('x', 'pending', 2, { status_code: '2' }), 'invalid_parameter', 'status_code'],
      [state('x', 'pending', 2.5), 'invalid_parameter', 'status_code'],
      [state('x', 'success', 2), 'invalid_parameter', 'status_code'],
      [state('x', 'pending', 5), 'invalid_parameter', 'status_code'],
      [state('x', 'pending', 2, { from_currency: 'XBT' }), 'invalid_parameter', 'from_currency'],
      [state('x', 'pending', 2, { from_currency: undefined }), 'missing_parameter', 'from_currency'],
      [state('x', 'pending', 2, { from_amount: undefined }), 'missing_parameter', 'from_amount'],
      [state('x', 'pending', 2, { from_amount: 0 }), 'invalid_parameter', 'from_amount'],
      [state('x', 'pending', 2, { from_amount: 79.5 }), 'invalid_parameter', 'from_amount'],
      [state('x', 'pending', 2, { from_amount: '7900' }), 'invalid_parameter', 'from_amount'],
      [state('x', 'pending', 2, { to_currency: 'EUR' }), 'invalid_parameter', 'to_currency'],
      [state('x', 'pending', 2, { to_amount: undefined }), 'missing_parameter', 'to_amount'],
      [state('x', 'pending', 2, { to_amount: -1 }), 'invalid_parameter', 'to_amount'],
      [state('x', 'pending', 2, { fee_amount: 0 }), 'invalid_parameter', 'fee_amount'],
      [state('x', 'pending', 2, { to_account: undefined }), 'missing_parameter', 'to_account'],
      [state('x', 'pending', 2, { to_account: '0x52908400098527886E0F7030069857D2E4169EE7' }), 'invalid_parameter', 'to_account'],
      [state('x', 'pending', 2, { email: 'not-an-address' }), 'invalid_parameter', 'email'],
      [state('x', 'pending', 2, { customer_country: 'XX' }), 'invalid_parameter', 'customer_country'],
      [state('x', 'pending', 1, { card_number: '4242424242424242' }), 'invalid_parameter', 'card_number'],
      [state('x', 'declined', 102, { card_number: '4242424242424242' }), 'invalid_parameter', 'card_number'],
      [state('x', 'pending', 2, { card_number: '4242424242424241' }), 'invalid_parameter', 'card_number'],
      [state('x', 'pending', 7, { blockchain_tx_id: 'tx1' }), 'invalid_parameter', 'blockchain_tx_id'],
      [state('x', 'success', 6, { blockchain_tx_id: 'tx;a:b' }), 'invalid_parameter', 'blockchain_tx_id'],
      [state('x', 'success', 6, { wallet: WALLET }), 'invalid_parameter', 'wallet'],
    ];
    for (const [params, code, field] of cases) {
      const body = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
      const reply = await put(body);
      assert.equal(reply.status, 400, `${field}: ${reply.text}`);
      assert.equal(reply.json().error.code, code, `${field}: ${reply.text}`);
      assert.equal(reply.json().error.field, field, reply.text);
      if (field !== 'to_account' && field !== 'email') {
        assert.ok(reply.json().error.message.includes(field), reply.text);
      }
    }
    assert.equal(sandbox.context.operations.get('x'), undefined, 'nothing was stored by a refused request');
  });
});

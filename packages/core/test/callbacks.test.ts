import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { callbackAmbiguity, callbackResponse, verifyCallback, type CallbackVerification } from '../src/callbacks.js';
import { classify, decideTransition, type OperationState } from '../src/status.js';
import { parseJsonLossless, sign } from '../src/signing/index.js';
import { sampleOperationData } from './api-support.js';

const SECRET = 'callback-secret-3Jw';

function signedBody(value: Record<string, unknown>, secret = SECRET): string {
  return JSON.stringify({ ...value, signature: sign(value, secret, { form: 'general' }) });
}

function callback(data: Record<string, unknown> = sampleOperationData()): string {
  return signedBody({ operation_data: data });
}

function expectFailure(result: CallbackVerification, reason: string): Extract<CallbackVerification, { ok: false }> {
  assert.equal(result.ok, false, 'expected a failure');
  if (result.ok) {
    throw new Error('unreachable');
  }
  assert.equal(result.reason, reason, result.message);
  return result;
}

/**
 * A partner endpoint as a plugin would write it: verify, decide, store, answer.
 * It keeps one state per operation and applies only what decideTransition allows.
 */
interface Receiver {
  url: string;
  states: Map<string, OperationState>;
  reviews: string[];
  close: () => Promise<void>;
}

async function startReceiver(knownOperations: Set<string>): Promise<Receiver> {
  const states = new Map<string, OperationState>();
  const reviews: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const result = verifyCallback(new Uint8Array(Buffer.concat(chunks)), SECRET);
      let options = {};
      if (result.ok) {
        const id = result.operation.operation_info.id;
        if (!knownOperations.has(id)) {
          options = { notReceived: true };
        } else {
          const to = { status: result.operation.status, status_code: result.operation.status_code };
          const decision = decideTransition(states.get(id), to);
          if (decision.action === 'apply') {
            states.set(id, to);
          }
          if (decision.action === 'review') {
            reviews.push(`${id}:${decision.why}`);
          }
          options = { duplicate: decision.action === 'ignore' && decision.why === 'duplicate' };
        }
      }
      const answer = callbackResponse(result, options);
      res.writeHead(answer.status, { 'content-type': answer.contentType });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/card2crypto/callback`,
    states,
    reviews,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test('a valid callback verifies and parses into typed operation_data', () => {
  const result = verifyCallback(callback(), SECRET);
  assert.equal(result.ok, true);
  if (!result.ok) {
    return;
  }
  assert.equal(result.operation.status, 'pending');
  assert.equal(result.operation.status_code, 2);
  assert.equal(result.operation.operation_info.id, 'op-7f3a');
  assert.equal(result.operation.operation_info.to?.currency?.code, 'BTC');
  assert.equal(result.operation.customer_info?.account, 'ada@example.com');
  assert.equal(typeof result.raw.signature, 'string');
  assert.deepEqual(callbackResponse(result), { status: 200, contentType: 'text/plain; charset=utf-8', body: 'OK' });
  assert.equal(callbackResponse(result, { duplicate: true }).status, 200);
  assert.equal(callbackResponse(result, { notReceived: true }).status, 500);
});

test('bytes are accepted; only the required members are needed; unknown members are tolerated', () => {
  const minimal = signedBody({ operation_data: { status: 'success', status_code: 6, operation_info: { id: 'op-1' } }, delivery_id: 'd-1' });
  const result = verifyCallback(new TextEncoder().encode(minimal), SECRET);
  assert.equal(result.ok, true);
  if (!result.ok) {
    return;
  }
  assert.deepEqual(result.operation, { status: 'success', status_code: 6, operation_info: { id: 'op-1' } });
  assert.equal(result.raw.delivery_id, 'd-1');
});

test('numbers are verified as received (1.50 stays 1.50) and nulls of optional members are dropped', () => {
  const text =
    '{"operation_data":{"status":"pending","status_code":2,"operation_info":{"id":"op-2","paid_at":null,"currency_rate":65641.50,' +
    '"from":{"payment_method_info":[],"amount":10000}}}}';
  const lossless = parseJsonLossless(text) as Record<string, unknown>;
  const body = text.replace(/}$/, `,"signature":"${sign(lossless, SECRET, { form: 'general' })}"}`);
  const result = verifyCallback(body, SECRET);
  assert.equal(result.ok, true, result.ok ? '' : result.message);
  if (!result.ok) {
    return;
  }
  assert.equal(result.operation.operation_info.currency_rate, 65641.5);
  assert.equal('paid_at' in result.operation.operation_info, false);
  assert.deepEqual(result.operation.operation_info.from?.payment_method_info, {});
});

test('empty and unparseable bodies get 400', () => {
  for (const body of ['', '   \n', new Uint8Array()]) {
    const r = expectFailure(verifyCallback(body, SECRET), 'empty');
    assert.equal(callbackResponse(r).status, 400);
  }
  for (const body of ['{"operation_data":', 'null', '[1,2]', '"text"', '42', new Uint8Array([0x7b, 0xff, 0x7d])]) {
    const r = expectFailure(verifyCallback(body, SECRET), 'unparseable');
    const answer = callbackResponse(r);
    assert.equal(answer.status, 400);
    assert.match(answer.body, /^Callback could not be processed: /);
  }
});

test('a signed body without usable operation_data is invalid (400), naming the member', () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ other: 1 }, 'operation_data'],
    [{ operation_data: 'x' }, 'operation_data'],
    [{ operation_data: { status_code: 2, operation_info: { id: 'a' } } }, 'operation_data.status'],
    [{ operation_data: { status: 'pending', status_code: '2', operation_info: { id: 'a' } } }, 'operation_data.status_code'],
    [{ operation_data: { status: 'pending', status_code: 2 } }, 'operation_data.operation_info'],
    [{ operation_data: { status: 'pending', status_code: 2, operation_info: { id: 7 } } }, 'operation_data.operation_info.id'],
    [{ operation_data: sampleOperationData({ customer_info: { id: 'abc' } }) }, 'operation_data.customer_info.id'],
    [{ operation_data: { status: 'pending', status_code: 2, operation_info: { id: 'a', to: { amount: 1.5 } } } }, 'operation_data.operation_info.to.amount'],
  ];
  for (const [value, field] of cases) {
    const r = expectFailure(verifyCallback(signedBody(value), SECRET), 'invalid');
    assert.equal(r.field, field);
    assert.ok(r.message.includes(field), r.message);
    assert.equal(callbackResponse(r).status, 400);
  }
});

test('a missing, malformed or wrong signature is refused with 401 "Wrong signature"', () => {
  const valid = callback();
  const parsed = JSON.parse(valid) as Record<string, unknown>;
  const bodies = [
    JSON.stringify({ operation_data: parsed.operation_data }), // unsigned
    JSON.stringify({ ...parsed, signature: '' }),
    JSON.stringify({ ...parsed, signature: 12 }),
    JSON.stringify({ ...parsed, signature: 'abc' }), // not 128 hex
    signedBody({ operation_data: sampleOperationData() }, 'someone-else'), // forged
    valid.replace('"status_code":2', '"status_code":0'), // altered after signing
    valid.replace('"status":"pending"', '"status":"success"'),
  ];
  for (const body of bodies) {
    const r = expectFailure(verifyCallback(body, SECRET), 'signature');
    assert.deepEqual(callbackResponse(r), { status: 401, contentType: 'text/plain; charset=utf-8', body: 'Wrong signature' });
  }
});

test('the signature is checked before the content: a forged body with bad content is still a signature failure', () => {
  expectFailure(verifyCallback(JSON.stringify({ operation_data: 5, signature: 'a'.repeat(128) }), SECRET), 'signature');
});

test('an unknown status pair is received (200) but classified unknown, for review', () => {
  const result = verifyCallback(callback(sampleOperationData({ status: 'refunded', status_code: 42 })), SECRET);
  assert.equal(result.ok, true);
  if (!result.ok) {
    return;
  }
  assert.equal(callbackResponse(result).status, 200);
  assert.equal(classify(result.operation.status, result.operation.status_code).phase, 'unknown');
});

test("an unusable secret is a configuration error, not the sender's fault", () => {
  assert.throws(() => verifyCallback(callback(), ''), TypeError);
});

test('over real HTTP: out-of-order, duplicate, forged and early callbacks; the state never moves backwards', async () => {
  const known = new Set(['op-A']);
  const receiver = await startReceiver(known);
  const post = async (body: string) => {
    const res = await fetch(receiver.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return [res.status, await res.text()] as const;
  };
  const at = (status: string, code: number, id = 'op-A') => callback(sampleOperationData({ status, status_code: code, operation_info: { id } }));
  try {
    assert.deepEqual(await post(at('pending', 2)), [200, 'OK']);
    assert.deepEqual(await post(at('success', 6)), [200, 'OK']);
    assert.deepEqual(await post(at('awaiting confirm', 8)), [200, 'OK']); // late, older event
    assert.deepEqual(receiver.states.get('op-A'), { status: 'success', status_code: 6 });
    assert.deepEqual(await post(at('success', 6)), [200, 'OK (already received)']);
    assert.deepEqual(await post(at('success', 0)), [200, 'OK']);
    assert.deepEqual(await post(at('declined', 106)), [200, 'OK']); // conflict: received, flagged
    assert.deepEqual(receiver.states.get('op-A'), { status: 'success', status_code: 0 });
    assert.deepEqual(receiver.reviews, ['op-A:conflict']);

    const forged = signedBody({ operation_data: sampleOperationData({ status: 'declined', status_code: 101, operation_info: { id: 'op-A' } }) }, 'x');
    assert.deepEqual(await post(forged), [401, 'Wrong signature']);
    assert.equal((await post('{not json'))[0], 400);

    // Not known yet (the store has not recorded the operation): 500 so that it is sent again...
    assert.equal((await post(at('pending', 2, 'op-B')))[0], 500);
    assert.equal(receiver.states.has('op-B'), false);
    known.add('op-B');
    // ...and the re-sent callback is taken.
    assert.deepEqual(await post(at('pending', 2, 'op-B')), [200, 'OK']);
    assert.deepEqual(receiver.states.get('op-B'), { status: 'pending', status_code: 2 });
  } finally {
    await receiver.close();
  }
});

interface AmbiguityVector {
  name: string;
  body_json: string;
  field: string | null;
  kind: 'name' | 'value' | null;
}
const AMBIGUITY = JSON.parse(readFileSync(new URL('../../vectors/callback-ambiguity.json', import.meta.url), 'utf8')) as { cases: AmbiguityVector[] };

test('ambiguous bodies: each shared vector is refused naming the same member as the PHP plugin, or accepted', () => {
  assert.ok(AMBIGUITY.cases.length >= 8);
  for (const vector of AMBIGUITY.cases) {
    const problem = callbackAmbiguity(parseJsonLossless(vector.body_json));
    assert.equal(problem?.field ?? null, vector.field, vector.name);
    if (vector.kind !== null) {
      assert.match(problem!.message, vector.kind === 'name' ? /member name/ : /value contains/, vector.name);
    }
  }
});

test('verifyCallback refuses a correctly signed ambiguous body (400), before reading operation_data', () => {
  const secret = 'ambiguity-secret';
  for (const vector of AMBIGUITY.cases.filter((v) => v.field !== null)) {
    const text = vector.body_json.replace(/,?"signature":"[0-9a-f]*"/, '');
    const signed = `${text.slice(0, -1)}${text === '{}' ? '' : ','}"signature":"${sign(parseJsonLossless(text) as object, secret)}"}`;
    const result = verifyCallback(signed, secret);
    assert.equal(result.ok, false, vector.name);
    assert.equal(!result.ok && result.reason, 'ambiguous', vector.name);
    assert.equal(!result.ok && result.field, vector.field, vector.name);
    assert.equal(callbackResponse(result).status, 400);
  }
  // The ordinary callback, signed, verifies.
  const ordinary = AMBIGUITY.cases.find((v) => v.name === 'ordinary-callback')!.body_json.replace(/,?"signature":"[0-9a-f]*"/, '');
  const signedOrdinary = `${ordinary.slice(0, -1)},"signature":"${sign(parseJsonLossless(ordinary) as object, secret)}"}`;
  assert.equal(verifyCallback(signedOrdinary, secret).ok, true);
});

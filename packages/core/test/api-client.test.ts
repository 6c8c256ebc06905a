import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { createServer } from 'node:net';
import { PartnerApiClient, PartnerApiError, parseRetryAfter, type PartnerApiClientOptions } from '../src/api/index.js';
import { sign, verify } from '../src/signing/index.js';
import { sampleOperationData, sendJson, sendSigned, sendText, startServer, type TestServer } from './api-support.js';

const SECRET = 'test-secret-Zq9!xK';
const TOKEN = 'partner-token-1';
let server: TestServer;

before(async () => {
  server = await startServer();
});
after(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function client(options: Partial<PartnerApiClientOptions> = {}): PartnerApiClient {
  return new PartnerApiClient({ baseUrl: server.url, partnerToken: TOKEN, partnerSecret: SECRET, timeoutMs: 2000, ...options });
}

async function rejection(promise: Promise<unknown>): Promise<PartnerApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PartnerApiError, `expected PartnerApiError, got ${inspect(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

const COUNTRIES = [
  { code: 276, name: 'Germany', alpha2: 'DE', alpha3: 'DEU' },
  { code: 826, name: 'United Kingdom', alpha2: 'GB', alpha3: 'GBR' },
];

test('countries: signed request (token, fresh timestamp, valid signature) and typed, verified answer', async () => {
  server.handle((_req, res) => sendSigned(res, { countries: COUNTRIES }, SECRET));
  const sentAfter = Date.now();
  const countries = await client().countries();
  assert.deepEqual(countries, COUNTRIES);

  assert.equal(server.requests.length, 1);
  const req = server.requests[0]!;
  assert.equal(req.method, 'POST');
  assert.equal(req.path, '/api/partner/countries');
  assert.match(String(req.headers['content-type']), /^application\/json/);
  assert.deepEqual(Object.keys(req.body).sort(), ['partner_token', 'signature', 'timestamp']);
  assert.equal(req.body.partner_token, TOKEN);
  const ts = req.body.timestamp as number;
  assert.ok(Number.isInteger(ts) && ts >= sentAfter && ts <= req.receivedAt, 'timestamp is the time of sending, in ms');
  assert.equal(verify(req.text, SECRET).ok, true, 'request signature verifies with the partner secret');
  assert.equal(verify(req.text, 'another-secret').ok, false);
  assert.ok(!req.text.includes(SECRET), 'the secret itself is never sent');
});

test('the injected clock stamps the timestamp', async () => {
  server.handle((_req, res) => sendSigned(res, { service_fee: 0.015 }, SECRET));
  const result = await client({ now: () => 1_700_000_000_123 }).params();
  assert.deepEqual(result, { service_fee: 0.015 });
  assert.equal(server.requests[0]!.body.timestamp, 1_700_000_000_123);
  assert.equal(server.requests[0]!.path, '/api/partner/params');
});

test('exchange: pairs typed; minor_unit labelled string is normalised to a number; kyc limits optional', async () => {
  const pairs = [
    {
      from: {
        amount: 100,
        min_amount: 50,
        max_amount: 5000,
        min_kyc_amount: 50,
        max_kyc_amount: 20000,
        code: 'EUR',
        name: 'Euro',
        symbol: '€',
        minor_unit: '2',
      },
      to: { amount: 0.00152, code: 'BTC', name: 'Bitcoin', symbol: '₿', minor_unit: 8 },
    },
    { from: { amount: 100, min_amount: 50, max_amount: 5000, code: 'USD', minor_unit: 2 }, to: { amount: 0.0014, code: 'BTC', minor_unit: 8 } },
  ];
  server.handle((_req, res) => sendSigned(res, { pairs }, SECRET));
  const result = await client().exchange();
  assert.equal(result.length, 2);
  assert.equal(result[0]!.from.minor_unit, 2);
  assert.equal(result[0]!.from.symbol, '€');
  assert.equal(result[0]!.to.amount, 0.00152);
  assert.equal(result[1]!.from.max_kyc_amount, undefined);
  assert.equal(server.requests[0]!.path, '/api/partner/exchange');
});

test('calculate: exactly one amount sent, timestamp carried, signature stripped from the result', async () => {
  server.handle((req, res) =>
    sendSigned(
      res,
      {
        from_currency: req.body.from_currency,
        to_currency: req.body.to_currency,
        from_amount: 10000,
        to_amount: 15234,
        calculation_id: 'calc-1',
        expired_at: '2024-05-01T12:05:00.1234567Z',
      },
      SECRET,
    ),
  );
  const rate = await client().calculate({ fromCurrency: 'EUR', toCurrency: 'BTC', fromAmount: 10000 });
  assert.deepEqual(rate, {
    from_currency: 'EUR',
    to_currency: 'BTC',
    from_amount: 10000,
    to_amount: 15234,
    calculation_id: 'calc-1',
    expired_at: '2024-05-01T12:05:00.1234567Z',
  });
  const req = server.requests[0]!;
  assert.equal(req.path, '/api/partner/exchange/calculate');
  assert.deepEqual(Object.keys(req.body).sort(), ['from_amount', 'from_currency', 'partner_token', 'signature', 'timestamp', 'to_currency']);
  assert.equal(verify(req.text, SECRET).ok, true);

  await client().calculate({ fromCurrency: 'EUR', toCurrency: 'BTC', toAmount: 15234 });
  assert.equal(server.requests[1]!.body.to_amount, 15234);
  assert.equal('from_amount' in server.requests[1]!.body, false);
});

test('calculate: arguments are checked before anything is sent, naming the field', async () => {
  const cases: Array<[Parameters<PartnerApiClient['calculate']>[0], string]> = [
    [{ fromCurrency: 'EUR', toCurrency: 'BTC' }, 'fromAmount'],
    [{ fromCurrency: 'EUR', toCurrency: 'BTC', fromAmount: 100, toAmount: 5 }, 'toAmount'],
    [{ fromCurrency: 'EUR', toCurrency: 'BTC', fromAmount: 10.5 }, 'fromAmount'],
    [{ fromCurrency: 'EUR', toCurrency: 'BTC', toAmount: -1 }, 'toAmount'],
    [{ fromCurrency: '', toCurrency: 'BTC', fromAmount: 100 }, 'fromCurrency'],
    [{ fromCurrency: 'EUR', toCurrency: 'B TC', fromAmount: 100 }, 'toCurrency'],
  ];
  for (const [input, field] of cases) {
    const error = await rejection(client().calculate(input));
    assert.equal(error.kind, 'invalid_request');
    assert.equal(error.status, 0);
    assert.equal(error.field, field, JSON.stringify(input));
    assert.match(error.message, new RegExp(`field ${field}`));
  }
  assert.equal(server.requests.length, 0);
});

test('calculate: an answer for another pair is rejected', async () => {
  server.handle((_req, res) =>
    sendSigned(
      res,
      { from_currency: 'USD', to_currency: 'BTC', from_amount: 1, to_amount: 1, calculation_id: 'c', expired_at: '2024-05-01T12:05:00Z' },
      SECRET,
    ),
  );
  const error = await rejection(client().calculate({ fromCurrency: 'EUR', toCurrency: 'BTC', fromAmount: 100 }));
  assert.equal(error.kind, 'invalid_response');
});

test('operation: ids sent, operation_data typed; null optional members dropped, unknown members kept', async () => {
  const data = sampleOperationData({ extra_member: 'kept' });
  (data.operation_info as Record<string, unknown>).paid_at = null;
  server.handle((_req, res) => sendSigned(res, { operation_data: data }, SECRET));
  const op = await client().operation({ operationId: 'op-7f3a', partnerOperationId: 'order-42' });
  assert.equal(op.status, 'pending');
  assert.equal(op.status_code, 2);
  assert.equal(op.operation_info.id, 'op-7f3a');
  assert.equal(op.operation_info.from?.amount, 10000);
  assert.equal(op.operation_info.to?.withdrawal_method_info?.blockchain_address, 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
  assert.equal(op.partner_info?.fee_info?.amount, 1523);
  assert.equal('paid_at' in op.operation_info, false);
  assert.equal((op as unknown as Record<string, unknown>).extra_member, 'kept');
  const req = server.requests[0]!;
  assert.equal(req.path, '/api/partner/operation');
  assert.equal(req.body.operation_id, 'op-7f3a');
  assert.equal(req.body.partner_operation_id, 'order-42');
  assert.equal(verify(req.text, SECRET).ok, true);
});

test('operation: an answer whose signed string could stand for another body is refused, as a callback is', async () => {
  const data = sampleOperationData() as unknown as { operation_info: { from: Record<string, unknown> } };
  data.operation_info.from.payment_method_info = { card_holder: 'JOHN;x:y' };
  server.handle((_req, res) => sendSigned(res, { operation_data: data }, SECRET));
  const refused = await rejection(client().operation({ operationId: 'op-7f3a' }));
  assert.equal(refused.kind, 'invalid_response');
  assert.match(refused.field ?? '', /card_holder/);
});

test('operation: at least one id; an answer about another operation is rejected', async () => {
  const missing = await rejection(client().operation({}));
  assert.equal(missing.kind, 'invalid_request');
  assert.equal(missing.field, 'operationId');
  const empty = await rejection(client().operation({ partnerOperationId: ' ' }));
  assert.equal(empty.field, 'partnerOperationId');
  assert.equal(server.requests.length, 0);

  server.handle((_req, res) => sendSigned(res, { operation_data: sampleOperationData() }, SECRET));
  const other = await rejection(client().operation({ operationId: 'op-other' }));
  assert.equal(other.kind, 'invalid_response');
  assert.equal(other.field, 'operation_data.operation_info.id');
  // Only the partner id given: no id to compare with, the answer is taken.
  const op = await client().operation({ partnerOperationId: 'order-42' });
  assert.equal(op.operation_info.id, 'op-7f3a');
  assert.equal('operation_id' in server.requests.at(-1)!.body, false);
});

test('confirm and cancel: 200 with no body resolves; request signed with the ids', async () => {
  server.handle((_req, res) => {
    res.writeHead(200);
    res.end();
  });
  await client().confirm({ operationId: 'op-1' });
  await client().cancel({ partnerOperationId: 'order-9' });
  assert.deepEqual(
    server.requests.map((r) => [r.path, r.body.operation_id, r.body.partner_operation_id]),
    [
      ['/api/partner/params/confirm', 'op-1', undefined],
      ['/api/partner/params/cancel', undefined, 'order-9'],
    ],
  );
  for (const r of server.requests) {
    assert.equal(verify(r.text, SECRET).ok, true);
  }
});

test('confirm: a 200 body, if present, must be signed', async () => {
  server.handle((_req, res) => sendSigned(res, { result: 'ok' }, SECRET));
  await client().confirm({ operationId: 'op-1' });
  server.handle((_req, res) => sendJson(res, 200, { result: 'ok' }));
  const error = await rejection(client().confirm({ operationId: 'op-1' }));
  assert.equal(error.kind, 'bad_signature');
  assert.equal(error.status, 200);
});

test('an unsigned 200 is an error', async () => {
  server.handle((_req, res) => sendJson(res, 200, { countries: COUNTRIES }));
  const error = await rejection(client().countries());
  assert.equal(error.kind, 'bad_signature');
  assert.equal(error.status, 200);
  assert.equal(error.meaning, 'Response signature invalid');
  assert.match(error.message, /not signed/);
});

test('a forged 200 is an error: signed with another secret, or altered after signing', async () => {
  server.handle((_req, res) => sendSigned(res, { countries: COUNTRIES }, 'attacker-secret'));
  const forged = await rejection(client().countries());
  assert.equal(forged.kind, 'bad_signature');
  assert.match(forged.message, /does not match/);

  server.handle((_req, res) => {
    const signature = sign({ service_fee: 0.01 }, SECRET, { form: 'general' });
    sendJson(res, 200, { service_fee: 0.5, signature });
  });
  const altered = await rejection(client().params());
  assert.equal(altered.kind, 'bad_signature');
});

test('malformed JSON and signed answers of the wrong shape are invalid responses', async () => {
  server.handle((_req, res) => sendText(res, 200, '{"countries": [', { 'content-type': 'application/json' }));
  const malformed = await rejection(client().countries());
  assert.equal(malformed.kind, 'invalid_response');
  assert.match(malformed.message, /not valid JSON/);

  server.handle((_req, res) => sendSigned(res, { countries: [{ code: '276', name: 'Germany', alpha2: 'DE', alpha3: 'DEU' }] }, SECRET));
  const wrongType = await rejection(client().countries());
  assert.equal(wrongType.kind, 'invalid_response');
  assert.equal(wrongType.field, 'countries[0].code');

  server.handle((_req, res) => sendSigned(res, { operation_data: sampleOperationData({ status_code: 'two' }) }, SECRET));
  const badOp = await rejection(client().operation({ partnerOperationId: 'order-42' }));
  assert.equal(badOp.field, 'operation_data.status_code');

  server.handle((_req, res) =>
    sendSigned(res, { from_currency: 'EUR', to_currency: 'BTC', from_amount: 1, to_amount: 1, calculation_id: 'c', expired_at: 'tomorrow' }, SECRET),
  );
  const badDate = await rejection(client().calculate({ fromCurrency: 'EUR', toCurrency: 'BTC', fromAmount: 1 }));
  assert.equal(badDate.field, 'expired_at');
});

test('each documented error status is reported with its meaning and the service description', async () => {
  const cases: Array<{ status: number; meaning: string; respond: (res: import('node:http').ServerResponse) => void }> = [
    {
      status: 400,
      meaning: 'Invalid request parameters',
      respond: (res) => sendJson(res, 400, { error: { code: 'invalid_parameter', field: 'from_amount', message: 'from_amount is below the minimum 50' } }),
    },
    { status: 401, meaning: 'Wrong signature', respond: (res) => sendText(res, 401, 'Wrong signature') },
    { status: 403, meaning: 'Partner blocked', respond: (res) => sendJson(res, 403, { error: { code: 'partner_blocked', message: 'partner is blocked' } }) },
    { status: 404, meaning: 'Partner not found', respond: (res) => sendJson(res, 404, { error: { code: 'partner_not_found', message: 'no such partner' } }) },
    { status: 429, meaning: 'Too many requests', respond: (res) => sendText(res, 429, 'slow down', { 'retry-after': '7' }) },
    { status: 500, meaning: 'Request processing error', respond: (res) => sendText(res, 500, 'boom') },
    { status: 502, meaning: 'Unexpected HTTP status', respond: (res) => sendText(res, 502, '<html>bad gateway</html>') },
  ];
  for (const c of cases) {
    server.handle((_req, res) => c.respond(res));
    const error = await rejection(client().calculate({ fromCurrency: 'EUR', toCurrency: 'BTC', fromAmount: 10 }));
    assert.equal(error.kind, 'http');
    assert.equal(error.status, c.status);
    assert.equal(error.meaning, c.meaning);
    assert.ok(error.message.startsWith(`Partner API calculate: HTTP ${c.status} ${c.meaning}`), error.message);
  }
  // Details of the 400 body are exposed.
  server.handle((_req, res) => cases[0]!.respond(res));
  const bad = await rejection(client().calculate({ fromCurrency: 'EUR', toCurrency: 'BTC', fromAmount: 10 }));
  assert.equal(bad.code, 'invalid_parameter');
  assert.equal(bad.field, 'from_amount');
  assert.equal(bad.serverMessage, 'from_amount is below the minimum 50');
  // The 401 plain text is exposed.
  server.handle((_req, res) => sendText(res, 401, 'Wrong signature'));
  const unauthorized = await rejection(client().countries());
  assert.equal(unauthorized.serverMessage, 'Wrong signature');
  assert.equal(unauthorized.retryAfterSeconds, undefined);
});

test('429: Retry-After in seconds or as an HTTP date', async () => {
  server.handle((_req, res) => sendText(res, 429, 'Too many requests', { 'retry-after': '30' }));
  const seconds = await rejection(client().countries());
  assert.equal(seconds.retryAfterSeconds, 30);
  assert.match(seconds.message, /retry after 30 s/);

  const now = Date.UTC(2024, 4, 1, 12, 0, 0);
  server.handle((_req, res) => sendText(res, 429, 'Too many requests', { 'retry-after': new Date(now + 90_000).toUTCString() }));
  const dated = await rejection(client({ now: () => now }).countries());
  assert.equal(dated.retryAfterSeconds, 90);

  assert.equal(parseRetryAfter(null, now), undefined);
  assert.equal(parseRetryAfter('soon', now), undefined);
  assert.equal(parseRetryAfter(new Date(now - 5000).toUTCString(), now), 0);
});

test('429 is not retried by default; with { retries } the client waits Retry-After and re-signs', async () => {
  let calls = 0;
  server.handle((_req, res) => {
    calls++;
    if (calls === 1) {
      sendText(res, 429, 'Too many requests', { 'retry-after': '1' });
    } else {
      sendSigned(res, { service_fee: 0.02 }, SECRET);
    }
  });
  const noRetry = await rejection(client().params());
  assert.equal(noRetry.status, 429);
  assert.equal(calls, 1);

  calls = 0;
  server.requests.length = 0;
  const started = Date.now();
  const result = await client({ retries: 2 }).params();
  const elapsed = Date.now() - started;
  assert.deepEqual(result, { service_fee: 0.02 });
  assert.equal(calls, 2);
  assert.ok(elapsed >= 990, `waited ${elapsed} ms for Retry-After: 1`);
  const [first, second] = server.requests;
  assert.ok((second!.body.timestamp as number) - (first!.body.timestamp as number) >= 990, 'the repeat carries a fresh timestamp');
  assert.notEqual(second!.body.signature, first!.body.signature);
  assert.equal(verify(second!.text, SECRET).ok, true);
});

test('429 retries give up when they run out, or when Retry-After exceeds maxRetryWaitMs', async () => {
  let calls = 0;
  server.handle((_req, res) => {
    calls++;
    sendText(res, 429, 'Too many requests', { 'retry-after': '0' });
  });
  const exhausted = await rejection(client({ retries: 2 }).countries());
  assert.equal(exhausted.status, 429);
  assert.equal(calls, 3);

  calls = 0;
  server.handle((_req, res) => {
    calls++;
    sendText(res, 429, 'Too many requests', { 'retry-after': '3600' });
  });
  const started = Date.now();
  const tooLong = await rejection(client({ retries: 5, maxRetryWaitMs: 5000 }).countries());
  assert.equal(tooLong.retryAfterSeconds, 3600);
  assert.equal(calls, 1);
  assert.ok(Date.now() - started < 1000);
});

test('other statuses are never retried, even with { retries }', async () => {
  let calls = 0;
  server.handle((_req, res) => {
    calls++;
    sendText(res, 500, 'boom', { 'retry-after': '0' });
  });
  await rejection(client({ retries: 3 }).countries());
  assert.equal(calls, 1);
});

test('a redirect is not followed: the signed POST is not replayed elsewhere', async () => {
  server.handle((req, res) => {
    if (req.path === '/elsewhere') {
      return sendSigned(res, { countries: COUNTRIES }, SECRET);
    }
    res.writeHead(302, { location: '/elsewhere' });
    res.end();
  });
  const error = await rejection(client().countries());
  assert.equal(error.status, 302);
  assert.equal(error.meaning, 'Unexpected HTTP status');
  assert.deepEqual(
    server.requests.map((r) => r.path),
    ['/api/partner/countries'],
  );
});

test('timeout: a server that never answers gives a timeout error with status 0', async () => {
  server.handle(() => {
    // never answer
  });
  const started = Date.now();
  const error = await rejection(client({ timeoutMs: 300 }).countries());
  const elapsed = Date.now() - started;
  assert.equal(error.kind, 'timeout');
  assert.equal(error.status, 0);
  assert.equal(error.meaning, 'Timed out');
  assert.match(error.message, /within 300 ms/);
  assert.ok(elapsed >= 290 && elapsed < 2000, `elapsed ${elapsed} ms`);
});

test('timeout also covers a body that never finishes', async () => {
  server.handle((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"countries": [');
  });
  const error = await rejection(client({ timeoutMs: 300 }).countries());
  assert.equal(error.kind, 'timeout');
});

test('network error: nothing listening gives status 0 and kind network', async () => {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const p = (probe.address() as import('node:net').AddressInfo).port;
      probe.close(() => resolve(p));
    });
  });
  const error = await rejection(client({ baseUrl: `http://127.0.0.1:${port}` }).countries());
  assert.equal(error.kind, 'network');
  assert.equal(error.status, 0);
  assert.equal(error.meaning, 'Network error');
  assert.match(error.message, /ECONNREFUSED/);
});

test('a base URL with a path prefix keeps it', async () => {
  server.handle((_req, res) => sendSigned(res, { countries: [] }, SECRET));
  assert.deepEqual(await client({ baseUrl: `${server.url}/sandbox/` }).countries(), []);
  assert.equal(server.requests[0]!.path, '/sandbox/api/partner/countries');
});

test('constructor options are checked, naming the option and never echoing the secret', () => {
  const base = { baseUrl: 'https://api.example', partnerToken: 't', partnerSecret: 's' };
  const cases: Array<[Partial<PartnerApiClientOptions>, RegExp]> = [
    [{ baseUrl: 'not a url' }, /baseUrl/],
    [{ baseUrl: 'ftp://api.example' }, /baseUrl/],
    [{ baseUrl: 'https://api.example/?x=1' }, /baseUrl/],
    [{ partnerToken: '' }, /partnerToken/],
    [{ partnerSecret: '' }, /partnerSecret/],
    [{ timeoutMs: 0 }, /timeoutMs/],
    [{ retries: -1 }, /retries/],
    [{ retries: 1.5 }, /retries/],
  ];
  for (const [override, pattern] of cases) {
    assert.throws(() => new PartnerApiClient({ ...base, ...override }), pattern);
  }
});

test('the partner secret never appears in any error (message, stack, JSON, inspect) nor in the client', async () => {
  const secret = 'SECRET-do-not-leak-5b8e1c';
  const make = (options: Partial<PartnerApiClientOptions> = {}) =>
    new PartnerApiClient({ baseUrl: server.url, partnerToken: TOKEN, partnerSecret: secret, timeoutMs: 300, ...options });
  const scenarios: Array<[string, (res: import('node:http').ServerResponse) => void]> = [
    ['400 echoing the secret', (res) => sendJson(res, 400, { error: { code: `bad ${secret}`, field: secret, message: `your secret is ${secret}` } })],
    ['401 echoing the secret', (res) => sendText(res, 401, `Wrong signature; expected key ${secret}`)],
    ['403', (res) => sendText(res, 403, 'blocked')],
    ['404', (res) => sendText(res, 404, 'not found')],
    ['429', (res) => sendText(res, 429, secret, { 'retry-after': '1' })],
    ['500', (res) => sendText(res, 500, `stack trace with\n${secret}\n`)],
    ['unsigned 200', (res) => sendJson(res, 200, { countries: [], note: secret })],
    ['forged 200', (res) => sendSigned(res, { countries: [] }, 'other')],
    ['malformed 200', (res) => sendText(res, 200, `{"x": ${secret}`)],
    ['wrong shape', (res) => sendSigned(res, { countries: secret }, secret)],
    ['timeout', () => {}],
  ];
  const errors: PartnerApiError[] = [];
  for (const [, respond] of scenarios) {
    server.handle((_req, res) => respond(res));
    errors.push(await rejection(make().countries()));
  }
  errors.push(await rejection(make({ baseUrl: 'http://127.0.0.1:1' }).countries()));
  errors.push(await rejection(make().calculate({ fromCurrency: 'EUR', toCurrency: 'BTC' })));
  assert.equal(errors.length, scenarios.length + 2);
  for (const error of errors) {
    for (const text of [error.message, String(error.stack), JSON.stringify(error), inspect(error, { depth: 10, showHidden: true })]) {
      assert.ok(!text.includes(secret), `secret leaked in ${error.kind} ${error.status}: ${text}`);
    }
  }
  // The echoed text is kept, with the secret redacted.
  assert.match(errors[0]!.serverMessage ?? '', /your secret is \[redacted\]/);
  const c = make();
  assert.ok(!inspect(c, { depth: 10, showHidden: true }).includes(secret));
  assert.ok(!JSON.stringify(c).includes(secret));
  assert.ok(!JSON.stringify({ ...c }).includes(secret));
});

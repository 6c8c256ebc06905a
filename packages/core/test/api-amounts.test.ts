/**
 * Amounts beyond 2^53 (wei, yoctoNEAR) through the partner API client and the
 * callback parser, over real HTTP with the real signing module: requests carry
 * the exact digits that were signed, answers and callbacks are read exactly
 * (MinorUnits: a number when safe, a bigint beyond), and amounts that are not
 * whole numbers >= 0 are still refused naming the member.
 */
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { PartnerApiClient, PartnerApiError } from '../src/api/index.js';
import { callbackResponse, verifyCallback, type CallbackVerification } from '../src/callbacks.js';
import { formatMinorUnits, minorToBigInt } from '../src/money.js';
import { LosslessNumber, parseJsonLossless, sign, stringifyJsonLossless, verify, type LosslessJsonObject } from '../src/signing/index.js';
import { sampleOperationData, sendSigned, startServer, type TestServer } from './api-support.js';

const SECRET = 'amounts-secret-7Yp';
const TOKEN = 'partner-token-amounts';
const ONE_AND_A_HALF_ETH = 1_500_000_000_000_000_000n;
/** Not representable as a double: JSON.parse would give ...784 (and then it is not a safe integer). */
const ODD_WEI = 1_234_567_890_123_456_789n;

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

function client(): PartnerApiClient {
  return new PartnerApiClient({ baseUrl: server.url, partnerToken: TOKEN, partnerSecret: SECRET, timeoutMs: 2000 });
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

/** Signs a JSON text whose numbers are written exactly as given (e.g. "1.5e18"), and appends the signature. */
function signedText(jsonWithoutSignature: string): string {
  const signature = sign(parseJsonLossless(jsonWithoutSignature) as LosslessJsonObject, SECRET);
  return `${jsonWithoutSignature.slice(0, -1)},"signature":"${signature}"}`;
}

/** A calculate answer echoing the requested pair, with amounts given as JSON text. */
function quoteText(fromAmount: string, toAmount: string): string {
  return `{"from_currency":"EUR","to_currency":"ETH","from_amount":${fromAmount},"to_amount":${toAmount},"calculation_id":"c-eth","expired_at":"2024-05-01T12:05:00.1234567Z"}`;
}

/** operation_data of an ETH purchase whose amounts are given as JSON text. */
function ethOperationText(toAmount: string, feeAmount = '15151515151515151'): string {
  const data = sampleOperationData({ status: 'success', status_code: 6 }) as Record<string, Record<string, unknown>>;
  const info = data.operation_info as Record<string, Record<string, unknown>>;
  info.to = { ...info.to, currency: { code: 'ETH', decimals: 18 }, amount: new LosslessNumber('0') };
  (data.partner_info as Record<string, Record<string, unknown>>).fee_info = { currency: { code: 'ETH', decimals: 18 }, amount: new LosslessNumber('0') };
  // The writer keeps a LosslessNumber's text; swap the placeholders for the amounts under test.
  return stringifyJsonLossless({ operation_data: data })
    .replace('"currency":{"code":"ETH","decimals":18},"amount":0', `"currency":{"code":"ETH","decimals":18},"amount":${toAmount}`)
    .replace(
      /"fee_info":\{"currency":\{"code":"ETH","decimals":18\},"amount":0\}/,
      `"fee_info":{"currency":{"code":"ETH","decimals":18},"amount":${feeAmount}}`,
    );
}

test('calculate to ETH with to_amount 1500000000000000000: exact digits signed and sent, exact bigint back', async () => {
  server.handle((req, res) => {
    const body = parseJsonLossless(req.text) as LosslessJsonObject;
    // Echo the received amount untouched (a LosslessNumber keeps its text).
    sendSigned(
      res,
      {
        from_currency: body.from_currency,
        to_currency: body.to_currency,
        from_amount: 450_000,
        to_amount: body.to_amount,
        calculation_id: 'c-eth',
        expired_at: '2024-05-01T12:05:00.1234567Z',
      },
      SECRET,
    );
  });
  const quote = await client().calculate({ fromCurrency: 'EUR', toCurrency: 'ETH', toAmount: ONE_AND_A_HALF_ETH });
  assert.deepEqual(quote, {
    from_currency: 'EUR',
    to_currency: 'ETH',
    from_amount: 450_000,
    to_amount: ONE_AND_A_HALF_ETH,
    calculation_id: 'c-eth',
    expired_at: '2024-05-01T12:05:00.1234567Z',
  });
  assert.equal(typeof quote.from_amount, 'number'); // a safe amount stays a number
  assert.equal(formatMinorUnits(quote.to_amount, 'ETH'), '1.500000000000000000');

  const req = server.requests[0]!;
  assert.match(req.text, /"to_amount":1500000000000000000[,}]/);
  assert.equal('from_amount' in req.body, false);
  const check = verify(req.text, SECRET);
  assert.equal(check.ok, true);
  assert.match(check.ok ? check.canonical : '', /;to_amount:1500000000000000000;/);

  // A value a double cannot hold goes there and back unchanged too.
  const odd = await client().calculate({ fromCurrency: 'EUR', toCurrency: 'ETH', toAmount: ODD_WEI });
  assert.equal(odd.to_amount, ODD_WEI);
  assert.match(server.requests[1]!.text, /"to_amount":1234567890123456789[,}]/);
  assert.equal(verify(server.requests[1]!.text, SECRET).ok, true);
});

test('calculate: amounts as safe numbers or bigints; results in one form (number when safe)', async () => {
  server.handle((req, res) => {
    const body = parseJsonLossless(req.text) as LosslessJsonObject;
    sendSigned(
      res,
      {
        from_currency: 'EUR',
        to_currency: 'BTC',
        from_amount: body.from_amount ?? 10_000,
        to_amount: body.to_amount ?? 15_234,
        calculation_id: 'c',
        expired_at: '2024-05-01T12:05:00Z',
      },
      SECRET,
    );
  });
  const byNumber = await client().calculate({ fromCurrency: 'EUR', toCurrency: 'BTC', toAmount: 15_234 });
  assert.equal(byNumber.to_amount, 15_234);
  const bySmallBigint = await client().calculate({ fromCurrency: 'EUR', toCurrency: 'BTC', fromAmount: 10_000n });
  assert.equal(bySmallBigint.from_amount, 10_000); // a safe bigint comes back as the number: one form per value
  assert.match(server.requests[1]!.text, /"from_amount":10000[,}]/);
  assert.equal(minorToBigInt(bySmallBigint.from_amount) + 1n, 10_001n);

  const refused: Array<[Parameters<PartnerApiClient['calculate']>[0], string, RegExp]> = [
    [{ fromCurrency: 'EUR', toCurrency: 'ETH', toAmount: 1.5e18 }, 'toAmount', /pass a bigint/],
    [{ fromCurrency: 'EUR', toCurrency: 'ETH', toAmount: 0n }, 'toAmount', /greater than 0/],
    [{ fromCurrency: 'EUR', toCurrency: 'ETH', toAmount: -ONE_AND_A_HALF_ETH }, 'toAmount', /greater than 0/],
    [{ fromCurrency: 'EUR', toCurrency: 'ETH', fromAmount: '100' as unknown as number }, 'fromAmount', /whole number/],
  ];
  server.requests.length = 0;
  for (const [input, field, message] of refused) {
    const error = await rejection(client().calculate(input));
    assert.equal(error.kind, 'invalid_request');
    assert.equal(error.field, field);
    assert.match(error.message, message);
  }
  assert.equal(server.requests.length, 0);
});

test('calculate: exponent and trailing-zero forms of a whole amount are read exactly', async () => {
  let text = '';
  server.handle((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(text);
  });
  text = signedText(quoteText('4500.00e2', '1.5e18'));
  const quote = await client().calculate({ fromCurrency: 'EUR', toCurrency: 'ETH', fromAmount: 450_000 });
  assert.equal(quote.from_amount, 450_000);
  assert.equal(quote.to_amount, ONE_AND_A_HALF_ETH);
});

test('calculate: a negative, fractional or malformed amount in a signed answer is refused naming the member', async () => {
  let text = '';
  server.handle((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(text);
  });
  const cases: Array<[string, string, string]> = [
    ['450000', '-1500000000000000000', 'to_amount'],
    ['450000', '1500000000000000000.5', 'to_amount'], // JSON.parse would round this to a whole-looking 1.5e18
    ['450000', '0.5', 'to_amount'],
    ['450000', '"1500000000000000000"', 'to_amount'],
    ['450000', '1e400', 'to_amount'],
    ['4500.5', '1500000000000000000', 'from_amount'],
    ['null', '1500000000000000000', 'from_amount'],
  ];
  for (const [from, to, field] of cases) {
    text = signedText(quoteText(from, to));
    const error = await rejection(client().calculate({ fromCurrency: 'EUR', toCurrency: 'ETH', fromAmount: 450_000 }));
    assert.equal(error.kind, 'invalid_response', `${from} / ${to}`);
    assert.equal(error.field, field, `${from} / ${to}`);
    assert.match(error.message, new RegExp(`${field} (must be a whole number of minimum units|is required)`));
  }
});

test('operation: an 18-decimal purchase keeps exact amounts; other numbers stay numbers', async () => {
  const text = signedText(ethOperationText(ODD_WEI.toString()).replace('{"operation_data":{', '{"operation_data":{"trace":12345678901234567890,'));
  server.handle((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(text);
  });
  const op = await client().operation({ operationId: 'op-7f3a' });
  assert.equal(op.operation_info.to?.amount, ODD_WEI);
  assert.equal(formatMinorUnits(op.operation_info.to!.amount!, 'ETH'), '1.234567890123456789');
  assert.equal(op.partner_info?.fee_info?.amount, 15_151_515_151_515_151n);
  assert.equal(op.operation_info.from?.amount, 10_000);
  assert.equal(typeof op.operation_info.from?.amount, 'number');
  assert.equal(op.operation_info.currency_rate, 65641.23);
  assert.equal(op.status_code, 6);
  assert.equal(op.operation_info.to?.currency?.decimals, 18);
  assert.equal(op.customer_info?.id, 991);
  // Unknown members are kept as JSON.parse gives them.
  assert.equal((op as unknown as Record<string, unknown>).trace, 12345678901234567890);
});

test('callback over real HTTP: an 18-decimal amount is verified and parsed exactly; bad amounts get 400 naming the member', async () => {
  const results: CallbackVerification[] = [];
  server.handle((req, res) => {
    const result = verifyCallback(req.text, SECRET);
    results.push(result);
    const answer = callbackResponse(result);
    res.writeHead(answer.status, { 'content-type': answer.contentType });
    res.end(answer.body);
  });
  const post = async (body: string) => {
    const res = await fetch(`${server.url}/card2crypto/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return [res.status, await res.text()] as const;
  };

  assert.deepEqual(await post(signedText(ethOperationText('1500000000000000000'))), [200, 'OK']);
  const ok = results[0]!;
  assert.ok(ok.ok, ok.ok ? '' : ok.message);
  assert.equal(ok.operation.operation_info.to?.amount, ONE_AND_A_HALF_ETH);
  assert.equal(ok.operation.partner_info?.fee_info?.amount, 15_151_515_151_515_151n);
  assert.equal(typeof ok.operation.operation_info.from?.amount, 'number');
  // raw is what JSON.parse gives: numbers as JS numbers.
  const rawTo = (ok.raw.operation_data as Record<string, Record<string, Record<string, unknown>>>).operation_info!.to!.amount;
  assert.equal(rawTo, 1.5e18);

  assert.deepEqual(await post(signedText(ethOperationText(ODD_WEI.toString()))), [200, 'OK']);
  assert.equal(results[1]!.ok && results[1]!.operation.operation_info.to?.amount, ODD_WEI);

  const bad: Array<[string, string, string]> = [
    ['-1500000000000000000', '1', 'operation_data.operation_info.to.amount'],
    ['1500000000000000000.25', '1', 'operation_data.operation_info.to.amount'],
    ['"1500000000000000000"', '1', 'operation_data.operation_info.to.amount'],
    ['true', '1', 'operation_data.operation_info.to.amount'],
    ['1500000000000000000', '0.5', 'operation_data.partner_info.fee_info.amount'],
  ];
  for (const [toAmount, feeAmount, field] of bad) {
    const [status, answer] = await post(signedText(ethOperationText(toAmount, feeAmount)));
    assert.equal(status, 400, `${toAmount} / ${feeAmount}`);
    assert.match(answer, new RegExp(`${field.replace(/\./g, '\\.')} must be a whole number of minimum units`));
    const last = results[results.length - 1]!;
    assert.equal(last.ok ? '' : last.field, field);
  }

  // The exact digits are what is signed: a body altered below the precision of a double is forged.
  const genuine = signedText(ethOperationText('1500000000000000000'));
  const altered = genuine.replace('"amount":1500000000000000000', '"amount":1500000000000000001');
  assert.notEqual(altered, genuine);
  assert.deepEqual(await post(altered), [401, 'Wrong signature']);
});

/**
 * The PHP partner API client against a real HTTP server (node:http) that
 * checks every request with core's verify() and signs its answers with
 * core's sign(): signed requests with fresh timestamps, verified answers
 * (number text as received), one exception type with status and meaning,
 * timeouts, and no secret in any message, trace, log line or dump.
 *
 * The server's first path segment picks its behaviour (base URL
 * http://127.0.0.1:<port>/<mode>), so one server serves every scenario.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { parseJsonLossless, sign, verify } from '@card2crypto/core';
import { PhpSandbox } from '../support/php.js';

/** The server's port, and one where nothing listens: both chosen by the system when the suite starts (suites of several PHPs run at once). */
let port = 0;
let closedPort = 0;
const SECRET = 'sk_live_Zx9-very-secret-value';
const TOKEN = 'partner-token-1';

interface Received {
  mode: string;
  path: string;
  verified: boolean;
  body: Record<string, unknown>;
  skewMs: number;
}

const received: Received[] = [];

const OPERATION_TEXT = (id: string) =>
  `{"operation_data":{"status":"success","status_code":6,"operation_info":{"id":"${id}","from":{"amount":10050,"currency":{"code":"EUR","decimals":2}},` +
  `"to":{"amount":123456,"currency":{"code":"BTC","decimals":8},"withdrawal_method_info":{"blockchain_address":"bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"}},` +
  `"currency_rate":65000.50,"payment_method_info":{}},"partner_info":{"operation_id":"order-42"},"customer_info":null}}`;

/** Signs a JSON text over its raw number text (as the service would), and appends the signature. */
function signedText(text: string): string {
  const signature = sign(parseJsonLossless(text) as object, SECRET);
  return `${text.slice(0, -1)},"signature":"${signature}"}`;
}

function answer(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': body.startsWith('{') ? 'application/json' : 'text/plain; charset=utf-8', ...headers });
  res.end(body);
}

const okBodies: Record<string, (req: Record<string, unknown>) => string> = {
  '/api/partner/countries': () =>
    signedText('{"countries":[{"code":276,"name":"Germany","alpha2":"DE","alpha3":"DEU"},{"code":999,"name":"Kosovo","alpha2":"XK","alpha3":"XKX"}]}'),
  '/api/partner/params': () => signedText('{"service_fee":0.0150}'),
  '/api/partner/exchange': () =>
    signedText(
      '{"pairs":[{"from":{"amount":100,"min_amount":50,"max_amount":5000,"code":"EUR","minor_unit":"2"},"to":{"amount":0.00153,"code":"BTC","minor_unit":8}}]}',
    ),
  '/api/partner/exchange/calculate': (req) =>
    signedText(
      `{"from_currency":"${String(req.from_currency)}","to_currency":"${String(req.to_currency)}","from_amount":10000,"to_amount":153000,"calculation_id":"calc-1","expired_at":"2030-01-01T00:00:00.1234567Z"}`,
    ),
  '/api/partner/operation': (req) => signedText(OPERATION_TEXT(String(req.operation_id ?? 'op-1'))),
  '/api/partner/params/confirm': () => '',
  '/api/partner/params/cancel': () => '',
};

function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
  const [, mode = '', ...rest] = (req.url ?? '').split('/');
  const path = `/${rest.join('/')}`;
  const check = verify(raw, SECRET);
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    // recorded as unverified
  }
  received.push({ mode, path, verified: check.ok, body, skewMs: Date.now() - Number(body.timestamp) });
  if (!check.ok) {
    return answer(res, 401, 'Wrong signature');
  }
  switch (mode) {
    case 'ok':
      return answer(res, 200, (okBodies[path] ?? (() => ''))(body));
    case 'e400':
      return answer(res, 400, '{"error":{"code":"invalid_parameter","field":"timestamp","message":"timestamp outside the allowed window"}}');
    case 'e401':
      return answer(res, 401, 'Wrong signature');
    case 'ambiguous':
      // Correctly signed, but a card holder "JOHN;x:y" makes the signed string stand for another body too.
      return answer(
        res,
        200,
        signedText(OPERATION_TEXT(String(body.operation_id ?? 'op-1')).replace('"payment_method_info":{}', '"payment_method_info":{"card_holder":"JOHN;x:y"}')),
      );
    case 'e401body':
      return answer(res, 401, 'Wrong signature: signature does not match the body.');
    case 'e403':
      return answer(res, 403, '{"error":{"code":"partner_blocked","message":"Partner blocked"}}');
    case 'e404':
      return answer(res, 404, '{"error":{"code":"partner_not_found","message":"Partner not found"}}');
    case 'e429':
      return answer(res, 429, '{"error":{"code":"too_many_requests","message":"slow down"}}', { 'retry-after': '30' });
    case 'e500leak':
      return answer(res, 500, `{"error":{"code":"internal_error","message":"could not sign with ${SECRET}\\u0000 sorry"}}`);
    case 'e503':
      return answer(res, 503, 'Service Unavailable');
    // Not the service: an internal host or a proxy page at the configured address (request forgery).
    case 'internal500':
      return answer(res, 500, '<html><body>db_password=hunter2 internal admin</body></html>');
    case 'internal400json':
      return answer(res, 400, '{"error":"db_password=hunter2","detail":{"token":"internal"}}');
    case 'internal404code':
      return answer(res, 404, '{"error":{"code":"NotFound <b>db_password=hunter2</b>","message":"db_password=hunter2"}}');
    case 'e400markup':
      return answer(res, 400, `{"error":{"code":"invalid_parameter","field":"x<script>","message":"<img src=x onerror=alert(1)>${'long '.repeat(100)}"}}`);
    case 'redirect':
      return answer(res, 302, '', { location: `http://127.0.0.1:${port}/ok${path}` });
    case 'unsigned':
      return answer(res, 200, '{"service_fee":0.01}');
    case 'forged':
      return answer(res, 200, `{"service_fee":0.01,"signature":"${'ab'.repeat(64)}"}`);
    case 'reformatted':
      // Signed as "0.015", sent as 0.0150: verifies only through the re-formatted reading (decisions.md).
      return answer(res, 200, `{"service_fee":0.0150,"signature":"${sign({ service_fee: 0.015 }, SECRET)}"}`);
    case 'badshape':
      return answer(res, 200, signedText('{"countries":[{"code":"276","name":"Germany","alpha2":"DE","alpha3":"DEU"}]}'));
    case 'otherop':
      return answer(res, 200, signedText(OPERATION_TEXT('someone-else')));
    case 'confirmbody':
      return answer(res, 200, '{"unexpected":true}');
    case 'slow':
      setTimeout(() => answer(res, 200, okBodies['/api/partner/params']!(body)), 2500);
      return;
    default:
      return answer(res, 404, 'no such mode');
  }
}

/** Listens on a port the system picks; answers it. */
async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** The scenario server, started for a suite and closed after it; and a port just freed, where nothing listens. */
async function startServer(): Promise<http.Server> {
  const closed = http.createServer();
  closedPort = await listen(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => handle(req, res, raw));
  });
  port = await listen(server);
  return server;
}

interface ApiException {
  kind: string;
  endpoint: string;
  status: number;
  meaning: string;
  code: string | null;
  field: string | null;
  server_message: string | null;
  retry_after: number | null;
  message: string;
  trace: string;
  dump: string;
}
interface ScenarioOutput {
  results: ({ value: unknown } | { exception: ApiException })[];
  logs: string[];
  client: string;
  sent: { url: string; body: string }[];
}

function exceptionOf(result: { value: unknown } | { exception: ApiException } | undefined): ApiException {
  assert.ok(result && 'exception' in result, `expected an exception, got ${JSON.stringify(result)}`);
  return result.exception;
}

function assertNoSecret(out: ScenarioOutput): void {
  const everything = JSON.stringify(out.results) + out.logs.join('\n') + out.client;
  assert.equal(everything.includes(SECRET), false, 'the partner secret leaked into a message, trace, log or dump');
}

export function apiClientSuite(version: string): void {
  describe(`PHP ${version}: partner API client over real HTTP`, () => {
    let php: PhpSandbox;
    let server: http.Server;
    before(async () => {
      server = await startServer();
      php = await PhpSandbox.start(version);
    });
    after(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    const run = (mode: string, calls: unknown[][], timeout = 5, base = `http://127.0.0.1:${port}/${mode}`): Promise<ScenarioOutput> =>
      php.runJson<ScenarioOutput>('api-client.php', { 'scenario.json': JSON.stringify({ base_url: base, token: TOKEN, secret: SECRET, timeout, calls }) });

    test('the seven endpoints: requests verify with core, answers are verified and typed', async () => {
      received.length = 0;
      const out = await run('ok', [
        ['countries'],
        ['params'],
        ['exchange'],
        ['calculate', 'EUR', 'BTC', 10000, null],
        ['operation', 'op-7', 'order-42'],
        ['confirm', 'op-7'],
        ['cancel', null, 'order-42'],
      ]);
      assertNoSecret(out);
      const [countries, params, exchange, calculate, operation, confirm, cancel] = out.results.map((r) => (r as { value: unknown }).value);
      assert.deepEqual(countries, [
        { code: 276, name: 'Germany', alpha2: 'DE', alpha3: 'DEU' },
        { code: 999, name: 'Kosovo', alpha2: 'XK', alpha3: 'XKX' },
      ]);
      assert.deepEqual(params, { service_fee: 0.015 });
      assert.equal((exchange as { from: { minor_unit: number } }[])[0]!.from.minor_unit, 2);
      assert.deepEqual(calculate, {
        from_currency: 'EUR',
        to_currency: 'BTC',
        from_amount: 10000,
        to_amount: 153000,
        calculation_id: 'calc-1',
        expired_at: '2030-01-01T00:00:00.1234567Z',
      });
      const op = operation as { id: string; from_amount: number; operation: { operation_info: { currency_rate: number }; customer_info?: unknown } };
      assert.equal(op.id, 'op-7');
      assert.equal(op.from_amount, 10050);
      assert.equal(op.operation.operation_info.currency_rate, 65000.5);
      assert.equal('customer_info' in op.operation, false, 'a null optional member is dropped');
      assert.equal(confirm, null);
      assert.equal(cancel, null);

      // What the service saw: seven requests, each signed correctly (core's verify), stamped within the window.
      assert.equal(received.length, 7);
      for (const r of received) {
        assert.equal(r.verified, true, `${r.path} request signature`);
        assert.equal(r.body.partner_token, TOKEN);
        assert.ok(Number.isInteger(r.body.timestamp), 'timestamp in ms');
        assert.ok(r.skewMs >= -30_000 && r.skewMs <= 5_000, `timestamp within the window (${r.skewMs} ms)`);
      }
      assert.deepEqual(
        received.map((r) => r.path),
        [
          '/api/partner/countries',
          '/api/partner/params',
          '/api/partner/exchange',
          '/api/partner/exchange/calculate',
          '/api/partner/operation',
          '/api/partner/params/confirm',
          '/api/partner/params/cancel',
        ],
      );
      assert.equal(received[3]!.body.from_amount, 10000);
      assert.equal('to_amount' in received[3]!.body, false);
      assert.equal(received[4]!.body.operation_id, 'op-7');
      assert.equal(received[4]!.body.partner_operation_id, 'order-42');
      assert.equal(received[6]!.body.operation_id, undefined);
    });

    test('each documented HTTP status becomes one exception with its status and meaning', async () => {
      const cases: [string, number, string][] = [
        ['e400', 400, 'Invalid request parameters'],
        ['e401', 401, 'Wrong signature'],
        ['e403', 403, 'Partner blocked'],
        ['e404', 404, 'Partner not found'],
        ['e429', 429, 'Too many requests'],
        ['e500leak', 500, 'Request processing error'],
        ['e503', 503, 'Unexpected HTTP status'],
        ['redirect', 302, 'Unexpected HTTP status'],
      ];
      for (const [mode, status, meaning] of cases) {
        const out = await run(mode, [['params']]);
        assertNoSecret(out);
        const e = exceptionOf(out.results[0]);
        assert.equal(e.kind, 'http', mode);
        assert.equal(e.status, status, mode);
        assert.equal(e.meaning, meaning, mode);
        assert.match(e.message, new RegExp(`^Partner API params: HTTP ${status} ${meaning}`), mode);
        assert.ok(
          out.logs.some((l) => l.startsWith('error: Partner API params: HTTP')),
          `${mode} is logged`,
        );
      }
      const e400 = exceptionOf((await run('e400', [['params']])).results[0]);
      assert.equal(e400.code, 'invalid_parameter');
      assert.equal(e400.field, 'timestamp');
      const e429 = exceptionOf((await run('e429', [['params']])).results[0]);
      assert.equal(e429.retry_after, 30);
      assert.match(e429.message, /retry after 30 s/);
      // An operation-info answer gets the callbacks' ambiguity rule: refused, naming the member.
      const ambiguous = exceptionOf((await run('ambiguous', [['operation', 'op-1']])).results[0]);
      assert.equal(ambiguous.kind, 'invalid_response');
      assert.match(ambiguous.field ?? '', /card_holder/);
      // The service's text repeating the status's meaning is said once ("Wrong signature: Wrong signature: …" read badly).
      const said = exceptionOf((await run('e401body', [['params']])).results[0]);
      assert.equal(said.message, 'Partner API params: HTTP 401 Wrong signature: signature does not match the body.');
      assert.equal(said.server_message, 'Wrong signature: signature does not match the body.');
      const blocked = exceptionOf((await run('e403', [['params']])).results[0]);
      assert.equal(blocked.message, 'Partner API params: HTTP 403 Partner blocked');
      const leak = exceptionOf((await run('e500leak', [['params']])).results[0]);
      assert.equal(leak.server_message, 'could not sign with [redacted]  sorry'); // NUL flattened to a space, as core does
    });

    test('an error body that is not a recognised service error is never copied into the error; a service error is bounded and loses markup', async () => {
      for (const mode of ['internal500', 'internal400json', 'internal404code', 'e503']) {
        const out = await run(mode, [['params']]);
        const e = exceptionOf(out.results[0]);
        assert.equal(e.kind, 'http', mode);
        assert.equal(e.server_message, null, mode);
        assert.equal(e.code, null, mode);
        assert.match(e.message, /the answer is not a service error \(\d+ bytes, not shown\)$/, mode);
        const everything = JSON.stringify(out.results) + out.logs.join('\n');
        assert.doesNotMatch(everything, /hunter2|internal admin|Service Unavailable/, `${mode}: nothing of the body in the error, its trace or the log`);
      }
      const markup = exceptionOf((await run('e400markup', [['params']])).results[0]);
      assert.equal(markup.code, 'invalid_parameter');
      assert.equal(markup.field, null, 'a field outside the documented alphabet is dropped');
      assert.doesNotMatch(markup.server_message ?? '', /[<>]/);
      assert.ok([...(markup.server_message ?? '')].length <= 201, `bounded: ${markup.server_message?.length}`);
      assert.match(markup.server_message ?? '', /^img src=x onerror=alert\(1\)long long .*…$/);
    });

    test('unsigned, forged and misshapen 200 answers are refused; re-formatted numbers still verify', async () => {
      const unsigned = exceptionOf((await run('unsigned', [['params']])).results[0]);
      assert.equal(unsigned.kind, 'bad_signature');
      assert.equal(unsigned.status, 200);
      assert.equal(unsigned.meaning, 'Response signature invalid');
      const forged = await run('forged', [['params']]);
      assert.equal(exceptionOf(forged.results[0]).kind, 'bad_signature');
      assert.ok(forged.logs.some((l) => l.includes('wrong signature')));
      const bad = exceptionOf((await run('badshape', [['countries']])).results[0]);
      assert.equal(bad.kind, 'invalid_response');
      assert.equal(bad.field, 'countries[0].code');
      const other = exceptionOf((await run('otherop', [['operation', 'op-7']])).results[0]);
      assert.equal(other.field, 'operation_data.operation_info.id');
      const body = exceptionOf((await run('confirmbody', [['confirm', 'op-7']])).results[0]);
      assert.equal(body.kind, 'bad_signature');
      const reformatted = await run('reformatted', [['params']]);
      assert.deepEqual(reformatted.results[0], { value: { service_fee: 0.015 } });
    });

    test('bad arguments are refused before anything is sent', async () => {
      received.length = 0;
      const out = await run('ok', [
        ['calculate', 'EUR', 'BTC', null, null],
        ['calculate', 'EUR', 'BTC', 100, 200],
        ['calculate', 'EU R', 'BTC', 100, null],
        ['calculate', 'EUR', 'BTC', 0, null],
        ['operation', null, null],
        ['confirm', ' ', null],
      ]);
      for (const r of out.results) {
        const e = exceptionOf(r);
        assert.equal(e.kind, 'invalid_request');
        assert.equal(e.status, 0);
        assert.ok(e.field);
      }
      assert.equal(received.length, 0);
      assert.equal(out.sent.length, 0);
    });

    test('a slow service times out; a closed port is a network error; neither leaks the secret', async () => {
      const started = Date.now();
      const slow = await run('slow', [['params']], 1);
      const elapsed = Date.now() - started;
      assertNoSecret(slow);
      const timeout = exceptionOf(slow.results[0]);
      assert.equal(timeout.kind, 'timeout');
      assert.equal(timeout.status, 0);
      assert.equal(timeout.meaning, 'Timed out');
      assert.ok(elapsed < 2400, `gave up after the 1 s timeout, not the 2.5 s answer (${elapsed} ms)`);
      const closed = await run('ok', [['params']], 5, `http://127.0.0.1:${closedPort}/ok`);
      assertNoSecret(closed);
      const network = exceptionOf(closed.results[0]);
      assert.equal(network.kind, 'network');
      assert.equal(network.meaning, 'Network error');
    });

    test('the credentials check both plugins make: accepted with the fee, or refused with the words and the setting at fault', async () => {
      const base = (mode: string) => `http://127.0.0.1:${port}/${mode}`;
      // [base URL, ok, setting at fault, the words]
      const cases: Array<[string, boolean, string | null, RegExp]> = [
        [base('ok'), true, null, /^$/],
        [base('e401'), false, 'partner_secret', /^the service refuses the signature: the partner secret is wrong for this token \(/],
        [base('forged'), false, 'partner_secret', /^the service's answer is not signed with this partner secret/],
        [base('e403'), false, 'partner_token', /^the service has blocked this partner; contact the service \(/],
        [base('e404'), false, 'partner_token', /^the service does not know this partner token \(/],
        [base('internal500'), false, 'base_url', /^the address does not answer as the service does/],
        [`http://127.0.0.1:${closedPort}/none`, false, 'base_url', /^the service address could not be reached \(/],
        ['not an address', false, 'base_url', /^the settings cannot be used to call the service \(/],
        [base('e429'), false, null, /^the service refused the request \(/],
      ];
      const out = await run(
        'ok',
        cases.map(([url]) => ['credentials', url]),
      );
      assertNoSecret(out);
      out.results.forEach((result, i) => {
        const [url, ok, field, words] = cases[i]!;
        const said = (
          result as { value: { ok: boolean; field: string | null; why: string; at: number; fee: number | null; error: string | null; dump: string } }
        ).value;
        assert.equal(said.ok, ok, url);
        assert.equal(said.field, field, url);
        assert.match(said.why, words, url);
        assert.equal(said.at, 1800000000);
        assert.equal(said.fee, ok ? 0.015 : null, url);
        assert.equal(said.error === null, ok, url);
        assert.equal(said.dump.includes(SECRET), false, 'the answer never holds the secret');
      });
    });

    test('the client dump hides the secret but the sent bodies carry only the signature', async () => {
      const out = await run('ok', [['params']]);
      assert.match(out.client, /\[redacted\]/);
      assertNoSecret(out);
      assert.equal(out.sent[0]!.body.includes(SECRET), false);
      assert.match(out.sent[0]!.body, /^\{"partner_token":"partner-token-1","timestamp":\d{13},"signature":"[0-9a-f]{128}"\}$/);
    });
  });
}

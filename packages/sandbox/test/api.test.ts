/** Partner API over real HTTP: every endpoint, every refusal, bad bodies. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  COUNTRIES,
  CRYPTO_ASSETS,
  EXPIRED_AT_PATTERN,
  FIAT_CURRENCIES,
  PARTNER_API_PATHS,
  PartnerApiClient,
  PartnerApiError,
  parseJsonLossless,
  sign,
  verify,
  LosslessNumber,
} from '@card2crypto/core';
import { SANDBOX_OPERATIONS_PATH } from '../src/index.js';
import { callApi, createOperation, OTHER, PARTNER, post, signedBody, startTestSandbox, type TestSandbox } from './helpers.js';

const P = PARTNER_API_PATHS;

function assertSigned(text: string, secret = PARTNER.secret): Record<string, any> {
  const result = verify(text, secret);
  assert.equal(result.ok, true, `answer signature: ${result.ok ? '' : result.message}`);
  return JSON.parse(text);
}

function assertError(reply: { status: number; contentType: string; json: () => any }, status: number, code: string, field?: string): void {
  assert.equal(reply.status, status);
  assert.match(reply.contentType, /^application\/json/);
  const body = reply.json();
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  assert.ok(body.error.message.length > 0);
  if (field === undefined) {
    assert.equal(body.error.field, undefined);
  } else {
    assert.equal(body.error.field, field);
  }
}

describe('partner API', () => {
  let sandbox: TestSandbox;
  let client: PartnerApiClient;

  before(async () => {
    sandbox = await startTestSandbox({ clockSpeed: 100, stepDelayMs: 1e9, rateLifetimeSeconds: 600 }); // paid operations stay at 1
    client = new PartnerApiClient({ baseUrl: sandbox.urls.base_url, partnerToken: PARTNER.token, partnerSecret: PARTNER.secret });
  });
  after(() => sandbox.dispose());

  it('answers countries with core list, signed', async () => {
    const reply = await callApi(sandbox, P.countries);
    assert.equal(reply.status, 200);
    assert.match(reply.contentType, /^application\/json/);
    const body = assertSigned(reply.text);
    assert.deepEqual(
      body.countries,
      COUNTRIES.map((c) => ({ code: c.code, name: c.name, alpha2: c.alpha2, alpha3: c.alpha3 })),
    );
    // Signed with this partner's secret, not another's.
    assert.equal(verify(reply.text, OTHER.secret).ok, false);
    assert.equal((await client.countries()).length, COUNTRIES.length);
  });

  it('answers params with the service fee', async () => {
    const body = assertSigned((await callApi(sandbox, P.params)).text);
    assert.equal(body.service_fee, 0.01);
    assert.deepEqual(await client.params(), { service_fee: 0.01 });
  });

  it('answers exchange with every fiat x crypto pair, consistent with rate fixing', async () => {
    const reply = await callApi(sandbox, P.exchange);
    const body = assertSigned(reply.text);
    assert.equal(body.pairs.length, FIAT_CURRENCIES.length * CRYPTO_ASSETS.length);
    for (const fiat of FIAT_CURRENCIES) {
      for (const asset of CRYPTO_ASSETS) {
        assert.ok(
          body.pairs.some((p: any) => p.from.code === fiat.code && p.to.code === asset.symbol),
          `${fiat.code}/${asset.symbol}`,
        );
      }
    }
    const eur = body.pairs.find((p: any) => p.from.code === 'EUR' && p.to.code === 'BTC');
    assert.equal(eur.from.min_amount, 5000);
    assert.equal(eur.from.max_kyc_amount, 500000);
    assert.equal(eur.from.max_amount, 100000); // KYC threshold: 20% of EUR 5000
    assert.equal(eur.from.minor_unit, 2);
    assert.equal(eur.to.minor_unit, 8);
    const quote = await client.calculate({ fromCurrency: 'EUR', toCurrency: 'BTC', fromAmount: eur.from.amount });
    assert.equal(quote.to_amount, eur.to.amount);
    // Amounts beyond 2^53 (wei) travel as exact digits and are signed as such.
    const raw = parseJsonLossless(reply.text) as any;
    const eth = raw.pairs.find((p: any) => p.from.code === 'EUR' && p.to.code === 'ETH');
    assert.ok(eth.to.amount instanceof LosslessNumber);
    assert.ok(BigInt(eth.to.amount.text) > BigInt(Number.MAX_SAFE_INTEGER));
  });

  describe('rate fixing', () => {
    it('fixes a rate from from_amount', async () => {
      const started = Date.now();
      const reply = await callApi(sandbox, P.calculate, { from_currency: 'EUR', to_currency: 'BTC', from_amount: 10000 });
      const body = assertSigned(reply.text);
      assert.equal(body.from_currency, 'EUR');
      assert.equal(body.to_currency, 'BTC');
      assert.equal(body.from_amount, 10000);
      // 100 EUR * 1.08 USD / 65000 USD per BTC = 0.00166153 BTC, minus 1% fee.
      assert.equal(body.to_amount, 166153 - 1661);
      assert.match(body.calculation_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.match(body.expired_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
      assert.match(body.expired_at, EXPIRED_AT_PATTERN);
      // 600 sandbox seconds at clock speed 100 = 6 real seconds.
      const lifetime = Date.parse(body.expired_at) - started;
      assert.ok(lifetime > 5500 && lifetime < 7000, `lifetime ${lifetime} ms`);
    });

    it('fixes a rate from to_amount: the smallest fiat amount that buys it', async () => {
      const body = assertSigned((await callApi(sandbox, P.calculate, { from_currency: 'EUR', to_currency: 'BTC', to_amount: 100000 })).text);
      assert.equal(body.to_amount, 100000);
      const quoteOf = async (from: number) =>
        assertSigned((await callApi(sandbox, P.calculate, { from_currency: 'EUR', to_currency: 'BTC', from_amount: from })).text).to_amount as number;
      assert.ok((await quoteOf(body.from_amount)) >= 100000);
      assert.ok((await quoteOf(body.from_amount - 1)) < 100000);
    });

    it('accepts a request without timestamp, and checks one when present', async () => {
      const noStamp = signedBody({ from_currency: 'EUR', to_currency: 'BTC', from_amount: 10000 }, PARTNER, null);
      assert.equal((await post(sandbox.urls.base_url + P.calculate, JSON.stringify(noStamp))).status, 200);
      const stale = signedBody({ from_currency: 'EUR', to_currency: 'BTC', from_amount: 10000 }, PARTNER, Date.now() - 60_000);
      assertError(await post(sandbox.urls.base_url + P.calculate, JSON.stringify(stale)), 400, 'invalid_parameter', 'timestamp');
    });

    it('writes amounts beyond 2^53 exactly (ETH in wei)', async () => {
      const reply = await callApi(sandbox, P.calculate, { from_currency: 'EUR', to_currency: 'ETH', from_amount: 10000 });
      assertSigned(reply.text);
      // 100 EUR * 1.08 / 3200 = 0.03375 ETH, minus 1%.
      assert.match(reply.text, /"to_amount":33412500000000000[,}]/);
      // Core's client reads them exactly (bigint beyond 2^53) and sends a bigint's exact digits.
      const byFiat = await client.calculate({ fromCurrency: 'EUR', toCurrency: 'ETH', fromAmount: 10000 });
      assert.equal(byFiat.to_amount, 33_412_500_000_000_000n);
      assert.equal(byFiat.from_amount, 10000);
      const byWei = await client.calculate({ fromCurrency: 'EUR', toCurrency: 'ETH', toAmount: 1_500_000_000_000_000_000n });
      assert.equal(byWei.to_amount, 1_500_000_000_000_000_000n);
      assert.equal(typeof byWei.from_amount, 'number');
    });

    const refusals: Array<[string, Record<string, unknown>, string, string]> = [
      ['both amounts', { from_currency: 'EUR', to_currency: 'BTC', from_amount: 10000, to_amount: 1000 }, 'invalid_parameter', 'to_amount'],
      ['no amount', { from_currency: 'EUR', to_currency: 'BTC' }, 'missing_parameter', 'from_amount'],
      ['below the minimum', { from_currency: 'EUR', to_currency: 'BTC', from_amount: 4999 }, 'invalid_parameter', 'from_amount'],
      ['above the maximum', { from_currency: 'EUR', to_currency: 'BTC', from_amount: 500001 }, 'invalid_parameter', 'from_amount'],
      ['to_amount beyond the maximum', { from_currency: 'EUR', to_currency: 'BTC', to_amount: 100000000 }, 'invalid_parameter', 'to_amount'],
      ['lower-case fiat', { from_currency: 'eur', to_currency: 'BTC', from_amount: 10000 }, 'invalid_parameter', 'from_currency'],
      ['unknown fiat', { from_currency: 'XXX', to_currency: 'BTC', from_amount: 10000 }, 'invalid_parameter', 'from_currency'],
      ['crypto as fiat', { from_currency: 'BTC', to_currency: 'ETH', from_amount: 10000 }, 'invalid_parameter', 'from_currency'],
      ['unknown crypto', { from_currency: 'EUR', to_currency: 'DOGE', from_amount: 10000 }, 'invalid_parameter', 'to_currency'],
      ['missing to_currency', { from_currency: 'EUR', from_amount: 10000 }, 'missing_parameter', 'to_currency'],
      ['amount as a string', { from_currency: 'EUR', to_currency: 'BTC', from_amount: '10000' }, 'invalid_parameter', 'from_amount'],
      ['fractional amount', { from_currency: 'EUR', to_currency: 'BTC', from_amount: 100.5 }, 'invalid_parameter', 'from_amount'],
      ['negative amount', { from_currency: 'EUR', to_currency: 'BTC', from_amount: -100 }, 'invalid_parameter', 'from_amount'],
      ['currency as a number', { from_currency: 978, to_currency: 'BTC', from_amount: 10000 }, 'invalid_parameter', 'from_currency'],
    ];
    for (const [name, params, code, field] of refusals) {
      it(`refuses ${name} with 400 naming ${field}`, async () => {
        assertError(await callApi(sandbox, P.calculate, params), 400, code, field);
      });
    }
  });

  describe('operations', () => {
    it('answers operation info by operation_id, partner_operation_id or both', async () => {
      const op = createOperation(sandbox, { partnerOperationId: 'order-1001' });
      for (const params of [{ operation_id: op.id }, { partner_operation_id: 'order-1001' }, { operation_id: op.id, partner_operation_id: 'order-1001' }]) {
        const body = assertSigned((await callApi(sandbox, P.operation, params)).text);
        assert.equal(body.operation_data.operation_info.id, op.id);
        assert.equal(body.operation_data.partner_info.operation_id, 'order-1001');
        assert.equal(body.operation_data.status, 'pending');
        assert.equal(body.operation_data.status_code, 1);
      }
      const data = await client.operation({ partnerOperationId: 'order-1001' });
      assert.equal(data.operation_info.id, op.id);
      assert.equal(data.operation_info.from?.payment_method_info?.number, '424242******4242');
      assert.equal(data.operation_info.status_url, `${sandbox.urls.status_page_url}/${op.id}`);
    });

    it('refuses unknown, foreign and contradicting ids', async () => {
      const mine = createOperation(sandbox, { partnerOperationId: 'order-2001' });
      const theirs = createOperation(sandbox, { partner: OTHER, partnerOperationId: 'order-2002' });
      assertError(await callApi(sandbox, P.operation, {}), 400, 'missing_parameter', 'operation_id');
      assertError(await callApi(sandbox, P.operation, { operation_id: 'no-such-operation' }), 400, 'invalid_parameter', 'operation_id');
      assertError(await callApi(sandbox, P.operation, { operation_id: theirs.id }), 400, 'invalid_parameter', 'operation_id');
      assertError(await callApi(sandbox, P.operation, { partner_operation_id: 'order-2002' }), 400, 'invalid_parameter', 'partner_operation_id');
      assertError(
        await callApi(sandbox, P.operation, { operation_id: mine.id, partner_operation_id: 'order-2002' }),
        400,
        'invalid_parameter',
        'partner_operation_id',
      );
      assertError(await callApi(sandbox, P.operation, { operation_id: 42 }), 400, 'invalid_parameter', 'operation_id');
    });

    it('confirm and cancel refuse an operation that is not awaiting confirmation', async () => {
      const op = createOperation(sandbox);
      for (const path of [P.confirm, P.cancel]) {
        assertError(await callApi(sandbox, path, { operation_id: op.id }), 400, 'invalid_state');
      }
      await assert.rejects(
        client.confirm({ operationId: op.id }),
        (e: unknown) => e instanceof PartnerApiError && e.status === 400 && e.code === 'invalid_state',
      );
    });
  });

  describe('refusals common to every endpoint', () => {
    for (const [name, path] of Object.entries(P)) {
      it(`${name}: 401 text/plain "Wrong signature" for a bad signature`, async () => {
        const body = signedBody({}, PARTNER);
        body.signature = sign({ ...body, signature: undefined, extra: 1 }, PARTNER.secret, { form: 'general' });
        const reply = await post(sandbox.urls.base_url + path, JSON.stringify(body));
        assert.equal(reply.status, 401);
        assert.match(reply.contentType, /^text\/plain; charset=utf-8/);
        assert.match(reply.text, /Wrong signature/);
      });
    }

    it('401 for a missing signature, a signature made with another secret, and a tampered body', async () => {
      const url = sandbox.urls.base_url + P.params;
      const unsigned = { partner_token: PARTNER.token, timestamp: Date.now() };
      const foreign = signedBody({}, { token: PARTNER.token, secret: OTHER.secret });
      const tampered = { ...signedBody({}), timestamp: Date.now() + 1000 };
      for (const body of [unsigned, foreign, tampered]) {
        const reply = await post(url, JSON.stringify(body));
        assert.equal(reply.status, 401);
        assert.match(reply.text, /^Wrong signature/);
      }
    });

    it('404 for an unknown partner, naming partner_token', async () => {
      const reply = await callApi(sandbox, P.countries, {}, { token: 'nobody', secret: 'x' });
      assertError(reply, 404, 'partner_not_found', 'partner_token');
    });

    it('403 for a blocked partner, and 200 again once unblocked', async () => {
      sandbox.context.partners.setBlocked(OTHER.token, true);
      assertError(await callApi(sandbox, P.params, {}, OTHER), 403, 'partner_blocked');
      sandbox.context.partners.setBlocked(OTHER.token, false);
      assert.equal((await callApi(sandbox, P.params, {}, OTHER)).status, 200);
    });

    it('400 naming timestamp outside 30 s ahead / 5 s behind; accepted inside', async () => {
      const url = sandbox.urls.base_url + P.params;
      const at = (offset: number) => post(url, JSON.stringify(signedBody({}, PARTNER, Date.now() + offset)));
      assert.equal((await at(25_000)).status, 200);
      assert.equal((await at(-3_000)).status, 200);
      assertError(await at(31_000), 400, 'invalid_parameter', 'timestamp');
      assertError(await at(-6_000), 400, 'invalid_parameter', 'timestamp');
      assertError(await post(url, JSON.stringify(signedBody({}, PARTNER, null))), 400, 'missing_parameter', 'timestamp');
      const asText = signedBody({ timestamp: String(Date.now()) }, PARTNER, null);
      assertError(await post(url, JSON.stringify(asText)), 400, 'invalid_parameter', 'timestamp');
      const seconds = signedBody({}, PARTNER, Math.floor(Date.now() / 1000));
      assertError(await post(url, JSON.stringify(seconds)), 400, 'invalid_parameter', 'timestamp');
    });
  });

  it("the widget frame's packages: only core's audited imports, only their modules", async () => {
    const get = (path: string) => fetch(`${sandbox.urls.base_url}${path}`);
    const ok = await get('/widget/pkg/@noble/hashes/sha2.js');
    assert.equal(ok.status, 200);
    assert.match(ok.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.match(await ok.text(), /sha256/);
    assert.equal((await get('/widget/pkg/@scure/base/index.js')).status, 200);
    for (const path of [
      '/widget/pkg/@noble/hashes/package.json',
      '/widget/pkg/@noble/hashes/..%2F..%2F..%2Fpackage.json',
      '/widget/pkg/@noble/curves/secp256k1.js',
      '/widget/pkg/left-pad/index.js',
    ]) {
      assert.equal((await get(path)).status, 404, path);
    }
  });

  it("a service clock set off this computer's: a partner's timestamp judged against it, and its time in the Date header", async () => {
    const clock = (offset: unknown) =>
      post(`${sandbox.urls.base_url}/dashboard/api/clock`, JSON.stringify({ offset_ms: offset }), {
        'content-type': 'application/json',
        'x-card2crypto-dashboard': '1',
      });
    assertError(await clock(1.5), 400, 'invalid_parameter', 'offset_ms');
    assertError(await clock(86_400_001), 400, 'invalid_parameter', 'offset_ms');
    assert.equal((await clock(10_000)).status, 200);
    try {
      // This computer's clock is 10 s behind the service's: a timestamp stamped now is refused, with the service's time said.
      const reply = await post(sandbox.urls.base_url + P.params, JSON.stringify(signedBody({}, PARTNER)));
      assertError(reply, 400, 'invalid_parameter', 'timestamp');
      const said = Date.parse(reply.headers.get('date') ?? '');
      assert.ok(Math.abs(said - (Date.now() + 10_000)) < 2_000, `the Date header says the service's time: ${reply.headers.get('date')}`);
      assert.equal((await post(sandbox.urls.base_url + P.params, JSON.stringify(signedBody({}, PARTNER, Date.now() + 10_000)))).status, 200);
    } finally {
      assert.equal((await clock(0)).status, 200);
    }
    assert.equal((await callApi(sandbox, P.params, {})).status, 200);
  });

  describe('bad bodies', () => {
    const url = () => sandbox.urls.base_url + P.params;

    it('malformed JSON', async () => {
      for (const text of ['{', '{"partner_token": }', 'null', '[1,2]', '"text"', '{"a":1} x', '{"a":1,}']) {
        assertError(await post(url(), text), 400, 'invalid_json');
      }
    });

    it('an empty body', async () => {
      assertError(await post(url(), ''), 400, 'invalid_json');
    });

    it('missing partner_token and a partner_token of the wrong type', async () => {
      assertError(await post(url(), JSON.stringify({ timestamp: Date.now(), signature: 'ab' })), 400, 'missing_parameter', 'partner_token');
      assertError(await post(url(), JSON.stringify({ partner_token: 7, timestamp: Date.now() })), 400, 'invalid_parameter', 'partner_token');
      assertError(await post(url(), JSON.stringify({ partner_token: ['x'] })), 400, 'invalid_parameter', 'partner_token');
    });

    it('an oversized body', async () => {
      const big = JSON.stringify({ ...signedBody({}), padding: 'x'.repeat(70_000) });
      assertError(await post(url(), big), 400, 'body_too_large');
      // Streamed without a length, too.
      const response = await fetch(url(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new ReadableStream({
          start(controller) {
            for (let i = 0; i < 20; i++) {
              controller.enqueue(new TextEncoder().encode('x'.repeat(5000)));
            }
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as any).error.code, 'body_too_large');
    });

    it('invalid UTF-8', async () => {
      const bytes = new Uint8Array([...new TextEncoder().encode('{"partner_token":"'), 0xc3, 0x28, ...new TextEncoder().encode('"}')]);
      assertError(await post(url(), bytes), 400, 'invalid_json');
    });

    it('a non-JSON content type', async () => {
      const reply = await post(url(), JSON.stringify(signedBody({})), { 'content-type': 'application/x-www-form-urlencoded' });
      assertError(reply, 400, 'invalid_json');
    });

    it('a method other than POST', async () => {
      const response = await fetch(url());
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'POST');
    });
  });
});

describe('request rate limit', () => {
  let sandbox: TestSandbox;
  before(async () => {
    sandbox = await startTestSandbox({ rateLimit: 3 });
  });
  after(() => sandbox.dispose());

  it('answers 429 with Retry-After past the per-partner rate, without touching other partners', async () => {
    const statuses: number[] = [];
    let limited;
    for (let i = 0; i < 5; i++) {
      const reply = await callApi(sandbox, PARTNER_API_PATHS.params);
      statuses.push(reply.status);
      if (reply.status === 429) {
        limited = reply;
      }
    }
    assert.deepEqual(statuses.slice(0, 3), [200, 200, 200]);
    assert.ok(limited, `statuses ${statuses.join(',')}`);
    assertError(limited, 429, 'too_many_requests');
    assert.match(limited.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal((await callApi(sandbox, PARTNER_API_PATHS.params, {}, OTHER)).status, 200);
    const client = new PartnerApiClient({ baseUrl: sandbox.urls.base_url, partnerToken: PARTNER.token, partnerSecret: PARTNER.secret });
    await assert.rejects(client.params(), (e: unknown) => e instanceof PartnerApiError && e.status === 429 && (e.retryAfterSeconds ?? 0) >= 1);
    // The bucket refills: one request a third of a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.equal((await callApi(sandbox, PARTNER_API_PATHS.params)).status, 200);
  });

  it("the dashboard spends a partner's rate as its other traffic would: 429 with Retry-After until then, others untouched", async () => {
    const spend = (token: string, body: unknown, header = true) =>
      fetch(`${sandbox.urls.base_url}/dashboard/api/partners/${encodeURIComponent(token)}/rate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(header ? { 'x-card2crypto-dashboard': '1' } : {}) },
        body: JSON.stringify(body),
      });
    assert.equal((await spend(PARTNER.token, { spent_ms: 1500 }, false)).status, 403);
    for (const bad of [{}, { spent_ms: -1 }, { spent_ms: 1.5 }, { spent_ms: 60_001 }, { spent_ms: '900' }]) {
      const reply = await spend(PARTNER.token, bad);
      assert.equal(reply.status, 400, JSON.stringify(bad));
      assert.equal(((await reply.json()) as { error: { field?: string } }).error.field, 'spent_ms');
    }
    assert.equal((await spend('nobody', { spent_ms: 10 })).status, 404);
    const spent = await spend(PARTNER.token, { spent_ms: 1500 });
    assert.equal(spent.status, 200);
    const refused = await callApi(sandbox, PARTNER_API_PATHS.params);
    assertError(refused, 429, 'too_many_requests');
    assert.equal(refused.headers.get('retry-after'), '2', 'the whole seconds until the next token');
    assert.equal((await callApi(sandbox, PARTNER_API_PATHS.params)).status, 429, 'still spent a moment later');
    assert.equal((await callApi(sandbox, PARTNER_API_PATHS.params, {}, OTHER)).status, 200, 'another partner is untouched');
    await new Promise((resolve) => setTimeout(resolve, 1600));
    assert.equal((await callApi(sandbox, PARTNER_API_PATHS.params)).status, 200, 'a token back once the time has passed');
  });

  it("the dashboard state counts each partner's requests a second and its 429s; the test helper is neither limited nor counted", async () => {
    const rateOf = async (token: string) => {
      const state = (await (await fetch(`${sandbox.urls.base_url}/dashboard/api/state?limit=1`)).json()) as {
        partners: Array<{ token: string; api_rate: { peak_per_second: number; peak_second: number | null; limited: number; recent: Array<[number, number]> } }>;
      };
      return state.partners.find((p) => p.token === token)!.api_rate;
    };
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const before_ = await rateOf(PARTNER.token);
    // At the start of a wall-clock second, so the five below fall within it.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
    // Five at once within one second (the limit is 3): three answered, two refused, all five seen that second.
    const statuses = await Promise.all(Array.from({ length: 5 }, () => callApi(sandbox, PARTNER_API_PATHS.params).then((r) => r.status)));
    const after_ = await rateOf(PARTNER.token);
    assert.equal(statuses.filter((s) => s === 429).length, 2, statuses.join(','));
    assert.equal(after_.limited - before_.limited, 2);
    assert.ok(after_.peak_per_second >= 5, JSON.stringify(after_));
    assert.equal(after_.recent.reduce((n, [, c]) => n + c, 0) - before_.recent.reduce((n, [, c]) => n + c, 0), 5);
    // Ten test-helper requests in a row: none refused, none counted.
    for (let i = 0; i < 10; i++) {
      const reply = await callApi(sandbox, SANDBOX_OPERATIONS_PATH, {
        operation_id: `op-rate-${i}`,
        partner_operation_id: `wc-rate-${i}`,
        status: 'pending',
        status_code: 1,
        from_currency: 'EUR',
        from_amount: 2500,
        to_currency: 'BTC',
        to_amount: 1000,
        to_account: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
      });
      assert.equal(reply.status, 200, reply.text);
    }
    assert.deepEqual((await rateOf(PARTNER.token)).recent, after_.recent);
    assert.equal((await rateOf(OTHER.token)).limited, 0);
  });
});

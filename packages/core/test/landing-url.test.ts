import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { base64Decode, base64Encode } from '../src/base64.js';
import { type LandingPayload, buildLandingUrl, parseLandingUrl } from '../src/landing-url.js';
import { ValidationError } from '../src/validation.js';
import { buildSignedWidgetSettings } from '../src/widget-settings-builder.js';
import { type WidgetSettings } from '../src/widget-settings.js';

const params: WidgetSettings = buildSignedWidgetSettings(
  {
    target_element: 'widget',
    partner_token: 'tok_1',
    from_currency: 'EUR',
    from_amount: 10050,
    to_currency: 'BTC',
    partner_operation_id: 'Заказ №42 — café ☕ 𝄞',
    user_login: 'käufer@example.com'.replace('ä', 'a'),
  },
  { secret: 's3cret', now: () => 1_700_000_000_000 },
);
const payload: LandingPayload = {
  params,
  callbacks: { success: 'https://shop.example/checkout/order-received/42/?key=wc_order_x&ok=1', fail: 'https://shop.example/checkout/?failed=42' },
};
const encodeParam = (json: string, encoding: 'base64' | 'base64url'): string => Buffer.from(json, 'utf8').toString(encoding);

function problems(input: string, options = {}): string[][] {
  const result = parseLandingUrl(input, options);
  assert.equal(result.ok, false, 'expected a failure');
  return result.ok ? [] : result.problems.map((p) => [p.field, p.rule]);
}

test('base64 encoder and decoder agree with Buffer for every length', () => {
  for (let len = 0; len < 200; len++) {
    const bytes = randomBytes(len);
    const standard = base64Encode(bytes);
    assert.equal(standard, bytes.toString('base64'));
    for (const text of [standard, bytes.toString('base64url'), standard.replace(/=+$/, '')]) {
      const decoded = base64Decode(text);
      assert.ok(decoded.ok, text);
      assert.deepEqual(Buffer.from(decoded.bytes), bytes);
    }
  }
});

test('build: {landing_url}/?i=<url-encoded standard base64 of the UTF-8 JSON>', () => {
  const url = buildLandingUrl('https://pay.example/landing', payload);
  assert.ok(url.startsWith('https://pay.example/landing/?i='), url);
  const i = url.slice('https://pay.example/landing/?i='.length);
  assert.doesNotMatch(i, /[+/=]/, 'base64 specials are percent-encoded');
  const expectedJson = JSON.stringify({ params: payload.params, callbacks: payload.callbacks });
  assert.equal(decodeURIComponent(i), encodeParam(expectedJson, 'base64'));
  assert.equal(new URL(url).searchParams.get('i'), encodeParam(expectedJson, 'base64'));
  assert.ok(buildLandingUrl('https://pay.example/', payload).startsWith('https://pay.example/?i='));
  assert.ok(buildLandingUrl('https://pay.example', payload).startsWith('https://pay.example/?i='));
  assert.ok(buildLandingUrl('http://127.0.0.1:8787/landing?partner=x', payload).startsWith('http://127.0.0.1:8787/landing/?partner=x&i='));
});

test('round trip with non-ASCII text through the URL, the query and the bare i value', () => {
  const url = buildLandingUrl('https://pay.example/landing', payload);
  const expected = JSON.parse(JSON.stringify(payload));
  const i = url.split('?i=')[1]!;
  for (const input of [url, `?i=${i}`, `i=${i}`, i, decodeURIComponent(i)]) {
    const result = parseLandingUrl(input, { validateParams: true });
    assert.ok(result.ok, `${input}: ${JSON.stringify(!result.ok && result.problems)}`);
    assert.deepEqual(result.payload, expected);
    assert.equal(result.payload.params.partner_operation_id, 'Заказ №42 — café ☕ 𝄞');
  }
});

test('parser accepts URL-safe base64, missing padding, and "+" decoded to spaces', () => {
  const json = JSON.stringify({
    params: { target_element: 'w', partner_token: 'ü>?~' },
    callbacks: { success: 'https://a.example/ok', fail: 'https://a.example/no' },
  });
  const standard = encodeParam(json, 'base64');
  assert.match(standard, /[+/]/, 'the sample exercises + or /');
  for (const i of [encodeParam(json, 'base64url'), standard.replace(/=+$/, ''), standard]) {
    const result = parseLandingUrl(`https://pay.example/?i=${i}`);
    assert.ok(result.ok, i);
    assert.equal(result.payload.params.partner_token, 'ü>?~');
  }
  const raw = parseLandingUrl(`https://pay.example/?i=${standard}`); // unencoded '+' reads as a space in a query
  assert.ok(raw.ok);
});

test('parser reports precisely what is wrong', () => {
  assert.deepEqual(problems('https://pay.example/landing/'), [['i', 'required']]);
  assert.deepEqual(problems(''), [['i', 'required']]);
  assert.deepEqual(problems('https://pay.example/?i='), [['i', 'required']]);
  assert.deepEqual(problems('https://pay.example/?i=a&i=b'), [['i', 'duplicate']]);
  assert.deepEqual(problems('https://pay.example/?i=ab*c'), [['i', 'base64']]);
  const bad = parseLandingUrl('https://pay.example/?i=ab*c');
  assert.ok(!bad.ok && /character 3 is "\*"/.test(bad.problems[0]!.message));
  assert.deepEqual(problems('i=abcde'), [['i', 'base64']]);
  assert.deepEqual(problems('i=ab%ZZ'), [['i', 'base64']]);
  assert.deepEqual(problems('ab%ZZ'), [['i', 'url_encoding']]);
  assert.deepEqual(problems(Buffer.from([0xff, 0xfe, 0x41]).toString('base64')), [['i', 'utf8']]);
  assert.deepEqual(problems(encodeParam('{"params": {', 'base64')), [['i', 'json']]);
  assert.deepEqual(problems(encodeParam('[1,2]', 'base64')), [['i', 'object']]);
  assert.deepEqual(problems(encodeParam('{}', 'base64')), [
    ['params', 'required'],
    ['callbacks', 'required'],
  ]);
  assert.deepEqual(
    problems(encodeParam(JSON.stringify({ params: [], callbacks: { success: '/thanks', fail: 'ftp://x.example/', extra: 1 }, x: 1 }), 'base64')),
    [
      ['x', 'unknown_field'],
      ['params', 'object'],
      ['callbacks.success', 'url'],
      ['callbacks.fail', 'url'],
      ['callbacks.extra', 'unknown_field'],
    ],
  );
  assert.deepEqual(problems(encodeParam(JSON.stringify({ params: {}, callbacks: { success: 'https://a.example/' } }), 'base64')), [
    ['callbacks.fail', 'required'],
  ]);
  // Params validated as signed widget settings on request.
  assert.deepEqual(
    problems(encodeParam(JSON.stringify({ params: { target_element: 'w', partner_token: 't', from_amount: 5 }, callbacks: payload.callbacks }), 'base64'), {
      validateParams: true,
    }),
    [
      ['params.timestamp', 'required'],
      ['params.signature', 'required'],
      ['params.from_amount', 'requires'],
    ],
  );
});

test('build refuses bad landing addresses, callbacks and params with every problem', () => {
  assert.throws(
    () => buildLandingUrl('pay.example/landing', { params: { ...params, signature: 'x' }, callbacks: { success: 'javascript:alert(1)', fail: '' } }),
    (error: unknown) =>
      error instanceof ValidationError &&
      JSON.stringify(error.problems.map((p) => [p.field, p.rule])) ===
        JSON.stringify([
          ['landing_url', 'url'],
          ['params.signature', 'signature'],
          ['callbacks.success', 'url'],
          ['callbacks.fail', 'url'],
        ]),
  );
  assert.throws(() => buildLandingUrl('https://pay.example/#x', payload), /fragment/);
  assert.throws(() => buildLandingUrl('https://pay.example/?i=1', payload), /"i" parameter/);
});

test('"^" in the landing path is percent-encoded as the URL standard says since 2024, on every Node', () => {
  const url = buildLandingUrl('https://pay.example/a^b/c', payload);
  assert.ok(url.startsWith('https://pay.example/a%5Eb/c/?i='), url);
  // "^" in the query stays as the standard leaves it.
  assert.ok(buildLandingUrl('https://pay.example/l?x=a^b', payload).startsWith('https://pay.example/l/?x=a^b&i='));
});

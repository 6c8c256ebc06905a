/**
 * Generates vectors/signing.json, the conformance vectors shared by the
 * TypeScript core and the PHP plugins (format: vectors/README.md).
 *
 *   node dist/scripts/generate-vectors.js           # (re)write the file
 *   node dist/scripts/generate-vectors.js --check   # exit 1 when the file is not current
 *
 * Deterministic: fixed secrets, a seeded PRNG, no clock. Core's tests compare
 * the committed file with a fresh generation.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { canonicalString, hmacSha512Hex, parseJsonLossless, type NullReading, type NumberReading, type SigningForm } from '../src/signing/index.js';
import { exampleOperationData } from '../test/fixtures/operation-data.js';

export interface VectorCase {
  name: string;
  form: SigningForm;
  secret: string;
  /** The object as signed (without its signature member). */
  input: Record<string, unknown>;
  /** When number text matters: the body's JSON text exactly as received, without its signature member. */
  input_json?: string;
  /** How the numbers of input_json were read for `canonical` (absent: raw). */
  numbers?: NumberReading;
  /** How null was read for `canonical` (absent: empty). */
  nulls?: NullReading;
  canonical: string;
  signature: string;
  expect: 'valid' | 'invalid';
}

export interface VectorFile {
  version: 1;
  description: string;
  cases: VectorCase[];
}

export const VECTORS_URL = new URL('../../vectors/signing.json', import.meta.url);

const SECRET = 'c2c-test-secret-7f3a9b';
const OTHER_SECRET = 'c2c-other-secret-0000';
const SECRETS = [
  SECRET,
  'sécret-€-🔑',
  'k',
  // Longer than SHA-512's 128-byte block: HMAC hashes the key first.
  'long-secret-'.repeat(12),
];

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

class Builder {
  readonly cases: VectorCase[] = [];
  private readonly names = new Set<string>();

  private add(c: VectorCase): void {
    if (this.names.has(c.name)) {
      throw new Error(`duplicate vector name ${c.name}`);
    }
    this.names.add(c.name);
    this.cases.push(c);
  }

  /** A case signed from a JS object (its numbers are written as JS writes them). */
  valid(name: string, input: { [k: string]: Json }, options: { form?: SigningForm; secret?: string; nulls?: NullReading } = {}): VectorCase {
    const form = options.form ?? 'general';
    const secret = options.secret ?? SECRET;
    const canonical = canonicalString(input, { form, nulls: options.nulls ?? 'empty' });
    const c: VectorCase = { name, form, secret, input: clone(input), canonical, signature: hmacSha512Hex(canonical, secret), expect: 'valid' };
    if (options.nulls === 'omit') {
      c.nulls = 'omit';
    }
    this.add(c);
    return c;
  }

  /** A case whose body arrives as JSON text; the signature is made over the given reading of its numbers and nulls. */
  fromText(name: string, text: string, options: { numbers?: NumberReading; nulls?: NullReading; secret?: string } = {}): VectorCase {
    const secret = options.secret ?? SECRET;
    const numbers = options.numbers ?? 'raw';
    const nulls = options.nulls ?? 'empty';
    const canonical = canonicalString(parseJsonLossless(text) as object, { numbers, nulls });
    const c: VectorCase = {
      name,
      form: 'general',
      secret,
      input: JSON.parse(text) as Record<string, unknown>,
      input_json: text,
      canonical,
      signature: hmacSha512Hex(canonical, secret),
      expect: 'valid',
    };
    if (numbers !== 'raw') {
      c.numbers = numbers;
    }
    if (nulls !== 'empty') {
      c.nulls = nulls;
    }
    this.add(c);
    return c;
  }

  /** The same body checked against a signature that must fail. */
  invalid(name: string, base: VectorCase, change: { input?: { [k: string]: Json }; input_json?: string; secret?: string; signature?: string }): void {
    const inputJson = change.input_json ?? (change.input === undefined ? base.input_json : undefined);
    const input = inputJson !== undefined ? (JSON.parse(inputJson) as Record<string, unknown>) : (change.input ?? base.input);
    const reading = { numbers: base.numbers ?? 'raw', nulls: base.nulls ?? 'empty' } as const;
    const canonical =
      inputJson !== undefined
        ? canonicalString(parseJsonLossless(inputJson) as object, reading)
        : canonicalString(input, { form: base.form, nulls: reading.nulls });
    const c: VectorCase = {
      name,
      form: base.form,
      secret: change.secret ?? base.secret,
      input: clone(input),
      canonical,
      signature: change.signature ?? base.signature,
      expect: 'invalid',
    };
    if (inputJson !== undefined) {
      c.input_json = inputJson;
    }
    if (base.numbers !== undefined) {
      c.numbers = base.numbers;
    }
    if (base.nulls !== undefined) {
      c.nulls = base.nulls;
    }
    this.add(c);
  }
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Park–Miller: deterministic across runs and platforms. */
function prng(seed: number): (n: number) => number {
  let state = seed;
  return (n: number) => {
    state = (state * 48271) % 2147483647;
    return state % n;
  };
}

const OPERATION_DATA = exampleOperationData();

const COUNTRIES: Json[] = [
  [4, 'Afghanistan', 'AF', 'AFG'],
  [8, 'Albania', 'AL', 'ALB'],
  [12, 'Algeria', 'DZ', 'DZA'],
  [20, 'Andorra', 'AD', 'AND'],
  [24, 'Angola', 'AO', 'AGO'],
  [32, 'Argentina', 'AR', 'ARG'],
  [36, 'Australia', 'AU', 'AUS'],
  [40, 'Austria', 'AT', 'AUT'],
  [56, 'Belgium', 'BE', 'BEL'],
  [76, 'Brazil', 'BR', 'BRA'],
  [100, 'Bulgaria', 'BG', 'BGR'],
  [124, 'Canada', 'CA', 'CAN'],
  [250, 'France', 'FR', 'FRA'],
  [276, 'Germany', 'DE', 'DEU'],
  [9999, 'Côte d’Ivoire (non-standard code)', 'CI', 'CIV'],
].map((row) => {
  const [code, name, alpha2, alpha3] = row as [number, string, string, string];
  return { code, name, alpha2, alpha3 };
});

export function buildVectorFile(): VectorFile {
  const b = new Builder();

  // --- The spec's own illustration and basic shapes -------------------------------------
  b.valid('spec-illustration', { b: 1, a: 'x', c: { d: true } });
  b.valid('empty-object', {});
  b.valid('single-member', { a: 'x' });
  b.valid('signature-member-excluded', { a: 'x', signature: 'stale-signature-is-not-signed' });
  b.valid('nested-signature-member-kept', { data: { signature: 'inner' }, z: 1 });
  b.valid('member-order-irrelevant-1', { z: 1, y: 2, x: { c: 3, b: 4, a: 5 } });
  b.valid('member-order-irrelevant-2', { x: { a: 5, b: 4, c: 3 }, y: 2, z: 1 });
  b.valid('uppercase-before-lowercase', { b: 1, B: 2, a: 3, A: 4, _: 5, '0': 6 });
  b.valid('prefix-names', { ab: 1, a: 2, abc: 3, 'a b': 4, 'a-b': 5, a_b: 6 });
  b.valid('empty-key', { '': 'empty name', a: { '': 'nested empty name' } });

  // --- Nesting -----------------------------------------------------------------------------
  b.valid('nested-3-levels', { a: { b: { c: 'deep' } }, a2: 'x' });
  let deep: { [k: string]: Json } = { leaf: 'bottom' };
  for (let i = 11; i >= 0; i--) {
    deep = { [`l${i}`]: deep, [`v${i}`]: i };
  }
  b.valid('nested-12-levels', deep);
  b.valid('container-vs-leaf-prefix', { a: { b: 1 }, 'a-': 2, a0: 3, 'a;': 4, a9: 5 });
  b.valid('sibling-key-is-prefix-of-container', { ab: { c: 1 }, a: 2, abc: 3 });
  b.valid('container-key-then-colon-sorting', { a: { z: 1 }, aa: 2, a0: { y: 1 }, 'a/': 3 });

  // --- Arrays ------------------------------------------------------------------------------
  b.valid('array-short', { items: ['a', 'b', 'c'] });
  b.valid('array-11-items', { items: Array.from({ length: 11 }, (_, i) => i * 10) });
  b.valid('array-12-strings', { items: Array.from({ length: 12 }, (_, i) => `v${i}`) });
  b.valid('array-25-items', { items: Array.from({ length: 25 }, (_, i) => i) });
  b.valid('array-101-items', { items: Array.from({ length: 101 }, (_, i) => i % 7) });
  b.valid('array-of-objects', {
    list: [
      { id: 1, name: 'one' },
      { id: 2, name: 'two' },
    ],
  });
  b.valid('array-of-11-objects', { list: Array.from({ length: 11 }, (_, i) => ({ id: i, tag: `t${i}` })) });
  b.valid('array-of-arrays', { m: [[1, 2], [3, [4, 5]], []] });
  b.valid('array-mixed-leaf-and-container-index', { a: [0, { x: 1 }, 2, 3, 4, 5, 6, 7, 8, 9, 10, { y: 2 }] });
  b.valid('array-of-booleans-and-nulls', { flags: [true, false, null, 'true', 'false', 0, 1] });
  b.valid('countries-response', { countries: COUNTRIES });

  // --- Empty values ---------------------------------------------------------------------------
  b.valid('empty-array-dropped', { a: [], b: 'kept' });
  b.valid('empty-object-dropped', { a: {}, b: 'kept' });
  b.valid('only-empty-containers', { a: [], b: {}, c: { d: [], e: {} } });
  b.valid('nested-empty-array-in-array', { a: [[], [[]], 'x'] });
  b.valid('empty-string-kept', { a: '', b: 'x', c: '' });
  b.valid('zero-kept', { a: 0, b: 0.0, c: '0', d: [0] });
  b.valid('whitespace-values-kept', { a: ' ', b: '  padded  ', c: '\t', d: '\n' });
  b.valid('payment-method-info-empty', {
    operation_info: { from: { payment_method: 2, payment_method_info: {}, amount: 100 } },
  });

  // --- Booleans ------------------------------------------------------------------------------
  b.valid('booleans-as-1-0', { t: true, f: false });
  b.valid('boolean-strings-unchanged', { t: 'true', f: 'false', T: 'TRUE', one: '1', zero: '0' });
  b.valid('booleans-nested', { opts: { enabled: true, sandbox: false, list: [true, false] } });
  b.valid('boolean-true-and-number-1-sign-alike', { a: 1, b: 0 });

  // --- Null (policy: signed as an empty value; verification also accepts it omitted) -----------
  b.valid('null-as-empty', { a: null, b: 'x' });
  b.valid('null-nested-as-empty', { a: { b: null, c: 1 }, d: [null, 2] });
  b.valid('null-omitted-reading', { a: null, b: 'x' }, { nulls: 'omit' });
  b.valid('null-nested-omitted-reading', { a: { b: null, c: 1 }, d: [null, 2] }, { nulls: 'omit' });
  b.valid('null-and-empty-string-alike', { a: '', b: 'x' });

  // --- Numbers (JS formatting) -------------------------------------------------------------------
  b.valid('integers', { a: 1, b: -1, c: 42, d: 1700000000000, e: -9007199254740991 });
  b.valid('max-safe-integer', { max: 9007199254740991, min: -9007199254740991 });
  b.valid('powers-of-two', { p31: 2147483648, p32: 4294967296, p52: 4503599627370496, p53m1: 9007199254740991 });
  b.valid('decimal-rates', { rate: 63907.42, fee: 0.01, tiny: 0.0000153, third: 1 / 3 });
  b.valid('float-artifacts', { sum: 0.1 + 0.2, product: 1.1 * 3, ratio: 2 / 3 });
  b.valid('exponent-forms', { big: 1e21, bigger: 1.5e300, small: 1e-7, smaller: 5e-324, max: Number.MAX_VALUE });
  b.valid('threshold-1e21', { below: 999999999999999900000, at: 1e21 });
  b.valid('threshold-1e-6', { at: 0.000001, below: 0.0000001 });
  b.valid('negative-decimals', { a: -0.5, b: -63907.42, c: -1e-7 });
  b.valid('number-strings-unchanged', { a: '1.50', b: '1e2', c: '007', d: '-0' });

  // --- Number text as received (input_json) ---------------------------------------------------------
  const textCases: [string, string][] = [
    ['trailing-zero', '{"amount":1.50,"code":"EUR"}'],
    ['exponent-lower', '{"rate":1e2}'],
    ['exponent-upper', '{"rate":1E2}'],
    ['exponent-plus', '{"rate":1.0e+2}'],
    ['exponent-20', '{"big":1e20}'],
    ['exponent-minus-7', '{"small":1e-7}'],
    ['float-artifact', '{"sum":0.30000000000000004}'],
    ['max-safe-integer', '{"id":9007199254740991}'],
    ['beyond-safe-integer', '{"id":9007199254740993}'],
    ['huge-integer', '{"id":123456789012345678901234567890}'],
    ['negative-zero', '{"a":-0}'],
    ['zero-point-zero', '{"a":0.0,"b":100.0}'],
    ['long-fraction', '{"rate":0.000015300000}'],
    ['rate-many-digits', '{"rate":63907.420000000001}'],
    ['whitespace-and-order', '{ "b" : 2.50 ,\n  "a" : [ 1.0 , 2 ] }'],
    ['nested-numbers', '{"pairs":[{"from":{"amount":100.00,"min_amount":50.0},"to":{"amount":0.00153000}}]}'],
  ];
  for (const [name, text] of textCases) {
    // The reading of numbers as received; and, where the JS re-formatting differs, that reading too.
    const raw = b.fromText(`text-${name}-raw`, text);
    const asJs = canonicalString(parseJsonLossless(text) as object, { numbers: 'js' });
    if (asJs !== raw.canonical) {
      b.fromText(`text-${name}-js`, text, { numbers: 'js' });
    }
  }
  b.fromText('text-null-as-empty', '{"a":null,"b":[null,1.50]}');
  b.fromText('text-null-omitted', '{"a":null,"b":[null,1.50]}', { nulls: 'omit' });
  b.fromText('text-null-omitted-js', '{"a":null,"b":[null,1.50]}', { nulls: 'omit', numbers: 'js' });
  b.fromText('text-escapes', '{"q":"say \\"hi\\"","u":"\\u20ac\\ud83d\\ude00","nl":"a\\nb","sl":"a\\/b"}');
  b.fromText('text-signature-uppercase-hex', '{"a":1}');
  const upper = b.cases[b.cases.length - 1] as VectorCase;
  upper.signature = upper.signature.toUpperCase();

  // --- Unicode -------------------------------------------------------------------------------------
  b.valid('euro-value', { price: '€ 10', currency: 'EUR' });
  b.valid('euro-key', { '€': 'euro', e: 'e', f: 'f' });
  b.valid('hebrew-fb33-and-emoji-keys', { '\uFB33': 'dalet with dagesh', '😀': 'grin', z: 'z' });
  b.valid('fb33-vs-emoji-utf16-order', { x: { '\uFB33': 1, '\u{1F600}': 2, '\uFFFD': 3, '\uE000': 4, '\u{10000}': 5 } });
  b.valid('emoji-values', { a: '😀', b: '👍🏽', c: '🇩🇪', d: '👨‍👩‍👧' });
  b.valid('nfd-text', { name: 'Jose\u0301', city: 'Mu\u0308nchen' });
  b.valid('nfc-and-nfd-keys-distinct', { 'caf\u00e9': 'nfc', 'cafe\u0301': 'nfd' });
  b.valid('cjk-and-cyrillic', { name: '山田太郎', city: 'Москва', country: 'Україна' });
  b.valid('rtl-text', { name: 'שלום', arabic: 'مرحبا' });
  b.valid('accented-latin', { card_holder: 'JOSÉ ÑÚÑEZ', city: 'Kraków', street: 'Straße' });
  b.valid('line-separator-chars', { a: 'x\u2028y', b: 'x\u2029y', c: '\u00a0nbsp' });
  b.valid('control-characters', { tab: 'a\tb', nl: 'line1\nline2', cr: 'a\rb', bell: '\u0007' });
  b.valid('non-ascii-nested-keys', { données: { clé: 'valeur', ключ: 'значение' } });
  b.valid('supplementary-plane-key-order', { '\u{1F600}': 1, '\u{1F4A9}': 2, '\u{10FFFF}': 3, '\uD7FF': 4 });

  // --- ":", ";", quotes and backslashes -------------------------------------------------------------
  b.valid('colon-in-value', { url: 'https://example.com:8443/path', time: '09:31:07' });
  b.valid('semicolon-in-value', { list: 'a;b;c', css: 'color:red;margin:0' });
  b.valid('quotes-in-values', { dq: 'say "hi"', sq: "it's", both: '"\'', only: '"' });
  b.valid('backslash-in-values', { path: 'C:\\temp\\file', esc: '\\n is not a newline' });
  b.valid('colon-in-key', { 'a:b': 1, a: 2, ab: 3 });
  b.valid('colon-in-key-collides-with-path', { 'a:b': 'flat', a: { b: 'nested', c: 'other' } });
  b.valid('colon-in-key-collision-same-value-order', { a: { b: 'z' }, 'a:b': 'a' });
  b.valid('colon-at-key-end', { 'a:': 1, a: { '': 2 }, 'a;': 3 });
  b.valid('semicolon-in-key', { 'a;b': 1, a: 2, 'a:b': 3 });
  b.valid('quotes-in-keys', { '"quoted"': 1, "'single'": 2, plain: 3 });
  b.valid('colon-keys-nested', { outer: { 'in:ner': { 'x:y': 'deep' }, inner: 1 } });
  b.valid('equals-and-ampersand', { query: 'a=1&b=2', key: 'x=y' });

  // --- Widget settings, simple form ------------------------------------------------------------------
  const settings: { [k: string]: Json } = {
    target_element: 'card2crypto-widget',
    partner_token: 'c2c_live_8f2e4a6b1d3c5e7f',
    timestamp: 1715679067123,
  };
  b.valid('simple-required-only', settings, { form: 'simple' });
  b.valid('simple-required-only-general', settings);
  b.valid(
    'simple-full',
    {
      ...settings,
      from_currency: 'EUR',
      from_amount: 5000,
      to_currency: 'BTC',
      to_amount: 7800,
      to_account: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      lang: 'de',
      user_login: 'jane.customer@example.org',
      partner_operation_id: 'wc-order-10482',
      partner_css: 'https://shop.example.com/wp-content/uploads/card2crypto/widget.css?ver=3;x=1',
    },
    { form: 'simple' },
  );
  b.valid('simple-quotes-verbatim', { ...settings, partner_operation_id: '"order-1"', user_login: "o'brien@example.org" }, { form: 'simple' });
  b.valid('simple-leading-trailing-apostrophes', { ...settings, partner_operation_id: "'x'" }, { form: 'simple' });
  b.valid('simple-booleans', { ...settings, sandbox: true, debug: false }, { form: 'simple' });
  b.valid('simple-boolean-strings', { ...settings, sandbox: 'true', debug: 'false' }, { form: 'simple' });
  b.valid('simple-empty-string', { ...settings, lang: '' }, { form: 'simple' });
  b.valid('simple-null', { ...settings, lang: null }, { form: 'simple' });
  b.valid('simple-null-omitted-reading', { ...settings, lang: null }, { form: 'simple', nulls: 'omit' });
  b.valid('simple-unicode', { ...settings, user_login: 'josé@exämple.org', partner_operation_id: '注文-1' }, { form: 'simple' });
  b.valid('simple-calculation-id', { ...settings, calculation_id: 'b7e3c9a2-5d1f-4e8b-a6c0-9f2d4e1b7a35' }, { form: 'simple' });
  b.valid('simple-amount-zero', { ...settings, from_currency: 'USD', from_amount: 0 }, { form: 'simple' });
  b.valid('simple-colon-in-key', { ...settings, 'x:y': 'z' }, { form: 'simple' });

  // --- API requests and responses, general form -----------------------------------------------------------
  const token = 'c2c_live_8f2e4a6b1d3c5e7f';
  const ts = 1715679067123;
  b.valid('request-countries', { partner_token: token, timestamp: ts });
  b.valid('request-params', { partner_token: token, timestamp: ts });
  b.valid('request-exchange', { partner_token: token, timestamp: ts });
  b.valid('request-calculate', { from_currency: 'EUR', to_currency: 'BTC', from_amount: 25000, to_amount: 0, partner_token: token });
  b.valid('request-operation', { partner_operation_id: 'wc-order-10482', operation_id: '5f3b2c1e', partner_token: token, timestamp: ts });
  b.valid('request-confirm', { partner_operation_id: 'wc-order-10482', operation_id: '5f3b2c1e', partner_token: token, timestamp: ts });
  b.valid('request-cancel', { partner_operation_id: 'wc-order-10482', operation_id: '', partner_token: token, timestamp: ts });
  b.valid('response-params', { service_fee: 0.01 });
  b.valid('response-calculate', {
    from_currency: 'EUR',
    to_currency: 'BTC',
    from_amount: 25000,
    to_amount: 391204,
    calculation_id: 'b7e3c9a2-5d1f-4e8b-a6c0-9f2d4e1b7a35',
    expired_at: '2024-05-14T09:41:07.1234567Z',
  });
  b.valid('response-exchange', {
    pairs: [
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
          minor_unit: 2,
        },
        to: { amount: 0.00156, code: 'BTC', name: 'Bitcoin', symbol: '₿', minor_unit: 8 },
      },
      {
        from: {
          amount: 100,
          min_amount: 50,
          max_amount: 5000,
          min_kyc_amount: 50,
          max_kyc_amount: 20000,
          code: 'USD',
          name: 'US Dollar',
          symbol: '$',
          minor_unit: '2',
        },
        to: { amount: 99.8, code: 'USDT', name: 'Tether', symbol: '₮', minor_unit: 6 },
      },
    ],
  });
  const callback = b.valid('callback-operation-data', { operation_data: OPERATION_DATA });
  b.valid('response-operation', { operation_data: { ...OPERATION_DATA, status: 'pending', status_code: 2 } });
  for (const [status, code] of [
    ['declined', 101],
    ['declined', 102],
    ['declined', 105],
    ['declined', 106],
    ['awaiting confirm', 8],
  ] as const) {
    b.valid(`callback-${status.replace(' ', '-')}-${code}`, { operation_data: { ...OPERATION_DATA, status, status_code: code } });
  }

  // --- Secrets --------------------------------------------------------------------------------------------------
  for (const [i, secret] of SECRETS.entries()) {
    b.valid(`secret-${i}-spec-illustration`, { b: 1, a: 'x', c: { d: true } }, { secret });
    b.valid(`secret-${i}-widget`, settings, { secret, form: 'simple' });
  }

  // --- Tampered and wrong-secret cases ------------------------------------------------------------------------------
  const spec = b.cases[0] as VectorCase;
  b.invalid('tampered-value', spec, { input: { b: 2, a: 'x', c: { d: true } } });
  b.invalid('tampered-boolean-to-string', spec, { input: { b: 1, a: 'x', c: { d: 'true' } } });
  b.invalid('tampered-added-member', spec, { input: { b: 1, a: 'x', c: { d: true }, e: '' } });
  b.invalid('tampered-added-empty-string', spec, { input: { b: 1, a: 'x', c: { d: true, e: '' } } });
  b.invalid('tampered-removed-member', spec, { input: { a: 'x', c: { d: true } } });
  b.invalid('tampered-renamed-key-case', spec, { input: { B: 1, a: 'x', c: { d: true } } });
  b.invalid('tampered-unnested', spec, { input: { b: 1, a: 'x', 'c:d': 'true' } });
  b.invalid('tampered-signature-one-digit', spec, { signature: flipLastHexDigit(spec.signature) });
  b.invalid('tampered-signature-truncated-hash-of-other', spec, { signature: hmacSha512Hex(spec.canonical + ';', spec.secret) });
  b.invalid('wrong-secret', spec, { secret: OTHER_SECRET });
  b.invalid('wrong-secret-case', spec, { secret: spec.secret.toUpperCase() });
  b.invalid('wrong-secret-trailing-space', spec, { secret: `${spec.secret} ` });
  b.invalid('tampered-callback-status', callback, { input: { operation_data: { ...OPERATION_DATA, status: 'declined' } } });
  b.invalid('tampered-callback-amount', callback, {
    input: { operation_data: { ...OPERATION_DATA, operation_info: { ...(OPERATION_DATA.operation_info as object), currency_rate: 63907.43 } } },
  });
  b.invalid('wrong-secret-callback', callback, { secret: OTHER_SECRET });
  const widget = b.cases.find((c) => c.name === 'simple-full') as VectorCase;
  b.invalid('tampered-widget-amount', widget, { input: { ...widget.input, from_amount: 500000 } as { [k: string]: Json } });
  b.invalid('tampered-widget-timestamp', widget, { input: { ...widget.input, timestamp: 1715679067124 } as { [k: string]: Json } });
  b.invalid('wrong-secret-widget', widget, { secret: OTHER_SECRET });
  const rawText = b.cases.find((c) => c.name === 'text-trailing-zero-raw') as VectorCase;
  b.invalid('tampered-text-number-changed', rawText, { input_json: '{"amount":1.51,"code":"EUR"}' });
  b.invalid('tampered-text-trailing-zero-added', rawText, { input_json: '{"amount":1.500,"code":"EUR"}' });
  b.invalid('wrong-secret-text', rawText, { secret: OTHER_SECRET });
  const nullCase = b.cases.find((c) => c.name === 'null-as-empty') as VectorCase;
  b.invalid('tampered-null-to-string', nullCase, { input: { a: 'null', b: 'x' } });
  b.invalid('tampered-null-to-zero', nullCase, { input: { a: 0, b: 'x' } });
  const arrays = b.cases.find((c) => c.name === 'array-12-strings') as VectorCase;
  b.invalid('tampered-array-order', arrays, { input: { items: Array.from({ length: 12 }, (_, i) => `v${11 - i}`) } });
  const unicode = b.cases.find((c) => c.name === 'nfd-text') as VectorCase;
  b.invalid('tampered-nfd-to-nfc', unicode, { input: { name: 'Jos\u00e9', city: 'Mu\u0308nchen' } });

  // --- Seeded random objects (both paths of the implementation, all value kinds) ------------------------------------------
  const rand = prng(20240514);
  const alphabet = ['a', 'b', 'B', 'z', '0', '1', '9', '10', '_', '-', ':', ';', '"', "'", 'é', '€', '\uFB33', '😀', 'e\u0301', ' '];
  const key = (): string => Array.from({ length: 1 + rand(4) }, () => alphabet[rand(alphabet.length)]).join('');
  const leaf = (): Json => {
    switch (rand(9)) {
      case 0:
        return rand(2) === 0;
      case 1:
        return null;
      case 2:
        return rand(100000);
      case 3:
        return (rand(2000000) - 1000000) / 100;
      case 4:
        return rand(10) / 7;
      case 5:
        return '';
      case 6:
        return ['true', 'false', '0', '1.50'][rand(4)] as string;
      default:
        return key() + key();
    }
  };
  const gen = (depth: number): Json => {
    const kind = rand(depth > 3 ? 10 : 14);
    if (kind < 10) {
      return leaf();
    }
    if (kind < 12) {
      return Array.from({ length: rand(14) }, () => gen(depth + 1));
    }
    const obj: { [k: string]: Json } = {};
    for (let i = rand(6); i > 0; i--) {
      obj[key()] = gen(depth + 1);
    }
    return obj;
  };
  for (let i = 0; b.cases.length < 300; i++) {
    const obj: { [k: string]: Json } = {};
    for (let j = 1 + rand(8); j > 0; j--) {
      obj[key()] = gen(0);
    }
    b.valid(`random-${String(i).padStart(3, '0')}`, obj, { secret: SECRETS[rand(SECRETS.length)] as string });
  }

  return {
    version: 1,
    description:
      'card2crypto signing conformance vectors, generated by packages/core/scripts/generate-vectors.ts; format in packages/core/vectors/README.md. ' +
      'For each case: canonical is the string signed, signature = hex(HMAC-SHA512(canonical, secret)); verifying the case with its secret must give expect.',
    cases: b.cases,
  };
}

function flipLastHexDigit(hex: string): string {
  const last = hex[hex.length - 1] as string;
  return hex.slice(0, -1) + (last === '0' ? '1' : '0');
}

export function serialiseVectorFile(file: VectorFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}

function main(argv: string[]): number {
  const text = serialiseVectorFile(buildVectorFile());
  const path = fileURLToPath(VECTORS_URL);
  if (argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      // missing file: reported below
    }
    if (current !== text) {
      console.error(`${path} is not current: run npm run vectors in packages/core`);
      return 1;
    }
    console.log(`${path} is current`);
    return 0;
  }
  writeFileSync(path, text);
  console.log(`wrote ${(JSON.parse(text) as VectorFile).cases.length} cases to ${path}`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';

import {
  canonicalString,
  hmacSha512Hex,
  LosslessNumber,
  parseJsonLossless,
  sign,
  SigningInputError,
  timingSafeEqualHex,
  verify,
} from '../src/signing/index.js';

import { referenceCanonical } from './signing-reference.js';

/** Independent HMAC so the tests do not check the module against itself. */
function referenceHmac(text: string, secret: string): string {
  return createHmac('sha512', Buffer.from(secret, 'utf8')).update(Buffer.from(text, 'utf8')).digest('hex');
}

const SECRET = 'partner-secret';

describe('canonicalString: general form', () => {
  it('reproduces the spec illustration a:x;b:1;c:d:1', () => {
    assert.equal(canonicalString({ b: 1, a: 'x', c: { d: true } }), 'a:x;b:1;c:d:1');
  });

  it('indexes arrays from 0 and sorts the indices as text (items:10 before items:2)', () => {
    const items = Array.from({ length: 12 }, (_, i) => `v${i}`);
    assert.equal(
      canonicalString({ items }),
      'items:0:v0;items:1:v1;items:10:v10;items:11:v11;items:2:v2;items:3:v3;items:4:v4;' + 'items:5:v5;items:6:v6;items:7:v7;items:8:v8;items:9:v9',
    );
  });

  it('orders a container index after a longer leaf index (a:10 < a:1:x)', () => {
    const a: unknown[] = Array.from({ length: 11 }, (_, i) => i);
    a[1] = { x: 'one' };
    const text = canonicalString({ a });
    assert.ok(text.indexOf('a:10:10') < text.indexOf('a:1:x:one'), text);
    assert.equal(text, referenceCanonical({ a }));
  });

  it('drops empty arrays and empty objects, keeps empty strings and zeros', () => {
    assert.equal(canonicalString({ a: [], b: {}, c: '', d: 0, e: { f: [], g: {} }, h: [[]], i: -0 }), 'c:;d:0;i:0');
  });

  it('writes booleans as 1/0 and leaves the strings "true"/"false" unchanged', () => {
    assert.equal(canonicalString({ t: true, f: false, st: 'true', sf: 'false' }), 'f:0;sf:false;st:true;t:1');
  });

  it('writes numbers as JavaScript writes them', () => {
    assert.equal(
      canonicalString({ a: 1.5, b: 100, c: 1e21, d: 1e-7, e: 0.1 + 0.2, f: 9007199254740991, g: -2.5e-10, h: 10n ** 20n }),
      'a:1.5;b:100;c:1e+21;d:1e-7;e:0.30000000000000004;f:9007199254740991;g:-2.5e-10;h:100000000000000000000',
    );
  });

  it('sorts by UTF-16 code units, not by UTF-8 bytes (U+FB33 after an emoji)', () => {
    const value = { '\uFB33': 'dalet', '\u{1F600}': 'grin', '\u20AC': 'euro', z: 'ascii' };
    assert.equal(canonicalString(value), 'z:ascii;\u20AC:euro;\u{1F600}:grin;\uFB33:dalet');
    // UTF-8 byte order would put U+FB33 (EF AC B3) before the emoji (F0 9F 98 80).
    assert.ok(Buffer.compare(Buffer.from('\uFB33'), Buffer.from('\u{1F600}')) < 0);
  });

  it('orders a container by its flattened names, not by its key (a:x after a-b, a.c and a0)', () => {
    // Key order would put the object "a" first; its member "a:x" sorts after every name with a character below ":".
    const value = { a: { x: 1 }, 'a-b': 2, 'a.c': 3, a0: 4, b: { a: 5 } };
    assert.equal(canonicalString(value), 'a-b:2;a.c:3;a0:4;a:x:1;b:a:5');
    assert.equal(canonicalString(value), referenceCanonical(value));
  });

  it('sorts levels of many keys as well as small ones', () => {
    const keys = Array.from({ length: 100 }, (_, i) => `k${(i * 37) % 100}${i % 3 === 0 ? ':' : ''}`);
    const value = Object.fromEntries(keys.map((key, i) => [key, i % 4 === 0 ? { nested: i } : i]));
    assert.equal(canonicalString(value), referenceCanonical(value));
  });

  it('does not normalise Unicode: NFC and NFD keys and values stay distinct', () => {
    const nfc = 'caf\u00e9';
    const nfd = 'cafe\u0301';
    assert.equal(canonicalString({ [nfc]: nfd, [nfd]: nfc }), `${nfd}:${nfc};${nfc}:${nfd}`);
  });

  it('sorts by member name, not by whole line, when keys contain ":"', () => {
    // Whole-line sorting would compare "a:b:…" with "a;…" differently from names.
    const value = { 'a:b': 'x', a: { b: 'y', c: 'z' }, 'a;': '1', 'a:': '2', '': 'empty-name' };
    assert.equal(canonicalString(value), ':empty-name;a::2;a:b:x;a:b:y;a:c:z;a;:1');
    assert.equal(canonicalString(value), referenceCanonical(value));
    // Member order in the input does not matter, even for colliding names.
    assert.equal(canonicalString({ a: { c: 'z', b: 'y' }, 'a:': '2', 'a;': '1', 'a:b': 'x', '': 'empty-name' }), canonicalString(value));
  });

  it('keeps ";", quotes and ":" inside values verbatim', () => {
    assert.equal(canonicalString({ q: 'say "hi"; it\'s: fine' }), 'q:say "hi"; it\'s: fine');
  });

  it('excludes only the top-level signature member', () => {
    assert.equal(canonicalString({ signature: 'abc', data: { signature: 'kept' } }), 'data:signature:kept');
  });

  it('signs null as an empty value by default and can omit it', () => {
    assert.equal(canonicalString({ a: null, b: [null, 1] }), 'a:;b:0:;b:1:1');
    assert.equal(canonicalString({ a: null, b: [null, 1] }, { nulls: 'omit' }), 'b:1:1');
  });

  it('skips undefined and functions as members, as JSON.stringify does', () => {
    assert.equal(canonicalString({ a: undefined, b: () => 1, c: 'c' }), 'c:c');
  });

  it('writes LosslessNumber text as received or as JS re-formats it', () => {
    const value = { r: new LosslessNumber('1.50'), e: new LosslessNumber('1e2'), big: new LosslessNumber('9007199254740993') };
    assert.equal(canonicalString(value), 'big:9007199254740993;e:1e2;r:1.50');
    assert.equal(canonicalString(value, { numbers: 'js' }), 'big:9007199254740992;e:100;r:1.5');
  });

  it('refuses values JSON cannot carry, naming the member', () => {
    assert.throws(
      () => canonicalString({ a: { b: [1, Number.NaN] } }),
      (e: unknown) => e instanceof SigningInputError && e.path === 'a:b:1',
    );
    assert.throws(() => canonicalString({ when: new Date(0) }), /member "when": a Date cannot be signed/);
    assert.throws(() => canonicalString({ x: Infinity }), /member "x": Infinity/);
    assert.throws(() => canonicalString([1, 2] as unknown as object), /plain JSON object, not an array/);
    assert.throws(
      () => canonicalString({ s: 'lone \uD800 surrogate' }),
      (e: unknown) => e instanceof SigningInputError && e.path === 's',
    );
  });

  it('flattens plain objects only: class instances and inherited keys are refused, null prototypes accepted', () => {
    class Point {
      x = 1;
      y = 'two';
    }
    assert.throws(() => canonicalString({ a: new Point() }), /member "a": a Point cannot be signed/);
    const inherited = Object.assign(Object.create({ z: 'inherited' }) as object, { x: 1 });
    assert.throws(
      () => canonicalString({ a: inherited }),
      (e: unknown) => e instanceof SigningInputError && e.path === 'a',
    );
    assert.equal(canonicalString({ a: Object.assign(Object.create(null) as object, { y: 'two', x: 1 }) }), 'a:x:1;a:y:two');
    // A getter's error reaches the caller unchanged.
    assert.throws(
      () =>
        canonicalString({
          a: {
            get x(): string {
              throw new Error('own getter');
            },
          },
        }),
      /own getter/,
    );
  });

  it('reads an own "__proto__" member (JSON.parse makes one) as a member, not the prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"a": 1, "__proto__": "x"}, "b": 2}') as Record<string, unknown>;
    assert.equal(canonicalString(parsed), '__proto__:__proto__:x;__proto__:a:1;b:2');
  });

  it('refuses cyclic objects with a clear error instead of overflowing the stack', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    assert.throws(() => canonicalString(cyclic), /cyclic/);
  });

  it('skips members holding undefined or functions but writes them as null inside arrays', () => {
    const sparse = [1, , 3];
    assert.equal(canonicalString({ a: [undefined, () => 1, sparse] }), 'a:0:;a:1:;a:2:0:1;a:2:1:;a:2:2:3');
    assert.equal(canonicalString({ a: [undefined, sparse] }, { nulls: 'omit' }), 'a:1:0:1;a:1:2:3');
  });

  it('ignores non-index properties of arrays, as JSON does', () => {
    const list = Object.assign([1, 2], { extra: 'x' });
    assert.equal(canonicalString({ list }), 'list:0:1;list:1:2');
    assert.equal(canonicalString({ list, 'k:': 1 }), 'k::1;list:0:1;list:1:2'); // slow path too
  });

  it('agrees with the naive collect-then-sort reference on random objects', () => {
    // Keys from few characters, so that keys extend one another ("a", "a-", "a0") on either side of ":".
    randomAgreement(['a', 'b', 'B', '0', '1', '9', '10', ':', ';', '-', '!', '_', '\u00e9', '\uFB33', '\u{1F600}', '']);
  });

  it('agrees with the reference without ":" in keys (mostly bodies whose members need no sort after the visit)', () => {
    randomAgreement(['a', 'b', '0', '1', '10', '-', '!', ';', '9', '']);
  });
});

/** canonicalString equals the naive reference on 1,000 random objects with keys from `alphabet`. */
function randomAgreement(alphabet: string[]): void {
  let seed = 12345;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const key = (): string => Array.from({ length: 1 + rand(3) }, () => alphabet[rand(alphabet.length)]).join('');
  const gen = (depth: number): unknown => {
    const kind = rand(depth > 3 ? 4 : 7);
    if (kind === 0) {
      return key();
    }
    if (kind === 1) {
      return rand(1000) / (1 + rand(3));
    }
    if (kind === 2) {
      return rand(2) === 0;
    }
    if (kind === 3) {
      return rand(5) === 0 ? null : '';
    }
    if (kind === 4) {
      return Array.from({ length: rand(13) }, () => gen(depth + 1));
    }
    const obj: Record<string, unknown> = {};
    for (let i = rand(6); i > 0; i--) {
      obj[key()] = gen(depth + 1);
    }
    return obj;
  };
  for (let i = 0; i < 1000; i++) {
    const obj: Record<string, unknown> = {};
    for (let j = 1 + rand(8); j > 0; j--) {
      obj[key()] = gen(0);
    }
    assert.equal(canonicalString(obj), referenceCanonical(obj), JSON.stringify(obj));
  }
}

describe('canonicalString: simple form', () => {
  const settings = {
    target_element: 'widget',
    partner_token: 'tok-123',
    timestamp: 1700000000000,
    from_currency: 'EUR',
    from_amount: 5000,
    lang: 'en',
    onLoaded: () => undefined,
    signature: 'old',
  };

  it('signs flat settings like the general form, skipping handlers and the signature', () => {
    const text = 'from_amount:5000;from_currency:EUR;lang:en;partner_token:tok-123;target_element:widget;timestamp:1700000000000';
    assert.equal(canonicalString(settings, { form: 'simple' }), text);
    assert.equal(canonicalString(settings, { form: 'general' }), text);
  });

  it('writes string values verbatim, quotes included', () => {
    assert.equal(canonicalString({ a: '"quoted"', b: "'x'" }, { form: 'simple' }), 'a:"quoted";b:\'x\'');
  });

  it('refuses nested values', () => {
    assert.throws(() => canonicalString({ a: { b: 1 } }, { form: 'simple' }), /member "a": the simple form signs flat settings only/);
    assert.throws(() => canonicalString({ a: [] }, { form: 'simple' }), SigningInputError);
  });
});

describe('hmacSha512Hex and timingSafeEqualHex', () => {
  it('matches RFC 4231 test case 2', () => {
    assert.equal(
      hmacSha512Hex('what do ya want for nothing?', 'Jefe'),
      '164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737',
    );
  });

  it('hashes UTF-8 bytes of text and secret', () => {
    const text = 'name:\u20AC\u{1F600}cafe\u0301';
    assert.equal(hmacSha512Hex(text, 'sécret'), referenceHmac(text, 'sécret'));
  });

  it('compares hex ignoring case and rejects different lengths', () => {
    assert.equal(timingSafeEqualHex('abcdef', 'ABCDEF'), true);
    assert.equal(timingSafeEqualHex('abcdef', 'abcdee'), false);
    assert.equal(timingSafeEqualHex('abcdef', 'abcde'), false);
  });
});

describe('sign', () => {
  it('is the HMAC-SHA512 hex of the canonical string', () => {
    const body = { partner_token: 'tok', timestamp: 1700000000000, operation_id: 'op-1' };
    assert.equal(sign(body, SECRET), referenceHmac('operation_id:op-1;partner_token:tok;timestamp:1700000000000', SECRET));
    assert.match(sign(body, SECRET), /^[0-9a-f]{128}$/);
  });

  it('ignores an existing signature member', () => {
    assert.equal(sign({ a: 1, signature: 'x' }, SECRET), sign({ a: 1 }, SECRET));
  });

  it('refuses an empty secret', () => {
    assert.throws(() => sign({ a: 1 }, ''), /non-empty string/);
  });
});

describe('verify', () => {
  const body = { operation_data: { status: 'success', status_code: 0, operation_info: { currency_rate: 0.0000153 } } };
  const signature = sign(body, SECRET);

  it('accepts a correctly signed parsed object and returns the canonical string', () => {
    const result = verify({ ...body, signature }, SECRET);
    assert.deepEqual(result, {
      ok: true,
      canonical: 'operation_data:operation_info:currency_rate:0.0000153;operation_data:status:success;operation_data:status_code:0',
      reading: { numbers: 'raw', nulls: 'empty' },
    });
  });

  it('accepts the raw JSON text, as a string or as bytes, and upper-case hex', () => {
    const text = JSON.stringify({ ...body, signature });
    assert.equal(verify(text, SECRET).ok, true);
    assert.equal(verify(Buffer.from(text), SECRET).ok, true);
    assert.equal(verify(JSON.stringify({ ...body, signature: signature.toUpperCase() }), SECRET).ok, true);
  });

  it('reports a tampered body as a mismatch with the canonical string used', () => {
    const result = verify({ ...body, operation_data: { ...body.operation_data, status_code: 1 }, signature }, SECRET);
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.reason, 'mismatch');
    assert.match(!result.ok ? (result.canonical ?? '') : '', /status_code:1/);
  });

  it('says to pass the raw body when a parsed object lost what was signed', () => {
    const text = `{"amount":1.50,"signature":"${hmacSha512Hex('amount:1.50', SECRET)}"}`;
    assert.equal(verify(text, SECRET).ok, true);
    assert.equal(verify(parseJsonLossless(text) as object, SECRET).ok, true, 'a lossless parse keeps the text');
    const parsed = verify(JSON.parse(text) as object, SECRET);
    assert.equal(!parsed.ok && parsed.reason, 'mismatch');
    assert.match(!parsed.ok ? parsed.message : '', /does not match the body.*already parsed object.*pass the raw body as received/);
    // A genuine mismatch of the raw body, or of a lossless parse, says nothing of parsing.
    const forged = `{"amount":1.51,"signature":"${hmacSha512Hex('amount:1.50', SECRET)}"}`;
    for (const input of [forged, parseJsonLossless(forged) as object]) {
      const result = verify(input, SECRET);
      assert.equal(!result.ok && result.reason, 'mismatch');
      assert.doesNotMatch(!result.ok ? result.message : '', /parsed|raw body/);
    }
  });

  it('reports a wrong secret as a mismatch', () => {
    const result = verify({ ...body, signature }, 'another-secret');
    assert.equal(!result.ok && result.reason, 'mismatch');
  });

  it('verifies numbers by their received text first, then by their JS value', () => {
    const asText = hmacSha512Hex('amount:1.50;rate:1e2', SECRET);
    const asValue = hmacSha512Hex('amount:1.5;rate:100', SECRET);
    const json = (sig: string): string => `{"amount":1.50,"rate":1e2,"signature":"${sig}"}`;
    assert.deepEqual(verify(json(asText), SECRET), { ok: true, canonical: 'amount:1.50;rate:1e2', reading: { numbers: 'raw', nulls: 'empty' } });
    assert.deepEqual(verify(json(asValue), SECRET), { ok: true, canonical: 'amount:1.5;rate:100', reading: { numbers: 'js', nulls: 'empty' } });
    const r = verify(json(hmacSha512Hex('amount:1.500;rate:1e2', SECRET)), SECRET);
    assert.equal(!r.ok && r.reason, 'mismatch');
  });

  it('finds the signature wherever it stands among the members', () => {
    const sig = hmacSha512Hex('a:1.10;b:2', SECRET);
    assert.equal(verify(`{"signature":"${sig}","b":2,"a":1.10}`, SECRET).ok, true);
    assert.equal(verify(`{"b":2,"signature":"${sig}","a":1.10}`, SECRET).ok, true);
  });

  it('keeps the digits of integers above 2^53-1 from the text', () => {
    const sig = hmacSha512Hex('id:12345678901234567890123', SECRET);
    assert.equal(verify(`{"id":12345678901234567890123,"signature":"${sig}"}`, SECRET).ok, true);
  });

  it('accepts null signed as empty or as omitted', () => {
    const asEmpty = hmacSha512Hex('a:;b:1', SECRET);
    const asOmitted = hmacSha512Hex('b:1', SECRET);
    assert.equal(verify(`{"a":null,"b":1,"signature":"${asEmpty}"}`, SECRET).ok, true);
    const omitted = verify(`{"a":null,"b":1,"signature":"${asOmitted}"}`, SECRET);
    assert.deepEqual(omitted, { ok: true, canonical: 'b:1', reading: { numbers: 'raw', nulls: 'omit' } });
  });

  it('says "missing" when there is no usable signature member', () => {
    for (const input of ['{"a":1}', '{"a":1,"signature":null}', '{"a":1,"signature":5}', '{"a":1,"signature":""}', { a: 1 }]) {
      const result = verify(input, SECRET);
      assert.equal(!result.ok && result.reason, 'missing', JSON.stringify(input));
      assert.match(!result.ok ? result.message : '', /signature/);
    }
  });

  it('says "malformed" for bad JSON, non-objects, bad hex and unsignable values, never throwing', () => {
    const cases: [unknown, RegExp][] = [
      ['', /not valid JSON/],
      ['{"a":1,}', /not valid JSON.*position 7/],
      ['[1,2]', /JSON object, not an array/],
      ['"text"', /JSON object, not string/],
      ['null', /JSON object, not null/],
      [`{"a":1,"signature":"${'g'.repeat(128)}"}`, /128 hexadecimal/],
      [`{"a":1,"signature":"${'a'.repeat(127)}"}`, /got 127 characters/],
      [`{"a":"\\ud800","signature":"${'a'.repeat(128)}"}`, /member "a".*surrogate/],
      [Buffer.from([0x7b, 0xff, 0x7d]), /not valid UTF-8/],
      [42, /JSON object, not number/],
      [undefined, /JSON object, not undefined/],
    ];
    for (const [input, message] of cases) {
      const result = verify(input as string, SECRET);
      assert.equal(result.ok, false);
      assert.equal(!result.ok && result.reason, 'malformed', String(input));
      assert.match(!result.ok ? result.message : '', message);
    }
  });

  it('never throws, even for hostile objects or a bad secret', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('boom');
        },
      },
    );
    assert.equal(verify(hostile, SECRET).ok, false);
    assert.equal(verify({ a: 1, signature: 'a'.repeat(128) }, '').ok, false);
    assert.equal(verify({ a: 1, signature: 'a'.repeat(128) }, undefined as unknown as string).ok, false);
  });

  it('checks flatness with the simple form', () => {
    const settings = { a: { b: 1 }, signature: 'a'.repeat(128) };
    const general = verify(settings, SECRET);
    assert.equal(!general.ok && general.reason, 'mismatch');
    const simple = verify(settings, SECRET, { form: 'simple' });
    assert.equal(!simple.ok && simple.reason, 'malformed');
  });
});

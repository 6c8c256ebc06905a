import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { JsonParseError, LosslessNumber, losslessToPlain, parseJsonLossless, stringifyJsonLossless, type LosslessJsonValue } from '../src/signing/index.js';

/** Replaces every LosslessNumber by its JS value so results compare with JSON.parse. */
function toPlain(value: LosslessJsonValue): unknown {
  if (value instanceof LosslessNumber) {
    return value.value;
  }
  if (Array.isArray(value)) {
    return value.map(toPlain);
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, k, { value: toPlain(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

describe('parseJsonLossless', () => {
  it('keeps each number exactly as written', () => {
    const parsed = parseJsonLossless('{"a":1.50,"b":1e2,"c":-0,"d":9007199254740993,"e":[0.30000000000000004,1E-7]}') as Record<string, LosslessJsonValue>;
    const texts = (v: LosslessJsonValue): unknown => (v instanceof LosslessNumber ? v.text : Array.isArray(v) ? v.map(texts) : v);
    assert.deepEqual(Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, texts(v)])), {
      a: '1.50',
      b: '1e2',
      c: '-0',
      d: '9007199254740993',
      e: ['0.30000000000000004', '1E-7'],
    });
    assert.equal((parsed.a as LosslessNumber).value, 1.5);
  });

  it('agrees with JSON.parse on valid documents', () => {
    const documents = [
      '{}',
      '[]',
      ' { "a" : [ 1 , 2 , { "b" : null } ] , "c" : true , "d" : false } ',
      '"\\u20ac \\ud83d\\ude00 \\n \\" \\\\ \\/ \\b\\f\\r\\t"',
      '"plain € 😀 דּ"',
      '-12.5e+3',
      '{"a":1,"a":2}',
      '{"":""}',
      '[[[[[]]]]]',
    ];
    for (const text of documents) {
      assert.deepEqual(toPlain(parseJsonLossless(text)), JSON.parse(text), text);
    }
  });

  it('rejects what JSON.parse rejects, with a position', () => {
    const invalid = [
      '',
      ' ',
      '{',
      '}',
      '[1,]',
      '{"a":1,}',
      '{a:1}',
      "{'a':1}",
      '01',
      '1.',
      '.5',
      '+1',
      '1e',
      '-',
      'NaN',
      'Infinity',
      'tru',
      'nul',
      '"abc',
      '"\\x"',
      '"\\u12"',
      '"a\nb"',
      '[1 2]',
      '{"a" 1}',
      '{"a":1 "b":2}',
      '1 2',
      '\uFEFF{}',
      '// c\n{}',
    ];
    for (const text of invalid) {
      assert.throws(() => JSON.parse(text), SyntaxError, `JSON.parse accepts ${JSON.stringify(text)}`);
      assert.throws(() => parseJsonLossless(text), JsonParseError, JSON.stringify(text));
    }
    assert.throws(() => parseJsonLossless('{"a":[1,2,}'), /position 10/);
  });

  it('adds a "__proto__" member instead of replacing the prototype', () => {
    const parsed = parseJsonLossless('{"__proto__":{"polluted":1}}') as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
    assert.deepEqual(Object.keys(parsed), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('refuses absurd nesting instead of overflowing the stack', () => {
    assert.throws(() => parseJsonLossless('['.repeat(100000) + ']'.repeat(100000)), /Nesting deeper than/);
  });

  it('LosslessNumber refuses text that is not a JSON number', () => {
    assert.throws(() => new LosslessNumber('1.'), TypeError);
    assert.equal(String(new LosslessNumber('1.50')), '1.50');
    assert.equal(JSON.stringify({ n: new LosslessNumber('1.50') }), '{"n":1.5}');
  });
});

describe('losslessToPlain', () => {
  it('gives what JSON.parse gives, __proto__ members included', () => {
    const text = '{"a":1.50,"b":[1e2,-0,9007199254740993,{"c":null,"d":true,"e":"x"}],"__proto__":{"f":2}}';
    const plain = losslessToPlain(parseJsonLossless(text));
    assert.deepEqual(plain, JSON.parse(text));
    assert.equal(Object.getPrototypeOf(plain), Object.prototype);
    assert.deepEqual(Object.keys(plain as object), ['a', 'b', '__proto__']);
  });
});

describe('stringifyJsonLossless', () => {
  it('writes what JSON.stringify writes for plain values', () => {
    const samples: unknown[] = [
      { a: 1.5, b: 'x"\\\u2028\ud800', c: [1, null, true, false, undefined, () => 1], d: undefined, e: { f: -0, g: 1e21, h: 1e-7 } },
      [],
      {},
      'text',
      0,
      null,
      { date: new Date(Date.UTC(2024, 4, 1)), nested: { toJSON: (key: string) => `key ${key}` } },
      [new Number(3), new String('s'), new Boolean(false)],
    ];
    for (const sample of samples) {
      assert.equal(stringifyJsonLossless(sample), JSON.stringify(sample));
    }
  });

  it('writes bigints and LosslessNumbers with their exact digits', () => {
    const value = { wei: 1234567890123456789n, kept: new LosslessNumber('1.50'), list: [new LosslessNumber('1e2'), -5n] };
    const text = stringifyJsonLossless(value);
    assert.equal(text, '{"wei":1234567890123456789,"kept":1.50,"list":[1e2,-5]}');
    const back = parseJsonLossless(text) as Record<string, LosslessJsonValue>;
    assert.equal((back.wei as LosslessNumber).text, '1234567890123456789');
  });

  it('refuses NaN, Infinity, cycles and top-level values JSON has no text for', () => {
    assert.throws(() => stringifyJsonLossless({ amount: Number.NaN }), /NaN cannot be written as JSON \(member "amount"\)/);
    assert.throws(() => stringifyJsonLossless([Infinity]), TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.throws(() => stringifyJsonLossless(cyclic), /cyclic/);
    assert.throws(() => stringifyJsonLossless(undefined), TypeError);
    // The same object twice (not a cycle) is fine.
    const shared = { a: 1 };
    assert.equal(stringifyJsonLossless([shared, shared]), '[{"a":1},{"a":1}]');
  });
});

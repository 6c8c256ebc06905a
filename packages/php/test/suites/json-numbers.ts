/**
 * The lossless JSON parser and JavaScript number text in PHP.
 *
 * - Js_Number::format() against Node's own String(x) for thousands of doubles
 *   (random bit patterns, powers of two, subnormals, decimal fractions),
 *   on the oldest and newest supported PHP.
 * - The parser accepts exactly what core's parseJsonLossless (JSON.parse's
 *   grammar, 256 levels deep at most) accepts (apart from lone
 *   surrogate escapes, which have no UTF-8 form and are refused), keeps every
 *   number's text, and names where a bad text goes wrong.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJsonLossless } from '@card2crypto/core';
import { PhpSandbox } from '../support/php.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function bitsOf(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return Buffer.from(view.buffer).toString('hex');
}

function doubles(): number[] {
  const random = rng(7);
  const out: number[] = [
    0,
    -0,
    1,
    -1,
    0.1,
    0.2,
    0.1 + 0.2,
    1e20,
    1e21,
    1e-6,
    1e-7,
    123.456,
    5e-324,
    2.2250738585072014e-308,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    Number.MAX_SAFE_INTEGER,
    2 ** 53,
    2 ** 53 + 2,
    1 / 3,
    100,
    1.5,
    9.999999999999999e22,
    1e23,
    4.35,
    0.000001,
    123e-20,
  ];
  for (let e = -1074; e <= 1023; e += 1) {
    out.push(2 ** e, -(2 ** e) * 3);
  }
  const view = new DataView(new ArrayBuffer(8));
  for (let i = 0; i < 3000; i++) {
    view.setUint32(0, Math.floor(random() * 2 ** 32));
    view.setUint32(4, Math.floor(random() * 2 ** 32));
    out.push(view.getFloat64(0));
  }
  for (let i = 0; i < 2000; i++) {
    out.push(Math.round(random() * 1e6) / 10 ** Math.floor(random() * 9));
  }
  return out.filter((x) => Number.isFinite(x));
}

/** {} and [] are the same to the PHP side (both an empty array; decisions.md, "Signing: empty objects"). */
function emptyObjectsAsArrays(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(emptyObjectsAsArrays);
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length === 0 ? [] : Object.fromEntries(entries.map(([k, v]) => [k, emptyObjectsAsArrays(v)]));
  }
  return value;
}

/** Texts JSON.parse accepts or refuses, to compare the PHP parser with. */
const JSON_TEXTS = [
  '{}',
  '[]',
  '0',
  '-0',
  '1.50',
  '1e2',
  '1E+2',
  '-1.0e-7',
  '9007199254740993',
  '123456789012345678901234567890',
  '"x"',
  'true',
  'false',
  'null',
  ' {"a" : [1, 2.0, {"b": null}], "c": "\\u00e9\\ud83d\\ude00\\n\\"\\/"} ',
  '{"10": 1, "9": 2, "a": {}}',
  '{"a":1,"a":2}',
  '"\u00e9\u{1F600}"',
  '',
  ' ',
  '{',
  '}',
  '[1,]',
  '{"a":1,}',
  '01',
  '1.',
  '.5',
  '-',
  '+1',
  '1e',
  '1e+',
  'NaN',
  'Infinity',
  'tru',
  'nul',
  "{'a':1}",
  '{"a" 1}',
  '{a:1}',
  '"\\x41"',
  '"\\u12"',
  '"a\tb"',
  '"a\nb"',
  '[1 2]',
  '{"a":1}{}',
  '\ufeff{}',
  '/* c */ {}',
  '[1]]',
  '"\\',
  '"',
  '['.repeat(256) + ']'.repeat(256),
  '['.repeat(257) + ']'.repeat(257),
];

export function jsonNumbersSuite(version: string): void {
  describe(`PHP ${version}: numbers and lossless JSON`, () => {
    let php: PhpSandbox;
    before(async () => {
      php = await PhpSandbox.start(version);
    });

    test('PHP floats are written exactly as JavaScript writes them', async () => {
      const xs = doubles();
      const results = await php.call(xs.map((x) => ['js_format_bits', bitsOf(x)]));
      const failures: string[] = [];
      xs.forEach((x, i) => {
        const r = results[i]!;
        if (r.value !== String(x)) {
          failures.push(`${bitsOf(x)}: JS ${String(x)}, PHP ${r.value ?? r.error}`);
        }
      });
      assert.deepEqual(failures.slice(0, 20), [], `${failures.length} of ${xs.length} differ:\n${failures.slice(0, 20).join('\n')}`);
    });

    test('number text is re-formatted as String(Number(text)), and out-of-range values have no JS reading', async () => {
      const texts = [
        '1.50',
        '1e2',
        '-0',
        '9007199254740993',
        '0.30000000000000004',
        '1e400',
        '-1e400',
        '1e-400',
        '123456789012345678901234567890',
        '1E21',
        '0.0000001',
      ];
      const results = await php.call(texts.map((t) => ['js_reformat', t]));
      texts.forEach((t, i) => {
        const n = Number(t);
        assert.equal(results[i]!.value, Number.isFinite(n) ? String(n) : null, t);
      });
    });

    test('the parser accepts what JSON.parse accepts and keeps number text', async () => {
      const results = await php.call(JSON_TEXTS.map((t) => ['json_roundtrip', t]));
      JSON_TEXTS.forEach((text, i) => {
        // Core's lossless parser is the reference: JSON.parse's grammar with the same 256-level nesting limit.
        let accepted = true;
        try {
          parseJsonLossless(text);
        } catch {
          accepted = false;
        }
        const r = results[i]!;
        assert.equal(
          r.error === undefined,
          accepted,
          `${JSON.stringify(text.slice(0, 60))}: core ${accepted ? 'accepts' : 'refuses'}, PHP said ${r.error ?? 'ok'}`,
        );
        if (accepted) {
          // Same data, and every number text kept: re-encoding gives back the same numbers.
          assert.deepEqual(emptyObjectsAsArrays(JSON.parse(r.value as string)), emptyObjectsAsArrays(JSON.parse(text)), text);
          const numbers = (s: string) => s.match(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g) ?? [];
          // (Escapes and duplicate names change the text; the rest must keep every number's exact text.)
          if (!text.includes('\\u') && !text.includes('"a":1,"a"')) {
            assert.deepEqual(numbers(r.value as string), numbers(text), text);
          }
        }
      });
    });

    test('lone surrogate escapes, invalid UTF-8 and bad JSON are refused with a position', async () => {
      const results = await php.call([
        ['json_decode', '"\\ud800"'],
        ['json_decode', '"\\udc00x"'],
        ['json_decode', '{"a": 1,}'],
        ['json_decode', '{"a": 01}'],
      ]);
      assert.match(results[0]!.error!, /lone UTF-16 surrogate/);
      assert.match(results[1]!.error!, /lone UTF-16 surrogate/);
      assert.match(results[2]!.error!, /Invalid JSON: expected a member name \(a string\) at byte 8/);
      assert.match(results[3]!.error!, /Invalid JSON: expected "," or "}" in an object at byte 7/);
      const bad = new Uint8Array([0x22, 0xff, 0x22]);
      const r = await php.run('bad-utf8.php', { 'bad.json': bad });
      assert.match(r.stdout, /not valid UTF-8/);
    });

    test('numbers keep their text, keys like "10" stay names, and whole numbers read back as ints', async () => {
      const [decoded, ...ints] = await php.call([
        ['json_decode', '{"10": 1.50, "9": [1e2, -0, 9007199254740993]}'],
        ['json_number_int', '100'],
        ['json_number_int', '1e2'],
        ['json_number_int', '100.0'],
        ['json_number_int', '1.5'],
        ['json_number_int', '-0'],
        ['json_number_int', '99999999999999999999'],
      ]);
      assert.deepEqual(decoded!.value, { 10: { number: '1.50' }, 9: [{ number: '1e2' }, { number: '-0' }, { number: '9007199254740993' }] });
      assert.deepEqual(
        ints.map((r) => r.value),
        [100, 100, 100, null, 0, null],
      );
    });

    test('whole numbers are read exactly from their text, at any size', async () => {
      const cases: [string, string | null][] = [
        ['0', '0'],
        ['-0', '0'],
        ['0.00', '0'],
        ['0e5', '0'],
        ['100', '100'],
        ['100.0', '100'],
        ['1e2', '100'],
        ['1.5e18', '1500000000000000000'],
        ['9007199254740993', '9007199254740993'],
        ['123456789012345678901234567890', '123456789012345678901234567890'],
        ['1000e-3', '1'],
        ['1500e-3', null],
        ['1.5', null],
        ['-1', null],
        ['1e-3', null],
        ['1e61', null],
        ['1e999999999', null],
        ['15e-1', null],
      ];
      const results = await php.call(cases.map(([text]) => ['json_whole_digits', text]));
      cases.forEach(([text, expected], i) => assert.equal(results[i]!.value, expected, text));
    });

    test('canonical string: UTF-16 order, numeric-looking keys as text, booleans 1/0, empties dropped, null as empty', async () => {
      const [r] = await php.call([['canonical', '{"\uFB33":1,"\u{1F600}":2,"z":true,"10":false,"9":null,"e":[],"o":{},"l":[null,{"k":"v"}],"n":1.50}']]);
      assert.equal(r!.value, '10:0;9:;l:0:;l:1:k:v;n:1.50;z:1;\u{1F600}:2;\uFB33:1');
    });
  });
}

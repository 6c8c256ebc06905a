/**
 * The fast path of canonicalString(): payloads of a familiar layout are read
 * by a compiled extractor and written from recorded segments. Every test
 * here first makes the layout familiar (signs it until it is compiled) and
 * checks that it was, then holds the result to the naive reference.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { canonicalString, hmacSha512Hex, LosslessNumber, sign, SigningInputError, type CanonicalOptions } from '../src/signing/index.js';
import { COMPILE_ON_SIGHTING, layoutCompilations } from '../src/signing/layouts.js';

import { random } from './random.js';
import { referenceCanonical } from './signing-reference.js';

/** Signs `value` until its layout is compiled; returns the text of the last call, made by the fast path. */
function familiar(value: object, options?: CanonicalOptions): string {
  let text = '';
  for (let i = 0; i < COMPILE_ON_SIGHTING; i++) text = canonicalString(value, options);
  return text;
}

/** Asserts the fast path's text for `value` (made familiar first) is the reference's, twice (the second from segments). */
function check(value: Record<string, unknown>): void {
  const expected = referenceCanonical(value);
  assert.equal(familiar(value), expected, JSON.stringify(value));
  assert.equal(canonicalString(value), expected, JSON.stringify(value));
}

const SECRET = 'c2c_test_secret';

describe('canonicalString: familiar layouts', () => {
  it('compiles a layout on its sighting number COMPILE_ON_SIGHTING, and only once', () => {
    const body = { compiled_once: { a: 'x', b: [1, 2] }, c: 'c' };
    const before = layoutCompilations();
    for (let i = 1; i < COMPILE_ON_SIGHTING; i++) canonicalString({ ...body, c: `c${i}` });
    assert.equal(layoutCompilations(), before, 'compiled before its time');
    assert.equal(canonicalString(body), referenceCanonical(body));
    assert.equal(layoutCompilations(), before + 1);
    for (let i = 0; i < 100; i++) assert.equal(canonicalString({ ...body, c: `v${i}` }), referenceCanonical({ ...body, c: `v${i}` }));
    assert.equal(layoutCompilations(), before + 1, 'compiled again for the same layout');
  });

  it('does not compile a stream of layouts seen once each (keys varied by a sender)', () => {
    const before = layoutCompilations();
    for (let i = 0; i < 500; i++) {
      const body = { operation_data: { status: 'success', [`k${i}`]: { id: i } } };
      assert.equal(canonicalString(body), referenceCanonical(body));
    }
    assert.equal(layoutCompilations(), before);
  });

  it('never compiles a payload of over 1,024 leaves, and still signs it exactly', () => {
    const before = layoutCompilations();
    for (let i = 0; i < COMPILE_ON_SIGHTING + 5; i++) {
      const body = { items: Array.from({ length: 1100 }, (_, j) => ({ id: j, note: `n${i}` })) };
      assert.equal(canonicalString(body), referenceCanonical(body));
    }
    assert.equal(layoutCompilations(), before);
  });

  it('follows every change between calls to objects of a familiar layout', () => {
    // Each call must see the object as it is now, whatever layout was compiled from it before.
    const body: Record<string, unknown> = { b: { y: 1, x: 'two' }, a: [1, 2], c: 'c' };
    const before = layoutCompilations();
    check(body);
    assert.equal(layoutCompilations(), before + 1);
    (body['b'] as Record<string, unknown>)['x'] = 'changed';
    check(body);
    (body['b'] as Record<string, unknown>)['y'] = { deeper: true }; // leaf becomes a container
    check(body);
    (body['b'] as Record<string, unknown>)['y'] = 'leaf again';
    check(body);
    body['a'] = { 0: 1, 1: 2 }; // array becomes an object with the same keys
    check(body);
    body['a'] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]; // longer array
    check(body);
    delete body['c'];
    check(body);
    body['c'] = 'back, now last';
    body['aa'] = 'new key';
    check(body);
    body['b'] = {};
    check(body);
    body['b:x'] = 'colon'; // a key with ":" always takes the slow path
    check(body);
    delete body['b:x'];
    check(body);
    const reordered = { c: body['c'], aa: body['aa'], a: body['a'], b: body['b'] };
    assert.equal(familiar(reordered), canonicalString(body));
  });

  it('checks what a container is before reading it with the layout compiled for its place', () => {
    const body: Record<string, unknown> = { a: { x: 1, y: 'two' }, b: [1, 2], c: 'c' };
    check(body);
    class Point {
      x = 1;
      y = 'two';
    }
    assert.throws(() => canonicalString({ ...body, a: new Point() }), /member "a": a Point cannot be signed/);
    // Its values are read before its kind is known: what a getter throws must not decide the answer.
    class Trap {
      get x(): number {
        throw new Error('read before its kind was checked');
      }
      y = 'two';
    }
    assert.throws(() => canonicalString({ ...body, a: new Trap() }), /member "a": a Trap cannot be signed/);
    assert.throws(() => sign({ ...body, a: new Trap() }, 'secret'), /member "a": a Trap cannot be signed/);
    // A plain object's own getter that throws: the caller sees its error, as on the slow path.
    const throwing = { ...body, a: { x: 1, get y(): string { throw new Error('own getter'); } } };
    assert.throws(() => canonicalString(throwing), /own getter/);
    assert.throws(() => canonicalString({ ...body, a: Object.assign(new Date(0), { x: 1, y: 'two' }) }), /member "a": a Date cannot be signed/);
    assert.equal(canonicalString({ ...body, a: new LosslessNumber('1.50') }), 'a:1.50;b:0:1;b:1:2;c:c');
    for (const value of [
      { ...body, a: null },
      { ...body, a: 'now a leaf' },
      { ...body, b: [] },
      { ...body, b: { 0: 1, 1: 2 } },
      { ...body, b: [1, 2, 3] },
      { ...body, a: { x: 1, y: { deeper: true } } },
      { ...body, b: [1, [2, 3]] },
    ]) {
      assert.equal(canonicalString(value), referenceCanonical(value), JSON.stringify(value));
    }
    assert.equal(canonicalString({ ...body, a: Object.assign(Object.create(null) as object, { x: 1, y: 'two' }) }), canonicalString(body));
    // An object inheriting an enumerable key is not the plain object the layout was compiled from.
    const inherited = Object.assign(Object.create({ z: 'inherited' }) as object, { x: 1, y: 'two' });
    assert.throws(() => canonicalString({ ...body, a: inherited }), /member "a": .* cannot be signed/);
    assert.throws(() => canonicalString(body, { form: 'simple' }), /simple form/);
    check(body);
  });

  it('writes whatever values change between payloads of one layout, skipped ones included', () => {
    const rand = random(2024);
    const leaf = (): unknown => {
      switch (rand(13)) {
        case 0:
          return undefined; // skipped as a member, null in an array
        case 1:
          return null;
        case 2:
          return rand(2) === 0;
        case 3:
          return rand(100000) / (1 + rand(7));
        case 4:
          return 'x'.repeat(250 + rand(20)); // around the longest text ever recorded
        case 5:
          return '\u20AC\u{1F600}cafe\u0301';
        case 6:
          return () => 1;
        case 7: {
          // Lengths either side of where the byte writer changes method, often equal to the last one's.
          const length = 18 + rand(12);
          return String.fromCharCode(...Array.from({ length }, () => 0x61 + rand(26)));
        }
        case 8: {
          // As long (in UTF-16 units) as an ASCII text, but more bytes: é (2), € (3), an emoji (4).
          const length = 18 + rand(12);
          const wide = ['\u00E9', '\u20AC', '\u{1F600}'][rand(3)] as string;
          const at = rand(length - 1);
          return 'b'.repeat(at) + wide + 'b'.repeat(length - at - wide.length);
        }
        default:
          return ['EUR', 'BTC', '', '0', 'same'][rand(5)];
      }
    };
    // One layout: objects and arrays of leaves, two levels deep.
    const shape = (depth: number): unknown =>
      depth === 2 ? 'leaf' : rand(3) === 0 ? Array.from({ length: 1 + rand(12) }, () => shape(depth + 1)) : Object.fromEntries(Array.from({ length: 1 + rand(5) }, (_, i) => [`k${i}${rand(3)}`, shape(depth + 1)]));
    const fill = (node: unknown, vary: boolean): unknown => {
      if (Array.isArray(node)) return node.map((child) => fill(child, vary));
      if (typeof node === 'object' && node !== null) return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, fill(v, vary)]));
      return vary ? leaf() : 'same';
    };
    for (let layout = 0; layout < 12; layout++) {
      const template = { root: shape(0), n: 'same' };
      const before = layoutCompilations();
      familiar(fill(template, false) as object);
      assert.equal(layoutCompilations(), before + 1, 'the layout was compiled');
      for (let i = 0; i < 150; i++) {
        // Mostly unchanged values (as a store's callbacks), some varied, some runs identical to the last.
        const value = fill(template, rand(4) !== 0) as Record<string, unknown>;
        const expected = referenceCanonical(value);
        assert.equal(canonicalString(value), expected, JSON.stringify(value));
        // sign() writes the same string as UTF-8 bytes in place (layout-bytes.ts).
        assert.equal(sign(value, SECRET), hmacSha512Hex(expected, SECRET), JSON.stringify(value));
      }
    }
  });

  it('signs a familiar layout from bytes written in place, whatever its values become', () => {
    const rand = random(99);
    // Lengths in a narrow range, so that a value is often exactly as long as the last one:
    // ASCII, or as many UTF-16 units but more bytes (é, €, an emoji), short and long.
    const text = (): string => {
      const length = (rand(2) === 0 ? 20 : 60) + rand(8);
      const wide = ['', '\u00E9', '\u20AC', '\u{1F600}', '\u00E9\u00E9', '\u20AC\u{1F600}'][rand(6)] as string;
      const at = rand(length - 4);
      return 'c'.repeat(at) + wide + 'd'.repeat(length - at - wide.length);
    };
    const body = (): Record<string, unknown> => ({
      operation: { id: text(), note: text(), amount: rand(3) === 0 ? 1000 + rand(9000) : 12345 },
      list: [text(), 'constant', rand(2) === 0],
      status: 'success',
    });
    familiar(body());
    for (let i = 0; i < 600; i++) {
      const value = body();
      assert.equal(sign(value, SECRET), hmacSha512Hex(referenceCanonical(value), SECRET), JSON.stringify(value));
    }
    // Where no bytes can be written, the string is signed, or its error named, from the same reading.
    const skipped = { ...body(), status: undefined };
    assert.equal(sign(skipped, SECRET), hmacSha512Hex(referenceCanonical(skipped), SECRET));
    const lone = body();
    (lone['operation'] as Record<string, unknown>)['note'] = 'x'.repeat(30) + '\uD800' + 'y'.repeat(30);
    assert.throws(() => sign(lone, SECRET), (e: unknown) => e instanceof SigningInputError && e.path === 'operation:note');
    const after = body();
    assert.equal(sign(after, SECRET), hmacSha512Hex(referenceCanonical(after), SECRET));
  });

  it('keeps the readings apart on one layout (nulls empty or omitted, numbers raw or re-formatted)', () => {
    const body = { a: null, b: new LosslessNumber('1.50'), c: { d: null, e: 'e' } };
    familiar(body);
    familiar(body, { nulls: 'omit', numbers: 'js' });
    for (let i = 0; i < 3; i++) {
      assert.equal(canonicalString(body), 'a:;b:1.50;c:d:;c:e:e');
      assert.equal(canonicalString(body, { nulls: 'omit' }), 'b:1.50;c:e:e');
      assert.equal(canonicalString(body, { numbers: 'js' }), 'a:;b:1.5;c:d:;c:e:e');
      assert.equal(canonicalString(body, { nulls: 'omit', numbers: 'js' }), 'b:1.5;c:e:e');
    }
  });

  it('signs flat settings in the simple form, skipping handlers', () => {
    const settings = { partner_token: 'tok', from_amount: 5000, onLoaded: () => undefined, lang: 'en' };
    assert.equal(familiar(settings, { form: 'simple' }), 'from_amount:5000;lang:en;partner_token:tok');
    assert.equal(canonicalString({ ...settings, from_amount: 7 }, { form: 'simple' }), 'from_amount:7;lang:en;partner_token:tok');
  });

  it('puts keys into generated code only as string literals', () => {
    const body = {
      'a"b': 1,
      "c'd": 2,
      'e\\f': 3,
      'g\nh': 4,
      'line\u2028sep\u2029': 5,
      '${process.exit(1)}': 6,
      '*/ throw 1; /*': 7,
      '</script>': 8,
      '\u0000': 9,
      '\u{1F600}': { '`': 10 },
      constructor: 11,
      __proto__x: 12,
    };
    check(body);
    // An own "__proto__" member (JSON.parse makes one) is read as the member, not the prototype.
    const parsed = JSON.parse('{"__proto__": {"a": 1, "__proto__": "x"}, "b": 2}') as Record<string, unknown>;
    check(parsed);
    assert.equal(canonicalString(parsed), '__proto__:__proto__:x;__proto__:a:1;b:2');
  });

  it('is reentrant: a getter that signs while a familiar layout is read gets the right answer', () => {
    let inner = '';
    const body = {
      get a(): string {
        inner = canonicalString({ z: 1, y: { x: 2 } });
        return 'A';
      },
      b: { c: 3 },
    };
    familiar({ z: 1, y: { x: 2 } });
    assert.equal(familiar(body), 'a:A;b:c:3');
    assert.equal(inner, 'y:x:2;z:1');
  });

  it('takes the slow path, with the same results, where code generation is disallowed', () => {
    const index = fileURLToPath(new URL('../src/signing/index.js', import.meta.url));
    const layouts = fileURLToPath(new URL('../src/signing/layouts.js', import.meta.url));
    const script = `
      const { canonicalString, sign } = await import(${JSON.stringify(index)});
      const { layoutCompilations } = await import(${JSON.stringify(layouts)});
      const out = [];
      const signatures = [];
      for (let i = 0; i < 100; i++) out.push(canonicalString({ b: { y: i, x: 'two' }, a: [1, i], c: 'c' }));
      for (let i = 0; i < 100; i++) signatures.push(sign({ b: { y: i, x: 'two' }, a: [1, i], c: 'c' }, ${JSON.stringify(SECRET)}));
      console.log(JSON.stringify({ out, signatures, compilations: layoutCompilations() }));`;
    const child = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    const result = JSON.parse(child.stdout) as { out: string[]; signatures: string[]; compilations: number };
    assert.equal(result.compilations, 0);
    const expected = Array.from({ length: 100 }, (_, i) => referenceCanonical({ b: { y: i, x: 'two' }, a: [1, i], c: 'c' }));
    assert.deepEqual(result.out, expected);
    assert.deepEqual(
      result.signatures,
      expected.map((canonical) => hmacSha512Hex(canonical, SECRET)),
    );
  });
});

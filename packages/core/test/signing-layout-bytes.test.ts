/**
 * LayoutBytes writes segments and values as UTF-8 in place, one call after
 * another. Whatever the texts of a call, the bytes must be those of the
 * string segment + text + segment + ..., whatever the texts of the calls
 * before it were.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { LayoutBytes } from '../src/signing/layout-bytes.js';
import type { LeafText } from '../src/signing/layout-compiler.js';
import { SKIP } from '../src/signing/values.js';

import { random } from './random.js';

function expected(segments: readonly string[], values: readonly string[]): string {
  let out = segments[0] as string;
  values.forEach((value, k) => (out += value + (segments[k + 1] as string)));
  return out;
}

/** Writes `values` (as the texts of leaves 0..n-1) and checks the bytes. */
function writeAndCheck(bytes: LayoutBytes, segments: readonly string[], values: readonly string[], note: string): void {
  const volatile = values.map((_, k) => k);
  const written = bytes.write(values, volatile);
  assert.ok(written !== undefined, `${note}: no bytes`);
  assert.equal(Buffer.from(written).toString('utf8'), expected(segments, values), note);
  assert.equal(Buffer.compare(Buffer.from(written), Buffer.from(expected(segments, values), 'utf8')), 0, note);
}

describe('LayoutBytes: values written in place', () => {
  it('matches the string for random values: same lengths, new lengths, wider characters, long texts', () => {
    const rand = random(7);
    const alphabet = ['a', 'Z', '0', ':', ';', '"', '\u00E9', '\u20AC', '\u{1F600}', '\uFB33', 'e\u0301'];
    const text = (length: number, ascii: boolean): string => {
      let out = '';
      while (out.length < length) out += ascii ? String.fromCharCode(0x20 + rand(95)) : (alphabet[rand(alphabet.length)] as string);
      return out.slice(0, length).replace(/[\uD800-\uDBFF]$/, 'x'); // never cut an emoji in half
    };
    for (let layout = 0; layout < 20; layout++) {
      const count = 1 + rand(12);
      const segments = Array.from({ length: count + 1 }, (_, k) => (k === 0 && rand(2) === 0 ? '' : `;${text(rand(6), rand(4) !== 0)}:`));
      const bytes = new LayoutBytes(segments);
      let values = Array.from({ length: count }, () => text(rand(40), true));
      for (let call = 0; call < 300; call++) {
        values = values.map((value) => {
          switch (rand(6)) {
            case 0:
              return value; // unchanged
            case 1:
              return text(value.length, true); // same length, ASCII: overwritten in place
            case 2:
              return text(value.length, false); // same length in UTF-16 units, more bytes
            case 3:
              return text(rand(40), rand(2) === 0); // a new length
            case 4:
              return text(rand(3) === 0 ? 300 + rand(3000) : rand(4), true); // past the buffer, or next to nothing
            default:
              return rand(2) === 0 ? '' : String(rand(1e6));
          }
        });
        writeAndCheck(bytes, segments, values, `layout ${layout}, call ${call}`);
      }
    }
  });

  it('writes only the leaves it is given, in the order given', () => {
    const segments = ['a:', ';c:', ';e:'];
    const bytes = new LayoutBytes(segments);
    const texts: LeafText[] = ['A', 'stable', 'C', 'x'];
    for (const c of ['C', 'CC', 'cc', '\u20AC', 'C']) {
      texts[2] = c;
      const written = bytes.write(texts, [0, 2]);
      assert.equal(Buffer.from(written ?? []).toString('utf8'), `a:A;c:${c};e:`);
    }
  });

  it('gives no bytes for a skipped value or a lone surrogate, and is right again on the next call', () => {
    const segments = ['a:', ';b:', ''];
    const bytes = new LayoutBytes(segments);
    writeAndCheck(bytes, segments, ['one', 'two'], 'first');
    assert.equal(bytes.write(['one', SKIP], [0, 1]), undefined);
    writeAndCheck(bytes, segments, ['uno', 'dos'], 'after a skip');
    assert.equal(bytes.write(['one', 'x\uD800'], [0, 1]), undefined);
    assert.equal(bytes.write(['abc', '\uDC00bc'], [0, 1]), undefined); // same length as the last text written
    writeAndCheck(bytes, segments, ['abc', 'xyz'], 'after a lone surrogate');
  });

  it('gives no bytes, ever, when a segment cannot be encoded (the string path names the member)', () => {
    const bytes = new LayoutBytes(['a\uD800:', '']);
    assert.equal(bytes.write(['x'], [0]), undefined);
    assert.equal(bytes.write(['y'], [0]), undefined);
  });
});

/**
 * JSON text for signed answers. Amounts of 18- and 24-decimal tokens exceed
 * 2^53, so they travel as LosslessNumber (core) and are written here with their
 * exact digits; core's sign() signs the same digits (numbers: 'raw'), so the
 * text on the wire is exactly what was signed.
 */
import { randomBytes } from 'node:crypto';
import { LosslessNumber } from '@card2crypto/core';

/** A JSON number for an integer amount held as decimal text: a plain number when safe, else exact digits. */
export function amountValue(digits: string): number | LosslessNumber {
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : new LosslessNumber(digits);
}

// A LosslessNumber goes through JSON.stringify as a marker string, then the marker (quotes included) becomes
// its digits. The random part makes the marker impossible to forge from a string value.
const NONCE = randomBytes(12).toString('hex');
const MARK = `\u0000${NONCE}#`;
const MARKED = new RegExp(`"\\\\u0000${NONCE}#(-?[0-9][0-9.eE+-]*)"`, 'g');

export function toJson(value: unknown): string {
  let marked = false;
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    // toJSON has already run on `v`; the holder still has the LosslessNumber itself.
    const original = this[key];
    if (original instanceof LosslessNumber) {
      marked = true;
      return MARK + original.text;
    }
    return v;
  });
  if (text === undefined) throw new TypeError(`cannot write ${typeof value} as JSON`);
  return marked ? text.replace(MARKED, '$1') : text;
}

/** Turns LosslessNumbers back into plain numbers (for the browser, where precision beyond 2^53 is not needed). */
export function plain<T>(value: T): T {
  return JSON.parse(toJson(value)) as T;
}

/**
 * JSON text for signed answers. Amounts of 18- and 24-decimal tokens exceed
 * 2^53, so they travel as LosslessNumber (core) and are written here with their
 * exact digits; core's sign() signs the same digits (numbers: 'raw'), so the
 * text on the wire is exactly what was signed.
 */
import { LosslessNumber } from '@card2crypto/core';

/** A JSON number for an integer amount held as decimal text: a plain number when safe, else exact digits. */
export function amountValue(digits: string): number | LosslessNumber {
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : new LosslessNumber(digits);
}

export function toJson(value: unknown): string {
  if (value instanceof LosslessNumber) return value.text;
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`cannot write ${typeof value} as JSON`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : toJson(v))).join(',')}]`;
  const parts: string[] = [];
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined || typeof v === 'function') continue;
    parts.push(`${JSON.stringify(key)}:${toJson(v)}`);
  }
  return `{${parts.join(',')}}`;
}

/** Turns LosslessNumbers back into plain numbers (for the browser, where precision beyond 2^53 is not needed). */
export function plain<T>(value: T): T {
  return JSON.parse(toJson(value)) as T;
}

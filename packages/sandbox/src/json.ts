/**
 * JSON text for signed answers. Amounts of 18- and 24-decimal tokens exceed
 * 2^53, so they travel as LosslessNumber (core) and are written with their
 * exact digits by core's stringifyJsonLossless (the same writer core's API
 * client uses); core's sign() signs the same digits (numbers: 'raw'), so the
 * text on the wire is exactly what was signed.
 */
import { LosslessNumber, stringifyJsonLossless } from '@card2crypto/core';

/** A JSON number for an integer amount held as decimal text: a plain number when safe, else exact digits. */
export function amountValue(digits: string): number | LosslessNumber {
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : new LosslessNumber(digits);
}

/** JSON text with LosslessNumbers (and bigints) written as their exact digits. */
export const toJson: (value: unknown) => string = stringifyJsonLossless;

/** Turns LosslessNumbers back into plain numbers (for the browser, where precision beyond 2^53 is not needed). */
export function plain<T>(value: T): T {
  return JSON.parse(toJson(value)) as T;
}

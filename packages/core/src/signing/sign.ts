import { canonicalString, type CanonicalOptions, type SigningForm } from './canonical.js';
import { hmacSha512Hex } from './hmac.js';

export interface SignOptions {
  /** `general` (API requests, responses, callbacks; default) or `simple` (flat widget settings). */
  form?: SigningForm;
  /** How LosslessNumber values are written (default `raw`: their text as received). */
  numbers?: CanonicalOptions['numbers'];
}

/**
 * The signature (128 lower-case hex characters) of `value` under `secret`:
 * HMAC-SHA512 over canonicalString(value). A `signature` member already in
 * `value` is ignored. Nulls are signed as empty values (docs/decisions.md).
 * Throws SigningInputError for values that cannot be signed and TypeError
 * for an empty secret.
 */
export function sign(value: object, secret: string, options: SignOptions = {}): string {
  assertSecret(secret);
  const canonical = canonicalString(value, { form: options.form ?? 'general', numbers: options.numbers ?? 'raw', nulls: 'empty' });
  return hmacSha512Hex(canonical, secret);
}

export function assertSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('the partner secret must be a non-empty string');
  }
}

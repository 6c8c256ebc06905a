import { canonicalString, SIGNATURE_MEMBER, type NullReading, type NumberReading, type SigningForm } from './canonical.js';
import { SigningInputError } from './errors.js';
import { hmacSha512Hex, timingSafeEqualHex } from './hmac.js';
import { JsonParseError, LosslessNumber, parseJsonLossless } from './lossless-json.js';

export type VerifyFailureReason = 'missing' | 'malformed' | 'mismatch';

/** Which reading of numbers and nulls produced the matching canonical string. */
export interface VerifyReading {
  numbers: NumberReading;
  nulls: NullReading;
}

export type VerifyResult =
  | { ok: true; canonical: string; reading: VerifyReading }
  | {
      ok: false;
      /** missing: no usable signature member; malformed: not a JSON object, bad hex, unsignable value; mismatch: wrong signature. */
      reason: VerifyFailureReason;
      /** One sentence naming the field at fault, fit for a log or a 400 response. */
      message: string;
      /** On mismatch: the canonical string checked first (numbers as received, nulls as empty). */
      canonical?: string;
    };

export interface VerifyOptions {
  /** `general` (default) accepts any object; `simple` also requires a flat one. */
  form?: SigningForm;
}

const SIGNATURE_HEX = /^[0-9a-fA-F]{128}$/;

/**
 * The readings tried, in order. The spec says neither how the service writes
 * numbers nor how it signs null, so a body verifies when any reading matches:
 * numbers as their received text, then as JS re-formats them; null as an
 * empty value (our signing policy), then as an absent member.
 */
const READINGS: readonly VerifyReading[] = [
  { numbers: 'raw', nulls: 'empty' },
  { numbers: 'js', nulls: 'empty' },
  { numbers: 'raw', nulls: 'omit' },
  { numbers: 'js', nulls: 'omit' },
];

/**
 * Checks the top-level `signature` member of a signed JSON object.
 * `body` is the raw JSON text (string or UTF-8 bytes; numbers then keep their
 * received text) or an object parsed by parseJsonLossless. An object parsed by
 * JSON.parse has lost the text of its numbers (1.50 is 1.5), so its signature
 * may not check however genuine the body: such a mismatch says to pass the raw
 * body instead (as stripe-node's webhooks do for a parsed payload). Never
 * throws: every failure is a typed result saying why.
 */
export function verify(body: string | Uint8Array | object, secret: string, options: VerifyOptions = {}): VerifyResult {
  try {
    return verifyUnsafe(body, secret, options);
  } catch (error) {
    // Only reachable through exotic inputs (getters that throw, proxies): still a result, not a throw.
    return fail('malformed', `body cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function verifyUnsafe(body: string | Uint8Array | object, secret: string, options: VerifyOptions): VerifyResult {
  if (typeof secret !== 'string' || secret === '') {
    return fail('malformed', 'the partner secret must be a non-empty string');
  }
  const form = options.form ?? 'general';
  let value: unknown = body;
  if (body instanceof Uint8Array) {
    try {
      value = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      return fail('malformed', 'body is not valid UTF-8');
    }
  }
  if (typeof value === 'string') {
    try {
      value = parseJsonLossless(value);
    } catch (error) {
      const detail = error instanceof JsonParseError ? error.message : String(error);
      return fail('malformed', `body is not valid JSON: ${detail}`);
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return fail('malformed', `body must be a JSON object, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  }
  const signature: unknown = (value as Record<string, unknown>)[SIGNATURE_MEMBER];
  if (signature === undefined || !Object.prototype.hasOwnProperty.call(value, SIGNATURE_MEMBER)) {
    return fail('missing', 'signature member is missing');
  }
  if (typeof signature !== 'string') {
    return fail('missing', `signature member must be a string, not ${signature === null ? 'null' : typeof signature}`);
  }
  if (signature === '') {
    return fail('missing', 'signature member is empty');
  }
  if (!SIGNATURE_HEX.test(signature)) {
    return fail('malformed', `signature must be 128 hexadecimal characters (HMAC-SHA512), got ${signature.length} characters`);
  }

  let primary: string | undefined;
  const tried: string[] = [];
  for (const reading of READINGS) {
    let canonical: string;
    try {
      canonical = canonicalString(value, { form, numbers: reading.numbers, nulls: reading.nulls });
    } catch (error) {
      if (primary === undefined && error instanceof SigningInputError) {
        return fail('malformed', error.message);
      }
      continue; // e.g. 1e400 has a raw reading but no JS one
    }
    primary ??= canonical;
    if (tried.includes(canonical)) {
      continue;
    }
    tried.push(canonical);
    if (timingSafeEqualHex(hmacSha512Hex(canonical, secret), signature)) {
      return { ok: true, canonical, reading: { ...reading } };
    }
  }
  const readings = tried.length === 1 ? '' : ` (${tried.length} readings of its numbers and nulls tried)`;
  return {
    ok: false,
    reason: 'mismatch',
    message:
      typeof body === 'object' && !(body instanceof Uint8Array) && !holdsLosslessNumber(body)
        ? `signature does not match the body${readings}, which was passed as an already parsed object: parsing loses what was signed (the text of numbers, such as 1.50 or digits beyond 2^53), so pass the raw body as received (its string or bytes) instead`
        : `signature does not match the body${readings}`,
    canonical: primary as string,
  };
}

/** Whether parseJsonLossless made this value (a LosslessNumber somewhere in it). */
function holdsLosslessNumber(value: unknown): boolean {
  if (value instanceof LosslessNumber) {
    return true;
  }
  if (value !== null && typeof value === 'object') {
    return Object.values(value).some(holdsLosslessNumber);
  }
  return false;
}

function fail(reason: VerifyFailureReason, message: string): VerifyResult {
  return { ok: false, reason, message };
}

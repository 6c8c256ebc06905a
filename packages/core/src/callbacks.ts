/**
 * Callbacks (service -> partner): verify and parse the body, then answer per
 * the spec's partner rules.
 *
 * Body shape (decisions.md, "Callback body"): { "operation_data": {...},
 * "signature": "<hex>" }, the same as the operation-info response, signed in
 * the general form over everything but `signature`. Unknown extra members are
 * tolerated (they are covered by the signature too).
 */
import { parseOperationData } from './api/shapes.js';
import type { OperationData } from './api/types.js';
import { JsonParseError, LosslessNumber, losslessToPlain, parseJsonLossless, verify, type LosslessJsonValue } from './signing/index.js';

export type CallbackFailureReason =
  /** No body at all (or only whitespace). */
  | 'empty'
  /** Not UTF-8, not JSON, or not a JSON object. */
  | 'unparseable'
  /** Correctly signed, but operation_data is missing or has members of the wrong type. */
  | 'invalid'
  /** Signature missing, malformed or not matching: the body must change nothing. */
  | 'signature'
  /** Correctly signed, but its canonical string could stand for another body (callbackAmbiguity): refused. */
  | 'ambiguous';

export type CallbackVerification =
  | {
      ok: true;
      /**
       * Checked operation_data (optional members that were null are left out;
       * amounts exact as MinorUnits, a bigint beyond 2^53−1).
       */
      operation: OperationData;
      /** The whole body as JSON.parse gives it (numbers as JS numbers), signature and unknown members included. */
      raw: Record<string, unknown>;
    }
  | {
      ok: false;
      reason: CallbackFailureReason;
      /** One sentence; never contains the secret. */
      message: string;
      /** For 'invalid' and 'ambiguous': the member at fault, e.g. "operation_data.status_code". */
      field?: string;
    };

const SIGNATURE_HEX = /^[0-9a-fA-F]{128}$/;

function failure(reason: CallbackFailureReason, message: string, field?: string): CallbackVerification {
  return field === undefined ? { ok: false, reason, message } : { ok: false, reason, message, field };
}

/**
 * Verifies a callback body (the raw request body, exactly as received) with the
 * partner secret, then parses operation_data. Never throws for bad input; throws
 * TypeError only when `secret` itself is unusable (a configuration error on our
 * side, which must not be reported to the sender as its fault).
 */
export function verifyCallback(rawBody: string | Uint8Array, secret: string): CallbackVerification {
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('verifyCallback: the partner secret must be a non-empty string');
  }
  let text: string;
  if (typeof rawBody === 'string') {
    text = rawBody;
  } else if (rawBody instanceof Uint8Array) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(rawBody);
    } catch {
      return failure('unparseable', 'callback body is not valid UTF-8');
    }
  } else {
    return failure('empty', 'callback body is missing');
  }
  if (text.trim() === '') {
    return failure('empty', 'callback body is empty');
  }

  // Lossless: amounts beyond 2^53 (wei, yoctoNEAR) keep their digits for the
  // signature and for operation_data; one parse serves both.
  let parsed: LosslessJsonValue;
  try {
    parsed = parseJsonLossless(text);
  } catch (error) {
    return failure('unparseable', `callback body is not valid JSON (${error instanceof JsonParseError ? error.message : 'parse error'})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || parsed instanceof LosslessNumber) {
    const got = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : parsed instanceof LosslessNumber ? 'number' : typeof parsed;
    return failure('unparseable', `callback body must be a JSON object, not ${got}`);
  }
  const body = parsed;

  // Authenticate before looking at the content: an unsigned body gets no detailed feedback.
  const signature = body.signature;
  if (typeof signature === 'string' && signature !== '' && !SIGNATURE_HEX.test(signature)) {
    return failure('signature', 'callback signature is not 128 hexadecimal characters');
  }
  const verified = verify(body, secret);
  if (!verified.ok) {
    if (verified.reason === 'malformed') {
      return failure('unparseable', `callback body cannot be checked: ${verified.message}`);
    }
    return failure('signature', verified.reason === 'missing' ? `callback is not signed: ${verified.message}` : 'callback signature does not match');
  }

  const ambiguous = callbackAmbiguity(body);
  if (ambiguous) {
    return failure('ambiguous', ambiguous.message, ambiguous.field);
  }
  const operation = parseOperationData(body.operation_data);
  if (!operation.ok) {
    return failure('invalid', operation.message, operation.field);
  }
  return { ok: true, operation: operation.value, raw: losslessToPlain(body) as Record<string, unknown> };
}

/**
 * The general form joins `name:value` lines with ";" and nested names with ":",
 * escaping neither, so some bodies share their canonical string (and so their
 * signature) with another: a member name holding ":" reads like a nested path,
 * and a string holding ";" followed by ":" before the next ";" reads like a line
 * of its own (a card holder name typed as `x;operation_data:status:success;…`
 * re-cuts a captured "pending" callback into a "success"). Such bodies are
 * refused after their signature is verified. ":" in values (URLs, times) and
 * ";" with no ":" after it ("Smith; Jr") are what the service really sends, and
 * pass. Returns the first member at fault (in document order; JavaScript puts
 * integer-like member names first), dotted ("operation_data.zz", "list.1"), or null. The same rule, on the same vectors
 * (vectors/callback-ambiguity.json), as the shared PHP library's
 * Callback_Verifier::ambiguity(); docs/decisions.md, "Callbacks: ambiguous bodies
 * and the service's word".
 */
export function callbackAmbiguity(node: unknown, path = ''): { field: string; message: string } | null {
  if (typeof node === 'string') {
    const lines = node.split(';').slice(1);
    return lines.some((line) => line.includes(':'))
      ? { field: path, message: 'the value contains ";" followed by ":", so the signed string could stand for another body' }
      : null;
  }
  if (node === null || typeof node !== 'object' || node instanceof LosslessNumber) {
    return null;
  }
  for (const [key, child] of Object.entries(node)) {
    const name = path === '' ? key : `${path}.${key}`;
    if (key.includes(':') || key.includes(';')) {
      return { field: name, message: 'a member name contains ":" or ";", so the signed string could stand for another body' };
    }
    const problem = callbackAmbiguity(child, name);
    if (problem) {
      return problem;
    }
  }
  return null;
}

export interface CallbackResponseOptions {
  /** The callback was received before (same operation and state): still 200. */
  duplicate?: boolean;
  /**
   * The callback is genuine but was not taken in (e.g. the operation is not
   * known here yet, or storing it failed): 500 so that the service sends it again.
   */
  notReceived?: boolean;
}

export interface CallbackHttpResponse {
  status: 200 | 400 | 401 | 500;
  contentType: 'text/plain; charset=utf-8';
  body: string;
}

/**
 * The HTTP answer to a callback, per the spec's partner rules:
 * 200 on receipt and for a duplicate; 400 when it could not be processed
 * (empty, unparseable, invalid); 500 when it was not received (the caller says
 * so with `notReceived`); 401 "Wrong signature" when the signature is missing or
 * wrong (decisions.md, "Callback with a bad signature; callbacks not taken in").
 */
export function callbackResponse(result: CallbackVerification, options: CallbackResponseOptions = {}): CallbackHttpResponse {
  const contentType = 'text/plain; charset=utf-8';
  if (result.ok) {
    if (options.notReceived) {
      return { status: 500, contentType, body: 'Callback not received; please send it again' };
    }
    return { status: 200, contentType, body: options.duplicate ? 'OK (already received)' : 'OK' };
  }
  if (result.reason === 'signature') {
    return { status: 401, contentType, body: 'Wrong signature' };
  }
  return { status: 400, contentType, body: `Callback could not be processed: ${result.message}` };
}

/**
 * Landing-page URLs: `{landing_url}/?i=<base64>` where i is the base64 of the
 * UTF-8 JSON `{ params: <signed widget settings>, callbacks: { success, fail } }`
 * (decisions.md: "Landing URL encoding"). Browser-safe.
 */
import { base64Decode, base64Encode } from './base64.js';
import { type Problem, ValidationError, isHttpUrl, isPlainObject, prefixProblems, problem } from './validation.js';
import { type WidgetSettings, type WidgetValidationOptions, validateWidgetSettings } from './widget-settings.js';

export interface LandingCallbacks {
  /** Opened when the operation succeeds (onOperationSuccess). */
  success: string;
  /** Opened when the operation fails (onOperationFail). */
  fail: string;
}

export interface LandingPayload<P = WidgetSettings> {
  /** Signed widget settings. */
  params: P;
  callbacks: LandingCallbacks;
}

export type ParseLandingResult = { ok: true; payload: LandingPayload<Record<string, unknown>> } | { ok: false; problems: Problem[] };

export interface ParseLandingOptions {
  /** Also validate params as signed widget settings (problems under `params.`). Default false. */
  validateParams?: boolean | WidgetValidationOptions;
}

/**
 * The landing URL for a payload. The landing address must be an absolute
 * http(s) URL without a fragment; `i` is added to its query after a '/'
 * appended to the path when missing, so `https://pay.example/landing` gives
 * `https://pay.example/landing/?i=...`. Params are checked as signed widget
 * settings and callbacks as absolute http(s) URLs; every problem is thrown
 * at once as a ValidationError.
 */
export function buildLandingUrl(landingUrl: string, payload: LandingPayload, options: { validateParams?: WidgetValidationOptions } = {}): string {
  const problems: Problem[] = [];
  if (typeof landingUrl !== 'string' || !isHttpUrl(landingUrl)) {
    problems.push(problem('landing_url', 'url', 'The landing address must be an absolute http(s) URL.'));
  } else if (new URL(landingUrl).hash !== '') {
    problems.push(problem('landing_url', 'url', 'The landing address must not have a #fragment.'));
  } else if (new URL(landingUrl).searchParams.has('i')) {
    problems.push(problem('landing_url', 'url', 'The landing address must not already carry an "i" parameter.'));
  }
  problems.push(...payloadProblems(payload, options.validateParams ?? {}));
  if (problems.length > 0) {
    throw new ValidationError('Cannot build the landing URL', problems);
  }

  const url = new URL(landingUrl);
  if (!url.pathname.endsWith('/')) {
    url.pathname += '/';
  }
  const json = JSON.stringify({ params: payload.params, callbacks: { success: payload.callbacks.success, fail: payload.callbacks.fail } });
  const i = encodeURIComponent(base64Encode(new TextEncoder().encode(json)));
  // The URL standard percent-encodes "^" in a path since 2024: Node 24's parser does, Node 20's did not. Written out
  // here, so that every Node (and the plugins' PHP builder) gives the same address.
  const path = url.pathname.replace(/\^/g, '%5E');
  return `${url.origin}${path}${url.search ? `${url.search}&` : '?'}i=${i}`;
}

/**
 * Read the payload of a landing URL. Accepts a full URL, a query string
 * (`?i=...` or `i=...`), or the bare `i` value (percent-encoded or not). The
 * base64 may use the standard or the URL-safe alphabet, with or without
 * padding; a '+' turned into a space by form decoding is read back as '+'.
 * Never throws: reports what is wrong (no i, not base64, not UTF-8, not JSON,
 * missing or malformed params/callbacks).
 */
export function parseLandingUrl(urlOrI: string, options: ParseLandingOptions = {}): ParseLandingResult {
  const fail = (field: string, rule: string, message: string): ParseLandingResult => ({ ok: false, problems: [problem(field, rule, message)] });
  if (typeof urlOrI !== 'string' || urlOrI.trim() === '') {
    return fail('i', 'required', 'Nothing to read: the landing URL or its i parameter is empty.');
  }
  const input = urlOrI.trim();

  let raw: string;
  if (/^https?:\/\//i.test(input) || input.startsWith('?') || /^i=/.test(input)) {
    let query: URLSearchParams;
    if (/^https?:\/\//i.test(input)) {
      try {
        query = new URL(input).searchParams;
      } catch {
        return fail('url', 'url', 'The landing URL is not a valid URL.');
      }
    } else {
      query = new URLSearchParams(input);
    }
    const values = query.getAll('i');
    if (values.length === 0) {
      return fail('i', 'required', 'The landing URL has no i parameter.');
    }
    if (values.length > 1) {
      return fail('i', 'duplicate', `The landing URL has ${values.length} i parameters; expected one.`);
    }
    // URLSearchParams decodes '+' to ' ' (form encoding); base64 has no spaces, so it was a '+'.
    raw = values[0]!.replace(/ /g, '+');
  } else {
    try {
      raw = input.includes('%') ? decodeURIComponent(input) : input;
    } catch {
      return fail('i', 'url_encoding', 'The i value has a broken %-escape.');
    }
  }
  if (raw === '') {
    return fail('i', 'required', 'The i parameter is empty.');
  }

  const decoded = base64Decode(raw);
  if (!decoded.ok) {
    return fail('i', 'base64', `The i parameter is not base64: ${decoded.message}`);
  }
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(decoded.bytes);
  } catch {
    return fail('i', 'utf8', 'The i parameter decodes to bytes that are not UTF-8 text.');
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return fail('i', 'json', `The i parameter decodes to text that is not JSON (${(error as Error).message}).`);
  }
  if (!isPlainObject(value)) {
    return fail('i', 'object', 'The i parameter must decode to a JSON object with params and callbacks.');
  }

  const validateParams = options.validateParams;
  const problems = payloadProblems(value, validateParams ? (validateParams === true ? {} : validateParams) : false);
  if (problems.length > 0) {
    return { ok: false, problems };
  }
  return { ok: true, payload: value as unknown as LandingPayload<Record<string, unknown>> };
}

/** Structural problems of a payload; params also validated as signed widget settings unless `validate` is false. */
function payloadProblems(payload: unknown, validate: WidgetValidationOptions | false): Problem[] {
  if (!isPlainObject(payload)) {
    return [problem('', 'object', 'The landing payload must be an object with params and callbacks.')];
  }
  const problems: Problem[] = [];
  for (const name of Object.keys(payload)) {
    if (name !== 'params' && name !== 'callbacks') {
      problems.push(problem(name, 'unknown_field', `"${name}" is not part of a landing payload (params, callbacks).`));
    }
  }
  if (payload.params === undefined) {
    problems.push(problem('params', 'required', 'params (the signed widget settings) is missing.'));
  } else if (!isPlainObject(payload.params)) {
    problems.push(problem('params', 'object', 'params must be an object of widget settings.'));
  } else if (validate) {
    problems.push(...prefixProblems('params', validateWidgetSettings(payload.params, { ...validate, signed: true })));
  }

  const callbacks = payload.callbacks;
  if (callbacks === undefined) {
    problems.push(problem('callbacks', 'required', 'callbacks (success and fail redirect addresses) is missing.'));
  } else if (!isPlainObject(callbacks)) {
    problems.push(problem('callbacks', 'object', 'callbacks must be an object with success and fail.'));
  } else {
    for (const name of ['success', 'fail'] as const) {
      const url = callbacks[name];
      if (url === undefined) {
        problems.push(problem(`callbacks.${name}`, 'required', `callbacks.${name} is missing.`));
      } else if (typeof url !== 'string' || !isHttpUrl(url)) {
        problems.push(problem(`callbacks.${name}`, 'url', `callbacks.${name} must be an absolute http(s) URL.`));
      }
    }
    for (const name of Object.keys(callbacks)) {
      if (name !== 'success' && name !== 'fail') {
        problems.push(problem(`callbacks.${name}`, 'unknown_field', `"${name}" is not a callback; expected success and fail.`));
      }
    }
  }
  return problems;
}

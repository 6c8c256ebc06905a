/**
 * Partner API client: the seven signed endpoints of the service.
 *
 * Server-side only: it holds the partner secret. Every request is stamped with
 * the current time just before it is sent and signed in the general form; every
 * 200 answer must carry a valid signature (an unsigned or forged 200 is an
 * error) and the documented shape. All failures are PartnerApiError.
 */
import { minorUnits, type MinorUnits } from '../money.js';
import {
  JsonParseError,
  LosslessNumber,
  parseJsonLossless,
  sign,
  stringifyJsonLossless,
  verify,
  type LosslessJsonObject,
  type LosslessJsonValue,
} from '../signing/index.js';
import { callbackAmbiguity } from '../callbacks.js';
import { PartnerApiError, parseRetryAfter, scrubServerText, type PartnerApiErrorDetails } from './errors.js';
import { checkShape, type Shape } from './shape.js';
import { CALCULATE_RESPONSE_SHAPE, COUNTRIES_RESPONSE_SHAPE, EXCHANGE_RESPONSE_SHAPE, OPERATION_RESPONSE_SHAPE, PARAMS_RESPONSE_SHAPE } from './shapes.js';
import { PARTNER_API_PATHS, type CountryItem, type CurrencyPair, type OperationData, type PartnerApiEndpoint, type RateCalculation } from './types.js';

export interface PartnerApiClientOptions {
  /** {base_url}, e.g. https://partner.example.com (a path prefix is kept; no query or fragment). */
  baseUrl: string;
  partnerToken: string;
  partnerSecret: string;
  /** Time allowed for one whole exchange (connect, send, read the answer). Default 10 000 ms. */
  timeoutMs?: number;
  /**
   * How many times to repeat a request answered 429, each time after waiting
   * Retry-After (1 s when absent). Default 0: a 429 is thrown at once.
   */
  retries?: number;
  /** A 429 asking for a longer wait than this is thrown instead of waited for. Default 60 000 ms. */
  maxRetryWaitMs?: number;
  /** Clock for timestamps and HTTP-date Retry-After (ms since the epoch). Default Date.now. */
  now?: () => number;
  /** The fetch to use. Default: the platform's global fetch. */
  fetch?: typeof fetch;
}

export interface RateCalculationRequest {
  /** Fiat currency code, e.g. "EUR". */
  fromCurrency: string;
  /** Crypto currency code (symbol), e.g. "BTC". */
  toCurrency: string;
  /**
   * Amount to pay, minimum units of fromCurrency: a safe-integer number or a
   * bigint. Exactly one of fromAmount / toAmount.
   */
  fromAmount?: MinorUnits;
  /**
   * Amount to receive, minimum units of toCurrency: a safe-integer number or a
   * bigint (wei beyond 2^53, e.g. 1_500_000_000_000_000_000n for 1.5 ETH); its
   * exact digits are signed and sent. Exactly one of fromAmount / toAmount.
   */
  toAmount?: MinorUnits;
}

/** At least one id; when both are given they must name the same operation. */
export interface OperationRef {
  /** Operation id in the service (operation_info.id). */
  operationId?: string;
  /** Operation id in the partner's system (partner_operation_id). */
  partnerOperationId?: string;
}

/** The params answer without its signature; member names as the service sends them (decisions.md, "SDK: member names"). */
export interface PartnerParams {
  /** Partner's commission as a fraction: 0.01 is 1%. */
  service_fee: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;
const DEFAULT_RETRY_WAIT_SECONDS = 1;
const CURRENCY_CODE = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;

type Params = Record<string, string | number | bigint>;

function invalidRequest(endpoint: PartnerApiEndpoint, field: string, detail: string): PartnerApiError {
  return new PartnerApiError({ kind: 'invalid_request', endpoint, status: 0, field, detail });
}

function optionError(field: string, rule: string): TypeError {
  return new TypeError(`PartnerApiClient: ${field} ${rule}`);
}

export class PartnerApiClient {
  readonly baseUrl: string;
  readonly partnerToken: string;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly maxRetryWaitMs: number;
  // A private field: the secret does not show in util.inspect, JSON or object spreads.
  readonly #secret: string;
  readonly #now: () => number;
  readonly #fetch: typeof fetch;

  constructor(options: PartnerApiClientOptions) {
    if (typeof (globalThis as { document?: unknown }).document !== 'undefined') {
      throw new Error('PartnerApiClient is server-side only: the partner secret must never reach a browser');
    }
    const { baseUrl, partnerToken, partnerSecret } = options;
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw optionError('baseUrl', 'must be an absolute http(s) URL');
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search !== '' || url.hash !== '') {
      throw optionError('baseUrl', 'must be an absolute http(s) URL without query or fragment');
    }
    if (typeof partnerToken !== 'string' || partnerToken.trim() === '') {
      throw optionError('partnerToken', 'must be a non-empty string');
    }
    if (typeof partnerSecret !== 'string' || partnerSecret === '') {
      throw optionError('partnerSecret', 'must be a non-empty string');
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw optionError('timeoutMs', 'must be a positive number of milliseconds');
    }
    const retries = options.retries ?? 0;
    if (!Number.isInteger(retries) || retries < 0) {
      throw optionError('retries', 'must be an integer >= 0');
    }
    const maxRetryWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
    if (!Number.isFinite(maxRetryWaitMs) || maxRetryWaitMs < 0) {
      throw optionError('maxRetryWaitMs', 'must be a number of milliseconds >= 0');
    }
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') {
      throw optionError('fetch', 'is not available: Node 20 or later provides it');
    }

    this.baseUrl = url.href.replace(/\/+$/, '');
    this.partnerToken = partnerToken;
    this.timeoutMs = timeoutMs;
    this.retries = retries;
    this.maxRetryWaitMs = maxRetryWaitMs;
    this.#secret = partnerSecret;
    this.#now = options.now ?? Date.now;
    this.#fetch = fetchImpl;
  }

  /** Supported countries. */
  async countries(): Promise<CountryItem[]> {
    const body = await this.#callSigned<{ countries: CountryItem[] }>('countries', {}, COUNTRIES_RESPONSE_SHAPE);
    return body.countries;
  }

  /** Partner's commission. */
  async params(): Promise<PartnerParams> {
    const body = await this.#callSigned<PartnerParams>('params', {}, PARAMS_RESPONSE_SHAPE);
    return { service_fee: body.service_fee };
  }

  /** Exchange prices: the currency pairs with their limits. */
  async exchange(): Promise<CurrencyPair[]> {
    const body = await this.#callSigned<{ pairs: CurrencyPair[] }>('exchange', {}, EXCHANGE_RESPONSE_SHAPE);
    return body.pairs;
  }

  /** Fixes a rate; send its calculation_id to the widget before expired_at. */
  async calculate(input: RateCalculationRequest): Promise<RateCalculation> {
    const endpoint = 'calculate';
    const request: Partial<RateCalculationRequest> = input ?? {};
    const params: Params = {
      from_currency: checkCurrency(endpoint, 'fromCurrency', request.fromCurrency),
      to_currency: checkCurrency(endpoint, 'toCurrency', request.toCurrency),
    };
    const hasFrom = request.fromAmount !== undefined;
    const hasTo = request.toAmount !== undefined;
    if (hasFrom === hasTo) {
      throw invalidRequest(endpoint, hasFrom ? 'toAmount' : 'fromAmount', 'give exactly one of fromAmount and toAmount');
    }
    if (hasFrom) {
      params.from_amount = checkAmount(endpoint, 'fromAmount', request.fromAmount);
    } else {
      params.to_amount = checkAmount(endpoint, 'toAmount', request.toAmount);
    }

    const result = await this.#callSigned<RateCalculation>(endpoint, params, CALCULATE_RESPONSE_SHAPE);
    if (result.from_currency !== params.from_currency || result.to_currency !== params.to_currency) {
      throw new PartnerApiError({
        kind: 'invalid_response',
        endpoint,
        status: 200,
        detail: `the rate is for ${result.from_currency}/${result.to_currency}, not the requested ${params.from_currency}/${params.to_currency}`,
      });
    }
    const { signature: _signature, ...calculation } = result as RateCalculation & { signature?: string };
    return calculation;
  }

  /** Operation info. */
  async operation(ref: OperationRef): Promise<OperationData> {
    const endpoint = 'operation';
    const params = operationParams(endpoint, ref);
    const text = await this.#send(endpoint, params);
    const parsed = this.#parse(endpoint, text);
    this.#verify(endpoint, parsed);
    // The same rule as a callback's: a signed string that could stand for another body is no answer to trust.
    const ambiguous = callbackAmbiguity(parsed);
    if (ambiguous) {
      throw new PartnerApiError({ kind: 'invalid_response', endpoint, status: 200, field: ambiguous.field, detail: ambiguous.message });
    }
    const checked = checkShape<{ operation_data: OperationData }>(parsed, OPERATION_RESPONSE_SHAPE);
    if (!checked.ok) {
      throw new PartnerApiError({ kind: 'invalid_response', endpoint, status: 200, field: checked.field, detail: checked.message });
    }
    const data = checked.value.operation_data;
    if (params.operation_id !== undefined && data.operation_info.id !== params.operation_id) {
      throw new PartnerApiError({
        kind: 'invalid_response',
        endpoint,
        status: 200,
        field: 'operation_data.operation_info.id',
        detail: 'the answer is about another operation',
      });
    }
    return data;
  }

  /** Confirms an operation waiting for partner confirmation (awaiting confirm / 8). Resolves on 200. */
  async confirm(ref: OperationRef): Promise<void> {
    await this.#callEmpty('confirm', operationParams('confirm', ref));
  }

  /** Cancels an operation. Resolves on 200. */
  async cancel(ref: OperationRef): Promise<void> {
    await this.#callEmpty('cancel', operationParams('cancel', ref));
  }

  /**
   * A 200 JSON answer: parsed losslessly (amounts beyond 2^53 keep their
   * digits), verified, then checked against `shape`. Returns the checked copy
   * (signature included).
   */
  async #callSigned<T>(endpoint: PartnerApiEndpoint, params: Params, shape: Shape): Promise<T> {
    const text = await this.#send(endpoint, params);
    const parsed = this.#parse(endpoint, text);
    this.#verify(endpoint, parsed);
    const checked = checkShape<T>(parsed, shape);
    if (!checked.ok) {
      throw new PartnerApiError({ kind: 'invalid_response', endpoint, status: 200, field: checked.field, detail: checked.message });
    }
    return checked.value;
  }

  /**
   * Confirmation and cancellation answer 200 with no body. A body, if one comes,
   * must be signed like every other 200 (decisions.md).
   */
  async #callEmpty(endpoint: PartnerApiEndpoint, params: Params): Promise<void> {
    const text = await this.#send(endpoint, params);
    if (text.trim() !== '') {
      this.#verify(endpoint, this.#parse(endpoint, text));
    }
  }

  /** The answer as a JSON object whose numbers keep their text (LosslessNumber). */
  #parse(endpoint: PartnerApiEndpoint, text: string): LosslessJsonObject {
    let parsed: LosslessJsonValue;
    try {
      parsed = parseJsonLossless(text);
    } catch (error) {
      const detail = error instanceof JsonParseError ? error.message : String(error);
      throw new PartnerApiError({
        kind: 'invalid_response',
        endpoint,
        status: 200,
        detail: scrubServerText(`the answer is not valid JSON: ${detail}`, this.#secret),
      });
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || parsed instanceof LosslessNumber) {
      const got = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : parsed instanceof LosslessNumber ? 'a number' : `a ${typeof parsed}`;
      throw new PartnerApiError({ kind: 'invalid_response', endpoint, status: 200, detail: `the answer must be a JSON object, not ${got}` });
    }
    return parsed;
  }

  #verify(endpoint: PartnerApiEndpoint, body: LosslessJsonObject): void {
    const result = verify(body, this.#secret);
    if (result.ok) {
      return;
    }
    const details: PartnerApiErrorDetails =
      result.reason === 'missing'
        ? { kind: 'bad_signature', endpoint, status: 200, detail: `the answer is not signed (${result.message})` }
        : result.reason === 'mismatch'
          ? { kind: 'bad_signature', endpoint, status: 200, detail: 'the answer signature does not match (forged, or signed with another secret)' }
          : { kind: 'invalid_response', endpoint, status: 200, detail: scrubServerText(result.message, this.#secret) };
    throw new PartnerApiError(details);
  }

  /** Sends the request (repeating after 429 as configured); returns the text of a 200 answer. */
  async #send(endpoint: PartnerApiEndpoint, params: Params): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.#once(endpoint, params);
      if (typeof outcome === 'string') {
        return outcome;
      }
      const waitMs = (outcome.retryAfterSeconds ?? DEFAULT_RETRY_WAIT_SECONDS) * 1000;
      if (outcome.status !== 429 || attempt >= this.retries || waitMs > this.maxRetryWaitMs) {
        throw outcome;
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  /** One signed POST. Resolves to the 200 body text, or to the error for any other answer; throws for no answer. */
  async #once(endpoint: PartnerApiEndpoint, params: Params): Promise<string | PartnerApiError> {
    // Stamp and sign just before sending, so each repetition carries a fresh timestamp.
    const request: Record<string, string | number | bigint> = { ...params, partner_token: this.partnerToken, timestamp: this.#now() };
    request.signature = sign(request, this.#secret, { form: 'general' });

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    try {
      const response = await this.#fetch(this.baseUrl + PARTNER_API_PATHS[endpoint], {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json, text/plain' },
        // Exact digits for bigint amounts: the text sent is what was signed.
        body: stringifyJsonLossless(request),
        // A redirected POST would be replayed elsewhere (or turned into a GET): treat 3xx as an answer.
        redirect: 'manual',
        signal: controller.signal,
      });
      const text = await response.text();
      if (response.status === 200) {
        return text;
      }
      return this.#httpError(endpoint, response, text);
    } catch (error) {
      if (timedOut) {
        throw new PartnerApiError({ kind: 'timeout', endpoint, status: 0, detail: `no complete answer within ${this.timeoutMs} ms` });
      }
      throw new PartnerApiError({ kind: 'network', endpoint, status: 0, detail: this.#describeNetworkError(error), cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  #httpError(endpoint: PartnerApiEndpoint, response: Response, text: string): PartnerApiError {
    const details: PartnerApiErrorDetails = { kind: 'http', endpoint, status: response.status };
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'), this.#now());
    if (retryAfter !== undefined) {
      details.retryAfterSeconds = retryAfter;
    }
    const described = describeErrorBody(text);
    if (described.code !== undefined) {
      details.code = scrubServerText(described.code, this.#secret);
    }
    if (described.field !== undefined) {
      details.field = scrubServerText(described.field, this.#secret);
    }
    if (described.message !== undefined && described.message.trim() !== '') {
      details.serverMessage = scrubServerText(described.message, this.#secret);
    }
    return new PartnerApiError(details);
  }

  #describeNetworkError(error: unknown): string {
    // undici reports "fetch failed" and puts the reason (ECONNREFUSED...) in cause.
    const parts: string[] = [];
    let current: unknown = error;
    for (let depth = 0; depth < 3 && current instanceof Error; depth++) {
      const code = (current as { code?: unknown }).code;
      parts.push(typeof code === 'string' ? `${current.message} (${code})` : current.message);
      current = current.cause;
    }
    return scrubServerText(parts.join(': ') || String(error), this.#secret);
  }
}

/** Reads an error body: JSON { error: { code, field, message } } or plain text. */
function describeErrorBody(text: string): { code?: string; field?: string; message?: string } {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      const error = (parsed as { error?: unknown } | null)?.error;
      if (typeof error === 'object' && error !== null) {
        const e = error as Record<string, unknown>;
        const out: { code?: string; field?: string; message?: string } = {};
        if (typeof e.code === 'string') {
          out.code = e.code;
        }
        if (typeof e.field === 'string') {
          out.field = e.field;
        }
        if (typeof e.message === 'string') {
          out.message = e.message;
        }
        return out;
      }
      if (typeof error === 'string') {
        return { message: error };
      }
    } catch {
      // not JSON after all: keep the text
    }
  }
  return { message: trimmed };
}

function checkCurrency(endpoint: PartnerApiEndpoint, field: string, value: unknown): string {
  if (typeof value !== 'string' || !CURRENCY_CODE.test(value)) {
    throw invalidRequest(endpoint, field, 'must be a currency code such as EUR or BTC');
  }
  return value;
}

/** A whole number of minimum units > 0: a safe-integer number or a bigint (an unsafe number was already rounded). */
function checkAmount(endpoint: PartnerApiEndpoint, field: string, value: unknown): MinorUnits {
  if (!(typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value))) || value <= 0) {
    const hint = typeof value === 'number' && Number.isInteger(value) ? ' (beyond 2^53 - 1 a number is already rounded: pass a bigint)' : '';
    throw invalidRequest(endpoint, field, `must be a whole number of minimum units greater than 0${hint}`);
  }
  return minorUnits(value);
}

function operationParams(endpoint: PartnerApiEndpoint, ref: OperationRef): Params {
  const params: Params = {};
  const { operationId, partnerOperationId } = ref ?? {};
  if (operationId !== undefined) {
    if (typeof operationId !== 'string' || operationId.trim() === '') {
      throw invalidRequest(endpoint, 'operationId', 'must be a non-empty string');
    }
    params.operation_id = operationId;
  }
  if (partnerOperationId !== undefined) {
    if (typeof partnerOperationId !== 'string' || partnerOperationId.trim() === '') {
      throw invalidRequest(endpoint, 'partnerOperationId', 'must be a non-empty string');
    }
    params.partner_operation_id = partnerOperationId;
  }
  if (Object.keys(params).length === 0) {
    throw invalidRequest(endpoint, 'operationId', 'give operationId, partnerOperationId or both');
  }
  return params;
}

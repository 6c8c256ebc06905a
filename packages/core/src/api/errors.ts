/**
 * The one error type of the partner API client. It never carries the partner
 * secret: messages are built from the endpoint, the HTTP status, its documented
 * meaning and the service's error description, and that description is scrubbed
 * of the secret before it is stored (decisions.md, "Partner API client: errors, timeouts, redirects").
 */
import type { PartnerApiEndpoint } from './types.js';

/** The documented meaning of each HTTP status the service returns. */
export const HTTP_STATUS_MEANINGS: Readonly<Record<number, string>> = Object.freeze({
  400: 'Invalid request parameters',
  401: 'Wrong signature',
  403: 'Partner blocked',
  404: 'Partner not found',
  429: 'Too many requests',
  500: 'Request processing error',
});

export type PartnerApiErrorKind =
  /** The service answered with a status other than 200. */
  | 'http'
  /** No answer: connection refused, reset, DNS failure... (status 0). */
  | 'network'
  /** No complete answer within timeoutMs (status 0). */
  | 'timeout'
  /** A 200 answer whose signature is missing or does not match: it must not be trusted. */
  | 'bad_signature'
  /** A signed 200 answer that is not the documented shape. */
  | 'invalid_response'
  /** The call's arguments were rejected before anything was sent (status 0). */
  | 'invalid_request';

const KIND_MEANINGS: Record<Exclude<PartnerApiErrorKind, 'http'>, string> = {
  network: 'Network error',
  timeout: 'Timed out',
  bad_signature: 'Response signature invalid',
  invalid_response: 'Unexpected response',
  invalid_request: 'Invalid request',
};

export function meaningOf(kind: PartnerApiErrorKind, status: number): string {
  if (kind !== 'http') {
    return KIND_MEANINGS[kind];
  }
  return HTTP_STATUS_MEANINGS[status] ?? 'Unexpected HTTP status';
}

export interface PartnerApiErrorDetails {
  kind: PartnerApiErrorKind;
  endpoint: PartnerApiEndpoint;
  /** HTTP status; 0 when no answer was received or nothing was sent. */
  status: number;
  /** The service's error code (JSON error bodies), e.g. "invalid_parameter". */
  code?: string;
  /** The request member at fault: named by the service, or by the client's own checks. */
  field?: string;
  /** The service's error description (plain-text body, or error.message of a JSON body). */
  serverMessage?: string;
  /** Seconds to wait, from Retry-After (429 mostly). */
  retryAfterSeconds?: number;
  /** What went wrong, when the client found it (bad signature, invalid shape, timeout...). */
  detail?: string;
  cause?: unknown;
}

export class PartnerApiError extends Error {
  readonly kind: PartnerApiErrorKind;
  readonly endpoint: PartnerApiEndpoint;
  readonly status: number;
  /** The documented meaning of `status` (or of `kind` when there is no HTTP status to explain). */
  readonly meaning: string;
  readonly code: string | undefined;
  readonly field: string | undefined;
  readonly serverMessage: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(details: PartnerApiErrorDetails) {
    const meaning = meaningOf(details.kind, details.status);
    const head = details.status === 0 ? meaning : `HTTP ${details.status} ${meaning}`;
    const parts = [`Partner API ${details.endpoint}: ${head}`];
    if (details.field !== undefined) {
      parts.push(`field ${details.field}`);
    }
    if (details.detail) {
      parts.push(details.detail);
    }
    if (details.serverMessage) {
      parts.push(details.serverMessage);
    }
    if (details.retryAfterSeconds !== undefined) {
      parts.push(`retry after ${details.retryAfterSeconds} s`);
    }
    super(parts.join(': '), details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'PartnerApiError';
    this.kind = details.kind;
    this.endpoint = details.endpoint;
    this.status = details.status;
    this.meaning = meaning;
    this.code = details.code;
    this.field = details.field;
    this.serverMessage = details.serverMessage;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }

  /** Plain data for logs; carries nothing beyond what the message shows. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      kind: this.kind,
      endpoint: this.endpoint,
      status: this.status,
      meaning: this.meaning,
      code: this.code,
      field: this.field,
      serverMessage: this.serverMessage,
      retryAfterSeconds: this.retryAfterSeconds,
    };
  }
}

/** Longest service error text kept in an error (the rest is cut with an ellipsis). */
const MAX_SERVER_MESSAGE = 500;

/** Cleans a service-supplied text for an error: secret removed, control characters flattened, length capped. */
export function scrubServerText(text: string, secret: string): string {
  let out = text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  if (secret) {
    out = out.split(secret).join('[redacted]');
  }
  out = out.trim();
  if (out.length > MAX_SERVER_MESSAGE) {
    out = `${out.slice(0, MAX_SERVER_MESSAGE)}…`;
  }
  return out;
}

/**
 * Retry-After: delta-seconds or an HTTP date. Returns whole seconds (>= 0), or
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) {
    return undefined;
  }
  const text = value.trim();
  if (/^\d+$/.test(text)) {
    return Number(text);
  }
  const at = Date.parse(text);
  if (Number.isNaN(at)) {
    return undefined;
  }
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

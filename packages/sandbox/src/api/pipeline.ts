/**
 * What every partner API request goes through, in this order:
 * POST only (405) -> body: size, content type, UTF-8, JSON object (400) ->
 * partner_token present (400) and known (404) -> not blocked (403) -> request
 * rate (429 + Retry-After) -> signature, general form (401 text/plain
 * "Wrong signature") -> timestamp window on real time (400, field timestamp) ->
 * the endpoint's own parameters (400) -> 200 with a signed JSON body (or no
 * body for confirmation and cancellation). Anything unexpected is a 500.
 * Every answer, refusals included, waits the configured latency first.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JsonParseError, parseJsonLossless, sign, verify, type PartnerApiEndpoint } from '@card2crypto/core';
import { BodyError, readBody } from '../body.js';
import type { SandboxContext } from '../context.js';
import { sendEmpty, sendError, sendText } from '../http.js';
import { toJson } from '../json.js';
import type { PartnerRecord } from '../store.js';
import { ApiError, missing } from './errors.js';
import { optionalTimestamp, requiredString, type Body } from './params.js';

/** A 200 answer: a body to sign, pre-signed JSON text, or nothing. */
export type ApiAnswer = { body: Record<string, unknown> } | { signedText: string } | { empty: true };

export interface Endpoint {
  /** A partner API endpoint, or the sandbox's test helper (api/sandbox-operations.ts), which goes through the same checks. */
  name: PartnerApiEndpoint | 'sandbox-operations';
  /** Rate fixing may come without timestamp (decisions.md). */
  timestamp: 'required' | 'optional';
  handle: (body: Body, partner: PartnerRecord, ctx: SandboxContext) => ApiAnswer;
}

/** Signs `body` with the partner's secret and writes the JSON text (exact digits for big amounts). */
export function signedJson(body: Record<string, unknown>, secret: string): string {
  return toJson({ ...body, signature: sign(body, secret, { form: 'general' }) });
}

/** The answer's wait (--latency, --latency-jitter): real time, as a network's, never the sandbox clock. */
function latency(ctx: SandboxContext): Promise<void> | undefined {
  const { latencyMs, latencyJitterMs } = ctx.settings;
  const ms = latencyMs + (latencyJitterMs > 0 ? Math.random() * latencyJitterMs : 0);
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined;
}

export async function handlePartnerApi(req: IncomingMessage, res: ServerResponse, ctx: SandboxContext, endpoint: Endpoint): Promise<void> {
  try {
    const answer = await answer_(req, ctx, endpoint);
    await latency(ctx);
    if ('empty' in answer) {
      sendEmpty(res, 200);
    } else {
      // The hot path: an answer to a POST is not cached and is JSON by its content type; two headers suffice.
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer.text) });
      res.end(answer.text);
    }
  } catch (error) {
    // A refusal travels as far as an answer.
    await latency(ctx);
    if (error instanceof ApiError) {
      if (error.status === 401) {
        sendText(res, 401, `Wrong signature: ${error.message}`, error.headers);
      } else {
        sendError(res, error.status, { code: error.code, message: error.message, ...(error.field !== undefined ? { field: error.field } : {}) }, error.headers);
      }
      return;
    }
    process.emitWarning(`card2crypto-sandbox: ${endpoint.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    if (!res.headersSent) {
      sendError(res, 500, { code: 'internal_error', message: 'the request could not be processed' });
    }
  }
}

/** One more request from `token` to `endpoint` (counted before any refusal: a 429 costs the partner's budget too). */
function countCall(ctx: SandboxContext, token: string, endpoint: string): void {
  const calls = ctx.apiCalls.get(token) ?? new Map<string, number>();
  calls.set(endpoint, (calls.get(endpoint) ?? 0) + 1);
  ctx.apiCalls.set(token, calls);
  if (endpoint !== 'sandbox-operations') {
    ctx.apiRate.count(token, Date.now());
  }
}

async function answer_(req: IncomingMessage, ctx: SandboxContext, endpoint: Endpoint): Promise<{ text: string } | { empty: true }> {
  if (req.method !== 'POST') {
    req.resume();
    throw new ApiError(405, 'method_not_allowed', 'partner API requests are HTTP POST', undefined, { allow: 'POST' });
  }
  let text: string;
  try {
    text = await readBody(req, ctx.settings.maxBodyBytes, 'json');
  } catch (error) {
    if (error instanceof BodyError) {
      throw new ApiError(error.status, error.code, error.message);
    }
    throw error;
  }
  if (text.trim() === '') {
    throw new ApiError(400, 'invalid_json', 'the body is empty; expected a JSON object');
  }
  let parsed: unknown;
  try {
    parsed = parseJsonLossless(text);
  } catch (error) {
    if (error instanceof JsonParseError) {
      throw new ApiError(400, 'invalid_json', `the body is not valid JSON: ${error.message}`);
    }
    throw error;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError(400, 'invalid_json', 'the body must be a JSON object');
  }
  const body = parsed as Body;

  const token = requiredString(body, 'partner_token');
  countCall(ctx, token, endpoint.name);
  const partner = ctx.partners.get(token);
  if (!partner) {
    throw new ApiError(404, 'partner_not_found', 'no partner has this partner_token', 'partner_token');
  }
  if (partner.blocked) {
    throw new ApiError(403, 'partner_blocked', 'this partner is blocked');
  }
  // The test helper has no counterpart in the real service: a test that seeds thousands of operations is not a partner's traffic.
  const rate = endpoint.name === 'sandbox-operations' ? { allowed: true, retryAfterSeconds: 0 } : ctx.rateLimiter.take(token);
  if (!rate.allowed) {
    ctx.apiRate.limited(token);
    throw new ApiError(
      429,
      'too_many_requests',
      `more than ${ctx.rateLimiter.perSecond} requests a second; retry after ${rate.retryAfterSeconds} s`,
      undefined,
      {
        'retry-after': String(rate.retryAfterSeconds),
      },
    );
  }
  const verified = verify(body, partner.secret);
  if (!verified.ok) {
    throw new ApiError(401, 'wrong_signature', verified.message);
  }

  const timestamp = optionalTimestamp(body, 'timestamp');
  if (timestamp === undefined) {
    if (endpoint.timestamp === 'required') {
      throw missing('timestamp');
    }
  } else {
    checkWindow(timestamp, ctx);
  }

  const answer = endpoint.handle(body, partner, ctx);
  if ('empty' in answer) {
    return answer;
  }
  if ('signedText' in answer) {
    return { text: answer.signedText };
  }
  return { text: signedJson(answer.body, partner.secret) };
}

function checkWindow(timestamp: number, ctx: SandboxContext): void {
  const now = ctx.clock.now();
  const { timestampAheadMs: ahead, timestampBehindMs: behind } = ctx.settings;
  if (timestamp > now + ahead || timestamp < now - behind) {
    const offset = timestamp - now;
    throw new ApiError(
      400,
      'invalid_parameter',
      `timestamp is ${Math.abs(offset)} ms ${offset > 0 ? 'ahead of' : 'behind'} the service clock; it must be at most ${ahead / 1000} s ahead and ${behind / 1000} s behind`,
      'timestamp',
    );
  }
}

/**
 * The dashboard: operations with their status history and every callback
 * attempt, and the actions a tester needs (resend a callback, move an
 * operation to an outcome, block or unblock a partner).
 *
 *   GET  /dashboard                              the page (assets/dashboard/dashboard.js)
 *   GET  /dashboard/api/state?limit=&offset=     partners (with their API calls per endpoint), operations, history, callbacks, attempts
 *   POST /dashboard/api/callbacks/:id/resend
 *   POST /dashboard/api/operations/:id/move      { "status_code": 0 | 8 | 101..106 }
 *   POST /dashboard/api/partners/:token/block    { "blocked": true | false }
 *   POST /dashboard/api/clock                    { "offset_ms": integer }: the service's clock that far off this computer's
 *
 * Changes need the header `x-card2crypto-dashboard: 1` and a JSON body: a page on
 * another origin can send neither without a CORS preflight, which is never
 * granted, so another site cannot act through a tester's browser.
 *
 * Every dashboard route (the page, the state, the actions) also answers only
 * requests addressed to the sandbox itself: a Host header naming another
 * name (DNS rebinding: evil.example resolving to 127.0.0.1 makes the tester's
 * browser treat the dashboard as same-origin with the attacker's page) gets
 * 421, and an Origin header from another origin gets 403.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CRYPTO_ASSETS, formatMinorUnits, OPERATION_FLOW } from '@card2crypto/core';
import { ApiError } from './api/errors.js';
import { BodyError, readBody } from './body.js';
import type { SandboxContext } from './context.js';
import { escapeHtml, sendError, sendHtml, sendJson } from './http.js';
import { FORCEABLE_CODES, OperationStateError } from './operations.js';
import { statusUrl } from './operation-data.js';
import { layout, testCardsTable } from './pages.js';
import type { OperationRecord } from './store.js';

const MAX_LIMIT = 200;

function operationView(op: OperationRecord, ctx: SandboxContext) {
  return {
    id: op.id,
    partner_token: op.partnerToken,
    partner_operation_id: op.partnerOperationId,
    status: op.status,
    status_code: op.statusCode,
    from: { currency: op.fromCurrency, amount: op.fromAmount, display: `${formatMinorUnits(op.fromAmount, op.fromCurrency)} ${op.fromCurrency}` },
    to: {
      currency: op.toCurrency,
      amount: op.toAmount,
      account: op.toAccount,
      display: `${formatMinorUnits(op.toAmount, op.toCurrency)} ${CRYPTO_ASSETS.find((a) => a.symbol === op.toCurrency)?.ticker ?? op.toCurrency}`,
    },
    email: op.email,
    scenario: op.scenario,
    created_at: op.createdAt,
    status_url: statusUrl(ctx.urls.status_page_url, op.id),
    next_step_at: op.nextStepAt,
    history: ctx.store.history(op.id).map((h) => ({ at: h.at, status: h.status, status_code: h.statusCode, source: h.source, note: h.note })),
    callbacks: ctx.store.callbacksOf(op.id).map((c) => ({
      id: c.id,
      status: c.status,
      status_code: c.statusCode,
      state: c.state,
      attempts: c.attempts,
      next_attempt_at: c.nextAttemptAt,
      last_http_status: c.lastHttpStatus,
      created_at: c.createdAt,
      attempt_log: ctx.store.attemptsOf(c.id).map((a) => ({
        attempt: a.attempt,
        at: a.at,
        url: a.url,
        http_status: a.httpStatus,
        excerpt: a.excerpt,
        error: a.error,
        duration_ms: a.durationMs,
      })),
    })),
  };
}

function state(ctx: SandboxContext, url: URL) {
  const limit = Math.min(MAX_LIMIT, Math.max(1, Number(url.searchParams.get('limit') ?? 50) || 50));
  const offset = Math.max(0, Number(url.searchParams.get('offset') ?? 0) || 0);
  return {
    now: ctx.clock.now(),
    clock_speed: ctx.clock.speed,
    clock_offset_ms: ctx.clock.offsetMs,
    partners: ctx.partners.list().map((p) => ({
      token: p.token,
      blocked: p.blocked,
      callback_url: p.callbackUrl,
      // Partner API requests received since the sandbox started, per endpoint.
      api_calls: Object.fromEntries(ctx.apiCalls.get(p.token) ?? []),
      // Its partner API requests a second (peak, the last two minutes) and its 429s, the test helper not counted.
      api_rate: ctx.apiRate.view(p.token),
    })),
    total_operations: ctx.store.countOperations(),
    offset,
    limit,
    operations: ctx.store.listOperations(limit, offset).map((op) => operationView(op, ctx)),
    outcomes: FORCEABLE_CODES.map((code) => {
      const step = OPERATION_FLOW.find((s) => s.status_code === code)!;
      return { status: step.status, status_code: code, meaning: step.meaning };
    }),
    urls: ctx.urls,
  };
}

function page(ctx: SandboxContext): string {
  return layout(
    'Sandbox dashboard',
    `<main class="page dashboard">
<h1>Sandbox dashboard</h1>
<p class="urls">API <code>${escapeHtml(ctx.urls.base_url)}</code> · widget <code>${escapeHtml(ctx.urls.widget_script_url)}</code> · landing <code>${escapeHtml(ctx.urls.landing_url)}</code></p>
<section><h2>Partners</h2><table id="partners" class="grid"></table></section>
<section><h2>Operations <span id="count"></span></h2><div id="operations"></div><p><button type="button" id="more" hidden>Older operations</button></p></section>
<details><summary>Test cards</summary>${testCardsTable()}</details>
</main>
<script src="/widget/assets/dashboard.js"></script>`,
    { head: '<link rel="stylesheet" href="/widget/assets/dashboard.css">' },
  );
}

/**
 * The Host values that name this sandbox: the address it prints, and the
 * loopback names with its port (a developer may type either).
 */
export function dashboardHosts(baseUrl: string): Set<string> {
  const base = new URL(baseUrl);
  const port = base.port;
  return new Set([base.host, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);
}

/**
 * Refuses a request not addressed to this sandbox (421: another Host, or none)
 * or sent by a page on another origin (403). A missing Origin is allowed:
 * browsers omit it on plain navigations and same-origin GETs.
 */
function checkAddressed(req: IncomingMessage, ctx: SandboxContext): void {
  const allowed = dashboardHosts(ctx.urls.base_url);
  const host = (req.headers.host ?? '').toLowerCase();
  if (!allowed.has(host)) {
    throw new ApiError(421, 'misdirected_request', `the dashboard answers only at ${[...allowed].join(', ')}`);
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !(originHost(origin) === host && originScheme(origin) === 'http:')) {
    throw new ApiError(403, 'forbidden', 'the dashboard answers its own pages only');
  }
}

async function readAction(req: IncomingMessage, ctx: SandboxContext): Promise<Record<string, unknown>> {
  if (req.headers['x-card2crypto-dashboard'] !== '1') {
    req.resume();
    throw new ApiError(403, 'forbidden', 'dashboard actions need the x-card2crypto-dashboard header');
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
  try {
    const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new SyntaxError('not an object');
    }
    return parsed as Record<string, unknown>;
  } catch {
    throw new ApiError(400, 'invalid_json', 'the body must be a JSON object');
  }
}

function originHost(origin: string): string {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return '';
  }
}

function originScheme(origin: string): string {
  try {
    return new URL(origin).protocol;
  } catch {
    return '';
  }
}

export async function handleDashboard(req: IncomingMessage, res: ServerResponse, ctx: SandboxContext, url: URL): Promise<void> {
  const path = url.pathname;
  const frameOptions = { 'x-frame-options': 'DENY', 'content-security-policy': "frame-ancestors 'none'" };
  try {
    try {
      checkAddressed(req, ctx);
    } catch (error) {
      req.resume();
      throw error;
    }
    if (req.method === 'GET' && (path === '/dashboard' || path === '/dashboard/')) {
      req.resume();
      sendHtml(res, 200, page(ctx), frameOptions);
      return;
    }
    if (req.method === 'GET' && path === '/dashboard/api/state') {
      req.resume();
      sendJson(res, 200, state(ctx, url), frameOptions);
      return;
    }
    if (req.method !== 'POST') {
      req.resume();
      throw new ApiError(404, 'not_found', `nothing at ${req.method} ${path}`);
    }
    let m: RegExpExecArray | null;
    if ((m = /^\/dashboard\/api\/callbacks\/(\d+)\/resend$/.exec(path))) {
      await readAction(req, ctx);
      const id = Number(m[1]);
      const callback = ctx.store.getCallback(id);
      if (!callback) {
        throw new ApiError(404, 'not_found', `no callback ${id}`);
      }
      const partner = ctx.partners.get(callback.partnerToken);
      if (!partner?.callbackUrl) {
        throw new ApiError(400, 'invalid_state', `partner ${callback.partnerToken} has no callback URL`);
      }
      const result = await ctx.dispatcher.resend(id);
      sendJson(res, 200, { http_status: result.status, excerpt: result.excerpt, error: result.error, callback: ctx.store.getCallback(id) });
      return;
    }
    if ((m = /^\/dashboard\/api\/operations\/([^/]+)\/move$/.exec(path))) {
      const body = await readAction(req, ctx);
      const op = ctx.operations.get(decodeURIComponent(m[1]!));
      if (!op) {
        throw new ApiError(404, 'not_found', 'no such operation');
      }
      const code = body.status_code;
      if (typeof code !== 'number' || !FORCEABLE_CODES.includes(code)) {
        throw new ApiError(400, 'invalid_parameter', `status_code must be one of ${FORCEABLE_CODES.join(', ')}`, 'status_code');
      }
      try {
        const moved = ctx.operations.force(op, code);
        sendJson(res, 200, { operation: operationView(moved, ctx) });
      } catch (error) {
        if (error instanceof OperationStateError) {
          throw new ApiError(409, 'invalid_state', error.message);
        }
        throw error;
      }
      return;
    }
    if (path === '/dashboard/api/clock') {
      const body = await readAction(req, ctx);
      const offset = body.offset_ms;
      if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || Math.abs(offset) > 86_400_000) {
        throw new ApiError(400, 'invalid_parameter', 'offset_ms must be a whole number of milliseconds within a day', 'offset_ms');
      }
      ctx.clock.setOffset(offset);
      sendJson(res, 200, { offset_ms: ctx.clock.offsetMs, now: ctx.clock.now() });
      return;
    }
    if ((m = /^\/dashboard\/api\/partners\/([^/]+)\/rate$/.exec(path))) {
      const body = await readAction(req, ctx);
      const spent = body.spent_ms;
      if (typeof spent !== 'number' || !Number.isSafeInteger(spent) || spent < 0 || spent > 60_000) {
        throw new ApiError(400, 'invalid_parameter', 'spent_ms must be a whole number of milliseconds from 0 to 60000', 'spent_ms');
      }
      const token = decodeURIComponent(m[1]!);
      if (!ctx.partners.get(token)) {
        throw new ApiError(404, 'not_found', `no partner ${token}`);
      }
      ctx.rateLimiter.spend(token, spent);
      sendJson(res, 200, { token, spent_ms: spent, limit_per_second: ctx.rateLimiter.perSecond });
      return;
    }
    if ((m = /^\/dashboard\/api\/partners\/([^/]+)\/block$/.exec(path))) {
      const body = await readAction(req, ctx);
      if (typeof body.blocked !== 'boolean') {
        throw new ApiError(400, 'invalid_parameter', 'blocked must be true or false', 'blocked');
      }
      const token = decodeURIComponent(m[1]!);
      if (!ctx.partners.setBlocked(token, body.blocked)) {
        throw new ApiError(404, 'not_found', `no partner ${token}`);
      }
      if (!body.blocked) {
        ctx.rateLimiter.reset(token);
      }
      sendJson(res, 200, { token, blocked: body.blocked });
      return;
    }
    req.resume();
    throw new ApiError(404, 'not_found', `nothing at ${path}`);
  } catch (error) {
    if (error instanceof ApiError) {
      sendError(res, error.status, { code: error.code, message: error.message, ...(error.field !== undefined ? { field: error.field } : {}) }, error.headers);
      return;
    }
    throw error;
  }
}

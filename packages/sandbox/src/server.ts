/** Routing: which module answers which path. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_ROUTES, handlePartnerApi, SANDBOX_OPERATIONS_PATH, sandboxOperations } from './api/index.js';
import type { SandboxContext } from './context.js';
import { handleDashboard } from './dashboard.js';
import { sendError, sendHtml } from './http.js';
import { handleLanding } from './landing.js';
import { homePage } from './pages.js';
import { handleStatusPage } from './status-page.js';
import { handleWidget } from './widget/routes.js';

export function createHandler(ctx: SandboxContext): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    route(req, res, ctx).catch((error: unknown) => {
      process.emitWarning(`card2crypto-sandbox: ${req.method} ${req.url} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) {
        sendError(res, 500, { code: 'internal_error', message: 'the request could not be processed' });
      } else {
        res.destroy();
      }
    });
  };
}

async function route(req: IncomingMessage, res: ServerResponse, ctx: SandboxContext): Promise<void> {
  // The service's own time in every answer (its clock may be set off this computer's: Clock.setOffset()).
  res.setHeader('date', new Date(ctx.clock.now()).toUTCString());
  // The partner API is the hot path: its paths carry no query, so look them up before parsing a URL.
  const direct = API_ROUTES.get(req.url ?? '');
  if (direct) {
    return handlePartnerApi(req, res, ctx, direct);
  }

  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  const path = url.pathname;
  const endpoint = API_ROUTES.get(path);
  if (endpoint) {
    return handlePartnerApi(req, res, ctx, endpoint);
  }

  // The test helper: signed and checked like a partner API request (api/sandbox-operations.ts).
  if (path === SANDBOX_OPERATIONS_PATH) {
    return handlePartnerApi(req, res, ctx, sandboxOperations);
  }

  if (path === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
    return sendHtml(res, 200, homePage(ctx));
  }
  if (path === '/widget.js' || path.startsWith('/widget/')) {
    return handleWidget(req, res, ctx, url);
  }
  if (path === '/landing' || path.startsWith('/landing/')) {
    return handleLanding(req, res, ctx, url);
  }
  if (path === '/status' || path.startsWith('/status/')) {
    return handleStatusPage(req, res, ctx, url);
  }
  if (path === '/dashboard' || path.startsWith('/dashboard/')) {
    return handleDashboard(req, res, ctx, url);
  }

  req.resume();
  sendError(res, 404, { code: 'not_found', message: `nothing at ${path}` });
}

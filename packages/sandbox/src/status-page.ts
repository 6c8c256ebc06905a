import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxContext } from './context.js';
import { sendError } from './http.js';

export async function handleStatusPage(req: IncomingMessage, res: ServerResponse, _ctx: SandboxContext, _url: URL): Promise<void> {
  req.resume();
  sendError(res, 404, { code: 'not_found', message: 'status: not yet' });
}

/** Routes of the widget: its script, its frame, the frame's assets and flow API, core's browser modules and the packages they import. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendAsset } from '../assets.js';
import type { SandboxContext } from '../context.js';
import { sendError } from '../http.js';
import { sendCoreModule, sendPackageModule } from './core-modules.js';
import { handleFlowApi } from './flow-api.js';
import { handleFrame } from './frame.js';

export async function handleWidget(req: IncomingMessage, res: ServerResponse, ctx: SandboxContext, url: URL): Promise<void> {
  const path = url.pathname;
  const get = req.method === 'GET' || req.method === 'HEAD';
  if (path === '/widget.js' && get) {
    return sendAsset(res, 'widget.js');
  }
  if (path.startsWith('/widget/assets/') && get) {
    return sendAsset(res, path.slice('/widget/assets/'.length));
  }
  if (path.startsWith('/widget/core/') && get) {
    return sendCoreModule(res, path.slice('/widget/core/'.length));
  }
  if (path.startsWith('/widget/pkg/') && get) {
    return sendPackageModule(res, decodeURIComponent(path.slice('/widget/pkg/'.length)));
  }
  if (path === '/widget/frame' && req.method === 'POST') {
    return handleFrame(req, res, ctx);
  }
  if (path.startsWith('/widget/api/')) {
    return handleFlowApi(req, res, ctx, path.slice('/widget/api/'.length));
  }
  req.resume();
  sendError(res, 404, { code: 'not_found', message: `nothing at ${path}` });
}

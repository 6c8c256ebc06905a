/**
 * The hosted landing page: GET {landing_url}/?i=<base64 of {params, callbacks}>
 * runs the widget with `params` and sends the buyer to callbacks.success on
 * onOperationSuccess and to callbacks.fail on onOperationFail. Without i it
 * starts with the required settings only (the first configured partner, signed
 * here). An i that cannot be read gets a readable error page (400).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseLandingUrl, sign } from '@card2crypto/core';
import type { SandboxContext } from './context.js';
import { payeeName, referenceWords } from './buyer-words.js';
import { escapeHtml, jsonForScript, sendHtml } from './http.js';
import { layout, testCardsTable } from './pages.js';

const DEFAULT_TARGET = 'card2crypto-widget';

function errorPage(title: string, lines: string[]): string {
  return layout(
    title,
    `<main class="page"><h1>${escapeHtml(title)}</h1><ul class="problems">${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>
<p>Ask the site that sent you here for a new link.</p></main>`,
  );
}

function landingPage(ctx: SandboxContext, params: Record<string, unknown>, callbacks: { success: string; fail: string } | null): string {
  const target = typeof params.target_element === 'string' ? params.target_element : DEFAULT_TARGET;
  return layout(
    'Buy crypto',
    `<main class="page landing">
${paidTo(ctx, params, callbacks)}
<div id="landing-error" class="landing-error" role="alert" hidden></div>
<div id="${escapeHtml(target)}" class="landing-widget"></div>
<details class="hint"><summary>Sandbox test cards</summary>${testCardsTable()}</details>
</main>
<script type="application/json" id="landing-boot">${jsonForScript({ params, callbacks })}</script>
<script src="${escapeHtml(ctx.urls.widget_script_url)}"></script>
<script src="/widget/assets/landing.js"></script>`,
  );
}

/**
 * Who the buyer pays and for what, as far as the service knows: the partner's
 * name (given at onboarding: the partners file), else the host of the site the
 * buyer returns to; and the order the partner_operation_id names, else that
 * reference as it is (buyer-words.ts).
 */
function paidTo(ctx: SandboxContext, params: Record<string, unknown>, callbacks: { success: string; fail: string } | null): string {
  const store = payeeName(ctx.partners, typeof params.partner_token === 'string' ? params.partner_token : '', callbacks?.success ?? '');
  const reference = referenceWords(typeof params.partner_operation_id === 'string' ? params.partner_operation_id : '');
  if (!store && !reference) {
    return '';
  }
  return `<p class="landing-for" id="landing-for">${store ? `Payment to <strong>${escapeHtml(store)}</strong>` : 'Payment'}${
    reference ? ` · ${escapeHtml(reference)}` : ''
  }</p>`;
}

export async function handleLanding(req: IncomingMessage, res: ServerResponse, ctx: SandboxContext, url: URL): Promise<void> {
  req.resume();
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendHtml(res, 405, errorPage('Method not allowed', ['The landing page is opened with GET.']), { allow: 'GET' });
    return;
  }
  if (!url.searchParams.has('i')) {
    const partner = ctx.partners.list().find((p) => !p.blocked);
    if (!partner) {
      sendHtml(res, 503, errorPage('No partner', ['The sandbox has no partner to start the widget for (start it with --partner TOKEN:SECRET).']));
      return;
    }
    // Required parameters only, signed here: the page never sees the secret, only the signature.
    const unsigned = { target_element: DEFAULT_TARGET, partner_token: partner.token, timestamp: ctx.clock.now() };
    const params = { ...unsigned, signature: sign(unsigned, partner.secret, { form: 'simple' }) };
    sendHtml(res, 200, landingPage(ctx, params, null));
    return;
  }
  const parsed = parseLandingUrl(url.search);
  if (!parsed.ok) {
    const lines = parsed.problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message));
    sendHtml(res, 400, errorPage('This payment link is not valid', lines));
    return;
  }
  sendHtml(res, 200, landingPage(ctx, parsed.payload.params, parsed.payload.callbacks));
}

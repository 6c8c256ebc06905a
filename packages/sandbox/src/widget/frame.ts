/**
 * POST /widget/frame: the widget script submits the settings (without
 * handlers) into its iframe. The settings are checked here exactly as the
 * service would: core's validateWidgetSettings, a known and unblocked partner,
 * the signature (simple form; the general form is the same string for flat
 * settings), the timestamp window on real time, the fixed rate. The page then
 * runs the purchase flow (assets/widget/frame.js); a refusal becomes the
 * frame's onError message.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { COUNTRIES, COUNTRY_CURRENCY, CRYPTO_ASSETS, FIAT_CURRENCIES, validateWidgetSettings, verify, type Problem } from '@card2crypto/core';
import { BodyError, readBody } from '../body.js';
import { payeeName, referenceWords } from '../buyer-words.js';
import type { SandboxContext } from '../context.js';
import { escapeHtml, jsonForScript, sendHtml } from '../http.js';
import { TEST_CARDS } from '../scenarios.js';
import { CORE_IMPORT_MAP } from './core-modules.js';
import { frameLanguage, frameWords } from './frame-words.js';
import type { CalculationRecord, SessionRecord } from '../store.js';

export const PROTOCOL = 'card2crypto-widget';

export { SANDBOX_LANGUAGES } from './frame-words.js';

type Check = { ok: true; session: SessionRecord; calculation: CalculationRecord | null } | { ok: false; message: string };

const ORIGIN_RE = /^https?:\/\/[^/\s?#]+$/;

function problemsText(problems: readonly Problem[]): string {
  return problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join(' ');
}

export function checkSettings(text: string, parentOrigin: string, instance: string, ctx: SandboxContext): Check {
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch {
    return { ok: false, message: 'Invalid widget settings: they are not valid JSON.' };
  }
  const problems = validateWidgetSettings(settings);
  if (problems.length > 0) {
    return { ok: false, message: `Invalid widget settings: ${problemsText(problems)}` };
  }
  const s = settings as Record<string, unknown>;
  const partner = ctx.partners.get(s.partner_token as string);
  if (!partner) {
    return { ok: false, message: 'Partner not found: no partner has this partner_token.' };
  }
  if (partner.blocked) {
    return { ok: false, message: 'Partner blocked.' };
  }
  const verified = verify(text, partner.secret, { form: 'simple' });
  if (!verified.ok) {
    return { ok: false, message: `Wrong signature: ${verified.message}.` };
  }
  const now = ctx.clock.now();
  const offset = (s.timestamp as number) - now;
  if (offset > ctx.settings.timestampAheadMs || -offset > ctx.settings.timestampBehindMs) {
    return {
      ok: false,
      message: `The settings' timestamp is ${Math.round(Math.abs(offset) / 1000)} s ${offset > 0 ? 'ahead of' : 'behind'} the service clock (allowed: 30 s ahead, 5 s behind). Sign the settings just before running the widget.`,
    };
  }
  let calculation: CalculationRecord | null = null;
  if (typeof s.calculation_id === 'string') {
    const found = ctx.store.getCalculation(s.calculation_id);
    if (!found || found.partnerToken !== partner.token) {
      return { ok: false, message: 'Unknown calculation_id: no fixed rate with this id for this partner.' };
    }
    if (found.expiresAt <= now) {
      return { ok: false, message: 'The fixed rate (calculation_id) has expired; fix a new rate.' };
    }
    for (const [field, fixed] of [
      ['from_currency', found.fromCurrency],
      ['to_currency', found.toCurrency],
    ] as const) {
      if (s[field] !== undefined && s[field] !== fixed) {
        return { ok: false, message: `${field} ${String(s[field])} differs from the fixed rate's ${fixed} (calculation_id).` };
      }
    }
    calculation = found;
  }
  const session: SessionRecord = {
    id: randomBytes(18).toString('base64url'),
    partnerToken: partner.token,
    settings: s,
    parentOrigin,
    instance,
    createdAt: now,
  };
  ctx.store.insertSession(session);
  return { ok: true, session, calculation };
}

/** The country a buyer paying in `fiat` most likely lives in (first listed user of the currency). */
function defaultCountry(fiat: string | undefined): string {
  const entry = Object.entries(COUNTRY_CURRENCY).find(([, code]) => code === (fiat ?? 'EUR'));
  return entry ? entry[0] : 'DE';
}

export function bootData(ctx: SandboxContext, instance: string, parentOrigin: string, check: Check, lang = 'en'): Record<string, unknown> {
  const common = {
    protocol: PROTOCOL,
    instance,
    parentOrigin,
    testCards: TEST_CARDS.map((c) => ({ number: c.number, outcome: c.outcome })),
    // Everything the frame says, in the page's language (frame-words.ts; its English is buyer-words.ts's).
    words: frameWords(lang),
  };
  if (!check.ok) {
    return { ...common, error: check.message };
  }
  const s = check.session.settings;
  const calc = check.calculation;
  const fromCurrency = (calc?.fromCurrency ?? s.from_currency) as string | undefined;
  return {
    ...common,
    error: null,
    session: check.session.id,
    // Whom the buyer pays and for what: the partner's name (else the page's host) and the order.
    payee: {
      name: payeeName(ctx.partners, check.session.partnerToken, parentOrigin),
      reference: referenceWords(typeof s.partner_operation_id === 'string' ? s.partner_operation_id : ''),
    },
    prefill: {
      from_currency: fromCurrency ?? 'EUR',
      from_amount: calc ? Number(calc.fromAmount) : (s.from_amount ?? null),
      to_currency: calc?.toCurrency ?? s.to_currency ?? 'BTC',
      to_amount: calc ? null : (s.to_amount ?? null),
      to_account: s.to_account ?? '',
      user_login: s.user_login ?? '',
    },
    fixed: calc
      ? { from_currency: calc.fromCurrency, to_currency: calc.toCurrency, from_amount: calc.fromAmount, to_amount: calc.toAmount, expires_at: calc.expiresAt }
      : null,
    fiat: FIAT_CURRENCIES.map((f) => {
      const limits = ctx.pricing.limits(f);
      return {
        code: f.code,
        name: f.name,
        symbol: f.symbol,
        decimals: f.decimals,
        min: limits.min.toString(),
        max: limits.maxKyc.toString(),
        kyc: limits.maxWithoutKyc.toString(),
      };
    }),
    crypto: CRYPTO_ASSETS.map((a) => ({ symbol: a.symbol, ticker: a.ticker, name: a.name, chain: a.chain, decimals: a.decimals })),
    countries: COUNTRIES.map((c) => ({ alpha2: c.alpha2, name: c.name })),
    defaultCountry: defaultCountry(fromCurrency),
  };
}

export function framePage(boot: Record<string, unknown>, lang: string, partnerCss: string | undefined): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(frameWords(lang).buyCrypto)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/widget/assets/theme.css">
<link rel="stylesheet" href="/widget/assets/frame.css">
${partnerCss ? `<link rel="stylesheet" href="${escapeHtml(partnerCss)}" id="partner-css">` : ''}
</head>
<body>
<div id="app" class="widgetColor widget" aria-live="polite"></div>
<script type="application/json" id="c2c-boot">${jsonForScript(boot)}</script>
<script type="importmap">${CORE_IMPORT_MAP}</script>
<script type="module" src="/widget/assets/frame.js"></script>
</body>
</html>`;
}

export async function handleFrame(req: IncomingMessage, res: ServerResponse, ctx: SandboxContext): Promise<void> {
  let form: URLSearchParams;
  try {
    form = new URLSearchParams(await readBody(req, ctx.settings.maxBodyBytes, 'form'));
  } catch (error) {
    if (!(error instanceof BodyError)) {
      throw error;
    }
    sendHtml(res, 400, `<!doctype html><p>${escapeHtml(error.message)}</p>`);
    return;
  }
  const instance = form.get('instance') ?? '';
  const header = req.headers.origin;
  const posted = form.get('parent_origin') ?? '';
  const parentOrigin = header && ORIGIN_RE.test(header) ? header : ORIGIN_RE.test(posted) ? posted : '';
  let check: Check;
  if (!/^[0-9a-f]{32}$/.test(instance)) {
    check = { ok: false, message: 'The widget frame was opened without the widget script.' };
  } else if (parentOrigin === '') {
    check = { ok: false, message: 'The widget must run on an http(s) page.' };
  } else {
    check = checkSettings(form.get('settings') ?? '', parentOrigin, instance, ctx);
  }
  const settings = check.ok ? check.session.settings : {};
  // Every ISO 639-1 code is accepted (the spec names the standard, no subset); the page is written in the
  // requested language when the sandbox has it, else in English, and declares the one its words are in
  // (docs/decisions.md, "Widget language").
  const lang = frameLanguage(settings.lang);
  const partnerCss = typeof settings.partner_css === 'string' ? settings.partner_css : undefined;
  sendHtml(res, 200, framePage(bootData(ctx, instance, parentOrigin, check, lang), lang, partnerCss), {
    // The frame lives inside partner pages.
    'content-security-policy': "frame-ancestors *; object-src 'none'; base-uri 'none'",
    'referrer-policy': 'no-referrer',
  });
}

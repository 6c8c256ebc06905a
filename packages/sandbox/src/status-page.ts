/**
 * The public status page of an operation: {status_page_url}/<operation id>.
 * It shows what the buyer may see (whom they pay and for what, the state in
 * words, amounts, wallet, transaction), not the e-mail or card, and refreshes
 * itself until the operation has ended. Times are written in UTC and turned
 * into the buyer's locale and time zone by the browser (local-time.js); the
 * status and code stay in data attributes, for tests and partners.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { classify, CRYPTO_ASSETS, formatMinorUnits } from '@card2crypto/core';
import { payeeName, referenceWords, statusWords } from './buyer-words.js';
import { explorerUrl } from './chain.js';
import type { SandboxContext } from './context.js';
import { escapeHtml, sendHtml } from './http.js';
import { layout } from './pages.js';

/** A time the browser writes in the buyer's locale; the text without script is UTC. */
function timeHtml(ms: number): string {
  const utc = `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  return `<time datetime="${new Date(ms).toISOString()}">${escapeHtml(utc)}</time>`;
}

function tickerOf(symbol: string): string {
  return CRYPTO_ASSETS.find((a) => a.symbol === symbol)?.ticker ?? symbol;
}

export async function handleStatusPage(req: IncomingMessage, res: ServerResponse, ctx: SandboxContext, url: URL): Promise<void> {
  req.resume();
  const id = decodeURIComponent(url.pathname.replace(/^\/status\/?/, ''));
  if (id === '') {
    const lookup = url.searchParams.get('id');
    if (lookup) {
      res.writeHead(303, { location: `/status/${encodeURIComponent(lookup)}` });
      res.end();
      return;
    }
    sendHtml(
      res,
      200,
      layout(
        'Operation status',
        `<main class="page"><h1>Operation status</h1><form method="get"><label>Operation id <input name="id" required></label> <button>Show</button></form></main>`,
      ),
    );
    return;
  }
  const op = ctx.operations.get(id);
  if (!op) {
    sendHtml(
      res,
      404,
      layout('Operation not found', `<main class="page"><h1>Operation not found</h1><p>No operation has the id <code>${escapeHtml(id)}</code>.</p></main>`),
    );
    return;
  }
  const c = classify(op.status, op.statusCode);
  const history = ctx.store
    .history(op.id)
    .filter((h, i, all) => i === 0 || h.statusCode !== all[i - 1]!.statusCode)
    .map(
      (h) =>
        `<li data-status="${escapeHtml(h.status)}" data-status-code="${h.statusCode}">${timeHtml(h.at)} ${escapeHtml(statusWords(h.status, h.statusCode))}</li>`,
    )
    .join('');
  const tx = op.txId
    ? `<tr><th>Transaction</th><td><a id="tx-link" href="${escapeHtml(explorerUrl(op.toCurrency, op.txId, op.toAccount))}">${escapeHtml(op.txId)}</a></td></tr>`
    : '';
  const store = payeeName(ctx.partners, op.partnerToken, '');
  const reference = referenceWords(op.partnerOperationId ?? '');
  const payee =
    store || reference
      ? `<p class="landing-for" id="payee">${store ? `Payment to <strong>${escapeHtml(store)}</strong>` : 'Payment'}${reference ? ` · ${escapeHtml(reference)}` : ''}</p>`
      : '';
  const body = `<main class="page status-page">
<h1>Payment status</h1>
${payee}
<p class="status ${escapeHtml(c.phase)}" id="status" data-status="${escapeHtml(op.status)}" data-status-code="${op.statusCode}"><strong>${escapeHtml(statusWords(op.status, op.statusCode))}</strong></p>
<table class="details">
<tr><th>Operation</th><td><code>${escapeHtml(op.id)}</code></td></tr>
<tr><th>Pay</th><td>${escapeHtml(formatMinorUnits(op.fromAmount, op.fromCurrency))} ${escapeHtml(op.fromCurrency)}</td></tr>
<tr><th>Receive</th><td>${escapeHtml(formatMinorUnits(op.toAmount, op.toCurrency))} ${escapeHtml(tickerOf(op.toCurrency))}</td></tr>
<tr><th>Wallet</th><td><code>${escapeHtml(op.toAccount)}</code></td></tr>
${tx}
<tr><th>Created</th><td>${timeHtml(op.createdAt)}</td></tr>
${op.paidAt !== null ? `<tr><th>Paid</th><td>${timeHtml(op.paidAt)}</td></tr>` : ''}
</table>
<h2>History</h2><ol class="history">${history}</ol>
</main>
<script src="/widget/assets/local-time.js"></script>`;
  sendHtml(res, 200, layout(`Operation ${op.id}`, body, { head: c.final ? '' : '<meta http-equiv="refresh" content="5">' }));
}

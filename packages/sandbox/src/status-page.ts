/**
 * The public status page of an operation: {status_page_url}/<operation id>.
 * It shows what the buyer may see (status, amounts, wallet, transaction), not
 * the e-mail or card, and refreshes itself until the operation has ended.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { classify, CRYPTO_ASSETS, formatMinorUnits } from '@card2crypto/core';
import { explorerUrl } from './chain.js';
import { serviceTime } from './clock.js';
import type { SandboxContext } from './context.js';
import { escapeHtml, sendHtml } from './http.js';
import { layout } from './pages.js';

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
        `<li><time>${escapeHtml(serviceTime(h.at))}</time> ${escapeHtml(h.status)} ${h.statusCode}: ${escapeHtml(classify(h.status, h.statusCode).meaning)}</li>`,
    )
    .join('');
  const tx = op.txId
    ? `<tr><th>Transaction</th><td><a id="tx-link" href="${escapeHtml(explorerUrl(op.toCurrency, op.txId, op.toAccount))}">${escapeHtml(op.txId)}</a></td></tr>`
    : '';
  const body = `<main class="page status-page">
<h1>Operation <code>${escapeHtml(op.id)}</code></h1>
<p class="status ${escapeHtml(c.phase)}" id="status" data-status="${escapeHtml(op.status)}" data-status-code="${op.statusCode}"><strong>${escapeHtml(op.status)}</strong> (${op.statusCode}): ${escapeHtml(c.meaning)}</p>
<table class="details">
<tr><th>Pay</th><td>${escapeHtml(formatMinorUnits(op.fromAmount, op.fromCurrency))} ${escapeHtml(op.fromCurrency)}</td></tr>
<tr><th>Receive</th><td>${escapeHtml(formatMinorUnits(op.toAmount, op.toCurrency))} ${escapeHtml(tickerOf(op.toCurrency))}</td></tr>
<tr><th>Wallet</th><td><code>${escapeHtml(op.toAccount)}</code></td></tr>
${tx}
<tr><th>Created</th><td>${escapeHtml(serviceTime(op.createdAt))}</td></tr>
${op.paidAt !== null ? `<tr><th>Paid</th><td>${escapeHtml(serviceTime(op.paidAt))}</td></tr>` : ''}
</table>
<h2>History</h2><ol class="history">${history}</ol>
</main>`;
  sendHtml(res, 200, layout(`Operation ${op.id}`, body, { head: c.final ? '' : '<meta http-equiv="refresh" content="5">' }));
}

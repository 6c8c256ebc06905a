/** Shared page layout and the home page (GET /, which answers once the sandbox is ready). */
import type { SandboxContext } from './context.js';
import { escapeHtml } from './http.js';
import { TEST_CARDS } from './scenarios.js';

export function layout(title: string, body: string, options: { head?: string } = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/widget/assets/pages.css">
${options.head ?? ''}
</head>
<body>
${body}
</body>
</html>`;
}

export function testCardsTable(): string {
  const rows = TEST_CARDS.map(
    (c) => `<tr><td><code>${escapeHtml(c.number.replace(/(\d{4})(?=\d)/g, '$1 '))}</code></td><td>${escapeHtml(c.outcome)}</td></tr>`,
  ).join('');
  return `<table class="test-cards"><thead><tr><th>Test card</th><th>Outcome</th></tr></thead><tbody>${rows}</tbody></table>
<p class="hint">Any expiry date in the future, any CVC, any holder name. Any other valid card number succeeds.</p>`;
}

export function homePage(ctx: SandboxContext): string {
  const urls = Object.entries(ctx.urls)
    .map(([name, url]) => `<tr><th>${escapeHtml(name)}</th><td><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></td></tr>`)
    .join('');
  const partners = ctx.partners
    .list()
    .map(
      (p) =>
        `<li><code>${escapeHtml(p.token)}</code>${p.blocked ? ' (blocked)' : ''}${p.callbackUrl ? ` → ${escapeHtml(p.callbackUrl)}` : ' (no callback URL)'}</li>`,
    )
    .join('');
  return layout(
    'card2crypto sandbox',
    `<main class="page">
<h1>card2crypto sandbox</h1>
<p>A local implementation of the card-to-crypto service: partner API, widget, landing page, status page and callbacks.</p>
<table class="urls">${urls}</table>
<h2>Partners</h2><ul>${partners || '<li>none configured (start with --partner TOKEN:SECRET[:CALLBACK_URL])</li>'}</ul>
<h2>Test cards</h2>${testCardsTable()}
</main>`,
  );
}

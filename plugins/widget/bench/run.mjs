// `npm run bench` (plugins/widget): what the block costs a visitor.
//
// 1. Bytes: the view script and its CSS as shipped (minified by wp-scripts build),
//    gzipped and brotli-compressed, against the 1.5 KB goal.
// 2. Time from page load to the widget's onLoaded against the sandbox, side
//    by side in one run: the block's way (view script -> sign route -> widget
//    script -> run) and the direct embed the spec describes (widget script in
//    the page, settings signed into the HTML). The sign route here is a
//    stand-in in Node (core's buildSignedWidgetSettings) so WordPress's own
//    page time is not measured; `-- --site URL` also times a real WordPress
//    page that holds the block.
//
// Needs `npm run build` first (root), Chromium at /usr/bin/chromium.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { buildSignedWidgetSettings } from '@card2crypto/core';
import { chromium } from 'playwright-core';
import { startSandbox } from '../../../scripts/lib/sandbox.mjs';
import { freePort } from '../../../scripts/lib/ports.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const build = join(here, '..', 'build');
const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '7' }, site: { type: 'string' } } });
const RUNS = Number(args.runs);
const GOAL = 1536;

// ---------------------------------------------------------------- 1. bytes
const files = ['view.js', 'view.css'].map((name) => {
  const bytes = readFileSync(join(build, name));
  return {
    name,
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
});
const total = files.reduce((t, f) => ({ raw: t.raw + f.raw, gzip: t.gzip + f.gzip, brotli: t.brotli + f.brotli }), { raw: 0, gzip: 0, brotli: 0 });
console.log('Front-end weight of the widget block (minified)');
console.log('  file         raw B   gzip B  brotli B');
for (const f of [...files, { name: 'together', ...total }]) {
  console.log(`  ${f.name.padEnd(10)} ${String(f.raw).padStart(7)} ${String(f.gzip).padStart(8)} ${String(f.brotli).padStart(9)}`);
}
console.log(
  `  goal: at most ${GOAL} B gzipped together -> ${total.gzip} B = ${((100 * total.gzip) / GOAL).toFixed(0)} % of the goal (${total.gzip <= GOAL ? 'met' : 'NOT met'})`,
);
console.log(
  `  for scale (figures quoted in the issue, not measured here): MoonPay loader 541 B gz (x${(total.gzip / 541).toFixed(2)}), Wert 2.6 KB gz (x${(total.gzip / 2662).toFixed(2)})`,
);

// ---------------------------------------------------------------- 2. time to onLoaded
const partner = { token: 'bench-widget', secret: 'bench-widget-secret', callbackUrl: 'http://127.0.0.1:9/callback' };
const sandboxPort = await freePort(0);
const sandbox = await startSandbox({
  port: sandboxPort,
  partner,
  logFile: '/tmp/card2crypto-widget-bench-sandbox.log',
  dataDir: `/tmp/card2crypto-widget-bench-${process.pid}`,
});
if (!sandbox) {
  throw new Error('The sandbox is not built: run npm run build at the root first.');
}
const scriptUrl = `${sandbox.url}/widget.js`;
const viewJs = readFileSync(join(build, 'view.js'));
const viewCss = readFileSync(join(build, 'view.css'));
const sign = (target) =>
  buildSignedWidgetSettings(
    { target_element: target, partner_token: partner.token, from_currency: 'EUR', from_amount: 5000, to_currency: 'BTC' },
    { secret: partner.secret },
  );

// The page the block renders (same markup as Widget_Block::render_widget) and the direct embed.
const pages = {
  '/block.html': () =>
    `<!doctype html><meta charset=utf-8><link rel=stylesheet href=/view.css><div class="c2c-widget"><div id="c2c-widget-000000000000-1" class="c2c-widget__frame" data-c2c-ref="${'0'.repeat(64)}" data-c2c-block="[]" data-c2c-sign="/sign"><p>Loading…</p></div></div>` +
    `<script>addEventListener('card2crypto-widget',e=>{if(e.detail.event==='onLoaded')window.loadedAt=performance.now()})</script><script src=/view.js defer></script>`,
  '/direct.html': () =>
    `<!doctype html><meta charset=utf-8><div id=w></div><script src="${scriptUrl}"></script>` +
    `<script>Card2CryptoWidget.run(Object.assign(${JSON.stringify(sign('w'))},{onLoaded:()=>{window.loadedAt=performance.now()}}),'POST')</script>`,
};
const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/sign') {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { blocks } = JSON.parse(body);
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ script: scriptUrl, results: blocks.map((b) => ({ settings: sign(b.target) })) }));
    });
    return;
  }
  if (req.url === '/view.js') {
    return res.writeHead(200, { 'content-type': 'text/javascript' }).end(viewJs);
  }
  if (req.url === '/view.css') {
    return res.writeHead(200, { 'content-type': 'text/css' }).end(viewCss);
  }
  const page = pages[req.url];
  if (!page) {
    return res.writeHead(404).end();
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page());
});
const pagePort = await freePort(0);
await new Promise((r) => server.listen(pagePort, '127.0.0.1', r));

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
async function timeToLoaded(url) {
  const context = await browser.newContext(); // cold cache every run
  const page = await context.newPage();
  try {
    if (url.includes('/block.html') || url.includes('/direct.html')) {
      await page.goto(url);
    } else {
      await page.addInitScript(() => addEventListener('card2crypto-widget', (e) => e.detail.event === 'onLoaded' && (window.loadedAt ??= performance.now())));
      await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
    }
    const loaded = await page.waitForFunction(() => window.loadedAt, null, { timeout: 60_000 });
    return await loaded.jsonValue();
  } finally {
    await context.close();
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const targets = [
  ['direct embed (script + inline signed settings)', `http://127.0.0.1:${pagePort}/direct.html`],
  ['block view script (sign route + script + run)', `http://127.0.0.1:${pagePort}/block.html`],
];
if (args.site) {
  targets.push([`WordPress page ${args.site}`, args.site]);
}
const times = new Map(targets.map(([label]) => [label, []]));
try {
  await timeToLoaded(targets[0][1]); // warm the sandbox once
  for (let i = 0; i < RUNS; i++) {
    for (const [label, url] of targets) {
      times.get(label).push(await timeToLoaded(url));
    }
  }
} finally {
  await browser.close();
  server.close();
  await sandbox.stop();
}
const base = median(times.get(targets[0][0]));
console.log(`\nTime from navigation start to onLoaded, against the sandbox (${RUNS} runs each, interleaved, cold browser cache; median, min..max)`);
for (const [label] of targets) {
  const xs = times.get(label);
  console.log(
    `  ${label.padEnd(52)} ${median(xs).toFixed(0).padStart(6)} ms  (${Math.min(...xs).toFixed(0)}..${Math.max(...xs).toFixed(0)})  x${(median(xs) / base).toFixed(2)} of direct`,
  );
}

/**
 * npm run bench (plugins/checkout):
 *
 * 1. Bundle size: build/blocks.js (block checkout) minified and gzipped, next
 *    to its smallest peers (reference sizes quoted in the issue: WooCommerce's
 *    dummy gateway about 370 B, BTCPay 635 B; goal <= 600 B) and
 *    build/order-pay.js, which only the order-pay page loads.
 *
 * On the real stack (the native runtime: PHP-FPM with 4 workers, nginx,
 * MariaDB; a store with WooCommerce and both plugins is started on ports
 * 9620/9670 and stopped):
 * 2. ratio: server time per request of the callback route (a verified
 *    duplicate: signature check, event claim) against a bare REST route of the
 *    same WordPress, interleaved in one run; the ratio of medians (goal <= 1.5x).
 * 3. duplicates: 200 concurrent deliveries of one new callback: exactly one
 *    transition, 199 acknowledged as already received, the order's notes and
 *    meta written once; the wall time (goal <= 10 s).
 * 4. shuffled: 200 concurrent deliveries of different events for one order
 *    (2, 8, 9, 6, 0 and their duplicates, shuffled): the order ends paid and
 *    its status never moved backwards.
 * 5. frontend: a shop page (the widget in the sidebar) and a post page (no
 *    widget) with both plugins active against the same pages with both
 *    inactive for that request, interleaved on one site (goal <= 1.05x); the
 *    page without a widget loads no script or style of ours.
 * 6. flood: one order's landing route flooded from several clients while
 *    other buyers pay: service calls per request (sandbox-counted; goals <= 2
 *    fresh, <= 1 reuse) and the other buyers' success rate (goal 100 %).
 *
 * BENCH_REQUESTS (default 100) and BENCH_DUPLICATES (default 200) size the
 * runs; BENCH_SECTIONS=ratio,duplicates,shuffled,frontend,flood runs some of them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseLandingUrl, sign } from '@card2crypto/core';
import { PLUGIN_DIR, REPO_DIR } from '../test/support/php.js';

const PEERS: Array<[string, number]> = [
  ['WooCommerce dummy gateway (reference)', 370],
  ['BTCPay for WooCommerce (reference)', 635],
];
const GOAL_BYTES = 600;

function sizes(): void {
  console.log('\n== Block checkout script (minified + gzip -9) ==');
  const rows: Array<[string, number, number]> = [];
  for (const name of ['blocks', 'order-pay']) {
    const file = path.join(PLUGIN_DIR, 'build', `${name}.js`);
    const code = readFileSync(file);
    rows.push([`card2crypto ${name}.js${name === 'order-pay' ? ' (order-pay page only)' : ''}`, code.length, gzipSync(code, { level: 9 }).length]);
  }
  for (const [label, min, gz] of rows) {
    console.log(`${label.padEnd(48)} ${String(min).padStart(6)} B min  ${String(gz).padStart(5)} B gz`);
  }
  for (const [label, gz] of PEERS) {
    console.log(`${label.padEnd(48)} ${''.padStart(6)}        ${String(gz).padStart(5)} B gz`);
  }
  const blocks = rows[0]![2];
  console.log(
    `blocks.js: ${blocks} B gzipped, goal <= ${GOAL_BYTES} B: ${blocks <= GOAL_BYTES ? 'met' : 'NOT met'}; ${(blocks / 370).toFixed(2)}x the dummy gateway, ${(blocks / 635).toFixed(2)}x BTCPay`,
  );
}

interface Store {
  storeUrl: string;
  sandbox: { url: string } | null;
  partner: { token: string };
  woocommerce: { products: Array<{ id: number }> } | null;
  dirs: { harnessDir: string; siteDir: string };
  runtime: { name: string; php: string; database: string; webServer: string };
  native: { dbSocket: string; runPhp: (files: string[]) => Promise<unknown> } | null;
  stop: () => Promise<void>;
}

interface Harness {
  startStore: (o: object) => Promise<Store>;
  chooseRuntime: (o: { preferred: string }) => { runtime: string; why: string };
  sql: (socket: string, statements: string) => Promise<string>;
}

async function harness(): Promise<Harness> {
  const load = (file: string) => import(pathToFileURL(path.join(REPO_DIR, 'scripts', 'lib', file)).href);
  return Object.assign({}, ...(await Promise.all(['store.mjs', 'runtime.mjs', 'native/mariadb.mjs'].map(load)))) as Harness;
}

/** Places an order through the Store API; returns its landing params. */
async function placeOrder(s: Store): Promise<Record<string, unknown>> {
  const base = `${s.storeUrl}/wp-json/wc/store/v1`;
  const cart = await fetch(`${base}/cart`);
  const nonce = cart.headers.get('nonce') ?? '';
  const token = cart.headers.get('cart-token') ?? '';
  const headers = { Nonce: nonce, 'Cart-Token': token, 'Content-Type': 'application/json' };
  await fetch(`${base}/cart/add-item`, { method: 'POST', headers, body: JSON.stringify({ id: s.woocommerce!.products[0]!.id, quantity: 1 }) });
  const address = { first_name: 'Bench', last_name: 'Buyer', address_1: 'Main 1', city: 'Berlin', postcode: '10115', country: 'DE' };
  const response = await fetch(`${base}/checkout`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ billing_address: { ...address, email: 'bench@example.com' }, shipping_address: address, payment_method: 'card2crypto' }),
  });
  const body = (await response.json()) as { payment_result?: { redirect_url: string } };
  const link = await fetch(body.payment_result?.redirect_url ?? 'about:blank', { redirect: 'manual' });
  const parsed = parseLandingUrl(link.headers.get('location') ?? '');
  if (!parsed.ok) {
    throw new Error(`checkout failed: ${JSON.stringify(body).slice(0, 300)}`);
  }
  return parsed.payload.params;
}

/** The status the service pairs with each code (core's status model). */
const STATUS_OF: Record<number, string> = { 0: 'success', 6: 'success', 8: 'awaiting confirm' };

function callbackBody(params: Record<string, unknown>, secret: string, code: number): string {
  const body: Record<string, unknown> = {
    operation_data: {
      status: STATUS_OF[code] ?? 'pending',
      status_code: code,
      operation_info: {
        id: `bench-${String(params.partner_operation_id)}`,
        created_at: '2026-11-21T22:00:00.0000000Z',
        from: { payment_method: 1, payment_method_info: {}, currency: { code: params.from_currency, decimals: 2 }, amount: params.from_amount },
        to: {
          withdrawal_method: 1,
          // A withdrawal transaction exists from code 6 on (6: created, 0: completed).
          withdrawal_method_info: {
            blockchain_address: params.to_account,
            ...(code === 6 || code === 0
              ? { blockchain_tx_id: `tx-bench-${String(params.partner_operation_id)}`, blockchain_explorer_url: `https://mempool.space/tx/tx-bench` }
              : {}),
          },
          currency: { code: 'BTC', decimals: 8 },
          amount: 1000,
        },
        currency_rate: 64000,
        status_url: 'http://127.0.0.1/status/bench',
      },
      partner_info: { operation_id: params.partner_operation_id, token: params.partner_token },
    },
  };
  body.signature = sign(body, secret, { form: 'general' });
  return JSON.stringify(body);
}

/**
 * POST through node:http with no client-side time limit: 200 simultaneous
 * requests queue behind the site's PHP workers (a real service waits too:
 * partner rules say not to limit delivery time).
 */
function postUnlimited(url: string, body: string): Promise<{ ms: number; status: number; text: string }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', (e) => resolve({ ms: performance.now() - t0, status: 0, text: `network error: ${e.message}` }));
    req.end(body);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(url: string, init: RequestInit): Promise<{ ms: number; status: number; text: string }> {
  const t0 = performance.now();
  const r = await fetch(url, init);
  const text = await r.text();
  return { ms: performance.now() - t0, status: r.status, text };
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

async function callbackRatio(s: Store, secret: string, params: Record<string, unknown>): Promise<void> {
  const route = `${s.storeUrl}/wp-json/card2crypto/v1/callback`;
  const bare = `${s.storeUrl}/wp-json/card2crypto/v1`;
  const body = callbackBody(params, secret, 2);
  const first = await timed(route, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (first.status !== 200) {
    throw new Error(`callback answered ${first.status} ${first.text}`);
  }

  const n = Number(process.env.BENCH_REQUESTS ?? 100);
  const warmup = 5;
  console.log(`\n== Callback route vs bare REST route (${n} interleaved sequential requests each, after ${warmup} warm-up pairs) ==`);
  const cb: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < n + warmup; i++) {
    // Alternate which goes first so neither always follows the other.
    const pair: Array<() => Promise<void>> = [
      async () => {
        const r = await timed(bare, { method: 'GET' });
        if (r.status !== 200) {
          throw new Error(`bare route answered ${r.status}`);
        }
        if (i >= warmup) {
          plain.push(r.ms);
        }
      },
      async () => {
        const r = await timed(route, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        if (r.status !== 200) {
          throw new Error(`duplicate answered ${r.status} ${r.text}`);
        }
        if (i >= warmup) {
          cb.push(r.ms);
        }
      },
    ];
    if (i % 2 === 1) {
      pair.reverse();
    }
    for (const step of pair) {
      await step();
    }
  }
  const row = (label: string, xs: number[]) =>
    console.log(`${label.padEnd(48)} median ${median(xs).toFixed(1)} ms  (p25 ${quantile(xs, 0.25).toFixed(1)}, p75 ${quantile(xs, 0.75).toFixed(1)})`);
  row('bare REST route (GET /wp-json/card2crypto/v1)', plain);
  row('callback route (verified duplicate)', cb);
  const ratio = median(cb) / median(plain);
  const half = Math.floor(n / 2);
  const firstHalf = median(cb.slice(0, half)) / median(plain.slice(0, half));
  const secondHalf = median(cb.slice(half)) / median(plain.slice(half));
  console.log(
    `ratio ${ratio.toFixed(2)}x (goal <= 1.5x): ${ratio <= 1.5 ? 'met' : 'NOT met'}; stability: first half ${firstHalf.toFixed(2)}x, second half ${secondHalf.toFixed(2)}x`,
  );
}

/** One number from the site's database (native sites only). */
async function count(lib: Harness, s: Store, query: string): Promise<number> {
  return Number((await lib.sql(s.native!.dbSocket, `USE wordpress; ${query}`)).trim());
}

/** The order's notes, oldest first (WooCommerce keeps them as comments, with and without HPOS). */
async function orderNotes(lib: Harness, s: Store, orderId: number): Promise<string[]> {
  const text = await lib.sql(
    s.native!.dbSocket,
    `USE wordpress; SELECT REPLACE(comment_content, '\\n', ' ') FROM wp_comments WHERE comment_post_ID = ${orderId} AND comment_type = 'order_note' ORDER BY comment_ID`,
  );
  return text.split('\n').filter(Boolean);
}

/** Meta keys stored more than once for the order (HPOS order meta and post meta alike). */
const repeatedMeta = (orderId: number) =>
  `SELECT COUNT(*) FROM (SELECT meta_key FROM wp_wc_orders_meta WHERE order_id = ${orderId} GROUP BY meta_key HAVING COUNT(*) > 1 ` +
  `UNION ALL SELECT meta_key FROM wp_postmeta WHERE post_id = ${orderId} GROUP BY meta_key HAVING COUNT(*) > 1) AS repeated`;

function tally(answers: Array<{ status: number; text: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of answers) {
    counts.set(`${a.status} ${a.text}`, (counts.get(`${a.status} ${a.text}`) ?? 0) + 1);
  }
  for (const [answer, n] of counts) {
    console.log(`${String(n).padStart(5)} x ${answer.slice(0, 120)}`);
  }
  return counts;
}

async function concurrentDuplicates(lib: Harness, s: Store, secret: string, params: Record<string, unknown>): Promise<void> {
  const route = `${s.storeUrl}/wp-json/card2crypto/v1/callback`;
  const dup = Number(process.env.BENCH_DUPLICATES ?? 200);
  const orderId = Number(String(params.partner_operation_id).match(/\d+/)?.[0]);
  console.log(`\n== ${dup} concurrent deliveries of one new callback (order ${orderId}) ==`);
  const notesBefore = (await orderNotes(lib, s, orderId)).length;
  const next = callbackBody(params, secret, 3);
  const t0 = performance.now();
  const answers = await Promise.all(Array.from({ length: dup }, () => postUnlimited(route, next)));
  const seconds = (performance.now() - t0) / 1000;
  const counts = tally(answers);
  const transitions = counts.get('200 OK') ?? 0;
  const duplicates = counts.get('200 OK (already received)') ?? 0;
  // The one transition writes one note of ours; the e-mails it sends add WooCommerce's own notes, each once.
  const added = (await orderNotes(lib, s, orderId)).slice(notesBefore);
  const ours = added.filter((note) => note.startsWith('Card2Crypto:')).length;
  const repeatedNotes = added.length - new Set(added).size;
  console.log(`notes added:\n${added.map((note) => `  ${note.slice(0, 140)}`).join('\n')}`);
  const repeated = await count(lib, s, repeatedMeta(orderId));
  const ok = transitions === 1 && duplicates === dup - 1 && ours === 1 && repeatedNotes === 0 && repeated === 0;
  console.log(
    `transitions: ${transitions} (expected exactly 1), duplicates acknowledged: ${duplicates}/${dup - 1}, notes of ours: ${ours} (expected 1), ` +
      `notes written twice: ${repeatedNotes}, meta keys stored twice: ${repeated}: ${ok ? 'met' : 'NOT met'}`,
  );
  console.log(`wall time ${seconds.toFixed(1)} s for ${dup} deliveries (goal <= 10 s): ${seconds <= 10 ? 'met' : 'NOT met'}`);
  if (!ok || seconds > 10) {
    process.exitCode = 1;
  }
}

/** Puts the bench operation into the sandbox's state (its test helper, signed like partner API requests), as the service would have it at `code`. */
async function serviceHas(s: Store, secret: string, params: Record<string, unknown>, code: number): Promise<void> {
  const { SANDBOX_OPERATIONS_PATH } = await import('@card2crypto/sandbox');
  const body: Record<string, unknown> = {
    partner_token: params.partner_token,
    timestamp: Date.now(),
    operation_id: `bench-${String(params.partner_operation_id)}`,
    partner_operation_id: params.partner_operation_id,
    status: STATUS_OF[code] ?? 'pending',
    status_code: code,
    from_currency: params.from_currency,
    from_amount: params.from_amount,
    to_currency: 'BTC',
    to_amount: 1000,
    to_account: params.to_account,
    ...(code === 6 || code === 0 ? { blockchain_tx_id: `tx-bench-${String(params.partner_operation_id)}` } : {}),
  };
  body.signature = sign(body, secret, { form: 'general' });
  const response = await fetch(`${s.sandbox!.url}${SANDBOX_OPERATIONS_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) {
    throw new Error(`the sandbox refused the bench operation: ${response.status} ${await response.text()}`);
  }
}

/** Fisher-Yates with a fixed seed, so a run can be repeated. */
function shuffle<T>(items: T[], seed = 20261123): T[] {
  let x = seed;
  const random = () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

const STATUS_RANK: Record<string, number> = { pending: 0, 'on-hold': 1, processing: 2, completed: 3 };

/** [from, to] of each status change of the order, in order (the bench mu-plugin's log). */
function statusChanges(s: Store, orderId: number): Array<[string, string]> {
  const file = path.join(s.dirs.siteDir, 'wp-content', 'c2c-bench-status.log');
  if (!existsSync(file)) {
    return [];
  }
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .filter((parts) => Number(parts[0]) === orderId)
    .map((parts) => [parts[1]!, parts[2]!]);
}

async function shuffledEvents(lib: Harness, s: Store, secret: string, params: Record<string, unknown>): Promise<void> {
  const route = `${s.storeUrl}/wp-json/card2crypto/v1/callback`;
  const total = Number(process.env.BENCH_DUPLICATES ?? 200);
  const orderId = Number(String(params.partner_operation_id).match(/\d+/)?.[0]);
  const codes = [2, 8, 9, 6, 0];
  // The service's own state: the checkout completes an order only once operation info says success.
  await serviceHas(s, secret, params, 0);
  const bodies = shuffle(Array.from({ length: total }, (_, i) => callbackBody(params, secret, codes[i % codes.length]!)));
  console.log(
    `\n== ${total} concurrent deliveries of different events for one order (codes ${codes.join(', ')} and duplicates, shuffled; order ${orderId}) ==`,
  );
  const t0 = performance.now();
  const answers = await Promise.all(bodies.map((body) => postUnlimited(route, body)));
  const seconds = (performance.now() - t0) / 1000;
  tally(answers);
  const refused = answers.filter((a) => a.status !== 200).length;
  const status = (await lib.sql(s.native!.dbSocket, `USE wordpress; SELECT status FROM wp_wc_orders WHERE id = ${orderId}`)).trim();
  const changes = statusChanges(s, orderId);
  const backwards = changes.filter(([from, to]) => (STATUS_RANK[to] ?? 0) < (STATUS_RANK[from] ?? 0));
  const ok = refused === 0 && status === 'wc-processing' && backwards.length === 0;
  console.log(
    `final status ${status} (expected wc-processing); status changes: ${changes.map(([a, b]) => `${a}->${b}`).join(', ') || 'none'}; backwards: ${backwards.length}; non-200 answers: ${refused}: ${ok ? 'met' : 'NOT met'}; ${seconds.toFixed(1)} s`,
  );
  if (!ok) {
    process.exitCode = 1;
  }
}

/**
 * Benchmark only, written into the bench site: switches our two plugins off
 * for one request (header X-C2C-Bench-Plugins: off), so both sides of the
 * front-end comparison run on one site; and logs every order status change,
 * so a run can tell whether an order ever moved backwards.
 */
const BENCH_PLUGIN = `<?php
add_action(
	'woocommerce_order_status_changed',
	static function ( $id, $from, $to ) {
		file_put_contents( WP_CONTENT_DIR . '/c2c-bench-status.log', "$id $from $to\\n", FILE_APPEND | LOCK_EX );
	},
	10,
	3
);
// The flood section gives each simulated client its own address (X-Forwarded-For), as a store behind its proxy does.
if ( isset( $_SERVER['HTTP_X_C2C_BENCH_CLIENTS'] ) ) {
	add_filter(
		'option_woocommerce_card2crypto_settings',
		static function ( $settings ) {
			return is_array( $settings ) ? array( 'trust_proxy_header' => 'X-Forwarded-For' ) + $settings : $settings;
		}
	);
}
if ( isset( $_SERVER['HTTP_X_C2C_BENCH_PLUGINS'] ) && 'off' === $_SERVER['HTTP_X_C2C_BENCH_PLUGINS'] ) {
	add_filter(
		'option_active_plugins',
		static function ( $plugins ) {
			return array_values( array_filter( (array) $plugins, static function ( $p ) { return 0 !== strpos( $p, 'card2crypto-' ); } ) );
		}
	);
}
`;

/** Takes every widget out of the sidebar (after the shop page is measured with ours in it). */
const EMPTY_SIDEBAR = `<?php
$areas              = get_option( 'sidebars_widgets', array() );
$areas['sidebar-1'] = array();
update_option( 'sidebars_widgets', $areas );
`;

/** Creates a plain post for the page without a widget. */
const POST_WITHOUT_WIDGET = `<?php
$id = wp_insert_post( array( 'post_title' => 'Bench post', 'post_content' => str_repeat( '<p>Plain text, no widget.</p>', 20 ), 'post_status' => 'publish' ) );
update_option( 'c2c_bench_post', get_permalink( $id ) );
`;

async function frontEnd(lib: Harness, s: Store): Promise<void> {
  const n = Number(process.env.BENCH_REQUESTS ?? 100);
  const script = path.join(s.dirs.siteDir, '..', 'bench-post.php');
  writeFileSync(script, POST_WITHOUT_WIDGET);
  await s.native!.runPhp([script]);
  const emptySidebar = path.join(s.dirs.siteDir, '..', 'bench-empty-sidebar.php');
  writeFileSync(emptySidebar, EMPTY_SIDEBAR);
  const postUrl = (await lib.sql(s.native!.dbSocket, "USE wordpress; SELECT option_value FROM wp_options WHERE option_name = 'c2c_bench_post'")).trim();
  // The post page shows no widget: the sidebar is emptied before it (the shop page, measured first, keeps ours).
  const pages: Array<[string, string, boolean]> = [
    ['shop page (widget in the sidebar)', `${s.storeUrl}/`, true],
    ['post page (no widget)', postUrl, false],
  ];
  console.log(`\n== Front-end overhead: both plugins active vs inactive, same site, ${n} interleaved pairs per page after 5 warm-up pairs ==`);
  for (const [label, url, widget] of pages) {
    if (!widget) {
      await s.native!.runPhp([emptySidebar]);
    }
    const on: number[] = [];
    const off: number[] = [];
    let html = '';
    for (let i = 0; i < n + 5; i++) {
      const pair: Array<() => Promise<void>> = [
        async () => {
          const r = await timed(url, { headers: { 'x-c2c-bench-plugins': 'on' } });
          if (r.status !== 200) {
            throw new Error(`${url} answered ${r.status}`);
          }
          html = r.text;
          if (i >= 5) {
            on.push(r.ms);
          }
        },
        async () => {
          const r = await timed(url, { headers: { 'x-c2c-bench-plugins': 'off' } });
          if (r.status !== 200) {
            throw new Error(`${url} (plugins off) answered ${r.status}`);
          }
          if (i >= 5) {
            off.push(r.ms);
          }
        },
      ];
      if (i % 2 === 1) {
        pair.reverse();
      }
      for (const step of pair) {
        await step();
      }
    }
    const tags = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)=["']([^"']*\/plugins\/card2crypto-[^"']*)["']/g)].map((m) => m[1]!);
    const ours = tags.length;
    if (!widget && ours) {
      console.log(`  ours on a page without a widget: ${tags.join(', ')}`);
    }
    const ratio = median(on) / median(off);
    console.log(
      `${label}: plugins active median ${median(on).toFixed(1)} ms (p25 ${quantile(on, 0.25).toFixed(1)}, p75 ${quantile(on, 0.75).toFixed(1)}), inactive ${median(off).toFixed(1)} ms (p25 ${quantile(off, 0.25).toFixed(1)}, p75 ${quantile(off, 0.75).toFixed(1)})`,
    );
    console.log(
      `  ratio ${ratio.toFixed(3)}x (goal <= 1.05x): ${ratio <= 1.05 ? 'met' : 'NOT met'}; scripts and styles of ours on the page: ${ours}${widget ? '' : ` (expected 0: ${ours === 0 ? 'met' : 'NOT met'})`}`,
    );
    if (!widget && ours !== 0) {
      process.exitCode = 1;
    }
  }
}

/** Partner API requests the sandbox has received from the store's partner (every endpoint). */
async function serviceCalls(s: Store): Promise<number> {
  const state = (await (await fetch(`${s.sandbox!.url}/dashboard/api/state?limit=1`)).json()) as {
    partners: Array<{ token: string; api_calls?: Record<string, number> }>;
  };
  const mine = state.partners.find((p) => p.token === s.partner.token);
  return Object.values(mine?.api_calls ?? {}).reduce((a, b) => a + b, 0);
}

/** Places an order through the Store API as the client at `address`; returns the landing link placing it sent the buyer to. */
async function placeOrderLink(s: Store, address: string): Promise<string> {
  const base = `${s.storeUrl}/wp-json/wc/store/v1`;
  const client = { 'X-C2C-Bench-Clients': '1', 'X-Forwarded-For': address };
  const cart = await fetch(`${base}/cart`, { headers: client });
  const headers = { ...client, Nonce: cart.headers.get('nonce') ?? '', 'Cart-Token': cart.headers.get('cart-token') ?? '', 'Content-Type': 'application/json' };
  await fetch(`${base}/cart/add-item`, { method: 'POST', headers, body: JSON.stringify({ id: s.woocommerce!.products[0]!.id, quantity: 1 }) });
  const address_ = { first_name: 'Flood', last_name: 'Buyer', address_1: 'Main 1', city: 'Berlin', postcode: '10115', country: 'DE' };
  const response = await fetch(`${base}/checkout`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ billing_address: { ...address_, email: 'flood@example.com' }, shipping_address: address_, payment_method: 'card2crypto' }),
  });
  const body = (await response.json()) as { payment_result?: { redirect_url?: string } };
  if (!body.payment_result?.redirect_url) {
    throw new Error(`checkout failed: ${JSON.stringify(body).slice(0, 300)}`);
  }
  return body.payment_result.redirect_url;
}

/** Follows a landing link once as the client at `address`: true when it was sent to the service's landing page. */
async function followLanding(link: string, address: string): Promise<boolean> {
  const response = await fetch(link, { redirect: 'manual', headers: { 'X-C2C-Bench-Clients': '1', 'X-Forwarded-For': address } });
  return parseLandingUrl(response.headers.get('location') ?? '').ok;
}

/**
 * 6. flood: one visitor with the key of their own order floods its landing
 *    route from FLOOD_CLIENTS addresses at once while other buyers place
 *    orders and follow their landing links. Service calls per request are
 *    counted by the sandbox (its API call counter): a fresh order's first
 *    landing (goal <= 2), a reuse (goal <= 1), the flood's (far below 1:
 *    the budget refuses before asking); the other buyers must all reach the
 *    landing page (goal 100 %).
 */
async function floodSection(s: Store): Promise<void> {
  console.log("\n== Flood: one order's landing route from several clients, other buyers paying meanwhile ==");
  const clients = Number(process.env.BENCH_FLOOD_CLIENTS ?? 4);
  const perClient = Number(process.env.BENCH_FLOOD_REQUESTS ?? 40);
  const buyers = Number(process.env.BENCH_FLOOD_BUYERS ?? 10);

  const attacker = await placeOrderLink(s, '198.51.100.10');
  let before = await serviceCalls(s);
  const first = await followLanding(attacker, '198.51.100.10');
  const fresh = (await serviceCalls(s)) - before;
  before = await serviceCalls(s);
  const again = await followLanding(attacker, '198.51.100.10');
  const reuse = (await serviceCalls(s)) - before;

  // Other buyers' orders are placed first (placing makes at most a health check), then followed during the flood.
  const links = await Promise.all(Array.from({ length: buyers }, (_, i) => placeOrderLink(s, `203.0.113.${i + 1}`)));
  before = await serviceCalls(s);
  const started = Date.now();
  const [floodAnswers, buyerAnswers] = await Promise.all([
    Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        const sent: boolean[] = [];
        for (let i = 0; i < perClient; i++) {
          sent.push(await followLanding(attacker, `198.51.100.${20 + c}`));
        }
        return sent;
      }),
    ),
    Promise.all(
      links.map(async (link, i) => {
        await new Promise((resolve) => setTimeout(resolve, 200 * i));
        return followLanding(link, `203.0.113.${i + 1}`);
      }),
    ),
  ]);
  const seconds = (Date.now() - started) / 1000;
  const during = (await serviceCalls(s)) - before;
  const floodRequests = clients * perClient;
  const served = floodAnswers.flat().filter(Boolean).length;
  const ok = buyerAnswers.filter(Boolean).length;
  console.log(
    `fresh order, first landing: ${first ? 'sent to the landing page' : 'NOT sent'}; ${fresh} service calls (goal <= 2: ${fresh <= 2 ? 'met' : 'NOT met'})`,
  );
  console.log(`the same order again (a reuse): ${again ? 'sent' : 'NOT sent'}; ${reuse} service calls (goal <= 1: ${reuse <= 1 ? 'met' : 'NOT met'})`);
  console.log(
    `flood: ${floodRequests} requests from ${clients} clients in ${seconds.toFixed(1)} s, ${served} sent on to the service's page, the rest refused by the budget; ` +
      `${during} service calls in that time for the flood and ${buyers} other buyers (${(during / (floodRequests + buyers)).toFixed(2)} per request)`,
  );
  console.log(
    `other buyers reaching the landing page during the flood: ${ok}/${buyers} = ${((100 * ok) / buyers).toFixed(0)} % (goal 100 %: ${ok === buyers ? 'met' : 'NOT met'})`,
  );
}

async function wordpressSections(lib: Harness, s: Store): Promise<void> {
  const muPlugins = path.join(s.dirs.siteDir, 'wp-content', 'mu-plugins');
  mkdirSync(muPlugins, { recursive: true });
  writeFileSync(path.join(muPlugins, 'c2c-bench.php'), BENCH_PLUGIN);
  const secret = (JSON.parse(readFileSync(path.join(s.dirs.harnessDir, 'partner.json'), 'utf8')) as { secret: string }).secret;
  // Each section runs and prints its figures even when another fails.
  const only = process.env.BENCH_SECTIONS?.split(',');
  const sections: Array<[string, () => Promise<void>]> = [
    ['ratio', async () => callbackRatio(s, secret, await placeOrder(s))],
    ['duplicates', async () => concurrentDuplicates(lib, s, secret, await placeOrder(s))],
    ['shuffled', async () => shuffledEvents(lib, s, secret, await placeOrder(s))],
    ['frontend', () => frontEnd(lib, s)],
    ['flood', () => floodSection(s)],
  ];
  for (const [name, section] of sections) {
    if (only && !only.includes(name)) {
      continue;
    }
    try {
      await section();
    } catch (error) {
      console.log(`${name}: FAILED: ${(error as Error).message}`);
      process.exitCode = 1;
    }
  }
}

sizes();
if (process.env.BENCH_SKIP_WORDPRESS === '1') {
  console.log('\nBENCH_SKIP_WORDPRESS=1: the WordPress benchmarks are skipped.');
} else {
  const lib = await harness();
  const { runtime, why } = lib.chooseRuntime({ preferred: 'auto' });
  if (runtime !== 'native') {
    console.log(`\n*** SKIPPED: the WordPress benchmarks run on the native runtime, and ${why}. ***`);
  } else {
    console.log('\nStarting a store for the benchmark (native: WordPress + WooCommerce + both plugins + sandbox)...');
    const s = await lib.startStore({ name: 'checkout-bench', runtime, reset: true, port: 9620, sandboxPort: 9670, mountPlugins: true, log: () => {} });
    console.log(`${s.runtime.php}, ${s.runtime.database}, ${s.runtime.webServer}; WordPress at ${s.storeUrl}`);
    try {
      if (!s.woocommerce) {
        console.log('\n*** SKIPPED: the store has no WooCommerce; the WordPress benchmarks need it. ***');
      } else {
        await wordpressSections(lib, s);
      }
    } finally {
      await s.stop();
    }
  }
}

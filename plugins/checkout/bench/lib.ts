/**
 * What the checkout's benchmarks share (run.ts, scale.ts and its sections):
 * the bench store's shape, placing orders through the Store API, signed
 * callback bodies, unlimited concurrent POSTs, the sandbox's counters and
 * the bench-only mu-plugin.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseLandingUrl, sign } from '@card2crypto/core';
import { REPO_DIR } from '../test/support/php.js';

export interface Store {
  storeUrl: string;
  sandbox: { url: string } | null;
  partner: { token: string };
  woocommerce: { products: Array<{ id: number }> } | null;
  dirs: { harnessDir: string; siteDir: string };
  runtime: { name: string; php: string; database: string; webServer: string };
  /** servers: the web servers' names on a store started with servers > 1 (scripts/lib/store.mjs). */
  native: { dbSocket: string; runPhp: (files: string[]) => Promise<unknown>; servers?: string[] } | null;
  stop: () => Promise<void>;
}

export interface Harness {
  startStore: (o: object) => Promise<Store>;
  chooseRuntime: (o: { preferred: string }) => { runtime: string; why: string };
  sql: (socket: string, statements: string) => Promise<string>;
}

export async function harness(): Promise<Harness> {
  const load = (file: string) => import(pathToFileURL(path.join(REPO_DIR, 'scripts', 'lib', file)).href);
  return Object.assign({}, ...(await Promise.all(['store.mjs', 'runtime.mjs', 'native/mariadb.mjs'].map(load)))) as Harness;
}

/** Places an order through the Store API; returns its landing params. */
export async function placeOrder(s: Store): Promise<Record<string, unknown>> {
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
export const STATUS_OF: Record<number, string> = { 0: 'success', 6: 'success', 8: 'awaiting confirm', 101: 'declined' };

export function callbackBody(params: Record<string, unknown>, secret: string, code: number): string {
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
export function postUnlimited(url: string, body: string): Promise<{ ms: number; status: number; text: string; server: string }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0, text, server: String(res.headers[SERVER_HEADER] ?? '') }));
      },
    );
    req.on('error', (e) => resolve({ ms: performance.now() - t0, status: 0, text: `network error: ${e.message}`, server: '' }));
    req.end(body);
  });
}

/** The header nginx names the answering web server in, on a store started with servers > 1 (scripts/lib/native/nginx.mjs). */
export const SERVER_HEADER = 'x-card2crypto-server';

/** How many answers each web server gave ('' when the store has one server). */
export function servedBy(answers: Array<{ server: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of answers) {
    counts.set(a.server, (counts.get(a.server) ?? 0) + 1);
  }
  return counts;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function timed(url: string, init: RequestInit): Promise<{ ms: number; status: number; text: string }> {
  const t0 = performance.now();
  const r = await fetch(url, init);
  const text = await r.text();
  return { ms: performance.now() - t0, status: r.status, text };
}

export const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

/** One number from the site's database (native sites only). */
export async function count(lib: Harness, s: Store, query: string): Promise<number> {
  return Number((await lib.sql(s.native!.dbSocket, `USE wordpress; ${query}`)).trim());
}

/** The order's notes, oldest first (WooCommerce keeps them as comments, with and without HPOS). */
export async function orderNotes(lib: Harness, s: Store, orderId: number): Promise<string[]> {
  const text = await lib.sql(
    s.native!.dbSocket,
    `USE wordpress; SELECT REPLACE(comment_content, '\\n', ' ') FROM wp_comments WHERE comment_post_ID = ${orderId} AND comment_type = 'order_note' ORDER BY comment_ID`,
  );
  return text.split('\n').filter(Boolean);
}

/** Meta keys stored more than once for the order (HPOS order meta and post meta alike). */
export const repeatedMeta = (orderId: number) =>
  `SELECT COUNT(*) FROM (SELECT meta_key FROM wp_wc_orders_meta WHERE order_id = ${orderId} GROUP BY meta_key HAVING COUNT(*) > 1 ` +
  `UNION ALL SELECT meta_key FROM wp_postmeta WHERE post_id = ${orderId} GROUP BY meta_key HAVING COUNT(*) > 1) AS repeated`;

export function tally(answers: Array<{ status: number; text: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of answers) {
    counts.set(`${a.status} ${a.text}`, (counts.get(`${a.status} ${a.text}`) ?? 0) + 1);
  }
  for (const [answer, n] of counts) {
    console.log(`${String(n).padStart(5)} x ${answer.slice(0, 120)}`);
  }
  return counts;
}

/** Puts the bench operation into the sandbox's state (its test helper, signed like partner API requests), as the service would have it at `code`. */
export async function serviceHas(s: Store, secret: string, params: Record<string, unknown>, code: number, now = Date.now()): Promise<void> {
  const { SANDBOX_OPERATIONS_PATH } = await import('@card2crypto/sandbox');
  const body: Record<string, unknown> = {
    partner_token: params.partner_token,
    timestamp: now,
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
export function shuffle<T>(items: T[], seed = 20261123): T[] {
  let x = seed;
  const random = () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

export const STATUS_RANK: Record<string, number> = { 'checkout-draft': 0, pending: 0, 'on-hold': 1, processing: 2, completed: 3 };

/** WooCommerce's English names of the order statuses (wc_get_order_statuses()), as its status notes write them. */
const STATUS_NAMES: Record<string, string> = {
  'Pending payment': 'pending',
  'On hold': 'on-hold',
  Processing: 'processing',
  Completed: 'completed',
  Failed: 'failed',
  Cancelled: 'cancelled',
  Refunded: 'refunded',
  Draft: 'checkout-draft',
};

/**
 * [from, to] of each status change of the order, oldest first, read from the
 * order's own history: the notes WooCommerce writes at every status change
 * ("Order status changed from Pending payment to Processing."). A bench reads
 * this, not the final status, to tell whether an order ever moved backwards.
 */
export async function statusHistory(lib: Harness, s: Store, orderId: number): Promise<Array<[string, string]>> {
  const changes: Array<[string, string]> = [];
  for (const note of await orderNotes(lib, s, orderId)) {
    for (const m of note.matchAll(/Order status changed from (.+?) to (.+?)\./g)) {
      changes.push([STATUS_NAMES[m[1]!] ?? m[1]!, STATUS_NAMES[m[2]!] ?? m[2]!]);
    }
  }
  return changes;
}

/** [from, to] of each status change the bench mu-plugin logged (woocommerce_order_status_changed), as a second witness. */
export function statusChanges(s: Store, orderId: number): Array<[string, string]> {
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

/**
 * Benchmark only, written into the bench site: switches our two plugins off
 * for one request (header X-C2C-Bench-Plugins: off), so both sides of the
 * front-end comparison run on one site; and logs every order status change,
 * so a run can tell whether an order ever moved backwards. A request with
 * X-C2C-Bench-Trace: <label> appends one JSON line to c2c-bench-trace.log
 * when its page is done (shutdown, before any work after the answer): its
 * time in PHP (from the must-use plugins on), its database queries and every HTTP request it made
 * (wp_remote_*, the partner API client's transport included, WP-Cron's
 * spawn too), so a page's cost is seen apart from the network and the bench.
 */
export const BENCH_PLUGIN = `<?php
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
// The store's own clock (StoreClock checks that a moved clock reached PHP); answered before any plugin or WP-Cron runs.
if ( isset( $_SERVER['HTTP_X_C2C_BENCH_TIME'] ) ) {
	header( 'X-C2C-Bench-Time: ' . time() );
	exit;
}
if ( isset( $_SERVER['HTTP_X_C2C_BENCH_TRACE'] ) ) {
	// A monotonic clock: the bench may move the wall clock (libfaketime), never this one.
	$GLOBALS['c2c_bench_t0']   = hrtime( true );
	$GLOBALS['c2c_bench_http'] = array();
	add_action(
		'http_api_debug',
		static function ( $response, $context, $class, $args, $url ) {
			$GLOBALS['c2c_bench_http'][] = (string) $url;
		},
		10,
		5
	);
	add_action(
		'shutdown',
		static function () {
			global $wpdb;
			$line = array(
				'label'   => (string) $_SERVER['HTTP_X_C2C_BENCH_TRACE'],
				'ms'      => round( ( hrtime( true ) - $GLOBALS['c2c_bench_t0'] ) / 1e6, 1 ),
				'queries' => (int) $wpdb->num_queries,
				'http'    => $GLOBALS['c2c_bench_http'],
			);
			file_put_contents( WP_CONTENT_DIR . '/c2c-bench-trace.log', wp_json_encode( $line ) . "\n", FILE_APPEND | LOCK_EX );
		},
		-1000
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

/** What the bench plugin traced of each request sent with X-C2C-Bench-Trace (BENCH_PLUGIN), by label. */
export interface PageTrace {
  label: string;
  ms: number;
  queries: number;
  http: string[];
}
export function pageTraces(s: Store): Map<string, PageTrace> {
  const file = path.join(s.dirs.siteDir, 'wp-content', 'c2c-bench-trace.log');
  const traces = new Map<string, PageTrace>();
  if (!existsSync(file)) {
    return traces;
  }
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() !== '') {
      const trace = JSON.parse(line) as PageTrace;
      traces.set(trace.label, trace);
    }
  }
  return traces;
}

/** Partner API requests the sandbox has received from the store's partner (every endpoint). */
export async function serviceCalls(s: Store): Promise<number> {
  const state = (await (await fetch(`${s.sandbox!.url}/dashboard/api/state?limit=1`)).json()) as {
    partners: Array<{ token: string; api_calls?: Record<string, number> }>;
  };
  const mine = state.partners.find((p) => p.token === s.partner.token);
  return Object.values(mine?.api_calls ?? {}).reduce((a, b) => a + b, 0);
}

/** Places an order through the Store API as the client at `address`; returns the landing link placing it sent the buyer to. */
export async function placeOrderLink(s: Store, address: string): Promise<string> {
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
export async function followLanding(link: string, address: string): Promise<boolean> {
  const response = await fetch(link, { redirect: 'manual', headers: { 'X-C2C-Bench-Clients': '1', 'X-Forwarded-For': address } });
  return parseLandingUrl(response.headers.get('location') ?? '').ok;
}

/** The scale benchmark's goals: each printed as it is measured, and all of them again at the end. */
export class Goals {
  readonly rows: Array<{ section: string; what: string; figure: string; goal: string; met: boolean }> = [];

  add(section: string, what: string, figure: string, goal: string, met: boolean): void {
    this.rows.push({ section, what, figure, goal, met });
    console.log(`${what}: ${figure} (goal ${goal}): ${met ? 'met' : 'NOT met'}`);
  }

  print(title = 'Scale'): void {
    if (!this.rows.length) {
      return;
    }
    console.log(`\n== ${title}: every goal ==`);
    const width = Math.max(...this.rows.map((r) => r.what.length), 10);
    for (const r of this.rows) {
      console.log(`${r.section.padEnd(18)} ${r.what.padEnd(width)}  ${r.figure.padEnd(28)} goal ${r.goal.padEnd(22)} ${r.met ? 'met' : 'NOT met'}`);
    }
  }
}

/** The store's partner secret (the harness keeps it in partner.json). */
export function partnerSecret(s: Store): string {
  return (JSON.parse(readFileSync(path.join(s.dirs.harnessDir, 'partner.json'), 'utf8')) as { secret: string }).secret;
}

/**
 * 200 concurrent deliveries of one new callback (run.ts, scale-two-servers.ts):
 * exactly one transition, the others acknowledged as already received, the
 * order's notes and meta written once, within 10 s. Prints its figures with
 * their goals; returns whether every goal was met and which servers answered.
 */
export async function concurrentDuplicates(
  lib: Harness,
  s: Store,
  secret: string,
  params: Record<string, unknown>,
  dup = Number(process.env.BENCH_DUPLICATES ?? 200),
): Promise<{ met: boolean; servers: Map<string, number> }> {
  const route = `${s.storeUrl}/wp-json/card2crypto/v1/callback`;
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
  return { met: ok && seconds <= 10, servers: servedBy(answers) };
}

/**
 * 200 concurrent deliveries of different events of one order (2, 8, 9, 6, 0
 * and their duplicates, shuffled): the order ends paid and its status never
 * moved backwards. Returns whether that was met and which servers answered.
 */
export async function shuffledEvents(
  lib: Harness,
  s: Store,
  secret: string,
  params: Record<string, unknown>,
  total = Number(process.env.BENCH_DUPLICATES ?? 200),
): Promise<{ met: boolean; servers: Map<string, number> }> {
  const route = `${s.storeUrl}/wp-json/card2crypto/v1/callback`;
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
  // The order's status history, not its final state: every status change (the woocommerce_order_status_changed hook, logged by the
  // bench mu-plugin) and the status notes WooCommerce wrote on the order (none for a change out of a draft, nor when the change's note is
  // left out); every noted change must be among the hook's, in order, and neither may go backwards.
  const changes = statusChanges(s, orderId);
  const noted = await statusHistory(lib, s, orderId);
  let at = 0;
  const consistent = noted.every(([from, to]) => {
    while (at < changes.length && (changes[at]![0] !== from || changes[at]![1] !== to)) {
      at++;
    }
    return at++ < changes.length;
  });
  const backwards = [...changes, ...noted].filter(([from, to]) => (STATUS_RANK[to] ?? -1) < (STATUS_RANK[from] ?? -1));
  const ok = refused === 0 && status === 'wc-processing' && changes.length > 0 && backwards.length === 0 && consistent;
  console.log(
    `final status ${status} (expected wc-processing); status changes: ${changes.map(([a, b]) => `${a}->${b}`).join(', ') || 'none'}; ` +
      `in the order's notes: ${noted.map(([a, b]) => `${a}->${b}`).join(', ') || 'none'}${consistent ? '' : ' (NOT among the changes)'}; backwards: ${backwards.length}; non-200 answers: ${refused}: ${ok ? 'met' : 'NOT met'}; ${seconds.toFixed(1)} s`,
  );
  return { met: ok, servers: servedBy(answers) };
}

/** A WooCommerce session with one product in its cart, as a Cookie header. */
export async function cartCookie(s: Store): Promise<string> {
  const r = await fetch(`${s.storeUrl}/?add-to-cart=${s.woocommerce!.products[0]!.id}`, { redirect: 'manual' });
  await r.text();
  return r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** The sandbox's partner API calls from this store's partner, per endpoint (every request it received, refused ones too). */
export async function callsByEndpoint(s: Store): Promise<Record<string, number>> {
  const state = (await (await fetch(`${s.sandbox!.url}/dashboard/api/state?limit=1`)).json()) as {
    partners: Array<{ token: string; api_calls?: Record<string, number> }>;
  };
  return { ...(state.partners.find((p) => p.token === s.partner.token)?.api_calls ?? {}) };
}

/** The calls made between two readings of callsByEndpoint(): their total and "endpoint n, ..." */
export function diffCalls(after: Record<string, number>, before: Record<string, number>): { total: number; text: string } {
  const parts: string[] = [];
  let total = 0;
  for (const [endpoint, n] of Object.entries(after)) {
    const d = n - (before[endpoint] ?? 0);
    if (d > 0) {
      parts.push(`${endpoint} ${d}`);
      total += d;
    }
  }
  return { total, text: parts.join(', ') || 'none' };
}

/** Waits until the sandbox's count of this store's calls has not moved for `quietMs` (calls the store makes after its answer was sent). */
export async function callsSettled(s: Store, quietMs = 1500, maxMs = 10_000): Promise<Record<string, number>> {
  let last = await callsByEndpoint(s);
  let stableSince = performance.now();
  const started = performance.now();
  while (performance.now() - stableSince < quietMs && performance.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await callsByEndpoint(s);
    if (JSON.stringify(now) !== JSON.stringify(last)) {
      last = now;
      stableSince = performance.now();
    }
  }
  return last;
}

/** Sets environment variables while `run` runs (child processes started meanwhile inherit them), then puts them back. */
export async function withEnv<T>(env: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await run();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) {
        delete process.env[k];
      } else {
        process.env[k] = v;
      }
    }
  }
}

/** libfaketime (Debian's libfaketime package), multithreaded flavour: FAKETIME_LIB overrides. */
function faketimeLib(): string | null {
  const candidates = [process.env.FAKETIME_LIB ?? '', ...['x86_64', 'aarch64'].map((a) => `/usr/lib/${a}-linux-gnu/faketime/libfaketimeMT.so.1`)];
  return candidates.find((file) => file && existsSync(file)) ?? null;
}

/**
 * The store's clock, which a bench moves forward instead of waiting real
 * minutes. Every process of the store (PHP-FPM, the PHP CLI, MariaDB, nginx
 * and the sandbox) is started with libfaketime preloaded, reading its offset
 * from one file: advance() writes a larger offset, so WordPress, WooCommerce,
 * Action Scheduler, the plugin and the service all see the minutes pass
 * together (time(), microtime(), NOW(), Date.now(); monotonic clocks stay
 * real, so timeouts and the sandbox's latency are unchanged). Nothing in the
 * plugin is told: a cache that expires after 60 s expires because 60 s of
 * the store's time went by. advance() checks that the store's PHP saw the
 * new time (the bench mu-plugin's X-C2C-Bench-Time header); without
 * libfaketime, or when the store did not follow, it waits the real seconds.
 */
export class StoreClock {
  readonly env: Record<string, string>;
  private offset = 0;
  private readonly file: string;
  readonly lib: string | null;
  private moves = true;

  constructor() {
    this.lib = process.env.BENCH_REAL_TIME === '1' ? null : faketimeLib();
    this.file = path.join(mkdtempSync(path.join(os.tmpdir(), 'c2c-bench-clock-')), 'offset');
    writeFileSync(this.file, '+0\n');
    this.env = this.lib
      ? {
          LD_PRELOAD: this.lib,
          FAKETIME_TIMESTAMP_FILE: this.file,
          FAKETIME_CACHE_DURATION: '1',
          FAKETIME_DONT_FAKE_MONOTONIC: '1',
          FAKETIME_DONT_RESET: '1',
        }
      : {};
  }

  get how(): string {
    return this.lib && this.moves
      ? `the store's clock is moved (libfaketime preloaded into PHP-FPM, PHP, MariaDB, nginx and the sandbox: ${this.lib})`
      : 'real waiting (no libfaketime: apt-get install libfaketime, or set FAKETIME_LIB, to move the clock instead)';
  }

  /** The store's (and the sandbox's) time now, in milliseconds since the epoch. */
  nowMs(): number {
    return Date.now() + (this.lib && this.moves ? this.offset * 1000 : 0);
  }

  /** The store's time as its PHP sees it, minus this computer's (seconds). */
  async skew(s: Store): Promise<number> {
    const r = await fetch(`${s.storeUrl}/wp-json/`, { headers: { 'X-C2C-Bench-Time': '1' } });
    await r.text();
    const at = Number(r.headers.get('x-c2c-bench-time'));
    if (!at) {
      throw new Error('the store did not tell its time (is the bench mu-plugin in place?)');
    }
    return at - Date.now() / 1000;
  }

  /** Moves the store's clock `seconds` forward (or waits them for real). */
  async advance(s: Store, seconds: number): Promise<void> {
    if (!this.lib || !this.moves) {
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      return;
    }
    this.offset += seconds;
    writeFileSync(this.file, `+${this.offset}\n`);
    const deadline = performance.now() + 8000;
    let skew = 0;
    // Each process reads the file again after FAKETIME_CACHE_DURATION (1 s); a few requests reach every PHP-FPM worker.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    while (performance.now() < deadline) {
      skew = await this.skew(s);
      if (skew >= this.offset - 1.5) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    this.moves = false;
    console.log(`  the store's clock did not follow (${skew.toFixed(1)} s ahead, ${this.offset} s asked): waiting real seconds from now on`);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

/** Runs `run` with the environment the store's processes were started with (the PHP CLI then shares the store's clock). */
export function clockRunner(clock: StoreClock, runPhp: (php: string) => Promise<void>): (php: string) => Promise<void> {
  return (php) => withEnv(clock.env, () => runPhp(php));
}

/**
 * What the checkout's benchmarks share (run.ts, scale.ts and its sections):
 * the bench store's shape, placing orders through the Store API, signed
 * callback bodies, unlimited concurrent POSTs, the sandbox's counters and
 * the bench-only mu-plugin.
 */
import { existsSync, readFileSync } from 'node:fs';
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
export const STATUS_OF: Record<number, string> = { 0: 'success', 6: 'success', 8: 'awaiting confirm' };

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
export async function serviceHas(s: Store, secret: string, params: Record<string, unknown>, code: number): Promise<void> {
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
export function shuffle<T>(items: T[], seed = 20261123): T[] {
  let x = seed;
  const random = () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31);
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

export const STATUS_RANK: Record<string, number> = { pending: 0, 'on-hold': 1, processing: 2, completed: 3 };

/** [from, to] of each status change of the order, in order (the bench mu-plugin's log). */
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
 * so a run can tell whether an order ever moved backwards.
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
if ( isset( $_SERVER['HTTP_X_C2C_BENCH_PLUGINS'] ) && 'off' === $_SERVER['HTTP_X_C2C_BENCH_PLUGINS'] ) {
	add_filter(
		'option_active_plugins',
		static function ( $plugins ) {
			return array_values( array_filter( (array) $plugins, static function ( $p ) { return 0 !== strpos( $p, 'card2crypto-' ); } ) );
		}
	);
}
`;

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

  print(): void {
    console.log('\n== Scale: every goal ==');
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
  const changes = statusChanges(s, orderId);
  const backwards = changes.filter(([from, to]) => (STATUS_RANK[to] ?? 0) < (STATUS_RANK[from] ?? 0));
  const ok = refused === 0 && status === 'wc-processing' && backwards.length === 0;
  console.log(
    `final status ${status} (expected wc-processing); status changes: ${changes.map(([a, b]) => `${a}->${b}`).join(', ') || 'none'}; backwards: ${backwards.length}; non-200 answers: ${refused}: ${ok ? 'met' : 'NOT met'}; ${seconds.toFixed(1)} s`,
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

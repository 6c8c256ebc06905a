/**
 * Two web servers, one database (issue 26, point 2): a store started with
 * `servers: 2` (scripts/lib/store.mjs: two PHP-FPM masters, each with its own
 * socket, temp, upload and session folders, WordPress uploads folder and
 * OPcache, behind one nginx that hands requests to them in turn, sharing
 * MariaDB). Nothing a server keeps for itself may change a result:
 *
 * a. duplicates: 200 concurrent deliveries of one new callback: exactly one
 *    transition, one note of ours, within 10 s (lib.ts concurrentDuplicates);
 * b. shuffled: 200 concurrent deliveries of the events of one order (2, 8, 9,
 *    6, 0 and duplicates, shuffled): the order ends paid, its status never
 *    moved backwards (lib.ts shuffledEvents);
 * c. pay: 200 concurrent "Pay" presses on 100 orders, two per order at once
 *    (spread over both servers): the order-pay form posted as the buyer's
 *    browser does (WooCommerce's pay action, then our process_payment: the
 *    gate and a new attempt), then the landing link it sends the buyer to
 *    followed. Each buyer has an address of their own (X-Forwarded-For, as
 *    in run.ts's flood section). Goals: no order gets two attempts from its
 *    presses, nor are its two buyers sent to two different attempts; no press
 *    is lost (each either reaches the service's landing page with a
 *    partner_operation_id of that order in card2crypto_attempts, or is told
 *    plainly why not); both servers answer.
 *
 * Findings that changed the code (also in docs/decisions.md):
 * - Two "Pay" presses of one order at once (on one server or two) each
 *   started an attempt: the gate asks the service and decides in PHP, so
 *   both passed it. A new attempt is now taken under the order's start lock
 *   (GET_LOCK in the shared database), and a press that finds an attempt
 *   started while it was passing the gate joins it (Payment_Flows::new_attempt()).
 * - The visitor's start budget, the words a buyer is told on the next page
 *   and the refused callbacks counted per address were transients, read and
 *   written back without a lock (concurrent requests each counted once) and,
 *   under an object cache of each server's own, per server. They now live in
 *   the shared database (Base\Shared_Store), the counts under GET_LOCK.
 *
 * Run alone: node dist/bench/scale-two-servers.js (plugins/checkout, after
 * tsc -b); on free ports.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseLandingUrl } from '@card2crypto/core';
import {
  BENCH_PLUGIN,
  concurrentDuplicates,
  count,
  harness,
  partnerSecret,
  placeOrder,
  placeOrderLink,
  SERVER_HEADER,
  servedBy,
  shuffledEvents,
  type Goals,
  type Harness,
  type Store,
} from './lib.js';

const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** The servers that answered, "server-1 120, server-2 80"; met when each of the store's servers answered. */
function bothServed(label: string, servers: Map<string, number>, expected: number): boolean {
  const named = [...servers].filter(([name]) => name !== '');
  const ok = named.length >= expected;
  console.log(
    `${label} served by: ${[...servers].map(([name, n]) => `${name || '(no server header)'} ${n}`).join(', ')} (goal: all ${expected} servers): ${mark(ok)}`,
  );
  return ok;
}

interface Buyer {
  orderId: number;
  address: string;
  payUrl: string;
  nonce: string;
  cookie: string;
}

interface Press {
  buyer: Buyer;
  server: string;
  /** landing: sent to the service's landing page; refused: told why on the page; lost: anything else. */
  kind: 'landing' | 'refused' | 'lost';
  partnerOperationId?: string;
  what: string;
}

const clientHeaders = (address: string) => ({ 'X-C2C-Bench-Clients': '1', 'X-Forwarded-For': address });

/** A buyer with an order placed and its order-pay page open (the form's nonce and the session cookie, if any). */
async function openPayPage(s: Store, address: string): Promise<Buyer> {
  const link = new URL(await placeOrderLink(s, address));
  const orderId = Number(link.pathname.match(/\/orders\/(\d+)\/landing/)?.[1]);
  const key = link.searchParams.get('key') ?? '';
  const payUrl = `${s.storeUrl}/checkout/order-pay/${orderId}/?pay_for_order=true&key=${encodeURIComponent(key)}`;
  const page = await fetch(payUrl, { headers: clientHeaders(address) });
  const html = await page.text();
  const nonce = html.match(/name="woocommerce-pay-nonce" value="([^"]+)"/)?.[1];
  if (!nonce) {
    throw new Error(`order ${orderId}: the order-pay page has no pay form (${page.status}): ${html.replace(/\s+/g, ' ').slice(0, 300)}`);
  }
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { orderId, address, payUrl, nonce, cookie };
}

/** The words of WooCommerce's error notice on a page, if it shows one. */
function noticeOf(html: string): string | null {
  const found = html.match(/class="[^"]*woocommerce-error[^"]*"[^>]*>([\s\S]*?)<\/(?:ul|div)>/);
  return found
    ? found[1]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    : null;
}

/** One press of "Pay" on the order-pay page, then the browser following where it was sent. */
async function press(buyer: Buyer): Promise<Press> {
  const form = new URLSearchParams({
    payment_method: 'card2crypto',
    terms: 'on',
    'terms-field': '1',
    'woocommerce-pay-nonce': buyer.nonce,
    woocommerce_pay: '1',
  });
  const headers: Record<string, string> = { ...clientHeaders(buyer.address), 'Content-Type': 'application/x-www-form-urlencoded' };
  if (buyer.cookie) {
    headers.Cookie = buyer.cookie;
  }
  let answer: Response;
  try {
    answer = await fetch(buyer.payUrl, { method: 'POST', redirect: 'manual', headers, body: form });
  } catch (error) {
    return { buyer, server: '', kind: 'lost', what: `network error: ${(error as Error).message}` };
  }
  const server = answer.headers.get(SERVER_HEADER) ?? '';
  const location = answer.headers.get('location');
  if (answer.status >= 300 && answer.status < 400 && location) {
    if (!/\/landing\?/.test(location)) {
      return {
        buyer,
        server,
        kind: /order-pay|order-received/.test(location) ? 'refused' : 'lost',
        what: `${answer.status} to ${location.replace(/[?&]key=[^&]+/, '')}`,
      };
    }
    const landing = await fetch(location, { redirect: 'manual', headers: clientHeaders(buyer.address) });
    const to = landing.headers.get('location') ?? '';
    const parsed = parseLandingUrl(to);
    if (parsed.ok) {
      return { buyer, server, kind: 'landing', partnerOperationId: String(parsed.payload.params.partner_operation_id), what: 'sent to the landing page' };
    }
    // Told on the order's payment page why not (Return_Pages::told_url()).
    const told = /order-pay/.test(to);
    return {
      buyer,
      server,
      kind: told ? 'refused' : 'lost',
      what: told ? `landing told: ${new URL(to).searchParams.get('card2crypto_told') ?? to}` : `landing ${landing.status} to ${to}`,
    };
  }
  const html = await answer.text();
  const notice = noticeOf(html);
  return notice && answer.status === 200
    ? { buyer, server, kind: 'refused', what: `told: ${notice}` }
    : { buyer, server, kind: 'lost', what: `${answer.status} without a notice: ${html.replace(/\s+/g, ' ').slice(0, 120)}` };
}

/** In groups of `size` at once (placing orders is not what is measured). */
async function inGroups<T, R>(items: T[], size: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(...(await Promise.all(items.slice(i, i + size).map((item, j) => fn(item, i + j)))));
  }
  return out;
}

export async function payPresses(lib: Harness, s: Store, servers: number, orders = Number(process.env.BENCH_PAY_ORDERS ?? 100)): Promise<boolean> {
  console.log(`\n== ${orders * 2} concurrent "Pay" presses on ${orders} orders (two per order at once, each buyer its own address) ==`);
  const buyers = await inGroups(
    Array.from({ length: orders }, (_, i) => `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`),
    10,
    (address) => openPayPage(s, address),
  );
  const before = await count(lib, s, 'SELECT COALESCE(MAX(id), 0) FROM wp_card2crypto_attempts');
  const t0 = performance.now();
  const presses = await Promise.all(buyers.flatMap((buyer) => [press(buyer), press(buyer)]));
  const seconds = (performance.now() - t0) / 1000;

  const kinds = new Map<string, number>();
  for (const p of presses) {
    const line = `${p.kind}: ${p.what.slice(0, 140)}`;
    kinds.set(line, (kinds.get(line) ?? 0) + 1);
  }
  for (const [line, n] of kinds) {
    console.log(`${String(n).padStart(5)} x ${line}`);
  }

  const ids = buyers.map((b) => b.orderId).join(',');
  const rows = (
    await lib.sql(
      s.native!.dbSocket,
      `USE wordpress; SELECT a.order_id, a.partner_operation_id, a.id > ${before}, a.status, a.status_code, COALESCE(m.meta_value, '') = a.partner_operation_id ` +
        `FROM wp_card2crypto_attempts a LEFT JOIN wp_wc_orders_meta m ON m.order_id = a.order_id AND m.meta_key = '_card2crypto_partner_operation_id' WHERE a.order_id IN (${ids})`,
    )
  )
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));
  const attemptOrder = new Map(rows.map(([order, partnerId]) => [partnerId!, Number(order)]));
  const started = new Map<number, number>();
  for (const [order, , isNew] of rows) {
    if (isNew === '1') {
      started.set(Number(order), (started.get(Number(order)) ?? 0) + 1);
    }
  }
  const twoStarted = [...started.values()].filter((n) => n > 1).length;
  const sentTo = new Map<number, Set<string>>();
  for (const p of presses.filter((x) => x.kind === 'landing')) {
    sentTo.set(p.buyer.orderId, (sentTo.get(p.buyer.orderId) ?? new Set()).add(p.partnerOperationId!));
  }
  const twoSent = [...sentTo.values()].filter((set) => set.size > 1).length;
  // Live: may still be paid, or was. Not declined at the service (101 to 106, Status_Flow), and either the order's
  // current attempt (the only one the landing route signs), or one the service reported on, or one a buyer was sent to.
  // An attempt replaced before any buyer was sent to it, which the service does not know, can no longer reach a buyer.
  const FINAL = new Set(['101', '102', '103', '104', '105', '106']);
  const liveOf = new Map<number, number>();
  for (const [order, partnerId, , , code, current] of rows) {
    const reached = current === '1' || code !== '-1' || sentTo.get(Number(order))?.has(partnerId!);
    if (reached && !FINAL.has(code!)) {
      liveOf.set(Number(order), (liveOf.get(Number(order)) ?? 0) + 1);
    }
  }
  const twoLive = [...liveOf.values()].filter((n) => n > 1).length;
  const unknown = presses.filter((p) => p.kind === 'landing' && attemptOrder.get(p.partnerOperationId!) !== p.buyer.orderId).length;
  const lost = presses.filter((p) => p.kind === 'lost').length + unknown;
  const landed = presses.filter((p) => p.kind === 'landing').length;
  const refused = presses.filter((p) => p.kind === 'refused').length;
  const split = buyers.filter((b) => new Set(presses.filter((p) => p.buyer === b).map((p) => p.server)).size > 1).length;

  const live = twoLive === 0 && twoSent === 0;
  console.log(
    `orders with two live attempts in card2crypto_attempts: ${twoLive}/${orders}; orders whose two buyers were sent to two different attempts: ${twoSent}/${orders} ` +
      `(goal 0 and 0: no order gets two live attempts): ${mark(live)}`,
  );
  console.log(
    `  (for information: orders whose two presses each started an attempt: ${twoStarted}/${orders}; a press that the server takes after the other one ` +
      `finished replaces an attempt the service does not know, by design, and only the new one is signed)`,
  );
  console.log(
    `presses sent to the landing page with an attempt of their order in card2crypto_attempts: ${landed}, told why not: ${refused}, lost: ${lost} ` +
      `(of which sent with an attempt not in the table: ${unknown}) (goal 0 lost): ${mark(lost === 0)}`,
  );
  console.log(`orders whose two presses were answered by two different servers: ${split}/${orders}; ${seconds.toFixed(1)} s for ${orders * 2} presses`);
  const served = bothServed('presses', servedBy(presses), servers);
  return live && lost === 0 && served;
}

/**
 * The three runs on a store started with `servers: 2` (the mu-plugin
 * lib.BENCH_PLUGIN in place); true when every goal was met.
 */
export async function twoServers(lib: Harness, s: Store, secret: string, goals?: Goals): Promise<boolean> {
  const servers = s.native?.servers?.length ?? 1;
  console.log(`\n== Two web servers, one database: ${s.native?.servers?.join(', ') ?? 'one server'} behind one nginx, ${s.runtime.database} ==`);
  const results: boolean[] = [];
  const section = async (name: string, run: () => Promise<boolean>) => {
    let met = false;
    try {
      met = await run();
    } catch (error) {
      console.log(`${name}: FAILED: ${(error as Error).message}`);
    }
    results.push(met);
    goals?.add('2 two servers', name, met ? 'every figure above met' : 'see above', 'each figure above', met);
  };
  // Each server has its own OPcache, cold after start: a few requests warm both (nginx takes them in turn), as a live store's are.
  for (let i = 0; i < 4 * servers; i++) {
    await (await fetch(`${s.storeUrl}/wp-json/card2crypto/v1`)).text();
    await (await fetch(`${s.storeUrl}/`)).text();
  }
  await section('200 duplicate callbacks: one transition, one note, <= 10 s', async () => {
    const { met, servers: by } = await concurrentDuplicates(lib, s, secret, await placeOrder(s));
    return bothServed('deliveries', by, servers) && met;
  });
  await section('200 shuffled events: right end, never backwards', async () => {
    const { met, servers: by } = await shuffledEvents(lib, s, secret, await placeOrder(s));
    return bothServed('deliveries', by, servers) && met;
  });
  await section('200 Pay presses on 100 orders: one live attempt, none lost', () => payPresses(lib, s, servers));
  const all = results.every(Boolean);
  console.log(`\ntwo servers: every goal ${mark(all)}`);
  return all;
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const lib = await harness();
  const { runtime, why } = lib.chooseRuntime({ preferred: 'native' });
  if (runtime !== 'native') {
    console.log(`*** SKIPPED: two web servers need the native runtime, and ${why}. ***`);
  } else {
    console.log('Starting a store with two web servers (native: two PHP-FPM masters behind one nginx, MariaDB, WooCommerce, both plugins, sandbox)...');
    const s = await lib.startStore({
      name: 'bench-two-servers',
      runtime: 'native',
      reset: true,
      port: 0,
      sandboxPort: 0,
      mountPlugins: true,
      servers: 2,
      log: () => {},
    });
    console.log(`${s.runtime.php}, ${s.runtime.database}, ${s.runtime.webServer}; WordPress at ${s.storeUrl}`);
    try {
      if (!s.woocommerce) {
        console.log('*** SKIPPED: the store has no WooCommerce. ***');
      } else {
        const muPlugins = path.join(s.dirs.siteDir, 'wp-content', 'mu-plugins');
        mkdirSync(muPlugins, { recursive: true });
        writeFileSync(path.join(muPlugins, 'c2c-bench.php'), BENCH_PLUGIN);
        const secret = partnerSecret(s);
        if (!(await twoServers(lib, s, secret))) {
          process.exitCode = 1;
        }
      }
    } finally {
      await s.stop();
    }
  }
}

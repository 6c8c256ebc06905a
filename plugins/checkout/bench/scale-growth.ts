/**
 * Scale section 1: cost as the store grows. Two stores run side by side in
 * one run: one seeded with 100 orders, one with 100,000 (scale-seed.ts: HPOS
 * tables, items, notes, and the plugin's attempts, operations and events).
 * Each path is asked on both, interleaved (small, large, large, small, ...),
 * and the medians compared (goal: large <= 1.2x small):
 * the callback route (a verified duplicate, and a new event), the thank-you
 * page's payment-state route (in full, and a poll of an unchanged state),
 * the admin order list, one order's screen with our panel, the checkout page.
 *
 * Every query the plugin makes on those paths on the large store is logged
 * (SAVEQUERIES for the bench's requests only, the queries whose caller is the
 * plugin) and EXPLAINed: one that reads a table without an index is printed.
 */
import { readFileSync, writeFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { cartCookie, BENCH_PLUGIN, callbackBody, median, partnerSecret, placeOrder, serviceHas, type Goals, type Harness, type Store } from './lib.js';
import type { Seeded } from './scale-seed.js';

/** Benchmark only: keeps the plugin's queries of requests that ask for it (X-C2C-Bench-Queries). */
const QUERY_LOG_PLUGIN = `<?php
if ( isset( $_SERVER['HTTP_X_C2C_BENCH_QUERIES'] ) ) {
	if ( ! defined( 'SAVEQUERIES' ) ) {
		define( 'SAVEQUERIES', true );
	}
	register_shutdown_function(
		static function () {
			global $wpdb;
			$ours = array();
			foreach ( (array) $wpdb->queries as $q ) {
				if ( false !== strpos( (string) ( $q[2] ?? '' ), 'Card2Crypto' ) ) {
					$ours[] = preg_replace( '/\\s+/', ' ', $q[0] );
				}
			}
			if ( $ours ) {
				file_put_contents( WP_CONTENT_DIR . '/c2c-bench-queries.log', implode( "\\n", $ours ) . "\\n", FILE_APPEND | LOCK_EX );
			}
		}
	);
}
`;

interface Side {
  s: Store;
  secret: string;
  seeded: Seeded;
  cookie: string;
  cart: string;
  /** A real order placed through the Store API (its callbacks, its admin screen). */
  params: Record<string, unknown>;
  orderId: number;
  /** Real orders for new events: each takes codes 3, 4, 7 in turn. */
  fresh: Array<Record<string, unknown>>;
  pendingOrder: { id: number; key: string; v: string };
}

async function login(s: Store): Promise<string> {
  const jar = new Map<string, string>([['wordpress_test_cookie', 'WP Cookie check']]);
  const r = await fetch(`${s.storeUrl}/wp-login.php`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'wordpress_test_cookie=WP%20Cookie%20check' },
    body: new URLSearchParams({ log: 'admin', pwd: 'password', testcookie: '1', 'wp-submit': 'Log In' }).toString(),
  });
  for (const c of r.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const at = pair!.indexOf('=');
    jar.set(pair!.slice(0, at), pair!.slice(at + 1));
  }
  if (![...jar.keys()].some((k) => k.startsWith('wordpress_logged_in_'))) {
    throw new Error(`could not log in to ${s.storeUrl} as admin (${r.status})`);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

const orderOf = (params: Record<string, unknown>) => Number(String(params.partner_operation_id).match(/\d+/)?.[0]);

async function prepare(lib: Harness, s: Store, count: number, seed: (template: number) => Promise<Seeded>): Promise<Side> {
  const muPlugins = path.join(s.dirs.siteDir, 'wp-content', 'mu-plugins');
  mkdirSync(muPlugins, { recursive: true });
  writeFileSync(path.join(muPlugins, 'c2c-bench-queries.php'), QUERY_LOG_PLUGIN);
  writeFileSync(path.join(muPlugins, 'c2c-bench.php'), BENCH_PLUGIN);
  const secret = partnerSecret(s);
  const template = await placeOrder(s);
  const seeded = await seed(orderOf(template));
  console.log(`  ${s.storeUrl}: ${count} orders seeded in ${seeded.seconds.toFixed(1)} s`);
  // The orders the paths use are placed after the seed: the newest, as a live store's would be.
  const params = await placeOrder(s);
  await serviceHas(s, secret, params, 2);
  const first = await fetch(`${s.storeUrl}/wp-json/card2crypto/v1/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: callbackBody(params, secret, 2),
  });
  if (first.status !== 200) {
    throw new Error(`the first callback answered ${first.status}`);
  }
  const fresh = [];
  for (let i = 0; i < 12; i++) {
    fresh.push(await placeOrder(s));
  }
  const n = seeded.count; // the newest seeded order: under way
  const id = seeded.firstId + n - 1;
  const key = seeded.keyOf(n);
  const full = (await (await fetch(`${s.storeUrl}/wp-json/card2crypto/v1/orders/${id}/payment-state?key=${key}`)).json()) as { v: string };
  return {
    s,
    secret,
    seeded,
    cookie: await login(s),
    cart: await cartCookie(s),
    params,
    orderId: orderOf(params),
    fresh,
    pendingOrder: { id, key, v: full.v },
  };
}

/** The codes a fresh order's new events take in turn (pending 3, 4, 7: each a step forward). */
const NEW_EVENT_CODES = [3, 4, 7];

type Path = { label: string; ask: (side: Side, i: number) => Promise<{ status: number; expect: number }> };

function paths(): Path[] {
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const r = await fetch(url, { headers: { 'x-c2c-bench-queries': '1', ...headers }, redirect: 'manual' });
    await r.text();
    return r.status;
  };
  const post = async (url: string, body: string) => {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-c2c-bench-queries': '1' }, body });
    await r.text();
    return r.status;
  };
  return [
    {
      label: 'callback route: a verified duplicate',
      ask: async (x) => ({ status: await post(`${x.s.storeUrl}/wp-json/card2crypto/v1/callback`, callbackBody(x.params, x.secret, 2)), expect: 200 }),
    },
    {
      label: 'callback route: a new event',
      ask: async (x, i) => {
        const params = x.fresh[i % x.fresh.length]!;
        const code = NEW_EVENT_CODES[Math.floor(i / x.fresh.length) % NEW_EVENT_CODES.length]!;
        return { status: await post(`${x.s.storeUrl}/wp-json/card2crypto/v1/callback`, callbackBody(params, x.secret, code)), expect: 200 };
      },
    },
    {
      label: 'payment-state route, in full',
      ask: async (x) => ({
        status: await get(`${x.s.storeUrl}/wp-json/card2crypto/v1/orders/${x.pendingOrder.id}/payment-state?key=${x.pendingOrder.key}`),
        expect: 200,
      }),
    },
    {
      label: 'payment-state poll, state unchanged',
      ask: async (x) => ({
        status: await get(
          `${x.s.storeUrl}/wp-json/card2crypto/v1/orders/${x.pendingOrder.id}/payment-state?key=${x.pendingOrder.key}&since=${x.pendingOrder.v}`,
        ),
        expect: 200,
      }),
    },
    {
      label: 'admin order list',
      ask: async (x) => ({ status: await get(`${x.s.storeUrl}/wp-admin/admin.php?page=wc-orders`, { cookie: x.cookie }), expect: 200 }),
    },
    {
      // The same list with our plugins off for the request: what WooCommerce's own list costs as the store grows.
      label: 'admin order list, our plugins off (WooCommerce alone)',
      ask: async (x) => ({
        status: await get(`${x.s.storeUrl}/wp-admin/admin.php?page=wc-orders`, { cookie: x.cookie, 'x-c2c-bench-plugins': 'off' }),
        expect: 200,
      }),
    },
    {
      label: "one order's screen (our panel)",
      ask: async (x) => ({
        status: await get(`${x.s.storeUrl}/wp-admin/admin.php?page=wc-orders&action=edit&id=${x.orderId}`, { cookie: x.cookie }),
        expect: 200,
      }),
    },
    {
      // The same screen with our plugins off for the request: what WooCommerce's own order screen costs as the store grows.
      label: "one order's screen, our plugins off (WooCommerce alone)",
      ask: async (x) => ({
        status: await get(`${x.s.storeUrl}/wp-admin/admin.php?page=wc-orders&action=edit&id=${x.orderId}`, { cookie: x.cookie, 'x-c2c-bench-plugins': 'off' }),
        expect: 200,
      }),
    },
    { label: 'checkout page', ask: async (x) => ({ status: await get(`${x.s.storeUrl}/checkout/`, { cookie: x.cart }), expect: 200 }) },
  ];
}

interface Explained {
  table: string;
  type: string;
  key: string;
  rows: number;
  extra: string;
}

/** The plugin's queries the bench's requests made on the large store, EXPLAINed; those that read a table without an index. */
async function unindexed(lib: Harness, large: Store): Promise<number> {
  const file = path.join(large.dirs.siteDir, 'wp-content', 'c2c-bench-queries.log');
  if (!existsSync(file)) {
    console.log('  no query of the plugin was logged');
    return 0;
  }
  const shapes = new Map<string, string>();
  for (const q of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const shape = q.replace(/'[^']*'/g, "'?'").replace(/\b\d+\b/g, 'N');
    if (/^\s*(SELECT|UPDATE|DELETE)\b/i.test(q) && !shapes.has(shape)) {
      shapes.set(shape, q);
    }
  }
  let bad = 0;
  for (const [shape, q] of shapes) {
    let text: string;
    try {
      text = await lib.sql(large.native!.dbSocket, `USE wordpress; EXPLAIN ${q}`);
    } catch (error) {
      console.log(`  EXPLAIN failed for ${shape.slice(0, 160)}: ${(error as Error).message.split('\n').pop()}`);
      continue;
    }
    const rows: Explained[] = text
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t'))
      .map((c) => ({ table: c[2]!, type: c[3]!, key: c[5]!, rows: Number(c[8]), extra: c[9] ?? '' }));
    const scans = rows.filter((r) => r.table !== 'NULL' && (r.type === 'ALL' || r.type === 'index') && r.rows > 1000);
    if (scans.length) {
      bad++;
      console.log(`  NO INDEX: ${shape.slice(0, 220)}`);
      for (const r of rows) {
        console.log(`    ${r.table} type=${r.type} key=${r.key} rows=${r.rows} ${r.extra}`);
      }
    }
  }
  console.log(`  ${shapes.size} distinct queries of the plugin on these paths; ${bad} read a table without an index`);
  rmSync(file, { force: true });
  return bad;
}

export async function storeGrowth(lib: Harness, small: Store, large: Store, goals: Goals): Promise<Seeded> {
  const { seedOrders } = await import('./scale-seed.js');
  const bigCount = Number(process.env.BENCH_ORDERS ?? 100_000);
  console.log(`\n== Scale 1: cost as the store grows: 100 orders against ${bigCount.toLocaleString('en')} (HPOS), side by side ==`);
  const [a, b] = [
    await prepare(lib, small, 100, (t) => seedOrders(lib, small, t, 100, 10)),
    await prepare(lib, large, bigCount, (t) => seedOrders(lib, large, t, bigCount, 1000)),
  ];
  rmSync(path.join(large.dirs.siteDir, 'wp-content', 'c2c-bench-queries.log'), { force: true });
  const n = Number(process.env.BENCH_REQUESTS ?? 30);
  const warmup = 3;
  for (const p of paths()) {
    const times: [number[], number[]] = [[], []];
    for (let i = 0; i < n + warmup; i++) {
      const order = i % 2 ? [1, 0] : [0, 1];
      for (const which of order) {
        const side = which === 0 ? a : b;
        if (p.label === 'callback route: a new event') {
          // The service's own state first (not timed): the event is about an operation it knows.
          const params = side.fresh[i % side.fresh.length]!;
          const code = NEW_EVENT_CODES[Math.floor(i / side.fresh.length) % NEW_EVENT_CODES.length]!;
          await serviceHas(side.s, side.secret, params, code);
        }
        const t0 = performance.now();
        const { status, expect } = await p.ask(side, i);
        const ms = performance.now() - t0;
        if (status !== expect) {
          throw new Error(`${p.label} answered ${status} on the ${which ? 'large' : 'small'} store`);
        }
        if (i >= warmup) {
          times[which]!.push(ms);
        }
      }
    }
    const ratio = median(times[1]) / median(times[0]);
    console.log(`${p.label}: small ${median(times[0]).toFixed(1)} ms, large ${median(times[1]).toFixed(1)} ms`);
    goals.add('1 store growth', `${p.label}, large / small`, `${ratio.toFixed(2)}x`, '<= 1.2x', ratio <= 1.2);
  }
  const bad = await unindexed(lib, large);
  goals.add('1 store growth', "the plugin's queries on these paths without an index", String(bad), '0', bad === 0);
  return b.seeded;
}

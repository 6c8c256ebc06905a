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
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { PLUGIN_DIR } from '../test/support/php.js';
import {
  BENCH_PLUGIN,
  callbackBody,
  concurrentDuplicates,
  followLanding,
  harness,
  median,
  placeOrder,
  placeOrderLink,
  quantile,
  serviceCalls,
  shuffledEvents,
  timed,
  type Harness,
  type Store,
} from './lib.js';

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

/** A section's goals not met fail the run (after every section printed its figures). */
function met(result: { met: boolean }): void {
  if (!result.met) {
    process.exitCode = 1;
  }
}

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
    ['duplicates', async () => met(await concurrentDuplicates(lib, s, secret, await placeOrder(s)))],
    ['shuffled', async () => met(await shuffledEvents(lib, s, secret, await placeOrder(s)))],
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

/**
 * Reconciliation at scale (issue 26, point 5): 10,000 stale attempts whose
 * callbacks were lost, caught up through Action Scheduler the way a store
 * runs it (its queue runner, again and again, as WP-Cron would call it; the
 * async runner PHP-FPM may start runs too).
 *
 * Seeding: the orders are cloned in the database from one order WooCommerce
 * made (HPOS tables, INSERT ... SELECT over MariaDB's sequence engine), each
 * with an attempt sent 2 hours ago that never heard from the service and is
 * due now; 80 % of them paid at the service, 10 % declined, 10 % never heard
 * of (put into the sandbox through its test helper, which is neither limited
 * nor counted).
 *
 * Goals, each printed with met / NOT met:
 * - the peak partner API requests in one second, as the sandbox counted
 *   them, never above the store's setting (reconcile_rate, default 10) nor
 *   the sandbox's limit (20);
 * - no 429;
 * - at most one reconciliation action pending at once in our group (one
 *   batch, never one per attempt);
 * - every paid one paid, every declined one failed, every unknown one retired.
 * The time it took is printed against the least the rate allows.
 *
 * Findings that changed the code (docs/decisions.md has them too):
 * - At a rate of 3 the sandbox counted 4 requests in one second: each batch
 *   started its pacing afresh, so its first request could follow the
 *   previous batch's last one at once. A batch now starts as if a request
 *   had just left, and requests leave 1,050 ms / rate apart (50 ms for the
 *   network shifting a request: Reconcile_Pace::JITTER_MS).
 * - A Retry-After of 1 s came due 0.1 s later: Action Scheduler keeps whole
 *   seconds. The next batch is now queued from the next whole second.
 *
 * Action Scheduler's async runner (PHP-FPM) may run a batch while the CLI
 * runner here runs another: a batch holds a MySQL named lock and claims its
 * rows with one UPDATE, so each attempt is checked once either way.
 *
 * reconcileAtScale() is exported for a bench runner; or run it alone:
 *   node dist/bench/scale-reconcile.js   (BENCH_RECONCILE_COUNT=300 for a short run)
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { harness, type Harness, type Store } from './lib.js';
import { partnerSecret, serviceKnows, serviceRate, storeStep, type Outcome, type Seeded } from '../test/support/reconcile-store.js';

const SANDBOX_LIMIT = 20;

const goal = (ok: boolean) => (ok ? 'met' : 'NOT met');

export async function reconcileAtScale(lib: Harness, s: Store, secret: string, n = Number(process.env.BENCH_RECONCILE_COUNT ?? 10_000)): Promise<boolean> {
  const sql = async (query: string) => (await lib.sql(s.native!.dbSocket, `USE wordpress; ${query}`)).trim();
  console.log(`\n== Reconciliation at scale: ${n} stale attempts whose callbacks were lost, caught up through Action Scheduler ==`);
  const settings = await storeStep<Record<string, string>>(s, 'settings', {});
  const rate = Number(settings.reconcile_rate ?? 10) || 10;

  let t0 = performance.now();
  const seed = await storeStep<Seeded>(s, 'seed', { count: n, age: 7200, tag: 'bench' });
  const seedSeconds = (performance.now() - t0) / 1000;
  const outcome = (i: number): Outcome | null => (i % 10 === 8 ? 'declined' : i % 10 === 9 ? null : 'paid');
  const known: Array<[number, Outcome]> = [];
  for (let i = 0; i < n; i++) {
    const o = outcome(i);
    if (o) {
      known.push([seed.first + i, o]);
    }
  }
  t0 = performance.now();
  await serviceKnows(s, secret, seed, known, 32);
  const serviceSeconds = (performance.now() - t0) / 1000;
  const want = { paid: known.filter(([, o]) => o === 'paid').length, declined: known.filter(([, o]) => o === 'declined').length, unknown: n - known.length };
  console.log(
    `seeded in ${seedSeconds.toFixed(1)} s (orders and attempts, SQL) + ${serviceSeconds.toFixed(1)} s (${known.length} operations into the sandbox): ${want.paid} paid, ${want.declined} declined, ${want.unknown} unknown to the service`,
  );
  await new Promise((resolve) => setTimeout(resolve, 1100));

  const before = await serviceRate(s);
  const range = `order_id BETWEEN ${seed.first} AND ${seed.last}`;
  const remaining = async () => Number(await sql(`SELECT COUNT(*) FROM wp_card2crypto_attempts WHERE ${range} AND checks = 0 AND retired_at IS NULL`));
  const pendingSql =
    "SELECT COUNT(*) FROM wp_actionscheduler_actions a JOIN wp_actionscheduler_groups g ON g.group_id = a.group_id WHERE g.slug = 'card2crypto-checkout' AND a.status = 'pending' AND a.hook IN ('card2crypto_checkout_reconcile_batch', 'card2crypto_checkout_reconcile')";
  let peakPending = Number(await sql(pendingSql));
  const perSecond = new Map<number, number>();
  const sample = async () => {
    peakPending = Math.max(peakPending, Number(await sql(pendingSql)));
    for (const [second, count] of (await serviceRate(s)).recent) {
      if (second >= started - 1000) {
        perSecond.set(second, count);
      }
    }
  };

  // The queue runner as WP-Cron calls it, again and again, until every attempt was checked once.
  const work = path.join(os.tmpdir(), `c2c-bench-runner-${process.pid}.php`);
  writeFileSync(work, "<?php\nActionScheduler_QueueRunner::instance()->run( 'bench' );\n");
  const started = Date.now();
  let polling = true;
  const poller = (async () => {
    while (polling) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  let runs = 0;
  let left = await remaining();
  const deadline = Date.now() + Math.max(600, (n / rate) * 3) * 1000;
  while (left > 0 && Date.now() < deadline) {
    await s.native!.runPhp([work]);
    runs++;
    const now = await remaining();
    if (now === left) {
      await new Promise((resolve) => setTimeout(resolve, 500)); // The next batch is not due yet (a Retry-After).
    }
    left = now;
    if (runs % 10 === 0) {
      console.log(`  ${((Date.now() - started) / 1000).toFixed(0)} s: ${n - left} of ${n} checked`);
    }
  }
  const seconds = (Date.now() - started) / 1000;
  polling = false;
  await poller;
  await sample();
  const after = await serviceRate(s);
  const peak = Math.max(0, ...perSecond.values());
  const limited = after.limited - before.limited;
  const asked = after.operation_calls - before.operation_calls;
  const statuses = new Map(
    (await sql(`SELECT status, COUNT(*) FROM wp_wc_orders WHERE id BETWEEN ${seed.first} AND ${seed.last} GROUP BY status`))
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t') as [string, string])
      .map(([status, count]) => [status, Number(count)]),
  );
  const paid = (statuses.get('wc-processing') ?? 0) + (statuses.get('wc-completed') ?? 0);
  const failed = statuses.get('wc-failed') ?? 0;
  const retired = Number(await sql(`SELECT COUNT(*) FROM wp_card2crypto_attempts WHERE ${range} AND retired_at IS NOT NULL`));
  const least = n / rate;

  const results: Array<[string, boolean]> = [
    [
      `caught up: ${n - left} of ${n} attempts checked in ${seconds.toFixed(0)} s (${runs} queue runner runs); the rate allows it in ${least.toFixed(0)} s at best (x${(seconds / least).toFixed(2)})`,
      left === 0,
    ],
    [
      `peak partner API requests in one second, as the sandbox counted them: ${peak} (setting ${rate}, sandbox limit ${SANDBOX_LIMIT}); ${asked} operation-info requests in all`,
      peak <= rate && peak <= SANDBOX_LIMIT,
    ],
    [`429s seen: ${limited}`, limited === 0],
    [`most reconciliation actions pending at once in our group: ${peakPending} (goal 1 batch action, not one per attempt)`, peakPending <= 1],
    [`paid: ${paid} of ${want.paid}`, paid === want.paid],
    [`failed (declined at the service): ${failed} of ${want.declined}`, failed === want.declined],
    [`retired (the service never heard of them): ${retired} of ${want.unknown}`, retired === want.unknown],
  ];
  for (const [line, ok] of results) {
    console.log(`${line}: ${goal(ok)}`);
  }
  return results.every(([, ok]) => ok);
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const lib = await harness();
  const s = await lib.startStore({ name: 'bench-reconcile', runtime: 'native', reset: true, port: 0, sandboxPort: 0, mountPlugins: true, log: () => {} });
  try {
    console.log(`${s.runtime.php}, ${s.runtime.database}, ${s.runtime.webServer}; WordPress at ${s.storeUrl}`);
    const ok = await reconcileAtScale(lib, s, partnerSecret(s.dirs.harnessDir));
    process.exitCode = ok ? 0 : 1;
  } finally {
    await s.stop();
  }
}

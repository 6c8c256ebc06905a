/**
 * Scale section 4: a thousand buyers on thank-you pages. Each simulated buyer
 * has an order whose payment is under way (seeded) and asks what the
 * thank-you page's script asks, with its real back-off (src/order-received.ts:
 * FIRST_DELAY, nextDelay, MAX_DELAY; imported, not copied). Buyers arrive
 * spread over the first MAX_DELAY, as they would on a busy store.
 *
 * Figures: the shop page's median while they poll, against the shop page
 * with nobody polling (measured before and after the polling, in the same
 * run; goal <= 1.2x); the polls answered, their median time and the store's
 * partner API calls during the polling (goal 0: no poll may make the store
 * ask the service, the states are unchanged).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { askUrl, FIRST_DELAY, MAX_DELAY, nextDelay } from '../src/order-received.js';
import { median, quantile, serviceCalls, type Goals, type Store } from './lib.js';
import type { Seeded } from './scale-seed.js';

async function shopTimes(s: Store, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await fetch(`${s.storeUrl}/`);
    await r.text();
    if (r.status !== 200) {
      throw new Error(`the shop page answered ${r.status}`);
    }
    times.push(performance.now() - t0);
  }
  return times;
}

/** The version each order's thank-you page is rendered with (Order_View::answer(), as the page gets it), by order id. */
async function pageVersions(s: Store, runPhp: (php: string) => Promise<void>, ids: number[]): Promise<Map<number, string>> {
  const out = path.join(s.dirs.siteDir, '..', `bench-versions-${process.pid}.json`);
  await runPhp(
    `$v = array(); foreach ( array( ${ids.join(', ')} ) as $id ) { $v[ $id ] = \\Card2Crypto\\Checkout\\Plugin::service( \\Card2Crypto\\Checkout\\Buyer\\Order_View::class )->answer( wc_get_order( $id ) )['v']; } file_put_contents( '${out}', wp_json_encode( $v ) );`,
  );
  return new Map(Object.entries(JSON.parse(readFileSync(out, 'utf8')) as Record<string, string>).map(([id, v]) => [Number(id), v]));
}

export async function thousandBuyers(s: Store, runPhp: (php: string) => Promise<void>, seeded: Seeded, pendingTail: number, goals: Goals): Promise<void> {
  const buyers = Math.min(pendingTail, Number(process.env.BENCH_BUYERS ?? 1000));
  const seconds = Number(process.env.BENCH_POLL_SECONDS ?? 30);
  const samples = Number(process.env.BENCH_REQUESTS ?? 40);
  console.log(
    `\n== Scale 4: ${buyers} buyers on thank-you pages polling their payment's state (back-off ${FIRST_DELAY / 1000} s growing to ${MAX_DELAY / 1000} s), ${seconds} s, while the shop page is measured ==`,
  );
  const orderOf = (i: number) => seeded.count - pendingTail + 1 + i; // the seeded orders under way
  const versions = await pageVersions(
    s,
    runPhp,
    Array.from({ length: buyers }, (_, i) => seeded.firstId + orderOf(i) - 1),
  );
  const quietBefore = await shopTimes(s, samples);

  const polls: number[] = [];
  let unchanged = 0;
  const failures = new Map<string, number>();
  let stop = false;
  const callsBefore = await serviceCalls(s);
  const buyer = async (i: number): Promise<void> => {
    const n = orderOf(i);
    const id = seeded.firstId + n - 1;
    const rest = `${s.storeUrl}/wp-json/card2crypto/v1/orders/${id}/payment-state?key=${seeded.keyOf(n)}`;
    let version = versions.get(id);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * MAX_DELAY));
    let delay = FIRST_DELAY;
    while (!stop) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (stop) {
        return;
      }
      delay = nextDelay(delay);
      const t0 = performance.now();
      try {
        const r = await fetch(askUrl(rest, version), { headers: { accept: 'application/json' } });
        const body = (await r.json()) as { state?: string; final?: boolean; changed?: boolean; v?: string };
        polls.push(performance.now() - t0);
        if (body.changed === false) {
          unchanged++;
        } else {
          version = body.v;
        }
        if (r.status !== 200 || (body.changed !== false && body.state !== 'processing')) {
          failures.set(`${r.status} ${body.state}`, (failures.get(`${r.status} ${body.state}`) ?? 0) + 1);
        }
        if (body.final) {
          return;
        }
      } catch (error) {
        failures.set((error as Error).message, (failures.get((error as Error).message) ?? 0) + 1);
      }
    }
  };
  const running = Promise.all(Array.from({ length: buyers }, (_, i) => buyer(i)));
  // The shop page while they poll, in the steady state: after the arrivals and each buyer's first, quicker asks.
  let ramp = 0;
  for (let d = FIRST_DELAY; d < MAX_DELAY; d = nextDelay(d)) {
    ramp += d;
  }
  await new Promise((resolve) => setTimeout(resolve, MAX_DELAY + ramp));
  const pollsAtStart = polls.length;
  const busyStarted = performance.now();
  const busy: number[] = [];
  while (performance.now() - busyStarted < seconds * 1000 || busy.length < samples) {
    busy.push(...(await shopTimes(s, 1)));
  }
  const steadyRate = (polls.length - pollsAtStart) / ((performance.now() - busyStarted) / 1000);
  stop = true;
  await running;
  const calls = (await serviceCalls(s)) - callsBefore;
  const quietAfter = await shopTimes(s, samples);
  const quiet = [...quietBefore, ...quietAfter];

  console.log(
    `polls: ${polls.length} answered, ${steadyRate.toFixed(0)} a second while the shop page was measured; median ${median(polls).toFixed(1)} ms (p90 ${quantile(polls, 0.9).toFixed(1)})`,
  );
  console.log(`  answered "unchanged" before WooCommerce loads: ${unchanged}; in full by the route: ${polls.length - unchanged}`);
  if (failures.size) {
    console.log(`  unexpected answers: ${[...failures].map(([k, v]) => `${v} x ${k}`).join(', ')}`);
  }
  console.log(
    `shop page: nobody polling median ${median(quiet).toFixed(1)} ms (before ${median(quietBefore).toFixed(1)}, after ${median(quietAfter).toFixed(1)}), while polling ${median(busy).toFixed(1)} ms (p75 ${quantile(busy, 0.75).toFixed(1)}, ${busy.length} requests)`,
  );
  const ratio = median(busy) / median(quiet);
  goals.add('4 thank-you polls', `shop page with ${buyers} buyers polling / nobody`, `${ratio.toFixed(2)}x`, '<= 1.2x', ratio <= 1.2);
  goals.add('4 thank-you polls', 'service calls made by the polls', `${calls} for ${polls.length} polls`, '0 (no state changed)', calls === 0);
  goals.add(
    '4 thank-you polls',
    'polls answered with the state',
    `${polls.length - [...failures.values()].reduce((a, b) => a + b, 0)}/${polls.length}`,
    'all',
    failures.size === 0,
  );
}

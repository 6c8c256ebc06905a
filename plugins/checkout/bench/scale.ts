/**
 * npm run bench (plugins/checkout), part 2: the checkout at the scale of a
 * busy store (issue 26), on the native runtime (PHP-FPM, nginx, MariaDB;
 * stores started and stopped by the bench from the project's own scripts).
 * Each figure is printed with its goal and whether it is met, and all of
 * them again at the end.
 *
 * 1. growth (scale-growth.ts): 100 orders against 100,000, side by side.
 * 2. servers (scale-two-servers.ts): two PHP-FPM "servers" behind one nginx.
 * 3. latency (scale-latency.ts): a service 300 ms away, and down.
 * 4. polling (scale-polling.ts): 1,000 buyers on thank-you pages.
 * 5. reconcile (scale-reconcile.ts): stale attempts caught up
 *    (BENCH_RECONCILE_COUNT, 600 here; 10,000 in issue 26's run).
 * 6. flood (scale-flood.ts): 8 and 32 client addresses flood one order's
 *    landing route while 10 honest buyers pay.
 *
 * `npm run bench -w plugins/checkout -- --only latency,flood` (or
 * BENCH_ONLY=...) runs some of them (polling needs growth's large store and
 * starts it). Every store is started on free ports the system picks. A goal
 * missed makes the run exit non-zero, after every section printed its figures.
 *
 * Findings that changed the code (details in docs/decisions.md and in each
 * section's header):
 * - 1,000 pollers through the full payment-state route (about 115 ms each)
 *   swamped the store: an unchanged state is now answered while plugins load
 *   (State_Poll, about 11 ms), and the page's longest wait is 30 s.
 * - A new order asked the service twice (its rate, then about the attempt it
 *   had just made, which the service cannot know before it is signed) and
 *   "Pay again" three times: an unsigned attempt is no longer asked about.
 * - With a service that never answers, the buyer was told after more than
 *   5 s: one question now waits 3 s at most, a request asks for 3.5 s.
 * - Two web servers (scale-two-servers.ts) and reconciliation at scale
 *   (scale-reconcile.ts) list their own findings in their headers.
 * - The admin order list and one order's screen grow about 1.25x with
 *   100,000 orders with our plugins off too: WooCommerce's own.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BENCH_PLUGIN, clockRunner, Goals, harness, partnerSecret, StoreClock, withEnv, type Harness, type Store } from './lib.js';
import { floodFromAddresses } from './scale-flood.js';
import { storeGrowth } from './scale-growth.js';
import { thousandBuyers } from './scale-polling.js';
import { phpRunner, slowService } from './scale-latency.js';
import { twoServers } from './scale-two-servers.js';
import { reconcileAtScale } from './scale-reconcile.js';

const only = (process.env.BENCH_ONLY ?? process.env.BENCH_SCALE_SECTIONS)?.split(',');
const wants = (name: string) => !only || only.includes(name);

/** The bench-only mu-plugin (lib.BENCH_PLUGIN) in the store. */
function benchPlugin(s: Store): void {
  const muPlugins = path.join(s.dirs.siteDir, 'wp-content', 'mu-plugins');
  mkdirSync(muPlugins, { recursive: true });
  writeFileSync(path.join(muPlugins, 'c2c-bench.php'), BENCH_PLUGIN);
}

async function withStore<T>(lib: Harness, options: object, run: (s: Store) => Promise<T>): Promise<T> {
  // Ports 0: the system picks free ones (nothing fixed to collide with another engineer's run).
  const s = await lib.startStore({ runtime: 'native', reset: true, mountPlugins: true, log: () => {}, port: 0, sandboxPort: 0, ...options });
  try {
    if (!s.woocommerce) {
      throw new Error('the store has no WooCommerce');
    }
    return await run(s);
  } finally {
    await s.stop();
  }
}

async function section(goals: Goals, name: string, run: () => Promise<void>): Promise<void> {
  const t0 = performance.now();
  try {
    await run();
  } catch (error) {
    console.log(`${name}: FAILED: ${(error as Error).stack ?? (error as Error).message}`);
    goals.add(name, 'the section ran to its end', 'failed', 'ran', false);
  }
  console.log(`(${name}: ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
}

if (process.env.BENCH_SKIP_WORDPRESS === '1') {
  console.log('\nBENCH_SKIP_WORDPRESS=1: the scale benchmarks are skipped.');
} else {
  const lib = await harness();
  const { runtime, why } = lib.chooseRuntime({ preferred: 'auto' });
  if (runtime !== 'native') {
    console.log(`\n*** SKIPPED: the scale benchmarks run on the native runtime, and ${why}. ***`);
  } else {
    const goals = new Goals();
    if (wants('growth') || wants('polling')) {
      await section(goals, '1 store growth', () =>
        withStore(lib, { name: 'bench-scale-small' }, (small) =>
          withStore(lib, { name: 'bench-scale-large' }, async (large) => {
            const seeded = await storeGrowth(lib, small, large, goals);
            if (wants('polling')) {
              // The large store's newest 1,000 orders are under way: their buyers wait on thank-you pages.
              await section(goals, '4 thank-you polls', () => thousandBuyers(large, phpRunner(large), seeded, 1000, goals));
            }
          }),
        ),
      );
    }
    if (wants('servers')) {
      await section(goals, '2 two servers', () =>
        withStore(lib, { name: 'bench-scale-servers', servers: 2 }, async (s) => {
          benchPlugin(s);
          await twoServers(lib, s, partnerSecret(s), goals);
        }),
      );
    }
    if (wants('latency')) {
      // The store's clock moves (lib.StoreClock): its processes and the sandbox start with libfaketime preloaded.
      const clock = new StoreClock();
      await section(goals, '3 slow service', () =>
        withEnv(clock.env, () =>
          lib.startStore({
            name: 'bench-scale-latency',
            runtime: 'native',
            reset: true,
            mountPlugins: true,
            log: () => {},
            port: 0,
            sandboxPort: 0,
            sandboxArgs: ['--latency', '300'],
          }),
        ).then(async (s) => {
          try {
            benchPlugin(s);
            await slowService(s, clockRunner(clock, phpRunner(s)), goals, clock);
          } finally {
            await s.stop();
          }
        }),
      );
    }
    if (wants('reconcile')) {
      await section(goals, '5 reconciliation', () =>
        withStore(lib, { name: 'bench-scale-reconcile' }, async (s) => {
          const met = await reconcileAtScale(lib, s, partnerSecret(s), Number(process.env.BENCH_RECONCILE_COUNT ?? 600));
          goals.add('5 reconciliation', 'every figure of the reconciliation above', met ? 'all met' : 'see above', 'each figure above', met);
        }),
      );
    }
    if (wants('flood')) {
      await section(goals, '6 flood', () => withStore(lib, { name: 'bench-scale-flood' }, (s) => floodFromAddresses(s, phpRunner(s), goals)));
    }
    goals.print();
    const missed = goals.rows.filter((r) => !r.met);
    if (missed.length) {
      console.log(`\n${missed.length} goal(s) NOT met:`);
      for (const r of missed) {
        console.log(`  ${r.section}: ${r.what}: ${r.figure} (goal ${r.goal})`);
      }
      process.exitCode = 1;
    }
  }
}

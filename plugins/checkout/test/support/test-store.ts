/**
 * A real store for the WordPress-level tests of test/wordpress: the
 * harness's native store (WordPress, WooCommerce, our plugins mounted from
 * source, the sandbox), started afresh under its own name, with Action
 * Scheduler's own runners idle so that the steps run each action
 * themselves (and can count what is pending before and after it).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_DIR } from './php.js';
import type { ReconcileStore } from './reconcile-store.js';

export interface TestStore extends ReconcileStore {
  storeUrl: string;
  admin: { username: string; password: string };
  dirs: { harnessDir: string; siteDir: string; logDir: string };
  woocommerce: unknown;
  native: (NonNullable<ReconcileStore['native']> & { dbSocket: string }) | null;
  stop: () => Promise<void>;
}

/** The harness's own modules (scripts/lib), as the store and the tests share them. */
export const harness = Object.assign(
  {},
  ...(await Promise.all(
    ['store.mjs', 'runtime.mjs', 'native/detect.mjs', 'native/mariadb.mjs'].map(
      (file) => import(pathToFileURL(path.join(REPO_DIR, 'scripts', 'lib', file)).href),
    ),
  )),
) as {
  startStore: (o: object) => Promise<TestStore>;
  chooseRuntime: (o: { preferred: string }) => { runtime: string; why: string };
  detectNative: () => { programs: { mariadb: string } };
  DATABASE: { name: string; user: string; password: string };
};

const chosen = harness.chooseRuntime({ preferred: 'auto' });
/** The describe() skip of a test that needs the native runtime: false where it runs, else why not. */
export const needsNative: string | false = chosen.runtime !== 'native' && `needs the native runtime: ${chosen.why}`;

/**
 * Test only: Action Scheduler's own runners (WP-Cron, and the async request
 * each request may start) stay idle, and with `noCron` WP-Cron runs no job at all.
 */
const quietRunners = (noCron: boolean) => `<?php
add_filter( 'action_scheduler_queue_runner_concurrent_batches', static function () { return 0; } );
add_filter( 'action_scheduler_allow_async_request_runner', '__return_false' );
${noCron ? "add_filter( 'pre_get_ready_cron_jobs', static function () { return array(); } );\n" : ''}`;

/**
 * Starts the store `name` afresh on its preferred ports (the next free ones
 * when taken), with WooCommerce, and the runners quiet.
 */
export async function startTestStore(options: {
  name: string;
  port: number;
  sandboxPort: number;
  sandboxArgs?: string[];
  noCron?: boolean;
}): Promise<TestStore> {
  const store = await harness.startStore({
    name: options.name,
    runtime: 'native',
    reset: true,
    port: options.port,
    sandboxPort: options.sandboxPort,
    mountPlugins: true,
    ...(options.sandboxArgs ? { sandboxArgs: options.sandboxArgs } : {}),
    log: () => {},
  });
  assert.ok(store.woocommerce, 'the store has WooCommerce');
  const muPlugins = path.join(store.dirs.siteDir, 'wp-content', 'mu-plugins');
  mkdirSync(muPlugins, { recursive: true });
  writeFileSync(path.join(muPlugins, 'c2c-test-quiet-runners.php'), quietRunners(options.noCron ?? false));
  return store;
}

/** One action of the sandbox's dashboard (a tester's button: block a partner, move the clock). */
export function sandboxAction(store: TestStore, route: string, body: unknown): Promise<Response> {
  return fetch(`${store.sandbox!.url}/dashboard/api/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-card2crypto-dashboard': '1' },
    body: JSON.stringify(body),
  });
}

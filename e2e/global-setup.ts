// Boots WordPress and the sandbox once for the whole run, builds the plugin
// zips from the current build, and logs the admin in. Returns the teardown.
// The runtime is native (PHP-FPM, nginx, MariaDB) when installed, else
// Playground, said loudly (CARD2CRYPTO_RUNTIME forces one). In the smoke mode
// (CARD2CRYPTO_E2E_MODE=smoke) the site is booted as `npm start` boots it,
// plugins mounted from source. With WP_BASE_URL set, it uses that WordPress
// instead of booting.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from '@playwright/test';
import { PLUGINS } from '../scripts/lib/paths.mjs';
import { buildPluginZip } from '../scripts/lib/plugin-zip.mjs';
import { chooseRuntime } from '../scripts/lib/runtime.mjs';
import { startStore } from '../scripts/lib/store.mjs';
import { E2E_MODE, E2E_RUN_DIR, E2E_SITE, WOOCOMMERCE_MISSING, type RunInfo } from './run-info.ts';

/**
 * Sandbox milliseconds between the automatic steps of a paid operation (the sandbox's --step-delay; 2000 by
 * default, as `npm start` keeps it for a person to watch). A paid card walks six steps: at 2 s each, every order a
 * spec pays waited about 12 s for nothing. No spec watches those steps go by (the ones that need a state in between
 * send its callback themselves), so the e2e sandbox takes them 250 ms apart, still one at a time and in order.
 * E2E_SANDBOX_STEP_DELAY_MS sets another (2000 to measure or watch as before).
 */
const SANDBOX_STEP_DELAY_MS = (() => {
  const text = process.env.E2E_SANDBOX_STEP_DELAY_MS ?? '250';
  if (!/^\d{1,6}$/.test(text)) {
    throw new Error(`E2E_SANDBOX_STEP_DELAY_MS must be a whole number of milliseconds, got ${JSON.stringify(text)}`);
  }
  return text;
})();

function banner(lines: string[]): void {
  const width = Math.max(...lines.map((l) => l.length)) + 4;
  const bar = '*'.repeat(width);
  console.log(`\n${bar}\n${lines.map((l) => `* ${l.padEnd(width - 4)} *`).join('\n')}\n${bar}\n`);
}

async function buildZips(outDir: string): Promise<RunInfo['zips']> {
  const zips: RunInfo['zips'] = [];
  for (const plugin of PLUGINS) {
    const file = join(outDir, `${plugin.slug}.zip`);
    try {
      await buildPluginZip(plugin, file);
      zips.push({ slug: plugin.slug, main: plugin.main, file, error: null });
    } catch (error) {
      zips.push({ slug: plugin.slug, main: plugin.main, file: null, error: (error as Error).message });
    }
  }
  return zips;
}

/** Detect WooCommerce on an existing WordPress through its REST index. */
async function remoteHasWooCommerce(baseURL: string): Promise<boolean> {
  const context = await request.newContext({ baseURL });
  try {
    const response = await context.get('wp-json/', { timeout: 60_000 });
    const index = (await response.json()) as { namespaces?: string[] };
    return Boolean(index.namespaces?.includes('wc/v3'));
  } catch {
    return false;
  } finally {
    await context.dispose();
  }
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const runDir = E2E_RUN_DIR;
  await mkdir(runDir, { recursive: true });
  const zipsDir = join(runDir, '..', `${E2E_SITE}-zips`);
  await mkdir(zipsDir, { recursive: true });
  const zips = await buildZips(zipsDir);
  let info: RunInfo;
  let stop = async () => {};

  const external = process.env.WP_BASE_URL;
  if (external) {
    const storeUrl = external.replace(/\/+$/, '');
    const hasWooCommerce = await remoteHasWooCommerce(`${storeUrl}/`);
    info = {
      booted: false,
      runtime: null,
      stateDir: null,
      storeUrl,
      admin: { username: process.env.WP_USERNAME || 'admin', password: process.env.WP_PASSWORD || 'password' },
      adminStatePath: join(runDir, 'admin-state.json'),
      hasWooCommerce,
      woocommerceMessage: hasWooCommerce ? null : `WooCommerce is not active on ${storeUrl}.`,
      woocommerceVersion: null,
      wordpressVersion: null,
      sandbox: process.env.SANDBOX_URL ? { url: process.env.SANDBOX_URL, dashboardUrl: `${process.env.SANDBOX_URL.replace(/\/+$/, '')}/dashboard` } : null,
      siteDir: null,
      zips,
      products: [],
    };
    console.log(`e2e: using the WordPress at ${storeUrl} (WP_BASE_URL); nothing is booted.`);
  } else {
    const started = Date.now();
    const { runtime, why } = chooseRuntime({ preferred: 'auto' });
    if (runtime === 'native') {
      console.log(`e2e: native runtime: ${why}`);
    } else {
      banner([`*** e2e on WordPress Playground (slow): ${why}`]);
    }
    const store = await startStore({
      name: E2E_SITE,
      runtime,
      reset: true,
      port: 0,
      sandboxPort: 0,
      mountPlugins: E2E_MODE === 'smoke',
      sandboxArgs: ['--step-delay', SANDBOX_STEP_DELAY_MS],
      what: 'an e2e run',
      log: (line: string) => console.log(`e2e: ${line}`),
    });
    stop = store.stop;
    // A killed runner must not leave WordPress or the sandbox behind.
    process.once('exit', () => {
      for (const pid of Object.values(store.pids)) {
        if (pid) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
      }
    });
    info = {
      booted: true,
      runtime,
      stateDir: store.dirs.stateDir,
      storeUrl: store.storeUrl,
      admin: store.admin,
      adminStatePath: join(runDir, 'admin-state.json'),
      hasWooCommerce: Boolean(store.woocommerce),
      woocommerceMessage: store.woocommerceMessage,
      woocommerceVersion: store.woocommerce?.version ?? null,
      wordpressVersion: store.wordpress.version,
      sandbox: store.sandbox ? { url: store.sandbox.url, dashboardUrl: store.sandbox.dashboardUrl } : null,
      siteDir: store.dirs.siteDir,
      zips,
      products: store.woocommerce?.products ?? [],
      pages: store.woocommerce?.pages ?? null,
    };
    console.log(
      `e2e: ${runtime}: WordPress ${store.wordpress.version} at ${store.storeUrl}` +
        (store.woocommerce ? `, WooCommerce ${store.woocommerce.version}` : '') +
        (store.sandbox ? `, sandbox at ${store.sandbox.url}` : ', no sandbox') +
        ` (booted in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    for (const line of [store.wordpress.notice, store.woocommerce?.notice]) {
      if (line) {
        console.log(`e2e: ${line}`);
      }
    }
  }

  if (!info.hasWooCommerce) {
    banner([WOOCOMMERCE_MISSING, ...(info.woocommerceMessage ?? '').split('\n').filter(Boolean)]);
  }
  for (const zip of zips) {
    if (zip.error) {
      banner([`*** ${zip.slug}: no zip, its install test will FAIL:`, ...zip.error.split('\n')]);
    }
  }

  // Log the admin in once; specs reuse the cookies. The WordPress test utils
  // read WP_BASE_URL when first loaded, hence set first, imported after.
  process.env.WP_BASE_URL = info.storeUrl;
  const { RequestUtils } = await import('@wordpress/e2e-test-utils-playwright');
  const context = await request.newContext({ baseURL: `${info.storeUrl}/`, timeout: 180_000 });
  const requestUtils = new RequestUtils(context, { user: info.admin, storageStatePath: info.adminStatePath, baseURL: `${info.storeUrl}/` });
  // setupRest() gives login plus REST discovery one minute, which a cold WebAssembly WordPress on a
  // busy machine can exceed: warm both pages first, then allow it three tries.
  for (const path of ['wp-login.php', '?rest_route=/']) {
    await context.get(path).catch(() => {});
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await requestUtils.setupRest();
      break;
    } catch (error) {
      if (attempt === 3) {
        throw error;
      }
      console.log(`e2e: logging in took too long (try ${attempt} of 3), trying again`);
    }
  }
  await context.dispose();
  if (!existsSync(info.adminStatePath)) {
    throw new Error(`Logging in as ${info.admin.username} did not store a session`);
  }

  const infoFile = join(runDir, 'run-info.json');
  await writeFile(infoFile, JSON.stringify(info, null, 2));
  process.env.C2C_E2E_INFO = infoFile;
  process.env.WP_BASE_URL = info.storeUrl;

  return async () => {
    await stop();
  };
}

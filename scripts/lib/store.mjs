// Boot a whole local store: WordPress in Playground (WooCommerce when found,
// the demo theme, optionally both plugins mounted from source), the sandbox
// with a partner whose callback URL points at the store, and the seed.
// Used by `npm start` and by the e2e global setup.
import { existsSync } from 'node:fs';
import { rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compareWordPressVersions, resolveWordPress } from './find-wordpress.mjs';
import { findWooCommerce } from './find-woocommerce.mjs';
import { isOnline } from './online.mjs';
import { PLUGINS, STATE_DIR } from './paths.mjs';
import { startPlayground } from './playground.mjs';
import { freePort } from './ports.mjs';
import { startSandbox } from './sandbox.mjs';
import { ADMIN, CALLBACK_ROUTE, SCRIPTS_PLAYGROUND_DIR, THEME_SLUG, partnerCredentials, readSeedResult, writeSeed } from './seed.mjs';

/** Directories of one named site under .card2crypto/. */
export function siteDirs(name) {
  const stateDir = join(STATE_DIR, name);
  return { stateDir, siteDir: join(stateDir, 'wordpress'), harnessDir: join(stateDir, 'harness'), logDir: join(stateDir, 'logs') };
}

/** WooCommerce usable with this WordPress? (version unknown before download: assume yes) */
function woocommerceFits(woocommerce, wordpressVersion) {
  if (!woocommerce.found || !woocommerce.requiresWordPress || !/^\d/.test(wordpressVersion)) return true;
  // WordPress compares "Requires at least" ignoring pre-release suffixes (6.7-alpha counts as 6.7).
  return compareWordPressVersions(wordpressVersion.split('-')[0], woocommerce.requiresWordPress) >= 0;
}

/**
 * @param {object} options
 * @param {string} options.name site name under .card2crypto/ ("store", "e2e")
 * @param {boolean} [options.reset] start from an empty site
 * @param {number} [options.port] preferred WordPress port (next free one is used)
 * @param {number} [options.sandboxPort] preferred sandbox port
 * @param {boolean} options.mountPlugins mount plugins/checkout and plugins/widget from source and activate them
 * @param {(line: string) => void} [options.log]
 */
export async function startStore({ name, reset = false, port = 9400, sandboxPort = 9450, mountPlugins, log = console.log }) {
  const dirs = siteDirs(name);
  if (reset && existsSync(dirs.stateDir)) {
    log(`Resetting ${dirs.stateDir}`);
    await rm(dirs.stateDir, { recursive: true, force: true });
  }
  const online = await isOnline();
  const wordpress = await resolveWordPress({ siteDir: dirs.siteDir, online });
  let woocommerce = await findWooCommerce({ online });
  if (woocommerce.found && !woocommerceFits(woocommerce, wordpress.version)) {
    woocommerce = {
      found: false,
      message: `WooCommerce ${woocommerce.version} (${woocommerce.dir}) requires WordPress ${woocommerce.requiresWordPress}, this site runs ${wordpress.version}: starting without it. Set WOOCOMMERCE_DIR to an older WooCommerce.`,
    };
  }

  const wpPort = await freePort(port);
  const sbPort = await freePort(sandboxPort, 50, [wpPort]);
  const storeUrl = `http://127.0.0.1:${wpPort}`;
  const partner = { ...(await partnerCredentials(dirs.harnessDir)), callbackUrl: `${storeUrl}${CALLBACK_ROUTE}` };

  const stoppers = [];
  const stopAll = async () => {
    for (const stop of stoppers.splice(0).reverse()) await stop().catch(() => {});
  };
  try {
    // The store is still worth having without the sandbox (it may be mid-build
    // while the plugins are worked on): say so loudly and go on.
    const sandbox = await startSandbox({
      port: sbPort,
      partner,
      logFile: join(dirs.logDir, 'sandbox.log'),
      dataDir: join(dirs.stateDir, 'sandbox'),
      onMissing: (message) => log(message),
    }).catch((error) => {
      log(`*** The sandbox failed to start, continuing without it: ${error.message}`);
      return null;
    });
    if (sandbox) stoppers.push(sandbox.stop);

    const blueprint = await writeSeed({ harnessDir: dirs.harnessDir, woocommerce: woocommerce.found, mountPlugins, partner, sandbox, wp: wordpress.wp });
    await unlink(join(dirs.harnessDir, 'seed-result.json')).catch(() => {});
    const mounts = [
      [join(SCRIPTS_PLAYGROUND_DIR, 'theme', THEME_SLUG), `/wordpress/wp-content/themes/${THEME_SLUG}`],
      [SCRIPTS_PLAYGROUND_DIR, '/card2crypto-scripts'],
      [dirs.harnessDir, '/card2crypto-harness'],
    ];
    if (woocommerce.found) mounts.push([woocommerce.dir, '/wordpress/wp-content/plugins/woocommerce']);
    if (mountPlugins) {
      for (const plugin of PLUGINS) {
        if (existsSync(join(plugin.dir, plugin.main))) mounts.push([plugin.dir, `/wordpress/wp-content/plugins/${plugin.slug}`]);
        else log(`${plugin.slug}: ${join(plugin.dir, plugin.main)} does not exist yet, not mounted.`);
      }
    }

    const started = Date.now();
    const server = await startPlayground({
      siteDir: dirs.siteDir,
      port: wpPort,
      wordpress,
      mounts,
      blueprint,
      // Offline, WordPress and WooCommerce would wait on every call home
      // (updates, marketplace, inbox); refuse external hosts at once instead.
      // The store itself and the sandbox (127.0.0.1) stay reachable.
      defineBool: online ? {} : { WP_HTTP_BLOCK_EXTERNAL: true },
      logFile: join(dirs.logDir, 'playground.log'),
    });
    stoppers.push(server.stop);
    const bootSeconds = (Date.now() - started) / 1000;
    const seed = await readSeedResult(dirs.harnessDir);
    if (!seed) throw new Error(`The seed did not run (see ${join(dirs.logDir, 'playground.log')})`);

    const info = {
      name,
      storeUrl,
      adminUrl: `${storeUrl}/wp-admin/`,
      admin: ADMIN,
      sandbox: sandbox ? { url: sandbox.url, dashboardUrl: sandbox.dashboardUrl, urls: sandbox.urls, pid: sandbox.pid } : null,
      partner: { token: partner.token, callbackUrl: partner.callbackUrl },
      wordpress: { version: seed.wordpressVersion, source: wordpress.source },
      woocommerce: woocommerce.found
        ? { version: seed.woocommerceVersion || woocommerce.version, dir: woocommerce.dir, source: woocommerce.source, hpos: seed.hpos, pages: seed.pages, products: seed.products }
        : null,
      woocommerceMessage: woocommerce.found ? null : woocommerce.message,
      seed,
      bootSeconds,
      pids: { wordpress: server.pid, sandbox: sandbox?.pid ?? null },
      dirs,
    };
    await writeFile(join(dirs.stateDir, 'running.json'), JSON.stringify({ ...info, seed: undefined }, null, 2));
    // Resolves with the name of the first child that exits on its own.
    const unexpectedExit = new Promise((resolveExit) => {
      server.child.once('exit', (code, signal) => resolveExit({ name: 'WordPress Playground', code, signal }));
      sandbox?.child.once('exit', (code, signal) => resolveExit({ name: 'The sandbox', code, signal }));
    });
    return {
      ...info,
      unexpectedExit,
      stop: async () => {
        await stopAll();
        await rm(join(dirs.stateDir, 'running.json'), { force: true });
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

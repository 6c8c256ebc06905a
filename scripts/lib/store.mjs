// Boot a whole local store: WordPress (native or Playground, see runtime.mjs)
// with WooCommerce when found, the demo theme, optionally both plugins mounted
// from source, the sandbox with a partner whose callback URL points at the
// store, and the seed. Used by `npm start`, the e2e global setup and the benchmarks.
import { existsSync } from 'node:fs';
import { rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findWordPress, installedWordPressVersion, layOutWordPress, listCachedWordPress, resolveWordPress } from './find-wordpress.mjs';
import { findWooCommerce, withResetHint } from './find-woocommerce.mjs';
import { detectNative } from './native/detect.mjs';
import { startNativeSite } from './native/site.mjs';
import { PLUGINS, STATE_DIR } from './paths.mjs';
import { startPlayground } from './playground.mjs';
import { freePort } from './ports.mjs';
import { startSandbox } from './sandbox.mjs';
import { lockSite } from './site-lock.mjs';
import { ADMIN, CALLBACK_ROUTE, PHP_VERSION, SCRIPTS_PLAYGROUND_DIR, SITE_TITLE, THEME_SLUG, partnerCredentials, readSeedResult, writeSeed } from './seed.mjs';

/**
 * Directories of one named site under .card2crypto/. A native site keeps its
 * files apart from a Playground site of the same name (MariaDB vs SQLite).
 */
export function siteDirs(name, runtime = 'playground') {
  const stateDir = join(STATE_DIR, runtime === 'native' ? `${name}-native` : name);
  return { stateDir, siteDir: join(stateDir, 'wordpress'), harnessDir: join(stateDir, 'harness'), logDir: join(stateDir, 'logs') };
}

/** Plugin folders the site gets from elsewhere: WooCommerce, and both plugins when mounted from source. */
function pluginSources({ woocommerce, mountPlugins, log }) {
  const sources = [];
  if (woocommerce.found) {
    sources.push([woocommerce.dir, 'woocommerce']);
  }
  if (mountPlugins) {
    for (const plugin of PLUGINS) {
      if (existsSync(join(plugin.dir, plugin.main))) {
        sources.push([plugin.dir, plugin.slug]);
      } else {
        log(`${plugin.slug}: ${join(plugin.dir, plugin.main)} does not exist yet, not mounted.`);
      }
    }
  }
  return sources;
}

async function startPlaygroundSite({ dirs, port, host, woocommerce, mountPlugins, blueprint, wordpress: found, log }) {
  const wordpress = await resolveWordPress({ siteDir: dirs.siteDir, found });
  const mounts = [
    [join(SCRIPTS_PLAYGROUND_DIR, 'theme', THEME_SLUG), `/wordpress/wp-content/themes/${THEME_SLUG}`],
    [SCRIPTS_PLAYGROUND_DIR, '/card2crypto-scripts'],
    [dirs.harnessDir, '/card2crypto-harness'],
    ...pluginSources({ woocommerce, mountPlugins, log }).map(([dir, slug]) => [dir, `/wordpress/wp-content/plugins/${slug}`]),
  ];
  const server = await startPlayground({
    siteDir: dirs.siteDir,
    port,
    host,
    wordpress,
    mounts,
    blueprint,
    // WordPress and WooCommerce would wait on every call home (updates,
    // marketplace, inbox); refuse external hosts at once instead. The store
    // itself and the sandbox (127.0.0.1) stay reachable.
    defineBool: { WP_HTTP_BLOCK_EXTERNAL: true },
    logFile: join(dirs.logDir, 'playground.log'),
  });
  return {
    url: server.url,
    source: wordpress.source,
    runtime: { name: 'playground', php: `${PHP_VERSION} (WebAssembly)`, database: 'SQLite', webServer: 'Playground CLI' },
    pids: { wordpress: server.pid },
    children: { 'WordPress Playground': server.child },
    stop: server.stop,
  };
}

async function startNative({ dirs, port, host, woocommerce, mountPlugins, wordpress, servers = 1, multisite = false, log }) {
  const native = detectNative();
  const site = await startNativeSite({
    stateDir: dirs.stateDir,
    siteDir: dirs.siteDir,
    logDir: dirs.logDir,
    port,
    host,
    prepare: (siteDir) => layOutWordPress(wordpress, siteDir),
    links: [
      [join(SCRIPTS_PLAYGROUND_DIR, 'theme', THEME_SLUG), `wp-content/themes/${THEME_SLUG}`],
      ...pluginSources({ woocommerce, mountPlugins, log }).map(([dir, slug]) => [dir, `wp-content/plugins/${slug}`]),
    ],
    activate: woocommerce.found ? ['woocommerce/woocommerce.php'] : [],
    seed: { harnessDir: dirs.harnessDir, file: join(SCRIPTS_PLAYGROUND_DIR, 'seed.php') },
    admin: ADMIN,
    title: 'card2crypto demo store',
    servers,
    multisite,
  });
  return {
    url: site.url,
    source: wordpress.source,
    runtime: {
      name: 'native',
      php: servers > 1 ? `${native.versions.php} (${servers} web servers: PHP-FPM masters of 4 workers each)` : `${native.versions.php} (PHP-FPM, 4 workers)`,
      database: `MariaDB ${native.versions.mariadb}`,
      webServer: `nginx ${native.versions.nginx}`,
    },
    pids: site.pids,
    children: site.children,
    stop: site.stop,
    native: { dbSocket: site.dbSocket, runPhp: site.runPhp, servers: site.servers, multisite },
  };
}

/**
 * @param {Object}                 options
 * @param {string}                 options.name          site name under .card2crypto/ ("store", "e2e")
 * @param {'native'|'playground'}  options.runtime
 * @param {boolean}                [options.reset]       start from an empty site
 * @param {number}                 [options.port]        preferred WordPress port (next free one is used)
 * @param {number}                 [options.sandboxPort] preferred sandbox port
 * @param {string}                 [options.host]        the interface WordPress and the sandbox listen on (127.0.0.1)
 * @param {boolean}                options.mountPlugins  mount plugins/checkout and plugins/widget from source and activate them
 * @param {string}                 [options.what]        who runs it, for a second run's message ("npm start")
 * @param {string[]}               [options.sandboxArgs] more sandbox flags (the benchmarks: --latency 300, --rate-limit 5)
 * @param {number}                 [options.servers]     native only: web servers (PHP-FPM masters, each with its own
 *                                                       folders and OPcache) behind one nginx, sharing MariaDB (1)
 * @param {boolean}                [options.multisite]   native only: the store is the main site of a subdirectory
 *                                                       multisite network (more sites are made with wp_insert_site()
 *                                                       and reached with native.runPhp(files, { path: '/shop2/' })); false
 * @param {(line: string) => void} [options.log]
 */
export async function startStore({
  name,
  runtime,
  reset = false,
  port = 9400,
  sandboxPort = 9450,
  host = '127.0.0.1',
  mountPlugins,
  what = 'a harness run',
  sandboxArgs = [],
  servers = 1,
  multisite = false,
  log = console.log,
}) {
  if (servers > 1 && runtime !== 'native') {
    throw new Error(`${servers} web servers need the native runtime (Playground is one PHP)`);
  }
  if (multisite && runtime !== 'native') {
    throw new Error('A multisite network needs the native runtime');
  }
  const dirs = siteDirs(name, runtime);
  // One run per site folder: a second one is told where the first one is (site-lock.mjs).
  const lock = await lockSite(dirs.stateDir, { what, log });
  try {
    return await startLockedStore({ name, runtime, reset, port, sandboxPort, host, mountPlugins, log, dirs, lock, sandboxArgs, servers, multisite });
  } catch (error) {
    await lock.release();
    throw error;
  }
}

async function startLockedStore({
  name,
  runtime,
  reset,
  port,
  sandboxPort,
  host,
  mountPlugins,
  log,
  dirs,
  lock,
  sandboxArgs = [],
  servers = 1,
  multisite = false,
}) {
  if (reset && existsSync(dirs.stateDir)) {
    log(`Resetting ${dirs.stateDir}`);
    await rm(dirs.stateDir, { recursive: true, force: true });
  }
  // An existing site keeps its WordPress (--reset to change it); a new one gets findWordPress()'s.
  const existing = installedWordPressVersion(dirs.siteDir);
  const wordpress = existing ? { version: existing, source: `existing site in ${dirs.siteDir}` } : await findWordPress();
  const woocommerce = withResetHint(
    await findWooCommerce({ wordpressVersion: wordpress.version }),
    existing,
    existing ? ((await listCachedWordPress())[0]?.version ?? null) : null,
  );

  const wpPort = await freePort(port);
  const sbPort = await freePort(sandboxPort, 50, [wpPort]);
  const storeUrl = `http://127.0.0.1:${wpPort}`;
  await lock.update({ storeUrl });
  const partner = { ...(await partnerCredentials(dirs.harnessDir)), callbackUrl: `${storeUrl}${CALLBACK_ROUTE}`, name: SITE_TITLE };

  const stoppers = [];
  const stopAll = async () => {
    for (const stop of stoppers.splice(0).reverse()) {
      await stop().catch(() => {});
    }
  };
  try {
    // The store is still worth having without the sandbox (it may be mid-build
    // while the plugins are worked on): say so loudly and go on.
    const sandbox = await startSandbox({
      port: sbPort,
      host,
      partner,
      harnessDir: dirs.harnessDir,
      logFile: join(dirs.logDir, 'sandbox.log'),
      dataDir: join(dirs.stateDir, 'sandbox'),
      extraArgs: sandboxArgs,
      onMissing: (message) => log(message),
    }).catch((error) => {
      log(`*** The sandbox failed to start, continuing without it: ${error.message}`);
      return null;
    });
    if (sandbox) {
      stoppers.push(sandbox.stop);
    }

    const blueprint = await writeSeed({ harnessDir: dirs.harnessDir, woocommerce: woocommerce.found, mountPlugins, partner, sandbox });
    await unlink(join(dirs.harnessDir, 'seed-result.json')).catch(() => {});

    const started = Date.now();
    const options = { dirs, port: wpPort, host, woocommerce, mountPlugins, wordpress, blueprint, servers, multisite, log };
    const server = runtime === 'native' ? await startNative(options) : await startPlaygroundSite(options);
    stoppers.push(server.stop);
    const bootSeconds = (Date.now() - started) / 1000;
    const seed = await readSeedResult(dirs.harnessDir);
    if (!seed) {
      throw new Error(`The seed did not run (see ${dirs.logDir})`);
    }

    const info = {
      name,
      runtime: server.runtime,
      storeUrl,
      adminUrl: `${storeUrl}/wp-admin/`,
      admin: ADMIN,
      sandbox: sandbox ? { url: sandbox.url, dashboardUrl: sandbox.dashboardUrl, urls: sandbox.urls, pid: sandbox.pid } : null,
      partner: { token: partner.token, callbackUrl: partner.callbackUrl },
      wordpress: { version: seed.wordpressVersion, source: server.source ?? wordpress.source, notice: wordpress.notice ?? null },
      woocommerce: woocommerce.found
        ? {
            version: seed.woocommerceVersion || woocommerce.version,
            dir: woocommerce.dir,
            source: woocommerce.source,
            notice: woocommerce.notice ?? woocommerce.note ?? null,
            hpos: seed.hpos,
            pages: seed.pages,
            products: seed.products,
          }
        : null,
      woocommerceMessage: woocommerce.found ? null : woocommerce.message,
      seed,
      bootSeconds,
      pids: { ...server.pids, sandbox: sandbox?.pid ?? null },
      dirs,
    };
    await writeFile(join(dirs.stateDir, 'running.json'), JSON.stringify({ ...info, seed: undefined }, null, 2));
    await lock.update({ storeUrl, pids: info.pids });
    // Resolves with the name of the first child that exits on its own.
    const unexpectedExit = new Promise((resolveExit) => {
      for (const [childName, child] of Object.entries(server.children)) {
        child.once('exit', (code, signal) => resolveExit({ name: childName, code, signal }));
      }
      sandbox?.child.once('exit', (code, signal) => resolveExit({ name: 'The sandbox', code, signal }));
    });
    return {
      ...info,
      /** Native sites only: the database socket and a way to run PHP inside WordPress (benchmarks). */
      native: server.native ?? null,
      unexpectedExit,
      stop: async () => {
        await stopAll();
        await rm(join(dirs.stateDir, 'running.json'), { force: true });
        await lock.release();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * A real WordPress for the WordPress-level tests of the shared library: both
 * plugins installed from copies built for the test (each with its own library
 * version), WooCommerce when the harness finds it, and the test probe mu-plugin.
 *
 * phpVersion "native" boots it on the native runtime (PHP-FPM, nginx,
 * MariaDB: scripts/lib/native/); any other version on Playground (PHP in
 * WebAssembly), whose CLI is spawned here only to choose the PHP version (the
 * harness's startPlayground runs 8.3). Reuses the harness's modules
 * (scripts/lib: WordPress and WooCommerce from the cache, child processes, ports).
 */
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PHP_PACKAGE_DIR, REPO_DIR, probeSite } from '../../testing/php.js';

const run = promisify(execFile);

interface FoundWordPress {
  version: string;
  source: string;
}
interface HarnessLib {
  resolveWordPress: (o: { siteDir: string }) => Promise<{ installMode: string; version: string; source: string }>;
  findWordPress: () => Promise<FoundWordPress>;
  layOutWordPress: (found: FoundWordPress, siteDir: string) => Promise<void>;
  findWooCommerce: (o: { wordpressVersion?: string }) => Promise<{ found: boolean; dir?: string; version?: string; message?: string }>;
  detectNative: () => { available: boolean; missing: string[] };
  startNativeSite: (o: Record<string, unknown>) => Promise<{ url: string; pids: Record<string, number>; stop: () => Promise<void> }>;
  spawnLogged: (command: string, args: string[], o: { logFile: string; onLine?: (line: string) => void }) => import('node:child_process').ChildProcess;
  waitForHttp: (url: string, o: { timeoutMs: number; child?: unknown; what?: string }) => Promise<void>;
  stopChild: (child: unknown) => Promise<void>;
  freePort: (preferred: number, span?: number, exclude?: number[]) => Promise<number>;
  PLAYGROUND_CLI: string;
  STATE_DIR: string;
}

async function harness(): Promise<HarnessLib> {
  const load = (file: string) => import(pathToFileURL(path.join(REPO_DIR, 'scripts', 'lib', file)).href);
  const parts = await Promise.all(
    ['find-wordpress.mjs', 'find-woocommerce.mjs', 'process.mjs', 'ports.mjs', 'paths.mjs', 'native/detect.mjs', 'native/site.mjs'].map(load),
  );
  return Object.assign({}, ...parts) as HarnessLib;
}

/** Can the WordPress-level tests run on the native runtime here? (null when they can, else why not) */
export async function nativeWordPressMissing(): Promise<string | null> {
  const native = (await harness()).detectNative();
  return native.available ? null : `the native runtime is not installed (missing: ${native.missing.join(', ')}; npm run setup:native)`;
}

export interface WordPressSite {
  url: string;
  php: string;
  /** Where WordPress sees the plugins' files (reflection answers in this directory). */
  pluginFilesDir: string;
  woocommerce: boolean;
  woocommerceMessage: string | undefined;
  pluginsDir: string;
  /** Host directory of the site (wp-content/debug.log lives under it). */
  siteDir: string;
  logFile: string;
  stop: () => Promise<void>;
  get: (route: string) => Promise<Response>;
  probe: <T>(action: Record<string, unknown>) => Promise<T>;
}

export interface PluginBuild {
  /** Library version written into this plugin's copy (Library::VERSION). */
  libVersion: string;
}

/** Copies a plugin's source and builds its lib/ with the given library version. */
async function buildPlugin(source: string, target: string, namespace: string, textDomain: string, libVersion: string): Promise<void> {
  await rm(target, { recursive: true, force: true });
  await cp(source, target, { recursive: true, filter: (p) => !p.includes(`${path.sep}lib`) && !p.includes('node_modules') });
  await run(process.execPath, [
    path.join(PHP_PACKAGE_DIR, 'scripts', 'prefix.mjs'),
    '--plugin-dir',
    target,
    '--namespace',
    namespace,
    '--text-domain',
    textDomain,
    '--lib-version',
    libVersion,
  ]);
}

/**
 * Boots a fresh WordPress on `phpVersion` with both plugins active.
 * `defines` become PHP constants (wp-config style) for every request.
 */
export async function startWordPress(options: {
  name: string;
  phpVersion: string;
  checkout: PluginBuild;
  widget: PluginBuild;
  port: number;
  defines?: Record<string, string>;
}): Promise<WordPressSite> {
  const lib = await harness();
  const stateDir = path.join(lib.STATE_DIR, 'php-tests', options.name);
  const siteDir = path.join(stateDir, 'wordpress');
  const pluginsDir = path.join(stateDir, 'plugins');
  const logFile = path.join(stateDir, 'playground.log');
  await rm(stateDir, { recursive: true, force: true });
  await mkdir(pluginsDir, { recursive: true });

  const checkoutDir = path.join(pluginsDir, 'card2crypto-checkout');
  const widgetDir = path.join(pluginsDir, 'card2crypto-widget');
  await buildPlugin(path.join(REPO_DIR, 'plugins', 'checkout'), checkoutDir, 'Card2Crypto\\Checkout', 'card2crypto-checkout', options.checkout.libVersion);
  await buildPlugin(path.join(REPO_DIR, 'plugins', 'widget'), widgetDir, 'Card2Crypto\\Widget', 'card2crypto-widget', options.widget.libVersion);

  if (options.phpVersion === 'native') {
    return startNative(lib, options, { stateDir, siteDir, pluginsDir, checkoutDir, widgetDir });
  }

  const wordpress = await lib.resolveWordPress({ siteDir });
  const woocommerce = await lib.findWooCommerce({ wordpressVersion: wordpress.version });

  const steps: unknown[] = [];
  if (woocommerce.found) {
    steps.push({ step: 'activatePlugin', pluginPath: 'woocommerce/woocommerce.php' });
  }
  steps.push({ step: 'activatePlugin', pluginPath: 'card2crypto-checkout/card2crypto-checkout.php' });
  steps.push({ step: 'activatePlugin', pluginPath: 'card2crypto-widget/card2crypto-widget.php' });
  const blueprintFile = path.join(stateDir, 'blueprint.json');
  // The CLI's --php alone is not enough: without preferredVersions it boots its default PHP.
  await writeFile(blueprintFile, JSON.stringify({ preferredVersions: { php: options.phpVersion, wp: 'latest' }, steps }, null, 2));

  const port = await lib.freePort(options.port, 10);
  const url = `http://127.0.0.1:${port}`;
  const args = [
    lib.PLAYGROUND_CLI,
    'server',
    `--port=${port}`,
    `--site-url=${url}`,
    `--php=${options.phpVersion}`,
    '--workers=1',
    `--mount-before-install=${siteDir}:/wordpress`,
    `--wordpress-install-mode=${wordpress.installMode}`,
    `--mount=${checkoutDir}:/wordpress/wp-content/plugins/card2crypto-checkout`,
    `--mount=${widgetDir}:/wordpress/wp-content/plugins/card2crypto-widget`,
    `--mount=${path.join(PHP_PACKAGE_DIR, 'test', 'wordpress', 'mu-plugins')}:/wordpress/wp-content/mu-plugins`,
    `--blueprint=${blueprintFile}`,
    '--define-bool',
    'WP_DEBUG',
    'true',
    '--define-bool',
    'WP_DEBUG_DISPLAY',
    'false',
    '--define-bool',
    'WP_DEBUG_LOG',
    'true',
  ];
  if (woocommerce.found && woocommerce.dir) {
    args.push(`--mount=${woocommerce.dir}:/wordpress/wp-content/plugins/woocommerce`);
  }
  for (const [name, value] of Object.entries(options.defines ?? {})) {
    args.push('--define', name, value);
  }

  let ready = false;
  const problems: string[] = [];
  const child = lib.spawnLogged(process.execPath, args, {
    logFile,
    onLine: (line) => {
      if (line.includes('Ready! WordPress is running')) {
        ready = true;
      }
      if (/fatal|error/i.test(line) && problems.length < 20) {
        problems.push(line);
      }
    },
  });
  const stop = () => lib.stopChild(child);
  // If the test run itself is killed, take the server down with it (it is not in our process's way otherwise).
  const killChild = () => child.exitCode === null && child.kill('SIGKILL');
  process.once('exit', killChild);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      killChild();
      process.exit(130);
    });
  }
  try {
    await lib.waitForHttp(`${url}/wp-login.php`, { timeoutMs: 8 * 60_000, child, what: 'WordPress Playground' });
    const deadline = Date.now() + 8 * 60_000;
    while (!ready && Date.now() < deadline && child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 200));
    }
    if (!ready) {
      throw new Error('Playground never said it was ready');
    }
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message} (log: ${logFile})\n${problems.join('\n')}`);
  }
  return siteHandle({ url, php: options.phpVersion, pluginFilesDir: '/wordpress/wp-content/plugins', woocommerce, pluginsDir, siteDir, logFile, stop });
}

/** The same site on the native runtime: the plugin copies, the probe and WooCommerce linked into a fresh WordPress. */
async function startNative(
  lib: HarnessLib,
  options: { name: string; port: number; defines?: Record<string, string> },
  dirs: { stateDir: string; siteDir: string; pluginsDir: string; checkoutDir: string; widgetDir: string },
): Promise<WordPressSite> {
  const wordpress = await lib.findWordPress();
  const woocommerce = await lib.findWooCommerce({ wordpressVersion: wordpress.version });
  const logDir = path.join(dirs.stateDir, 'logs');
  const links: [string, string][] = [
    [dirs.checkoutDir, 'wp-content/plugins/card2crypto-checkout'],
    [dirs.widgetDir, 'wp-content/plugins/card2crypto-widget'],
    [path.join(PHP_PACKAGE_DIR, 'test', 'wordpress', 'mu-plugins'), 'wp-content/mu-plugins'],
  ];
  if (woocommerce.found && woocommerce.dir) {
    links.push([woocommerce.dir, 'wp-content/plugins/woocommerce']);
  }
  const site = await lib.startNativeSite({
    stateDir: dirs.stateDir,
    siteDir: dirs.siteDir,
    logDir,
    port: await lib.freePort(options.port, 10),
    prepare: (siteDir: string) => lib.layOutWordPress(wordpress, siteDir),
    links,
    defines: options.defines ?? {},
    activate: [
      ...(woocommerce.found ? ['woocommerce/woocommerce.php'] : []),
      'card2crypto-checkout/card2crypto-checkout.php',
      'card2crypto-widget/card2crypto-widget.php',
    ],
    admin: { username: 'admin', password: 'password' },
  });
  killOnExit(Object.values(site.pids));
  return siteHandle({
    url: site.url,
    php: 'native',
    pluginFilesDir: dirs.pluginsDir,
    woocommerce,
    pluginsDir: dirs.pluginsDir,
    siteDir: dirs.siteDir,
    logFile: path.join(logDir, 'php-error.log'),
    stop: () => site.stop(),
  });
}

/** If the test run ends or is killed, take the site's servers down with it (by PID, synchronously). */
function killOnExit(pids: number[]): void {
  const kill = () => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already stopped
      }
    }
  };
  process.once('exit', kill);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      kill();
      process.exit(130);
    });
  }
}

function siteHandle(site: {
  url: string;
  php: string;
  pluginFilesDir: string;
  woocommerce: { found: boolean; message?: string };
  pluginsDir: string;
  siteDir: string;
  logFile: string;
  stop: () => Promise<void>;
}): WordPressSite {
  const { url } = site;
  return {
    url,
    php: site.php,
    pluginFilesDir: site.pluginFilesDir,
    woocommerce: site.woocommerce.found,
    woocommerceMessage: site.woocommerce.message,
    pluginsDir: site.pluginsDir,
    siteDir: site.siteDir,
    logFile: site.logFile,
    stop: site.stop,
    get: (route: string) => fetch(`${url}${route}`, { redirect: 'manual' }),
    probe: <T>(action: Record<string, unknown>) => probeSite<T>(`${url}/wp-json/c2c-test/v1/run`, action),
  };
}

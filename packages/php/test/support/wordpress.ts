/**
 * A real WordPress (Playground, PHP in WebAssembly) for the WordPress-level
 * tests of the shared library: both plugins installed from copies built for
 * the test (each with its own library version), WooCommerce when the
 * harness finds it, and the test probe mu-plugin.
 *
 * Reuses the harness's modules (scripts/lib: offline WordPress from the npm
 * build, WooCommerce from the cache, child processes, ports); it spawns the
 * Playground CLI itself only to choose the PHP version (the harness's
 * startPlayground runs 8.3).
 */
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PHP_PACKAGE_DIR, REPO_DIR } from '../../testing/php-wasm.js';

const run = promisify(execFile);

interface HarnessLib {
  resolveWordPress(o: { siteDir: string; online: boolean }): Promise<{ installMode: string; wp?: string; version: string; source: string }>;
  findWooCommerce(o: { online: boolean }): Promise<{ found: boolean; dir?: string; version?: string; message?: string }>;
  spawnLogged(command: string, args: string[], o: { logFile: string; onLine?: (line: string) => void }): import('node:child_process').ChildProcess;
  waitForHttp(url: string, o: { timeoutMs: number; child?: unknown; what?: string }): Promise<void>;
  stopChild(child: unknown): Promise<void>;
  freePort(preferred: number, span?: number, exclude?: number[]): Promise<number>;
  PLAYGROUND_CLI: string;
  STATE_DIR: string;
}

async function harness(): Promise<HarnessLib> {
  const load = (file: string) => import(pathToFileURL(path.join(REPO_DIR, 'scripts', 'lib', file)).href);
  const [wp, wc, proc, ports, paths] = await Promise.all([
    load('find-wordpress.mjs'),
    load('find-woocommerce.mjs'),
    load('process.mjs'),
    load('ports.mjs'),
    load('paths.mjs'),
  ]);
  return { ...wp, ...wc, ...proc, ...ports, ...paths } as HarnessLib;
}

export interface WordPressSite {
  url: string;
  php: string;
  woocommerce: boolean;
  woocommerceMessage: string | undefined;
  pluginsDir: string;
  /** Host directory of the site (wp-content/debug.log lives under it). */
  siteDir: string;
  logFile: string;
  stop(): Promise<void>;
  get(route: string): Promise<Response>;
  probe<T>(action: Record<string, unknown>): Promise<T>;
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
    '--plugin-dir', target,
    '--namespace', namespace,
    '--text-domain', textDomain,
    '--lib-version', libVersion,
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

  const wordpress = await lib.resolveWordPress({ siteDir, online: false });
  const woocommerce = await lib.findWooCommerce({ online: false });

  const steps: unknown[] = [];
  if (woocommerce.found) steps.push({ step: 'activatePlugin', pluginPath: 'woocommerce/woocommerce.php' });
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
    '--define-bool', 'WP_DEBUG', 'true',
    '--define-bool', 'WP_DEBUG_DISPLAY', 'false',
    '--define-bool', 'WP_DEBUG_LOG', 'true',
  ];
  if (woocommerce.found && woocommerce.dir) args.push(`--mount=${woocommerce.dir}:/wordpress/wp-content/plugins/woocommerce`);
  for (const [name, value] of Object.entries(options.defines ?? {})) args.push('--define', name, value);

  let ready = false;
  const problems: string[] = [];
  const child = lib.spawnLogged(process.execPath, args, {
    logFile,
    onLine: (line) => {
      if (line.includes('Ready! WordPress is running')) ready = true;
      if (/fatal|error/i.test(line) && problems.length < 20) problems.push(line);
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
    while (!ready && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 200));
    if (!ready) throw new Error('Playground never said it was ready');
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message} (log: ${logFile})\n${problems.join('\n')}`);
  }
  const get = (route: string) => fetch(`${url}${route}`, { redirect: 'manual' });
  return {
    url,
    php: options.phpVersion,
    woocommerce: woocommerce.found,
    woocommerceMessage: woocommerce.message,
    pluginsDir,
    siteDir,
    logFile,
    stop,
    get,
    async probe<T>(action: Record<string, unknown>): Promise<T> {
      const response = await fetch(`${url}/wp-json/c2c-test/v1/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(action) });
      const text = await response.text();
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new Error(`probe ${JSON.stringify(action).slice(0, 80)}: HTTP ${response.status} ${text.slice(0, 500)}`);
      }
    },
  };
}

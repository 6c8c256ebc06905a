/**
 * A real WordPress with this plugin as built in place (plugins/widget after
 * `npm run build`) and the test probe mu-plugin (test/wordpress/mu-plugins),
 * for the tests of the plugin's WordPress glue: on the native runtime
 * (PHP-FPM, nginx, MariaDB) when installed, else Playground (PHP in
 * WebAssembly, SQLite); CARD2CRYPTO_RUNTIME forces one. Uses the harness's
 * own modules (scripts/lib: WordPress from the cache or npm, the runtimes,
 * ports, child processes stopped by PID).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { probeSite } from '@card2crypto/php/testing';
import { PLUGIN_DIR, REPO_DIR } from './php.js';

interface Harness {
  resolveWordPress: (o: { siteDir: string }) => Promise<{ installMode: string; version: string }>;
  findWordPress: () => Promise<{ version: string }>;
  layOutWordPress: (found: { version: string }, siteDir: string) => Promise<void>;
  chooseRuntime: (o: { preferred: string }) => { runtime: 'native' | 'playground' };
  startNativeSite: (o: Record<string, unknown>) => Promise<{ url: string; pids: Record<string, number>; stop: () => Promise<void> }>;
  startPlayground: (o: {
    siteDir: string;
    port: number;
    wordpress: { installMode: string; wp?: string };
    mounts: [string, string][];
    blueprint: string;
    defineBool: Record<string, boolean>;
    logFile: string;
    workers?: number;
  }) => Promise<{ url: string; pid: number; stop: () => Promise<void> }>;
  freePort: (preferred: number, span?: number) => Promise<number>;
  STATE_DIR: string;
}

async function harness(): Promise<Harness> {
  const load = (file: string) => import(pathToFileURL(path.join(REPO_DIR, 'scripts', 'lib', file)).href);
  const parts = await Promise.all(['find-wordpress.mjs', 'playground.mjs', 'ports.mjs', 'paths.mjs', 'runtime.mjs', 'native/site.mjs'].map(load));
  return Object.assign({}, ...parts) as Harness;
}

export interface WordPressSite {
  url: string;
  siteDir: string;
  logFile: string;
  stop: () => Promise<void>;
  /** A request to the site (no redirects followed). */
  fetch: (route: string, init?: RequestInit) => Promise<Response>;
  /** An action of the probe mu-plugin. */
  probe: <T>(action: Record<string, unknown>) => Promise<T>;
}

/** Boots a fresh site (state under .card2crypto/widget-tests/<name>) with the plugin active. */
export async function startWordPress(name: string, preferredPort: number): Promise<WordPressSite> {
  const lib = await harness();
  const stateDir = path.join(lib.STATE_DIR, 'widget-tests', name);
  const siteDir = path.join(stateDir, 'wordpress');
  const logFile = path.join(stateDir, 'playground.log');
  await rm(stateDir, { recursive: true, force: true });
  await mkdir(stateDir, { recursive: true });
  const port = await lib.freePort(preferredPort, 20);
  if (lib.chooseRuntime({ preferred: 'auto' }).runtime === 'native') {
    const wordpress = await lib.findWordPress();
    const site = await lib.startNativeSite({
      stateDir,
      siteDir,
      logDir: path.join(stateDir, 'logs'),
      port,
      prepare: (dir: string) => lib.layOutWordPress(wordpress, dir),
      links: [
        [PLUGIN_DIR, 'wp-content/plugins/card2crypto-widget'],
        [path.join(PLUGIN_DIR, 'test', 'wordpress', 'mu-plugins'), 'wp-content/mu-plugins'],
      ],
      activate: ['card2crypto-widget/card2crypto-widget.php'],
      admin: { username: 'admin', password: 'password' },
    });
    return siteHandle(site.url, siteDir, path.join(stateDir, 'logs', 'php-error.log'), Object.values(site.pids), () => site.stop());
  }
  const blueprint = path.join(stateDir, 'blueprint.json');
  await writeFile(blueprint, JSON.stringify({ steps: [{ step: 'activatePlugin', pluginPath: 'card2crypto-widget/card2crypto-widget.php' }] }));

  const wordpress = await lib.resolveWordPress({ siteDir });
  const server = await lib.startPlayground({
    siteDir,
    port,
    wordpress,
    mounts: [
      [PLUGIN_DIR, '/wordpress/wp-content/plugins/card2crypto-widget'],
      [path.join(PLUGIN_DIR, 'test', 'wordpress', 'mu-plugins'), '/wordpress/wp-content/mu-plugins'],
    ],
    blueprint,
    defineBool: { WP_DEBUG: true, WP_DEBUG_DISPLAY: false, WP_DEBUG_LOG: true },
    logFile,
    workers: 1,
  });
  return siteHandle(server.url, siteDir, logFile, [server.pid], () => server.stop());
}

function siteHandle(url: string, siteDir: string, logFile: string, pids: number[], stop: () => Promise<void>): WordPressSite {
  // If the test run is killed, take the servers down with it.
  process.once('exit', () => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
  const fetchSite = (route: string, init: RequestInit = {}) => fetch(`${url}${route}`, { redirect: 'manual', ...init });
  return {
    url,
    siteDir,
    logFile,
    stop,
    fetch: fetchSite,
    probe: <T>(action: Record<string, unknown>) => probeSite<T>(`${url}/wp-json/c2c-widget-test/v1/run`, action),
  };
}

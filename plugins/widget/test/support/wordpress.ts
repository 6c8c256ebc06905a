/**
 * A real WordPress (Playground: PHP in WebAssembly, SQLite, no native PHP)
 * with this plugin as built in place (plugins/widget after `npm run build`)
 * and the test probe mu-plugin (test/wordpress/mu-plugins), for the tests
 * of the plugin's WordPress glue. Uses the harness's own modules
 * (scripts/lib: the offline WordPress build, Playground's CLI, ports,
 * child processes stopped by PID).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PLUGIN_DIR, REPO_DIR } from './php.js';

interface Harness {
  resolveWordPress(o: { siteDir: string; online: boolean }): Promise<{ installMode: string; wp?: string; version: string }>;
  startPlayground(o: {
    siteDir: string;
    port: number;
    wordpress: { installMode: string; wp?: string };
    mounts: [string, string][];
    blueprint: string;
    defineBool: Record<string, boolean>;
    logFile: string;
    workers?: number;
  }): Promise<{ url: string; pid: number; stop(): Promise<void> }>;
  freePort(preferred: number, span?: number): Promise<number>;
  STATE_DIR: string;
}

async function harness(): Promise<Harness> {
  const load = (file: string) => import(pathToFileURL(path.join(REPO_DIR, 'scripts', 'lib', file)).href);
  const parts = await Promise.all(['find-wordpress.mjs', 'playground.mjs', 'ports.mjs', 'paths.mjs'].map(load));
  return Object.assign({}, ...parts) as Harness;
}

export interface WordPressSite {
  url: string;
  siteDir: string;
  logFile: string;
  stop(): Promise<void>;
  /** A request to the site (no redirects followed). */
  fetch(route: string, init?: RequestInit): Promise<Response>;
  /** An action of the probe mu-plugin. */
  probe<T>(action: Record<string, unknown>): Promise<T>;
}

/** Boots a fresh site (state under .card2crypto/widget-tests/<name>) with the plugin active. */
export async function startWordPress(name: string, preferredPort: number): Promise<WordPressSite> {
  const lib = await harness();
  const stateDir = path.join(lib.STATE_DIR, 'widget-tests', name);
  const siteDir = path.join(stateDir, 'wordpress');
  const logFile = path.join(stateDir, 'playground.log');
  await rm(stateDir, { recursive: true, force: true });
  await mkdir(stateDir, { recursive: true });
  const blueprint = path.join(stateDir, 'blueprint.json');
  await writeFile(blueprint, JSON.stringify({ steps: [{ step: 'activatePlugin', pluginPath: 'card2crypto-widget/card2crypto-widget.php' }] }));

  const wordpress = await lib.resolveWordPress({ siteDir, online: false });
  const port = await lib.freePort(preferredPort, 20);
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
  // If the test run is killed, take the server down with it.
  const kill = () => {
    try {
      process.kill(server.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', kill);
  const fetchSite = (route: string, init: RequestInit = {}) => fetch(`${server.url}${route}`, { redirect: 'manual', ...init });
  return {
    url: server.url,
    siteDir,
    logFile,
    stop: () => server.stop(),
    fetch: fetchSite,
    async probe<T>(action: Record<string, unknown>): Promise<T> {
      const response = await fetchSite('/wp-json/c2c-widget-test/v1/run', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(action) });
      const text = await response.text();
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new Error(`probe ${String(action.action)}: HTTP ${response.status} ${text.slice(0, 800)}`);
      }
    },
  };
}

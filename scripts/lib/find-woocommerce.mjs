// Find a WooCommerce plugin directory for a harness site.
//
// WooCommerce is on no package registry and the harness downloads nothing:
// it takes WOOCOMMERCE_DIR, else the cache (~/.cache/card2crypto/woocommerce/
// <version>/, several versions side by side, WC_VERSION choosing; a plugin
// folder directly at ~/.cache/card2crypto/woocommerce/ counts too), choosing
// the newest whose "Requires at least" fits the site's WordPress. Without one
// the store runs without WooCommerce (and without the checkout); callers
// print `message`.
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { compareWordPressVersions, versionMatches } from './find-wordpress.mjs';
import { WOOCOMMERCE_CACHE_DIR } from './paths.mjs';

/** Plugin header fields of a main plugin file ("Version", "Requires at least", ...). */
export function pluginHeaders(file) {
  const text = readFileSync(file, 'utf8').slice(0, 8192);
  const headers = {};
  for (const match of text.matchAll(/^[ \t/*#@]*([A-Za-z][A-Za-z ]+?):[ \t]*(.+?)[ \t]*(?:\*\/)?$/gm)) {
    if (!(match[1] in headers)) {
      headers[match[1]] = match[2];
    }
  }
  return headers;
}

function describe(dir, source) {
  const headers = pluginHeaders(join(dir, 'woocommerce.php'));
  return { found: true, dir, source, version: headers.Version || 'unknown', requiresWordPress: headers['Requires at least'] || null };
}

/** Does this WooCommerce run on that WordPress? (WordPress ignores pre-release suffixes: 6.7-alpha counts as 6.7.) */
export function woocommerceFits(woocommerce, wordpressVersion) {
  if (!woocommerce.requiresWordPress || !wordpressVersion || !/^\d/.test(wordpressVersion)) {
    return true;
  }
  return compareWordPressVersions(wordpressVersion.split('-')[0], woocommerce.requiresWordPress) >= 0;
}

/** Every WooCommerce in the cache, newest first. */
export async function listCachedWooCommerce(cacheDir = WOOCOMMERCE_CACHE_DIR) {
  if (!existsSync(cacheDir)) {
    return [];
  }
  const found = [];
  if (existsSync(join(cacheDir, 'woocommerce.php'))) {
    found.push(describe(cacheDir, 'cache'));
  }
  for (const name of await readdir(cacheDir, { withFileTypes: true })) {
    const dir = join(cacheDir, name.name);
    if ((name.isDirectory() || name.isSymbolicLink()) && existsSync(join(dir, 'woocommerce.php'))) {
      found.push(describe(dir, 'cache'));
    }
  }
  return found.sort((a, b) => compareWordPressVersions(b.version, a.version));
}

export function notFoundMessage(cacheDir = WOOCOMMERCE_CACHE_DIR) {
  return [
    'WooCommerce not found: the store starts WITHOUT WooCommerce and without the checkout.',
    `  Put a WooCommerce plugin directory (the folder holding woocommerce.php) at ${join(cacheDir, '<version>')}`,
    '  or point WOOCOMMERCE_DIR at one, e.g. WOOCOMMERCE_DIR=/path/to/woocommerce npm start',
  ].join('\n');
}

/**
 * @param {{ wordpressVersion?: string, env?: NodeJS.ProcessEnv, cacheDir?: string }} [options]
 * @return {Promise<{found: true, dir: string, source: string, version: string, requiresWordPress: string|null} | {found: false, message: string}>}
 */
export async function findWooCommerce({ wordpressVersion, env = process.env, cacheDir = WOOCOMMERCE_CACHE_DIR } = {}) {
  if (env.WOOCOMMERCE_DIR) {
    const dir = resolve(env.WOOCOMMERCE_DIR);
    if (!existsSync(join(dir, 'woocommerce.php'))) {
      throw new Error(`WOOCOMMERCE_DIR=${env.WOOCOMMERCE_DIR} has no woocommerce.php; point it at the WooCommerce plugin folder itself.`);
    }
    const found = describe(dir, 'WOOCOMMERCE_DIR');
    if (!woocommerceFits(found, wordpressVersion)) {
      return {
        found: false,
        message: `WooCommerce ${found.version} (${dir}) requires WordPress ${found.requiresWordPress}, this site runs ${wordpressVersion}: starting without it. Set WOOCOMMERCE_DIR to an older WooCommerce.`,
      };
    }
    return found;
  }
  const cached = await listCachedWooCommerce(cacheDir);
  if (!cached.length) {
    return { found: false, message: notFoundMessage(cacheDir) };
  }
  const wanted = env.WC_VERSION;
  const candidates = wanted ? cached.filter((entry) => versionMatches(entry.version, wanted)) : cached;
  if (!candidates.length) {
    return {
      found: false,
      message: `WC_VERSION=${wanted}: no such WooCommerce in ${cacheDir} (${cached.map((e) => e.version).join(', ')}).\n${notFoundMessage(cacheDir)}`,
    };
  }
  const fitting = candidates.find((entry) => woocommerceFits(entry, wordpressVersion));
  if (!fitting) {
    const list = candidates.map((e) => `${e.version} needs WordPress ${e.requiresWordPress}`).join(', ');
    return { found: false, message: `No WooCommerce in ${cacheDir} runs on WordPress ${wordpressVersion} (${list}): starting without it.` };
  }
  return fitting;
}

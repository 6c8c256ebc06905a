// Find a WooCommerce plugin directory for the local store and the e2e run.
//
// WooCommerce is on no package registry, so the harness looks, in order, at
// WOOCOMMERCE_DIR, then the cache path (~/.cache/card2crypto/woocommerce),
// then, when wordpress.org is reachable, downloads the latest stable release
// into that cache. Without any of these the store runs without WooCommerce
// (and without the checkout); callers print `message`.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CACHE_DIR, WOOCOMMERCE_CACHE_DIR } from './paths.mjs';
import { extractZip } from './unzip.mjs';

export const WOOCOMMERCE_DOWNLOAD_URL = 'https://downloads.wordpress.org/plugin/woocommerce.latest-stable.zip';

/** Plugin header fields of a main plugin file ("Version", "Requires at least", ...). */
export function pluginHeaders(file) {
  const text = readFileSync(file, 'utf8').slice(0, 8192);
  const headers = {};
  for (const match of text.matchAll(/^[ \t/*#@]*([A-Za-z][A-Za-z ]+?):[ \t]*(.+?)[ \t]*(?:\*\/)?$/gm)) {
    if (!(match[1] in headers)) headers[match[1]] = match[2];
  }
  return headers;
}

function describe(dir, source) {
  const headers = pluginHeaders(join(dir, 'woocommerce.php'));
  return { found: true, dir, source, version: headers.Version || 'unknown', requiresWordPress: headers['Requires at least'] || null };
}

export const NOT_FOUND_MESSAGE = [
  'WooCommerce not found: the store starts WITHOUT WooCommerce and without the checkout.',
  `  Put a WooCommerce plugin directory (the folder holding woocommerce.php) at ${WOOCOMMERCE_CACHE_DIR}`,
  '  or point WOOCOMMERCE_DIR at one, e.g. WOOCOMMERCE_DIR=/path/to/woocommerce npm start',
  `  (with internet access the harness downloads it from wordpress.org into that cache by itself).`,
].join('\n');

/** Download the latest stable WooCommerce into the cache path. Fails fast when offline. */
export async function downloadWooCommerce({ url = WOOCOMMERCE_DOWNLOAD_URL, timeoutMs = 120_000 } = {}) {
  let response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new Error(`Could not download WooCommerce from ${url}: ${error.cause?.code || error.message}`);
  }
  if (!response.ok) throw new Error(`Could not download WooCommerce from ${url}: HTTP ${response.status}`);
  await mkdir(CACHE_DIR, { recursive: true });
  const zip = join(CACHE_DIR, 'woocommerce-download.zip');
  const unpacked = join(CACHE_DIR, 'woocommerce-download');
  await writeFile(zip, Buffer.from(await response.arrayBuffer()));
  await rm(unpacked, { recursive: true, force: true });
  await extractZip(zip, unpacked);
  if (!existsSync(join(unpacked, 'woocommerce', 'woocommerce.php'))) throw new Error(`${url} did not hold woocommerce/woocommerce.php`);
  await rm(WOOCOMMERCE_CACHE_DIR, { recursive: true, force: true });
  await rename(join(unpacked, 'woocommerce'), WOOCOMMERCE_CACHE_DIR);
  await rm(unpacked, { recursive: true, force: true });
  await rm(zip, { force: true });
}

/**
 * @returns {Promise<{found: true, dir: string, source: string, version: string, requiresWordPress: string|null} | {found: false, message: string}>}
 */
export async function findWooCommerce({ online = false, env = process.env, cacheDir = WOOCOMMERCE_CACHE_DIR } = {}) {
  if (env.WOOCOMMERCE_DIR) {
    const dir = resolve(env.WOOCOMMERCE_DIR);
    if (!existsSync(join(dir, 'woocommerce.php'))) {
      throw new Error(`WOOCOMMERCE_DIR=${env.WOOCOMMERCE_DIR} has no woocommerce.php; point it at the WooCommerce plugin folder itself.`);
    }
    return describe(dir, 'WOOCOMMERCE_DIR');
  }
  if (existsSync(join(cacheDir, 'woocommerce.php'))) return describe(cacheDir, 'cache');
  if (online && cacheDir === WOOCOMMERCE_CACHE_DIR) {
    try {
      await downloadWooCommerce();
      return describe(WOOCOMMERCE_CACHE_DIR, 'downloaded from wordpress.org');
    } catch (error) {
      return { found: false, message: `${error.message}\n${NOT_FOUND_MESSAGE}` };
    }
  }
  return { found: false, message: NOT_FOUND_MESSAGE.replace(WOOCOMMERCE_CACHE_DIR, cacheDir) };
}

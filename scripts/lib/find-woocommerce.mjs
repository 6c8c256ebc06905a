// Find a WooCommerce plugin directory for a harness site.
//
// WOOCOMMERCE_DIR, else the cache (~/.cache/card2crypto/woocommerce/<version>/,
// several versions side by side, WC_VERSION choosing; a plugin folder
// directly at ~/.cache/card2crypto/woocommerce/ counts too), choosing the
// newest whose "Requires at least" fits the site's WordPress; else
// wordpress.org (the newest WooCommerce that fits, or WC_VERSION's;
// downloaded, verified file by file and kept in the cache, see wporg.mjs).
// WC_VERSION=latest asks wordpress.org first. Without one the store runs
// without WooCommerce (and without the checkout); callers print `message`.
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { compareWordPressVersions, versionMatches } from './find-wordpress.mjs';
import { WOOCOMMERCE_CACHE_DIR } from './paths.mjs';
import { UnreachableError, downloadWooCommerce, isOffline, progressPrinter, wooCommerceInformation } from './wporg.mjs';

/** Older WooCommerce lines tried (a download each) when the newest needs a newer WordPress. */
const OLDER_LINES_TRIED = 3;

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
    // .partial-* is a download under way (wporg.mjs), never a plugin to use.
    if (name.name.startsWith('.')) {
      continue;
    }
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
 * The newest WooCommerce on wordpress.org that runs on `wordpressVersion`
 * (among `wanted`'s when set): the newest release when its "Requires at
 * least" (from the plugin information API) fits; otherwise the newest of
 * each older line, one download each, their headers read, up to
 * OLDER_LINES_TRIED lines. A cached version is used rather than downloaded.
 */
async function fromWordPressOrg({ wordpressVersion, wanted, cached, cacheDir, env, progress }) {
  const info = await wooCommerceInformation({ env });
  const candidates = wanted ? info.versions.filter((v) => versionMatches(v, wanted)) : info.versions;
  if (!candidates.length) {
    return {
      found: false,
      message: `WC_VERSION=${wanted}: wordpress.org has no such WooCommerce (its newest: ${info.versions.slice(0, 5).join(', ')}): the store starts WITHOUT WooCommerce and without the checkout.`,
    };
  }
  const line = (v) => v.split('.').slice(0, 2).join('.');
  const tried = [];
  const get = async (version) => {
    const have = cached.find((entry) => entry.version === version);
    if (have) {
      return have;
    }
    const downloaded = await downloadWooCommerce({ version, cacheDir, env, progress });
    return { ...describe(downloaded.dir, downloaded.source) };
  };
  const [first, ...rest] = candidates;
  if (first === info.newest && info.requires && !woocommerceFits({ requiresWordPress: info.requires }, wordpressVersion)) {
    tried.push(`${first} needs WordPress ${info.requires}`);
  } else {
    const found = await get(first);
    if (woocommerceFits(found, wordpressVersion)) {
      return found;
    }
    tried.push(`${first} needs WordPress ${found.requiresWordPress}`);
  }
  // The newest of each older line (a line's patches share its requirement).
  const lines = [];
  for (const version of rest) {
    if (line(version) !== line(first) && !lines.some((v) => line(v) === line(version))) {
      lines.push(version);
    }
  }
  for (const version of lines.slice(0, OLDER_LINES_TRIED)) {
    const found = await get(version);
    if (woocommerceFits(found, wordpressVersion)) {
      return { ...found, note: `WooCommerce ${tried.join(', ')}; this site runs WordPress ${wordpressVersion}, so ${found.version}` };
    }
    tried.push(`${version} needs WordPress ${found.requiresWordPress}`);
  }
  return {
    found: false,
    message: [
      `No WooCommerce on wordpress.org runs on WordPress ${wordpressVersion} among the ones tried (${tried.join(', ')}): the store starts WITHOUT WooCommerce and without the checkout.`,
      `  Start with a newer WordPress (npm start -- --reset, WP_VERSION=latest), or name an older WooCommerce: WC_VERSION=<x.y> npm start`,
    ].join('\n'),
  };
}

/**
 * `found` (findWooCommerce()'s answer) for a site that keeps the WordPress of
 * an earlier start (`keptWordPress`, its version; null for a new site): when
 * that WordPress is why an older WooCommerce, or none, was taken, the line
 * npm start prints ends with what starts the site on a newer WordPress:
 * --reset, onto the cache's newest when it is newer (`newestCached`), else
 * onto wordpress.org's newest (WP_VERSION=latest).
 */
export function withResetHint(found, keptWordPress, newestCached = null) {
  if (!keptWordPress) {
    return found;
  }
  const fromCache = newestCached && compareWordPressVersions(newestCached, keptWordPress) > 0;
  const hint = `this site keeps WordPress ${keptWordPress} from an earlier start: ${
    fromCache
      ? `npm start -- --reset starts it again on WordPress ${newestCached}`
      : 'WP_VERSION=latest npm start -- --reset starts it again on the newest WordPress'
  } (its orders and settings are deleted)`;
  if (found.found && found.note && !found.notice) {
    return { ...found, note: `${found.note}; ${hint}` };
  }
  if (!found.found && / runs on WordPress | requires WordPress /.test(found.message)) {
    const [headline, ...rest] = found.message.split('\n');
    return { ...found, message: [headline, `  ${hint[0].toUpperCase()}${hint.slice(1)}.`, ...rest].join('\n') };
  }
  return found;
}

/**
 * @param {{ wordpressVersion?: string, env?: NodeJS.ProcessEnv, cacheDir?: string, online?: boolean, progress?: Function }} [options]
 * @return {Promise<{found: true, dir: string, source: string, version: string, requiresWordPress: string|null, note?: string} | {found: false, message: string}>}
 */
export async function findWooCommerce({
  wordpressVersion,
  env = process.env,
  cacheDir = WOOCOMMERCE_CACHE_DIR,
  online = !isOffline(env),
  progress = progressPrinter(),
} = {}) {
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
  const asked = env.WC_VERSION?.trim() || '';
  const latest = asked === 'latest';
  const wanted = latest ? '' : asked;
  let cacheMessage;
  const candidates = wanted ? cached.filter((entry) => versionMatches(entry.version, wanted)) : cached;
  if (!cached.length) {
    cacheMessage = notFoundMessage(cacheDir);
  } else if (!candidates.length) {
    cacheMessage = `WC_VERSION=${wanted}: no such WooCommerce in ${cacheDir} (${cached.map((e) => e.version).join(', ')}).\n${notFoundMessage(cacheDir)}`;
  } else {
    const fitting = candidates.find((entry) => woocommerceFits(entry, wordpressVersion));
    if (fitting && !latest) {
      // Newer ones in the cache that need a newer WordPress are named, as wordpress.org's path does.
      const newer = candidates.slice(0, candidates.indexOf(fitting));
      if (newer.length) {
        const needs = newer.map((e, i) => `${i === 0 ? 'WooCommerce ' : ''}${e.version} needs WordPress ${e.requiresWordPress}`).join(', ');
        return { ...fitting, note: `${needs}; this site runs WordPress ${wordpressVersion}, so ${fitting.version}` };
      }
      return fitting;
    }
    if (!fitting) {
      const list = candidates.map((e) => `${e.version} needs WordPress ${e.requiresWordPress}`).join(', ');
      cacheMessage = `No WooCommerce in ${cacheDir} runs on WordPress ${wordpressVersion} (${list}): starting without it.`;
    }
  }

  // The cache does not have what is asked: wordpress.org, unless offline.
  let reason = 'offline on purpose (--offline or CARD2CRYPTO_OFFLINE=1)';
  if (online) {
    try {
      return await fromWordPressOrg({ wordpressVersion, wanted, cached, cacheDir, env, progress });
    } catch (error) {
      if (!(error instanceof UnreachableError)) {
        throw error;
      }
      reason = `wordpress.org is not reachable (${error.message})`;
    }
  }
  const fitting = latest && candidates.find((entry) => woocommerceFits(entry, wordpressVersion));
  if (fitting) {
    return { ...fitting, notice: `${reason}: WooCommerce ${fitting.version} from the cache, perhaps not the newest. Run npm start online for the newest.` };
  }
  const [headline, ...remedy] = cacheMessage.split('\n');
  return {
    found: false,
    message: [
      headline,
      `  ${reason}: run npm start online${reason.startsWith('offline') ? ' without --offline' : ''} and it downloads WooCommerce from wordpress.org;`,
      ...remedy,
    ].join('\n'),
  };
}

// Decide which WordPress a site runs and lay it out in the site directory.
//
// Order: an existing site directory is reused as is; else WORDPRESS_DIR; else
// the cache (~/.cache/card2crypto/wordpress/<version>/, several versions side
// by side, WP_VERSION choosing); else wordpress.org (the newest stable
// release, or WP_VERSION's; downloaded, verified and kept in the cache, see
// wporg.mjs); else, offline, the newest build shipped in
// @wp-playground/wordpress-builds (its zip has the PHP, its public/ folder the
// static files; both together make a full install), with one line saying
// what was not reachable and what fixes it. WP_VERSION=latest asks
// wordpress.org for its newest even when the cache has a WordPress.
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { WORDPRESS_CACHE_DIR } from './paths.mjs';
import { extractZip, readZipEntry } from './unzip.mjs';
import { UnreachableError, downloadWordPress, isOffline, progressPrinter, resolveWordPressRelease } from './wporg.mjs';

const require = createRequire(import.meta.url);

/** "6.7-alpha-58716" → comparable tuple; releases sort after their pre-releases. */
export function parseWordPressVersion(version) {
  const match = /^(\d+)\.(\d+)(?:\.(\d+))?(?:-(alpha|beta|RC)(\d*)(?:-(\d+))?)?/i.exec(version);
  if (!match) {
    throw new Error(`Not a WordPress version: ${version}`);
  }
  const stage = { alpha: 0, beta: 1, rc: 2 }[(match[4] || '').toLowerCase()] ?? 3;
  return [Number(match[1]), Number(match[2]), Number(match[3] || 0), stage, Number(match[5] || 0), Number(match[6] || 0)];
}

export function compareWordPressVersions(a, b) {
  const [x, y] = [parseWordPressVersion(a), parseWordPressVersion(b)];
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i]) {
      return x[i] - y[i];
    }
  }
  return 0;
}

/** $wp_version from a wp-includes/version.php text. */
export function wpVersionFromPhp(text) {
  const match = /\$wp_version\s*=\s*'([^']+)'/.exec(text);
  if (!match) {
    throw new Error('No $wp_version in version.php');
  }
  return match[1];
}

/** The version of the WordPress installed in `dir`, or null. */
export function installedWordPressVersion(dir) {
  const file = join(dir, 'wp-includes', 'version.php');
  return existsSync(file) ? wpVersionFromPhp(readFileSync(file, 'utf8')) : null;
}

function buildsPackageDir() {
  try {
    return dirname(require.resolve('@wp-playground/wordpress-builds/package.json'));
  } catch {
    return null;
  }
}

/** Every WordPress build carried by the npm package, newest first. */
export async function listNpmWordPressBuilds() {
  const packageDir = buildsPackageDir();
  if (!packageDir) {
    return [];
  }
  const zipsDir = join(packageDir, 'src', 'wordpress');
  const builds = [];
  for (const name of await readdir(zipsDir)) {
    const label = /^wp-(.+)\.zip$/.exec(name)?.[1];
    if (!label) {
      continue;
    }
    const zip = join(zipsDir, name);
    const versionFile = await readZipEntry(zip, 'wp-includes/version.php');
    if (!versionFile) {
      continue;
    }
    builds.push({ label, zip, publicDir: join(packageDir, 'public', `wp-${label}`), version: wpVersionFromPhp(versionFile.toString('utf8')) });
  }
  return builds.sort((a, b) => compareWordPressVersions(b.version, a.version));
}

/** Unpack an npm build into `siteDir` as a fresh, not yet installed WordPress. */
async function unpackBuild(build, siteDir) {
  await mkdir(siteDir, { recursive: true });
  await extractZip(build.zip, siteDir);
  if (existsSync(build.publicDir)) {
    await cp(build.publicDir, siteDir, { recursive: true });
  }
  // The build carries its own pre-installed database, a debug log from its
  // build run and a list of assets a browser would fetch remotely: none
  // belongs to a new site (Playground installs into an empty database).
  await rm(join(siteDir, 'wp-content', 'database', '.ht.sqlite'), { force: true });
  await rm(join(siteDir, 'wp-content', 'debug.log'), { force: true });
  await rm(join(siteDir, 'wordpress-remote-asset-paths'), { force: true });
  // Playground defines the debug constants itself; a hard define here would
  // warn "already defined" on every request.
  const configFile = join(siteDir, 'wp-config.php');
  if (existsSync(configFile)) {
    const config = readFileSync(configFile, 'utf8').replace(/^define\(\s*'WP_DEBUG',\s*false\s*\);\s*$/m, '');
    await writeFile(configFile, config);
  }
}

/** The WordPress versions in the cache, `<cache>/wordpress/<version>/`, newest first. */
export async function listCachedWordPress(cacheDir = WORDPRESS_CACHE_DIR) {
  if (!existsSync(cacheDir)) {
    return [];
  }
  const found = [];
  for (const name of await readdir(cacheDir)) {
    // .partial-* is a download under way (wporg.mjs), never a WordPress to use.
    if (name.startsWith('.')) {
      continue;
    }
    const version = installedWordPressVersion(join(cacheDir, name));
    if (version) {
      found.push({ dir: join(cacheDir, name), version });
    }
  }
  return found.sort((a, b) => compareWordPressVersions(b.version, a.version));
}

/** "6.6" asks for any 6.6.x; "6.6.2" for exactly that. */
export function versionMatches(version, wanted) {
  return version === wanted || version.startsWith(`${wanted}.`) || version.split('-')[0] === wanted;
}

/** Why the network was not used, and what fixes it, in one line (`fallback` names what is used instead). */
function offlineNotice({ reason, fallback, cacheDir }) {
  return `${reason}: ${fallback}. For the newest from wordpress.org run npm start online${reason.startsWith('offline') ? ' without --offline' : ''}, or put a WordPress at ${join(cacheDir, '<version>')}/ (or set WORDPRESS_DIR).`;
}

const OFFLINE_REASON = 'offline on purpose (--offline or CARD2CRYPTO_OFFLINE=1)';

/**
 * Where a new site's WordPress comes from, in order: WORDPRESS_DIR; the
 * cache (`~/.cache/card2crypto/wordpress/<version>/`, WP_VERSION choosing one,
 * else the newest); wordpress.org (downloaded, verified, cached); the newest
 * build in @wp-playground/wordpress-builds. WP_VERSION=latest asks
 * wordpress.org first. `notice`, when set, is the one line to print: what
 * was not reachable and what fixes it.
 * @param {{ env?: NodeJS.ProcessEnv, cacheDir?: string, online?: boolean, progress?: Function }} [options]
 * @return {Promise<{version: string, source: string, dir?: string, build?: object, notice?: string}>}
 */
export async function findWordPress({ env = process.env, cacheDir = WORDPRESS_CACHE_DIR, online = !isOffline(env), progress = progressPrinter() } = {}) {
  if (env.WORDPRESS_DIR) {
    const dir = resolve(env.WORDPRESS_DIR);
    const version = installedWordPressVersion(dir);
    if (!version) {
      throw new Error(`WORDPRESS_DIR=${env.WORDPRESS_DIR} has no wp-includes/version.php; point it at a WordPress directory.`);
    }
    return { version, dir, source: 'WORDPRESS_DIR' };
  }
  const cached = await listCachedWordPress(cacheDir);
  const wanted = env.WP_VERSION?.trim() || '';
  const latest = wanted === 'latest';
  if (wanted && !latest) {
    const match = cached.find((entry) => versionMatches(entry.version, wanted));
    if (match) {
      return { ...match, source: 'cache' };
    }
  } else if (!latest && cached.length) {
    return { ...cached[0], source: 'cache' };
  }

  // The cache does not have what is asked: wordpress.org, unless offline.
  let reason = OFFLINE_REASON;
  if (online) {
    try {
      const version = await resolveWordPressRelease({ wanted, env });
      const have = cached.find((entry) => entry.version === version);
      if (have) {
        return { ...have, source: 'cache (the newest on wordpress.org)' };
      }
      return await downloadWordPress({ version, cacheDir, env, progress });
    } catch (error) {
      if (!(error instanceof UnreachableError)) {
        throw new Error(`${error.message}. The cache (${cacheDir}) has ${cached.map((e) => e.version).join(', ') || 'no WordPress'}.`);
      }
      reason = `wordpress.org is not reachable (${error.message})`;
    }
  }

  if (latest && cached.length) {
    return {
      ...cached[0],
      source: 'cache',
      notice: offlineNotice({ reason, fallback: `WordPress ${cached[0].version} from the cache, perhaps not the newest`, cacheDir }),
    };
  }
  const builds = await listNpmWordPressBuilds();
  const build = wanted && !latest ? builds.find((entry) => versionMatches(entry.version, wanted)) : builds[0];
  if (build) {
    return {
      version: build.version,
      build,
      source: `@wp-playground/wordpress-builds (${build.label} build)`,
      notice: offlineNotice({
        reason,
        fallback: `WordPress ${build.version}, the ${build.label} build from the npm package @wp-playground/wordpress-builds, instead`,
        cacheDir,
      }),
    };
  }
  if (wanted && !latest) {
    throw new Error(
      `WP_VERSION=${wanted}: no such WordPress in ${cacheDir} (${cached.map((e) => e.version).join(', ') || 'empty'}) or in @wp-playground/wordpress-builds, and ${reason}. ` +
        `Put a WordPress ${wanted} directory at ${join(cacheDir, wanted)}.`,
    );
  }
  throw new Error(
    `No WordPress found and ${reason}: set WORDPRESS_DIR, put one at ${join(cacheDir, '<version>')}, or run npm install (for @wp-playground/wordpress-builds).`,
  );
}

/** Lays the WordPress found by findWordPress() out into an empty `siteDir`. */
export async function layOutWordPress(found, siteDir) {
  if (found.build) {
    return unpackBuild(found.build, siteDir);
  }
  await mkdir(siteDir, { recursive: true });
  await cp(found.dir, siteDir, { recursive: true, filter: (path) => !path.endsWith(`${join('wp-content', 'debug.log')}`) });
}

/**
 * Prepare `siteDir` for Playground and tell its CLI how to boot it: an
 * existing site is reused as is; otherwise `found` (findWordPress()'s answer,
 * looked up here when not given) is laid out.
 * @return {Promise<{installMode: string, version: string, source: string}>}
 */
export async function resolveWordPress({ siteDir, env = process.env, found: given = null }) {
  const existing = installedWordPressVersion(siteDir);
  if (existing) {
    return { installMode: 'install-from-existing-files-if-needed', version: existing, source: `existing site in ${siteDir}` };
  }
  const found = given?.dir || given?.build ? given : await findWordPress({ env });
  await layOutWordPress(found, siteDir);
  return { installMode: 'install-from-existing-files', version: found.version, source: found.source };
}

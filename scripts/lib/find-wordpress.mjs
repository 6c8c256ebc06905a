// Decide which WordPress a site runs and lay it out in the site directory.
//
// Order: an existing site directory is reused as is; else WORDPRESS_DIR; else
// the cache (~/.cache/card2crypto/wordpress/<version>/, several versions side
// by side, WP_VERSION choosing); else the newest build shipped in
// @wp-playground/wordpress-builds (its zip has the PHP, its public/ folder the
// static files; both together make a full install). Nothing is downloaded.
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { WORDPRESS_CACHE_DIR } from './paths.mjs';
import { extractZip, readZipEntry } from './unzip.mjs';

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

/**
 * Where a new site's WordPress comes from, in order: WORDPRESS_DIR; the
 * cache (`~/.cache/card2crypto/wordpress/<version>/`, WP_VERSION choosing one,
 * else the newest); the newest build in @wp-playground/wordpress-builds.
 * Nothing is downloaded.
 * @return {Promise<{version: string, source: string, dir?: string, build?: object}>}
 */
export async function findWordPress({ env = process.env, cacheDir = WORDPRESS_CACHE_DIR } = {}) {
  if (env.WORDPRESS_DIR) {
    const dir = resolve(env.WORDPRESS_DIR);
    const version = installedWordPressVersion(dir);
    if (!version) {
      throw new Error(`WORDPRESS_DIR=${env.WORDPRESS_DIR} has no wp-includes/version.php; point it at a WordPress directory.`);
    }
    return { version, dir, source: 'WORDPRESS_DIR' };
  }
  const cached = await listCachedWordPress(cacheDir);
  const wanted = env.WP_VERSION;
  if (wanted && wanted !== 'latest') {
    const match = cached.find((entry) => versionMatches(entry.version, wanted));
    if (match) {
      return { ...match, source: `cache` };
    }
    const builds = await listNpmWordPressBuilds();
    const build = builds.find((entry) => versionMatches(entry.version, wanted));
    if (build) {
      return { version: build.version, build, source: `@wp-playground/wordpress-builds (${build.label} build)` };
    }
    throw new Error(
      `WP_VERSION=${wanted}: no such WordPress in ${cacheDir} (${cached.map((e) => e.version).join(', ') || 'empty'}) or in @wp-playground/wordpress-builds. ` +
        `Put a WordPress ${wanted} directory at ${join(cacheDir, wanted)}.`,
    );
  }
  if (cached.length) {
    return { ...cached[0], source: 'cache' };
  }
  const [newest] = await listNpmWordPressBuilds();
  if (!newest) {
    throw new Error(
      `No WordPress found: set WORDPRESS_DIR, put one at ${join(cacheDir, '<version>')}, or run npm install (for @wp-playground/wordpress-builds).`,
    );
  }
  return { version: newest.version, build: newest, source: `@wp-playground/wordpress-builds (${newest.label} build)` };
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
 * existing site is reused as is; otherwise findWordPress()'s WordPress is laid out.
 * @return {Promise<{installMode: string, version: string, source: string}>}
 */
export async function resolveWordPress({ siteDir, env = process.env }) {
  const existing = installedWordPressVersion(siteDir);
  if (existing) {
    return { installMode: 'install-from-existing-files-if-needed', version: existing, source: `existing site in ${siteDir}` };
  }
  const found = await findWordPress({ env });
  await layOutWordPress(found, siteDir);
  return { installMode: 'install-from-existing-files', version: found.version, source: found.source };
}

// Decide which WordPress a site runs and, offline, lay it out from npm.
//
// Order: an existing site directory is reused as is; online, Playground
// downloads the latest release (or WP_VERSION) itself; offline, the newest
// build shipped in @wp-playground/wordpress-builds is unpacked into the site
// directory (its zip has the PHP, its public/ folder the static files; both
// together make a full install).
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { extractZip, readZipEntry } from './unzip.mjs';

const require = createRequire(import.meta.url);

/** "6.7-alpha-58716" → comparable tuple; releases sort after their pre-releases. */
export function parseWordPressVersion(version) {
  const match = /^(\d+)\.(\d+)(?:\.(\d+))?(?:-(alpha|beta|RC)(\d*)(?:-(\d+))?)?/i.exec(version);
  if (!match) throw new Error(`Not a WordPress version: ${version}`);
  const stage = { alpha: 0, beta: 1, rc: 2 }[(match[4] || '').toLowerCase()] ?? 3;
  return [Number(match[1]), Number(match[2]), Number(match[3] || 0), stage, Number(match[5] || 0), Number(match[6] || 0)];
}

export function compareWordPressVersions(a, b) {
  const [x, y] = [parseWordPressVersion(a), parseWordPressVersion(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** $wp_version from a wp-includes/version.php text. */
export function wpVersionFromPhp(text) {
  const match = /\$wp_version\s*=\s*'([^']+)'/.exec(text);
  if (!match) throw new Error('No $wp_version in version.php');
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
  if (!packageDir) return [];
  const zipsDir = join(packageDir, 'src', 'wordpress');
  const builds = [];
  for (const name of await readdir(zipsDir)) {
    const label = /^wp-(.+)\.zip$/.exec(name)?.[1];
    if (!label) continue;
    const zip = join(zipsDir, name);
    const versionFile = await readZipEntry(zip, 'wp-includes/version.php');
    if (!versionFile) continue;
    builds.push({ label, zip, publicDir: join(packageDir, 'public', `wp-${label}`), version: wpVersionFromPhp(versionFile.toString('utf8')) });
  }
  return builds.sort((a, b) => compareWordPressVersions(b.version, a.version));
}

/** Unpack an npm build into `siteDir` as a fresh, not yet installed WordPress. */
async function unpackBuild(build, siteDir) {
  await mkdir(siteDir, { recursive: true });
  await extractZip(build.zip, siteDir);
  if (existsSync(build.publicDir)) await cp(build.publicDir, siteDir, { recursive: true });
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

/**
 * Prepare `siteDir` and tell the Playground CLI how to boot it.
 * @returns {Promise<{installMode: string, wp?: string, version: string, source: string}>}
 */
export async function resolveWordPress({ siteDir, online, wantedVersion = process.env.WP_VERSION || 'latest' }) {
  const existing = installedWordPressVersion(siteDir);
  if (existing) {
    return { installMode: 'install-from-existing-files-if-needed', version: existing, source: `existing site in ${siteDir}` };
  }
  if (online) {
    await mkdir(siteDir, { recursive: true });
    return { installMode: 'download-and-install', wp: wantedVersion, version: wantedVersion, source: 'wordpress.org (downloaded by Playground)' };
  }
  const [newest] = await listNpmWordPressBuilds();
  if (!newest) {
    throw new Error(
      'Offline and no WordPress build found: install the dev dependencies (npm install) so that @wp-playground/wordpress-builds is present, or connect to the internet.',
    );
  }
  await unpackBuild(newest, siteDir);
  return { installMode: 'install-from-existing-files', version: newest.version, source: `@wp-playground/wordpress-builds (${newest.label} build)` };
}

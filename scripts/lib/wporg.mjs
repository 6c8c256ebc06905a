// WordPress and WooCommerce from wordpress.org, verified before use, unpacked
// into the cache layout find-wordpress.mjs and find-woocommerce.mjs read.
//
// The endpoints (their public formats; the tests serve the same shapes from
// 127.0.0.1, scripts/lib/fake-wporg.mjs):
// - {api}/core/version-check/1.7/: { offers: [{ response, version, locale, packages: { full, ... }, ... }] },
//   the newest release first, then the newest point release of older branches;
// - {downloads}/release/wordpress-X.Y.Z.zip (a `wordpress/` folder) and its
//   published checksums, wordpress-X.Y.Z.zip.sha1 and .md5 (hex digests);
// - {api}/plugins/info/1.2/?action=plugin_information&slug=woocommerce:
//   { version, requires, versions: { "X.Y.Z": zip URL, ..., trunk } };
// - {downloads}/plugin/woocommerce.X.Y.Z.zip (a `woocommerce/` folder);
// - {downloads}/plugin-checksums/woocommerce/X.Y.Z.json:
//   { files: { "path/in/plugin": { md5, sha256 } } } (a digest may be a list of accepted ones),
//   checked file by file after unpacking as WP-CLI's `plugin verify-checksums` does.
//
// CARD2CRYPTO_WPORG_API_URL and CARD2CRYPTO_WPORG_DOWNLOADS_URL replace the
// two base addresses; CARD2CRYPTO_WPORG_TIMEOUT_MS the time allowed to
// connect and answer (and the longest silence in a download), 10 s by default.
// CARD2CRYPTO_OFFLINE=1 (or `npm start -- --offline`) skips the network.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { extractZip } from './unzip.mjs';

export const DEFAULT_API_URL = 'https://api.wordpress.org';
export const DEFAULT_DOWNLOADS_URL = 'https://downloads.wordpress.org';
const DEFAULT_TIMEOUT_MS = 10_000;

/** Files WP-CLI treats as "soft changes": present in the checksums, their content not compared. */
const SOFT_CHANGE_FILES = new Set(['readme.txt', 'readme.md']);

/** Is the network off on purpose (CARD2CRYPTO_OFFLINE=1, or `npm start -- --offline`)? */
export function isOffline(env = process.env) {
  return /^(1|true|yes)$/i.test(env.CARD2CRYPTO_OFFLINE ?? '');
}

/** The two base addresses and the time allowed, from `env`. */
export function endpoints(env = process.env) {
  const trim = (url) => url.replace(/\/+$/, '');
  const timeoutMs = Number(env.CARD2CRYPTO_WPORG_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;
  return {
    api: trim(env.CARD2CRYPTO_WPORG_API_URL || DEFAULT_API_URL),
    downloads: trim(env.CARD2CRYPTO_WPORG_DOWNLOADS_URL || DEFAULT_DOWNLOADS_URL),
    timeoutMs,
  };
}

/** wordpress.org could not be reached (no network, refused, no answer in time): the caller falls back. */
export class UnreachableError extends Error {
  constructor(message) {
    super(message);
    this.name = 'UnreachableError';
  }
}

/** wordpress.org answered, but not with what was asked (404, a bad answer, a download that fails verification). */
export class DownloadError extends Error {
  constructor(message, { notFound = false } = {}) {
    super(message);
    this.name = 'DownloadError';
    this.notFound = notFound;
  }
}

const host = (url) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** A fetch failure as one line: what was not reachable and why. */
function unreachable(url, error, timeoutMs) {
  const code = error?.cause?.code ?? error?.code;
  let why;
  if (error?.name === 'TimeoutError' || error?.name === 'AbortError' || /timed? ?out/i.test(String(error?.message))) {
    why = `did not answer within ${timeoutMs / 1000} s`;
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    why = `does not resolve (${code}: no network?)`;
  } else if (code === 'ECONNREFUSED') {
    why = 'refused the connection';
  } else if (code) {
    why = `failed (${code})`;
  } else {
    why = `failed (${error?.cause?.message || error?.message || String(error)})`;
  }
  return new UnreachableError(`${host(url)} ${why}`);
}

/**
 * GET `url`, the answer's headers within `timeoutMs`; the body then read by
 * the caller under `guard` (which aborts after `timeoutMs` of silence).
 */
async function get(url, timeoutMs) {
  const controller = new AbortController();
  let timer = null;
  const guard = {
    /** Restart the silence timer (each chunk received). */
    poke() {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(Object.assign(new Error('timed out'), { name: 'TimeoutError' })), timeoutMs);
    },
    done() {
      clearTimeout(timer);
    },
  };
  guard.poke();
  try {
    const response = await fetch(url, { signal: controller.signal, redirect: 'follow', headers: { 'user-agent': 'card2crypto-harness' } });
    return { response, guard };
  } catch (error) {
    guard.done();
    throw unreachable(url, controller.signal.reason ?? error, timeoutMs);
  }
}

async function readBody(url, response, guard, timeoutMs) {
  const chunks = [];
  try {
    for await (const chunk of response.body) {
      guard.poke();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  } catch (error) {
    throw unreachable(url, error?.name === 'AbortError' ? Object.assign(new Error('timed out'), { name: 'TimeoutError' }) : error, timeoutMs);
  } finally {
    guard.done();
  }
}

/** The body of `url` as text; 404 and other failures as DownloadError. */
async function getText(url, timeoutMs, what) {
  const { response, guard } = await get(url, timeoutMs);
  if (!response.ok) {
    guard.done();
    await response.body?.cancel().catch(() => {});
    throw new DownloadError(`${what}: ${url} answered ${response.status}`, { notFound: response.status === 404 });
  }
  return (await readBody(url, response, guard, timeoutMs)).toString('utf8');
}

async function getJson(url, timeoutMs, what) {
  const text = await getText(url, timeoutMs, what);
  try {
    return JSON.parse(text);
  } catch {
    throw new DownloadError(`${what}: ${url} did not answer JSON (${text.slice(0, 60).replace(/\s+/g, ' ')}…)`);
  }
}

const megabytes = (bytes) => (bytes / 1048576).toFixed(1);

/**
 * A progress printer for downloads: on a terminal one line rewritten in
 * place, elsewhere a line at 0, 25, 50, 75 and 100 %.
 * @return {(event: {label: string, received: number, total: number|null, done?: boolean}) => void}
 */
export function progressPrinter(stream = process.stderr) {
  let lastStep = -1;
  return ({ label, received, total, done }) => {
    const percent = total ? Math.floor((received / total) * 100) : null;
    const text = `${label}: ${megabytes(received)}${total ? ` of ${megabytes(total)} MB (${percent}%)` : ' MB'}`;
    if (stream.isTTY) {
      stream.write(`\r${text}${done ? '\n' : ''}`);
      return;
    }
    const step = done ? 4 : percent === null ? 0 : Math.floor(percent / 25);
    if (step > lastStep) {
      lastStep = step;
      stream.write(`${text}\n`);
    }
  };
}

/**
 * Download `url` into `file`, hashing it as it arrives; the file is removed
 * on any failure. Resolves with the digests.
 */
async function downloadFile(url, file, { timeoutMs, label, progress, what }) {
  await mkdir(dirname(file), { recursive: true });
  const { response, guard } = await get(url, timeoutMs);
  if (!response.ok) {
    guard.done();
    await response.body?.cancel().catch(() => {});
    throw new DownloadError(`${what}: ${url} answered ${response.status}`, { notFound: response.status === 404 });
  }
  const total = Number(response.headers.get('content-length')) || null;
  const sha1 = createHash('sha1');
  const md5 = createHash('md5');
  let received = 0;
  progress?.({ label, received, total });
  try {
    await pipeline(
      response.body,
      async function* (source) {
        for await (const chunk of source) {
          guard.poke();
          received += chunk.length;
          sha1.update(chunk);
          md5.update(chunk);
          progress?.({ label, received, total });
          yield chunk;
        }
      },
      createWriteStream(file),
    );
  } catch (error) {
    await rm(file, { force: true });
    throw unreachable(url, error?.name === 'AbortError' ? Object.assign(new Error('timed out'), { name: 'TimeoutError' }) : error, timeoutMs);
  } finally {
    guard.done();
  }
  if (total !== null && received !== total) {
    await rm(file, { force: true });
    throw new DownloadError(`${what}: ${url} ended after ${received} of ${total} bytes; the partial download was deleted. Try again.`);
  }
  progress?.({ label, received, total: total ?? received, done: true });
  return { sha1: sha1.digest('hex'), md5: md5.digest('hex'), bytes: received };
}

/** Is `pid` a live process? */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Remove what a killed download left: `.partial-*-<pid>` folders and files
 * whose process is gone (a live process's are its downloads under way).
 */
export async function clearStaleDownloads(dir) {
  if (!existsSync(dir)) {
    return;
  }
  for (const name of await readdir(dir)) {
    const pid = Number(/^\.partial-.*-(\d+)$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) {
      await rm(join(dir, name), { recursive: true, force: true });
    }
  }
}

/** Partial names carry the pid, so that two starts at once never share one. */
const partialName = (what) => `.partial-${what}-${process.pid}`;

/** Move `from` to `to` in one step; when another process got there first, keep theirs. */
async function publish(from, to) {
  try {
    await rename(from, to);
  } catch (error) {
    if (!['ENOTEMPTY', 'EEXIST'].includes(error.code)) {
      throw error;
    }
  }
}

/** X.Y.Z or X.Y, no pre-release. */
const isRelease = (version) => /^\d+\.\d+(\.\d+)?$/.test(version);

function compareReleases(a, b) {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) {
      return (x[i] ?? 0) - (y[i] ?? 0);
    }
  }
  return 0;
}

/** "6.6" asks for any 6.6.x; "6.6.2" for exactly that. */
const matches = (version, wanted) => version === wanted || version.startsWith(`${wanted}.`);

/**
 * The WordPress release to download: the newest stable one wordpress.org
 * offers, or the newest X.Y.Z for `wanted` "X.Y"; an exact "X.Y.Z" is taken
 * as it is (its download then says whether it exists).
 */
export async function resolveWordPressRelease({ wanted, env = process.env }) {
  const { api, timeoutMs } = endpoints(env);
  const url = `${api}/core/version-check/1.7/`;
  if (wanted && wanted !== 'latest' && /^\d+\.\d+\.\d+$/.test(wanted)) {
    return wanted;
  }
  const answer = await getJson(url, timeoutMs, "wordpress.org's WordPress version API");
  const versions = [...new Set((answer?.offers ?? []).map((offer) => offer?.version).filter((v) => typeof v === 'string' && isRelease(v)))].sort((a, b) =>
    compareReleases(b, a),
  );
  if (!versions.length) {
    throw new DownloadError(`wordpress.org's WordPress version API (${url}) offered no release`);
  }
  if (!wanted || wanted === 'latest') {
    return versions[0];
  }
  const match = versions.find((v) => matches(v, wanted));
  if (!match) {
    throw new DownloadError(
      `WP_VERSION=${wanted}: wordpress.org's version API offers no WordPress ${wanted}.x (it offers ${versions.join(', ')}); set WP_VERSION to an exact release such as ${wanted}.1`,
      { notFound: true },
    );
  }
  return match;
}

/**
 * Download WordPress `version` into `<cacheDir>/<version>/`, verified
 * against its published SHA-1 (MD5 when no SHA-1 is published) before it is
 * unpacked. Nothing is left behind on failure.
 * @return {Promise<{dir: string, version: string, source: string}>}
 */
export async function downloadWordPress({ version, cacheDir, env = process.env, progress = progressPrinter() }) {
  const { downloads, timeoutMs } = endpoints(env);
  const zipName = `wordpress-${version}.zip`;
  const zipUrl = `${downloads}/release/${zipName}`;
  await mkdir(cacheDir, { recursive: true });
  await clearStaleDownloads(cacheDir);
  let published;
  try {
    published = { algorithm: 'sha1', digest: (await getText(`${zipUrl}.sha1`, timeoutMs, `WordPress ${version}'s checksum`)).trim().slice(0, 40) };
  } catch (error) {
    if (!(error instanceof DownloadError && error.notFound)) {
      throw error;
    }
    try {
      published = { algorithm: 'md5', digest: (await getText(`${zipUrl}.md5`, timeoutMs, `WordPress ${version}'s checksum`)).trim().slice(0, 32) };
    } catch (md5Error) {
      if (md5Error instanceof DownloadError && md5Error.notFound) {
        throw new DownloadError(`WordPress ${version} is not on wordpress.org (${zipUrl}.sha1 and .md5 answered 404)`, { notFound: true });
      }
      throw md5Error;
    }
  }
  if (!/^[0-9a-f]+$/i.test(published.digest)) {
    throw new DownloadError(`WordPress ${version}'s published checksum (${zipUrl}.${published.algorithm}) is not a hex digest`);
  }
  const zipFile = join(cacheDir, partialName(zipName));
  const unpackDir = join(cacheDir, partialName(`unpack-${version}`));
  try {
    const digests = await downloadFile(zipUrl, zipFile, {
      timeoutMs,
      label: `Downloading WordPress ${version} from ${host(zipUrl)}`,
      progress,
      what: `WordPress ${version}`,
    });
    if (digests[published.algorithm] !== published.digest.toLowerCase()) {
      throw new DownloadError(
        `${zipName} from ${host(zipUrl)} failed verification: its ${published.algorithm.toUpperCase()} is ${digests[published.algorithm]}, wordpress.org publishes ${published.digest} (${zipUrl}.${published.algorithm}); the download was deleted`,
      );
    }
    await unpack(zipFile, unpackDir, zipName);
    const installed = await readFile(join(unpackDir, 'wordpress', 'wp-includes', 'version.php'), 'utf8').catch(() => '');
    const found = /\$wp_version\s*=\s*'([^']+)'/.exec(installed)?.[1];
    if (found !== version) {
      throw new DownloadError(`${zipName} holds ${found ? `WordPress ${found}` : 'no wordpress/wp-includes/version.php'}, not WordPress ${version}; deleted`);
    }
    const target = join(cacheDir, version);
    await publish(join(unpackDir, 'wordpress'), target);
    return { dir: target, version, source: 'wordpress.org, verified' };
  } finally {
    await rm(zipFile, { force: true });
    await rm(unpackDir, { recursive: true, force: true });
  }
}

async function unpack(zipFile, dir, zipName) {
  try {
    await extractZip(zipFile, dir);
  } catch (error) {
    throw new DownloadError(`${zipName} could not be unpacked (${error.message}): a corrupt download, deleted. Try again.`);
  }
}

/** Every file under `dir`, relative, with "/" separators. */
async function filesUnder(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() || entry.isSymbolicLink()) {
      found.push(
        relative(dir, join(entry.parentPath ?? entry.path, entry.name))
          .split(sep)
          .join('/'),
      );
    }
  }
  return found;
}

async function digestOf(file, algorithm) {
  const hash = createHash(algorithm);
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Check an unpacked plugin folder against wordpress.org's checksums, as
 * WP-CLI's `plugin verify-checksums` does: every listed file present, no
 * file added, each one's SHA-256 (else MD5) among the published ones.
 * @return {Promise<string[]>} one line per problem, [] when it verifies
 */
export async function pluginChecksumProblems(dir, files) {
  const problems = [];
  const present = new Set(await filesUnder(dir));
  for (const file of Object.keys(files)) {
    if (!present.has(file)) {
      problems.push(`${file}: missing`);
    }
  }
  for (const file of [...present].sort()) {
    const expected = files[file];
    if (!expected) {
      problems.push(`${file}: not in the published checksums (added)`);
      continue;
    }
    if (SOFT_CHANGE_FILES.has(file.toLowerCase())) {
      continue;
    }
    const algorithm = expected.sha256 ? 'sha256' : expected.md5 ? 'md5' : null;
    if (!algorithm) {
      problems.push(`${file}: no checksum published`);
      continue;
    }
    const accepted = [expected[algorithm]].flat().map((d) => String(d).toLowerCase());
    if (!accepted.includes(await digestOf(join(dir, file), algorithm))) {
      problems.push(`${file}: ${algorithm} does not match`);
    }
  }
  return problems;
}

/** What wordpress.org says about WooCommerce: its stable versions, newest first, and the newest's "Requires at least". */
export async function wooCommerceInformation({ env = process.env }) {
  const { api, timeoutMs } = endpoints(env);
  const url = `${api}/plugins/info/1.2/?action=plugin_information&slug=woocommerce`;
  const info = await getJson(url, timeoutMs, "wordpress.org's plugin information API");
  if (!info || typeof info.versions !== 'object' || !info.versions || typeof info.version !== 'string') {
    throw new DownloadError(`wordpress.org's plugin information API (${url}) answered without WooCommerce's versions`);
  }
  const versions = Object.keys(info.versions)
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
    .sort((a, b) => compareReleases(b, a));
  return { newest: info.version, requires: typeof info.requires === 'string' ? info.requires : null, versions };
}

/**
 * Download WooCommerce `version` into `<cacheDir>/<version>/`, checked file
 * by file against wordpress.org's plugin checksums after unpacking. Nothing
 * is left behind on failure.
 * @return {Promise<{dir: string, version: string, source: string}>}
 */
export async function downloadWooCommerce({ version, cacheDir, env = process.env, progress = progressPrinter() }) {
  const { downloads, timeoutMs } = endpoints(env);
  const zipName = `woocommerce.${version}.zip`;
  const zipUrl = `${downloads}/plugin/${zipName}`;
  const checksumsUrl = `${downloads}/plugin-checksums/woocommerce/${version}.json`;
  await mkdir(cacheDir, { recursive: true });
  await clearStaleDownloads(cacheDir);
  let checksums;
  try {
    checksums = await getJson(checksumsUrl, timeoutMs, `WooCommerce ${version}'s checksums`);
  } catch (error) {
    if (error instanceof DownloadError && error.notFound) {
      throw new DownloadError(
        `wordpress.org publishes no checksums for WooCommerce ${version} (${checksumsUrl} answered 404): not downloaded, since it could not be verified`,
        {
          notFound: true,
        },
      );
    }
    throw error;
  }
  if (!checksums || typeof checksums.files !== 'object' || !checksums.files || !Object.keys(checksums.files).length) {
    throw new DownloadError(`WooCommerce ${version}'s checksums (${checksumsUrl}) list no files: not downloaded, since it could not be verified`);
  }
  const zipFile = join(cacheDir, partialName(zipName));
  const unpackDir = join(cacheDir, partialName(`unpack-${version}`));
  try {
    await downloadFile(zipUrl, zipFile, {
      timeoutMs,
      label: `Downloading WooCommerce ${version} from ${host(zipUrl)}`,
      progress,
      what: `WooCommerce ${version}`,
    });
    await unpack(zipFile, unpackDir, zipName);
    const pluginDir = join(unpackDir, 'woocommerce');
    if (!existsSync(join(pluginDir, 'woocommerce.php'))) {
      throw new DownloadError(`${zipName} has no woocommerce/woocommerce.php; deleted`);
    }
    const problems = await pluginChecksumProblems(pluginDir, checksums.files);
    if (problems.length) {
      const shown = problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; and ${problems.length - 5} more` : '');
      throw new DownloadError(`${zipName} from ${host(zipUrl)} failed verification against ${checksumsUrl} (${shown}); the download was deleted`);
    }
    const target = join(cacheDir, version);
    await publish(pluginDir, target);
    return { dir: target, version, source: 'wordpress.org, verified' };
  } finally {
    await rm(zipFile, { force: true });
    await rm(unpackDir, { recursive: true, force: true });
  }
}

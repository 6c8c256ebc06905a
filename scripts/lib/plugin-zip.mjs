// One installable plugin zip: the plugin folder (slug) at the zip root, the
// files its .distignore lets through, and a readme.txt in the WordPress
// plugin-directory format.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { listShippedFiles } from './distignore.mjs';
import { pluginHeaders } from './find-woocommerce.mjs';
import { createZip } from './zip.mjs';

const README_FIELDS = ['Contributors', 'Requires at least', 'Tested up to', 'Stable tag', 'License'];

/**
 * Problems of a readme.txt against the plugin-directory format (empty when fine).
 * @param {string} text      readme.txt content
 * @param {string} [version] the plugin header's Version, which "Stable tag" must name
 */
export function readmeProblems(text, version) {
  const problems = [];
  const lines = text.split(/\r?\n/);
  if (!/^===\s*\S.*\S\s*===\s*$/.test(lines[0] ?? '')) {
    problems.push('the first line must be "=== Plugin Name ==="');
  }
  const fields = {};
  let index = 1;
  for (; index < lines.length; index++) {
    const match = /^([A-Za-z][A-Za-z ]*):\s*(.*)$/.exec(lines[index]);
    if (!match) {
      break;
    }
    fields[match[1].trim()] = match[2].trim();
  }
  for (const field of README_FIELDS) {
    if (!fields[field]) {
      problems.push(`missing header field "${field}:"`);
    }
  }
  const short = lines.slice(index).find((line) => line.trim() !== '');
  if (!short || short.startsWith('==')) {
    problems.push('missing the short description (one line after the header fields)');
  } else if (short.trim().length > 150) {
    problems.push(`the short description has ${short.trim().length} characters; the directory cuts it at 150`);
  }
  if (!lines.some((line) => /^==\s*Description\s*==\s*$/.test(line))) {
    problems.push('missing the "== Description ==" section');
  }
  if (version && fields['Stable tag'] && fields['Stable tag'] !== 'trunk' && fields['Stable tag'] !== version) {
    problems.push(`"Stable tag: ${fields['Stable tag']}" differs from the plugin's "Version: ${version}"`);
  }
  return problems;
}

/**
 * Zip `plugin.dir` into `outFile` as `<slug>/...`. Throws with a clear message
 * when the main file or readme.txt is missing or the readme is malformed.
 * @return {Promise<{file: string, entries: string[], bytes: number, version: string}>}
 */
export async function buildPluginZip(plugin, outFile) {
  const mainFile = join(plugin.dir, plugin.main);
  if (!existsSync(mainFile)) {
    throw new Error(`${plugin.slug}: main plugin file ${mainFile} is missing`);
  }
  const version = pluginHeaders(mainFile).Version;
  if (!version) {
    throw new Error(`${plugin.slug}: ${plugin.main} has no "Version:" header`);
  }
  const readme = join(plugin.dir, 'readme.txt');
  if (!existsSync(readme)) {
    throw new Error(
      `${plugin.slug}: readme.txt is missing in ${plugin.dir}; a plugin zip needs one in the WordPress plugin-directory format (see https://wordpress.org/plugins/readme.txt).`,
    );
  }
  const problems = readmeProblems(readFileSync(readme, 'utf8'), version);
  if (problems.length) {
    throw new Error(`${plugin.slug}: readme.txt is not in the plugin-directory format:\n  - ${problems.join('\n  - ')}`);
  }

  const shipped = await listShippedFiles(plugin.dir);
  for (const required of [plugin.main, 'readme.txt']) {
    if (!shipped.some((entry) => entry.path === required)) {
      throw new Error(`${plugin.slug}: .distignore excludes ${required}, which the zip needs`);
    }
  }
  const entries = [{ name: `${plugin.slug}/`, mtime: (await stat(plugin.dir)).mtime }];
  for (const entry of shipped) {
    const path = join(plugin.dir, entry.path);
    const info = await stat(path);
    entries.push({
      name: `${plugin.slug}/${entry.path}`,
      mtime: info.mtime,
      data: entry.isDirectory ? undefined : await readFile(path),
      mode: entry.isDirectory ? 0o40755 : 0o100644,
    });
  }
  const zip = createZip(entries);
  await mkdir(dirname(outFile), { recursive: true });
  await writeFile(outFile, zip);
  return { file: outFile, entries: entries.map((e) => e.name), bytes: zip.length, version };
}

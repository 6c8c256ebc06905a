// The files of a plugin that ship: everything except what its WordPress-style
// .distignore lists (the convention of `wp dist-archive`, read like a simple
// .gitignore: "#" comments, "/x" anchored at the plugin root, "x/" directories
// only, a name without "/" matches at any depth, "*", "?" and "**" globs).
import { readFileSync, existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Never shipped, whatever .distignore says. */
export const ALWAYS_EXCLUDED = ['.git', 'node_modules', '.DS_Store'];

function globToRegExp(glob) {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      out += '.*';
      i++;
      if (glob[i + 1] === '/') {
        i++;
      }
    } else if (c === '*') {
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else {
      out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return out;
}

/** Parse .distignore text into a predicate (relativePath, isDirectory) => excluded. */
export function parseDistignore(text) {
  const rules = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    if (!line || line.startsWith('#')) {
      continue;
    }
    const directoryOnly = line.endsWith('/');
    if (directoryOnly) {
      line = line.slice(0, -1);
    }
    const anchored = line.startsWith('/') || line.slice(0, -1).includes('/');
    if (line.startsWith('/')) {
      line = line.slice(1);
    }
    const body = globToRegExp(line);
    rules.push({ regexp: new RegExp(anchored ? `^${body}$` : `(^|/)${body}$`), directoryOnly });
  }
  for (const name of ALWAYS_EXCLUDED) {
    rules.push({ regexp: new RegExp(`(^|/)${globToRegExp(name)}$`), directoryOnly: false });
  }
  return (path, isDirectory) => rules.some((rule) => (!rule.directoryOnly || isDirectory) && rule.regexp.test(path));
}

/**
 * Files and directories of `root` that ship, relative, with "/" separators,
 * sorted; an excluded directory excludes everything inside it.
 */
export async function listShippedFiles(root) {
  const file = join(root, '.distignore');
  const excluded = parseDistignore(existsSync(file) ? readFileSync(file, 'utf8') : '');
  const out = [];
  async function walk(relative) {
    const entries = await readdir(join(root, relative), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      const isDirectory = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        throw new Error(`${join(root, path)} is a symbolic link; plugin zips carry real files only`);
      }
      if (excluded(path, isDirectory)) {
        continue;
      }
      if (isDirectory) {
        out.push({ path: `${path}/`, isDirectory: true });
        await walk(path);
      } else if (entry.isFile()) {
        out.push({ path, isDirectory: false });
      }
    }
  }
  await walk('');
  return out;
}

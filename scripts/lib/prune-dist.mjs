// What scripts/prune-dist.mjs removes: the outputs in a workspace's dist/ whose
// TypeScript source is gone (tsc -b writes outputs, never deletes them).
import { existsSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** The source a compiled file comes from, without extension, or null for a file tsc does not write. */
export function sourceBase(relative) {
  const match = /^(.*?)(\.d)?\.(js|mjs|cjs|ts|mts|cts)(\.map)?$/.exec(relative);
  if (!match || (match[2] === undefined && /^(ts|mts|cts)$/.test(match[3]))) {
    return null;
  }
  return match[1];
}

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];

/** Removes the stale outputs under <dir>/dist; answers their paths, relative to dir. */
export function pruneDist(dir) {
  const dist = path.join(dir, 'dist');
  const removed = [];
  if (!existsSync(dist)) {
    return removed;
  }
  const walk = (relative) => {
    const here = path.join(dist, relative);
    for (const entry of readdirSync(here, { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) {
        walk(child);
        if (readdirSync(path.join(dist, child)).length === 0) {
          rmdirSync(path.join(dist, child));
        }
        continue;
      }
      const base = sourceBase(child);
      if (base !== null && !SOURCE_EXTENSIONS.some((ext) => existsSync(path.join(dir, base + ext)))) {
        rmSync(path.join(dist, child));
        removed.push(path.join('dist', child));
      }
    }
  };
  if (statSync(dist).isDirectory()) {
    walk('');
  }
  return removed;
}

#!/usr/bin/env node
// Run after `tsc -b` in a workspace (its "build"): removes from dist/ what no
// source compiles to any more. tsc writes outputs but never deletes them, so a
// test file renamed or removed kept its old .js in dist/, and `node --test
// dist/test/*.test.js` ran the stale copy beside the new one (a removed BIP32
// test file cost a developer's unit run 24 s and measured nothing). Every
// workspace compiles <dir>/<name>.ts (rootDir ".") to <dir>/dist/<name>.js,
// .d.ts and their maps; only those kinds of file are considered, so what other
// tools put in dist/ stays.
import path from 'node:path';
import { pruneDist } from './lib/prune-dist.mjs';

const dir = path.resolve(process.argv[2] ?? '.');
const removed = pruneDist(dir);
if (removed.length > 0) {
  console.log(`prune-dist: removed ${removed.length} file(s) of ${path.basename(dir)}/dist whose source is gone: ${removed.join(', ')}`);
}

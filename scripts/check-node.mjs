#!/usr/bin/env node
// One line when this Node is older than the one the project supports
// (package.json "engines"). Without flags it never fails the command it runs
// in (npm install's preinstall, npm test); with --refuse (npm start) it also
// exits 1, so nothing is built or started on a Node that cannot run the store.
import { oldNodeLine } from './lib/node-version.mjs';

const line = oldNodeLine();
if (line) {
  console.error(line);
  if (process.argv.includes('--refuse')) {
    process.exit(1);
  }
}

#!/usr/bin/env node
// One line when this Node is older than the one the project supports
// (package.json "engines"); never fails the command it runs in (npm install's
// preinstall, npm start, npm test).
import { oldNodeLine } from './lib/node-version.mjs';

const line = oldNodeLine();
if (line) {
  console.error(line);
}

#!/usr/bin/env node
// Thin launcher: the CLI is compiled TypeScript (npm run build).
import { main } from '../dist/src/cli.js';

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`card2crypto-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

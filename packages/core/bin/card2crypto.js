#!/usr/bin/env node
// The card2crypto CLI: a launcher for the compiled dist/src/cli.js (run `npm run build` in packages/core first).
let cli;
try {
  cli = await import('../dist/src/cli.js');
} catch (error) {
  process.stderr.write(`card2crypto: cannot load the compiled CLI (${error && error.code ? error.code : error}); run "npm run build" in packages/core\n`);
  process.exit(1);
}
process.exitCode = await cli.main(process.argv.slice(2));

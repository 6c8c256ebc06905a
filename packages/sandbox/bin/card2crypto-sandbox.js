#!/usr/bin/env node
// Thin launcher: the CLI is compiled TypeScript (npm run build). The sandbox keeps its state in Node's own
// SQLite (node:sqlite), which an older Node lacks: said in one line rather than as a module error.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(
    `card2crypto-sandbox: needs Node 22.13 or newer for its database (node:sqlite); the project supports Node 24 (.nvmrc). This is Node ${process.versions.node}.\n`,
  );
  process.exit(1);
}
const { main } = await import('../dist/src/cli.js');

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`card2crypto-sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

// Builds the two browser scripts with esbuild: build/blocks.js (block
// checkout registration; WordPress/WooCommerce from their globals, nothing
// bundled) and build/order-pay.js (embedded widget starter, order-pay page
// only). `--sizes` prints their minified and gzipped sizes.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const entries = { blocks: 'src/blocks.ts', 'order-pay': 'src/order-pay.ts' };

await build({
  entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, join(here, file)])),
  outdir: join(here, 'build'),
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  legalComments: 'none',
  logLevel: 'warning',
});

if (process.argv.includes('--sizes')) {
  for (const name of Object.keys(entries)) {
    const code = readFileSync(join(here, 'build', `${name}.js`));
    console.log(`${name}.js: ${code.length} B minified, ${gzipSync(code, { level: 9 }).length} B gzipped`);
  }
}

#!/usr/bin/env node
// Writes src/Btc/Secp256k1_Table.php: the fixed-base comb of secp256k1's
// generator (row i: j·16^i·G for j = 1 … 15, affine, decimal), from
// @card2crypto/core's gCombTable(), so PHP multiplies by G with one addition
// per hex digit and no table to build per request. Run after `npm run build
// -w packages/core`; `--check` fails when the committed file differs (a test
// also recomputes every entry in PHP).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gCombTable } from '../../core/dist/src/bip32/secp256k1.js';

const target = fileURLToPath(new URL('../src/Btc/Secp256k1_Table.php', import.meta.url));
const rows = gCombTable()
  .map((row) => `\t\tarray(\n${row.map((p) => `\t\t\tarray( '${p.x}', '${p.y}' ),\n`).join('')}\t\t),\n`)
  .join('');
const text = `<?php
/**
 * secp256k1's generator G in a fixed-base comb: POINTS[i][j - 1] is the
 * affine point j·16^i·G (decimal x, y) for i = 0 … 63, j = 1 … 15. Written by
 * packages/php/scripts/secp256k1-table.mjs from @card2crypto/core; do not
 * edit. The PHP tests recompute every entry.
 *
 * @package Card2Crypto\\Shared
 */

namespace Card2Crypto\\Shared\\Btc;

final class Secp256k1_Table {

\tconst POINTS = array(
${rows}\t);
}
`;
if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== text) {
    console.error(`${target} is not what this script writes: run node packages/php/scripts/secp256k1-table.mjs`);
    process.exit(1);
  }
  console.log('Secp256k1_Table.php is current.');
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target}`);
}

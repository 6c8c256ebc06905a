#!/usr/bin/env node
// Writes src/Btc/Secp256k1_Table.php: the fixed-base comb of secp256k1's
// generator (row i: j·16^i·G for j = 1 … 15, affine, decimal), computed by
// @noble/curves (the audited library @card2crypto/core derives with), so PHP
// multiplies by G with one addition per hex digit and no table to build per
// request. `--check` fails when the committed file differs (a test also
// recomputes every entry in PHP).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { secp256k1 } from '@noble/curves/secp256k1.js';

const G = secp256k1.Point.BASE;
const target = fileURLToPath(new URL('../src/Btc/Secp256k1_Table.php', import.meta.url));
const rows = Array.from({ length: 64 }, (_row, i) => Array.from({ length: 15 }, (_point, j) => G.multiply(BigInt(j + 1) << BigInt(4 * i)).toAffine()))
  .map((row) => `\t\tarray(\n${row.map((p) => `\t\t\tarray( '${p.x}', '${p.y}' ),\n`).join('')}\t\t),\n`)
  .join('');
const text = `<?php
/**
 * secp256k1's generator G in a fixed-base comb: POINTS[i][j - 1] is the
 * affine point j·16^i·G (decimal x, y) for i = 0 … 63, j = 1 … 15. Written by
 * packages/php/scripts/secp256k1-table.mjs with @noble/curves; do not
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

/** Writes test/vectors/status-transitions.json from core (npm run vectors). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PLUGIN_DIR } from './support/php.js';
import { buildStatusVectors } from './support/status-vectors.js';

const file = path.join(PLUGIN_DIR, 'test/vectors/status-transitions.json');
writeFileSync(file, `${JSON.stringify(buildStatusVectors(), null, 1)}\n`);
console.log(`wrote ${file}`);

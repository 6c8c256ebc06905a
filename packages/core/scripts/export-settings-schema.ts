/**
 * Writes schema/settings.json (the settings schema the PHP plugins read) and
 * schema/rule-vectors.json (parity cases for their validator) from
 * src/settings-schema.ts. Run after changing the schema:
 *   npx tsc -b packages/core && node packages/core/dist/scripts/export-settings-schema.js
 * A test fails while the committed files are stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { settingsSchemaJson } from '../src/settings-schema.js';
import { settingsRuleVectorsJson } from '../src/settings-vectors.js';

// dist/scripts/ -> package root
const root = new URL('../../', import.meta.url);
const outputs: [string, string][] = [
  ['schema/settings.json', settingsSchemaJson()],
  ['schema/rule-vectors.json', settingsRuleVectorsJson()],
];
for (const [path, text] of outputs) {
  writeFileSync(fileURLToPath(new URL(path, root)), text);
  console.log(`wrote ${path} (${text.length} bytes)`);
}

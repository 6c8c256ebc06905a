// `npm run lint:classes` (one step of `npm run lint`): no loop between the
// PHP classes of a plugin outside its wiring, and no reference from a lower
// room to a higher one (scripts/lib/class-graph.mjs says how it reads them).
//
// scripts/lint-classes.json is the one place of the rules' settings:
//   maxComponent  the largest strongly connected component allowed (2: a pair
//                 of classes that name each other is tolerated, three are a loop)
//   shared        the shared library (packages/php/src), checked for loops
//   plugins[]     each plugin's includes/ folder (every plugins/*/includes must be listed):
//     wiring      the class that wires the plugin (Plugin), left out of the graph
//     rooms       its subfolders, lowest first ("." is the files at the top of
//                 includes/; a flat folder is the one room "."): a class may
//                 name classes of its own room and of lower rooms only. A
//                 subfolder missing from the list is itself a problem.
//     enforce     true: a problem fails the lint (both plugins). false: the
//                 problems are printed and the lint passes.
//
//   node scripts/lint-classes.mjs [--root DIR] [--config FILE]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { checkAll } from './lib/class-graph.mjs';
import { ROOT } from './lib/paths.mjs';

const { values } = parseArgs({ options: { root: { type: 'string' }, config: { type: 'string' } } });
const root = resolve(values.root || ROOT);
const configFile = resolve(values.config || fileURLToPath(new URL('./lint-classes.json', import.meta.url)));
const config = JSON.parse(readFileSync(configFile, 'utf8'));
const { ok: clean, lines } = checkAll(root, config);
// Every plugin's includes/ is checked: a plugin missing from the config is a problem of its own.
const listed = new Set((config.plugins || []).map((plugin) => plugin.dir));
const unlisted = existsSync(join(root, 'plugins'))
  ? readdirSync(join(root, 'plugins'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(root, 'plugins', entry.name, 'includes')))
      .map((entry) => `plugins/${entry.name}/includes`)
      .filter((dir) => !listed.has(dir))
  : [];
for (const dir of unlisted) {
  lines.push(`${dir}: not checked: list it under "plugins" in ${configFile}`);
}
const ok = clean && unlisted.length === 0;
for (const line of lines) {
  console.log(line);
}
if (!ok) {
  console.error(`lint:classes: a loop of classes or a reference to a higher room (rules: ${configFile}).`);
}
process.exit(ok ? 0 : 1);

#!/usr/bin/env node
// `npm run zip`: production builds of both plugins, then
// their translation templates (npm run i18n), then dist/card2crypto-checkout.zip
// and dist/card2crypto-widget.zip, each installable through Plugins → Add New
// → Upload Plugin.
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { DIST_DIR, PLUGINS, ROOT } from './lib/paths.mjs';
import { buildPluginZip } from './lib/plugin-zip.mjs';

const { values } = parseArgs({ options: { 'skip-build': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } } });
if (values.help) {
  console.log('Usage: npm run zip [-- --skip-build]\n\nBuilds every workspace (NODE_ENV=production), then writes dist/<plugin>.zip for each plugin.');
  process.exit(0);
}

if (!values['skip-build']) {
  // The plugins' builds use the core package's outputs, so build everything in workspace order.
  console.log('Building (production)...');
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (build.status !== 0) {
    console.error('The build failed; no zip written.');
    process.exit(build.status || 1);
  }
}

// The translation templates ship in the zips (languages/*.pot): write them from the sources just built.
const i18n = spawnSync(process.execPath, [join(ROOT, 'scripts', 'i18n.mjs')], { cwd: ROOT, stdio: 'inherit' });
if (i18n.status !== 0) {
  console.error('Writing the translation templates failed; no zip written.');
  process.exit(i18n.status || 1);
}

let failed = false;
for (const plugin of PLUGINS) {
  const outFile = join(DIST_DIR, `${plugin.slug}.zip`);
  try {
    const zip = await buildPluginZip(plugin, outFile);
    const files = zip.entries.filter((name) => !name.endsWith('/')).length;
    console.log(`${relative(ROOT, zip.file)}  ${plugin.slug} ${zip.version}, ${files} files, ${(zip.bytes / 1024).toFixed(0)} KiB`);
  } catch (error) {
    failed = true;
    console.error(`Could not zip ${plugin.slug}: ${error.message}`);
  }
}
process.exit(failed ? 1 : 0);

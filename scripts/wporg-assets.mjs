#!/usr/bin/env node
// `npm run wporg-assets`: the plugin directory's screenshots, which live in its
// SVN assets/ folder (not in the zip) as screenshot-N.png, N being the caption
// number in readme.txt's "== Screenshots ==". The images are the ones the e2e
// run writes to docs/screenshots/; this copies them, numbered, to
// dist/wporg-assets/<slug>/ and fails when a readme's captions and this list
// disagree in number.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DIST_DIR, PLUGINS, ROOT } from './lib/paths.mjs';

/** Per plugin, docs/screenshots/ files in the order of the readme's captions. */
const SCREENSHOTS = {
  checkout: ['checkout.png', 'checkout-settings.png'],
  widget: ['widget.png', 'store.png'],
};

let failed = false;
for (const plugin of PLUGINS) {
  const readme = readFileSync(join(plugin.dir, 'readme.txt'), 'utf8');
  const section = /^== Screenshots ==\s*$([\s\S]*?)(?=^== )/m.exec(readme)?.[1] ?? '';
  const captions = section.match(/^\d+\. /gm) ?? [];
  const files = SCREENSHOTS[plugin.key] ?? [];
  if (captions.length !== files.length) {
    console.error(`wporg-assets: ${plugin.slug}/readme.txt has ${captions.length} screenshot captions, scripts/wporg-assets.mjs lists ${files.length} images`);
    failed = true;
    continue;
  }
  const out = join(DIST_DIR, 'wporg-assets', plugin.slug);
  mkdirSync(out, { recursive: true });
  files.forEach((file, i) => {
    const source = join(ROOT, 'docs', 'screenshots', file);
    if (!existsSync(source)) {
      console.error(`wporg-assets: ${relative(ROOT, source)} is missing (the e2e run writes it)`);
      failed = true;
      return;
    }
    copyFileSync(source, join(out, `screenshot-${i + 1}.png`));
  });
  console.log(`wporg-assets: ${relative(ROOT, out)}: ${files.length} screenshots`);
}
process.exit(failed ? 1 : 0);

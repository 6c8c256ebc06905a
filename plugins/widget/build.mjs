// Builds the block's scripts and styles into build/ with esbuild:
//   editor.js (+ editor.asset.php, editor.css)  the block editor side, WordPress packages external;
//   view.js (+ view.asset.php, view.css)        the front-end script, no dependencies at all;
//   blocks/<name>/block.json                    the block metadata PHP registers (src/ is not shipped).
// `node build.mjs --watch` rebuilds on change.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, 'build');

/** The global object the widget script defines; the view script calls its run() (docs/decisions.md, "Widget run function"). */
export const WIDGET_GLOBAL = 'Card2CryptoWidget';

/**
 * `@wordpress/block-editor` => `window.wp.blockEditor`, recorded as the
 * script dependency `wp-block-editor`, as @wordpress/scripts does.
 */
function wordpressGlobals(dependencies) {
  return {
    name: 'wordpress-globals',
    setup(build) {
      build.onResolve({ filter: /^@wordpress\// }, (args) => ({ path: args.path.slice('@wordpress/'.length), namespace: 'wp-global' }));
      build.onLoad({ filter: /.*/, namespace: 'wp-global' }, (args) => {
        dependencies.add(`wp-${args.path}`);
        const global = args.path.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
        return { contents: `module.exports = window.wp.${global};`, loader: 'js' };
      });
    },
  };
}

/** The asset file WordPress reads for a script's dependencies and version. */
function writeAsset(name, dependencies, files) {
  const hash = createHash('sha256');
  for (const file of files) hash.update(readFileSync(path.join(out, file)));
  const deps = [...dependencies].sort().map((d) => `'${d}'`).join(', ');
  writeFileSync(path.join(out, `${name}.asset.php`), `<?php return array( 'dependencies' => array( ${deps} ), 'version' => '${hash.digest('hex').slice(0, 20)}' );\n`);
}

export async function build({ watch = false } = {}) {
  mkdirSync(out, { recursive: true });
  const editorDeps = new Set();
  const common = { bundle: true, minify: true, target: ['es2020'], logLevel: 'warning', legalComments: 'none' };
  const options = [
    {
      ...common,
      entryPoints: { editor: path.join(here, 'src/editor/index.tsx') },
      outdir: out,
      format: 'iife',
      jsxFactory: 'createElement',
      jsxFragment: 'Fragment',
      plugins: [wordpressGlobals(editorDeps)],
    },
    { ...common, entryPoints: { 'editor-style': path.join(here, 'src/editor/editor.css') }, outdir: out, entryNames: 'editor' },
    {
      ...common,
      entryPoints: { view: path.join(here, 'src/view/view.ts') },
      outdir: out,
      format: 'iife',
      define: { WIDGET_GLOBAL: JSON.stringify(WIDGET_GLOBAL) },
    },
    { ...common, entryPoints: { 'view-style': path.join(here, 'src/view/view.css') }, outdir: out, entryNames: 'view' },
  ];
  if (watch) {
    for (const o of options) await (await esbuild.context(o)).watch();
    return;
  }
  await Promise.all(options.map((o) => esbuild.build(o)));
  for (const block of readdirSync(path.join(here, 'src/blocks'))) {
    mkdirSync(path.join(out, 'blocks', block), { recursive: true });
    copyFileSync(path.join(here, 'src/blocks', block, 'block.json'), path.join(out, 'blocks', block, 'block.json'));
  }
  writeAsset('editor', editorDeps, ['editor.js', 'editor.css']);
  writeAsset('view', [], ['view.js', 'view.css']);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build({ watch: process.argv.includes('--watch') });
}

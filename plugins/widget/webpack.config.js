// `wp-scripts build` for the blocks: @wordpress/scripts' own webpack
// configuration (Babel for TypeScript and JSX, CSS extraction, block.json
// copied to build/blocks/*, dependency extraction writing <name>.asset.php
// with each script's dependencies and content version), with explicit
// entries: the editor script and the front-end view script, each with its
// stylesheet (build/editor.css, build/view.css).
import defaultConfig from '@wordpress/scripts/config/webpack.config.js';

export default {
  ...defaultConfig,
  // The TypeScript sources import each other as `./x.js` (NodeNext, as tsc needs).
  resolve: { ...defaultConfig.resolve, extensionAlias: { '.js': ['.ts', '.tsx', '.js'] } },
  entry: {
    editor: ['./src/editor/index.tsx', './src/editor/editor.css'],
    view: ['./src/view/view.ts', './src/view/view.css'],
  },
};

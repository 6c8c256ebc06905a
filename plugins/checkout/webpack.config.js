// `wp-scripts build` for the browser scripts: @wordpress/scripts' webpack
// configuration with WooCommerce's dependency extraction in place of
// WordPress's, so `@woocommerce/blocks-registry` and `@woocommerce/settings`
// stay external (wc.wcBlocksRegistry, wc.wcSettings) like `@wordpress/*`, and
// each script gets its build/<name>.asset.php (dependencies, content version)
// that PHP registers it from.
import defaultConfig from '@wordpress/scripts/config/webpack.config.js';
import WooCommerceDependencyExtractionWebpackPlugin from '@woocommerce/dependency-extraction-webpack-plugin';

export default {
  ...defaultConfig,
  // The TypeScript sources import each other as `./x.js` (NodeNext, as tsc needs).
  resolve: { ...defaultConfig.resolve, extensionAlias: { '.js': ['.ts', '.tsx', '.js'] } },
  entry: {
    blocks: './src/blocks.ts',
    'books-chart': './src/books-chart.ts',
    'order-pay': './src/order-pay.ts',
    'order-received': './src/order-received.ts',
  },
  plugins: [
    ...defaultConfig.plugins.filter((plugin) => plugin.constructor.name !== 'DependencyExtractionWebpackPlugin'),
    new WooCommerceDependencyExtractionWebpackPlugin(),
  ],
};

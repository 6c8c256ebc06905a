// `wp-scripts test-unit-js` (jest, jsdom, Babel) for the plugins' browser
// code: @wordpress/scripts' unit-test configuration, limited to the plugins'
// test/js folders (their other tests run on node's test runner against dist/).
const wpScriptsConfig = require('@wordpress/scripts/config/jest-unit.config.js');

module.exports = {
  ...wpScriptsConfig,
  rootDir: __dirname,
  testMatch: ['<rootDir>/plugins/*/test/js/**/*.test.[jt]s?(x)'],
  // The local sites (WordPress, WooCommerce, plugin copies) are not ours to map.
  modulePathIgnorePatterns: ['<rootDir>/.card2crypto/'],
  // uuid and @wordpress/theme (used by @wordpress/components) ship only ES modules, and so do the audited
  // libraries core's browser entry imports (@scure/base, @noble/hashes); Babel makes them CommonJS for jest.
  transform: { '\\.[cm]?[jt]sx?$': wpScriptsConfig.transform['\\.[jt]sx?$'] },
  transformIgnorePatterns: ['^(?!.*/node_modules/(uuid|@wordpress/theme|@scure/base|@noble/hashes)/).*/node_modules/'],
  // toBeInTheDocument(), toHaveTextContent() …, after the preset's own setup.
  setupFilesAfterEnv: ['@testing-library/jest-dom'],
  moduleNameMapper: {
    // The TypeScript sources import each other as `./x.js` (NodeNext, as tsc needs).
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
};

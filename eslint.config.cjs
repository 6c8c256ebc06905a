// `wp-scripts lint-js`: ESLint with the WordPress configuration (its
// recommended set, TypeScript through typescript-eslint, Prettier formatting
// from .prettierrc.json) over the whole repository. Where a WordPress rule
// does not fit this code base it is turned off below, each with its reason.
const path = require('node:path');
const globals = require('globals');
const wpPlugin = require('@wordpress/eslint-plugin');
const { workspaces } = require('./package.json');

module.exports = [
  {
    // Build output, dependencies, generated files and the shared PHP library's copies.
    ignores: [
      '**/build/**',
      '**/dist/**',
      '**/node_modules/**',
      '**/vendor/**',
      'plugins/*/lib/**',
      '.wp-cache/**',
      '.card2crypto/**',
      '**/test-results/**',
      '**/playwright-report/**',
    ],
  },
  ...wpPlugin.configs.recommended,
  ...wpPlugin.configs['test-unit'].map((config) => ({ ...config, files: ['plugins/*/test/js/**/*.{js,jsx,ts,tsx}'] })),
  {
    rules: {
      // Hashing, base64, Bitcoin addresses and ZIP CRCs are bit arithmetic.
      'no-bitwise': 'off',
      // The service's JSON fields are snake_case (shared/spec/service.md); tests and callers name them as sent.
      camelcase: 'off',
      // Prettier puts each branch of a conditional chain on its own line, which reads as a table.
      'no-nested-ternary': 'off',
      // Comments here say why; a @param tag for every argument of every small function would repeat its name (and TypeScript types it).
      'jsdoc/require-param': 'off',
      // The same for @returns: the type says what comes back, and the summary line says what it means.
      'jsdoc/require-returns-description': 'off',
      // Values are often read once at the top of a function for clarity; the rule targets costly calls, which these are not.
      '@wordpress/no-unused-vars-before-return': 'off',
    },
  },
  {
    // Command-line tools, benchmarks, tests and the sandbox server report on the console.
    files: ['scripts/**', '**/scripts/**', '**/bench/**', '**/test/**', 'e2e/**', 'packages/sandbox/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Node programs; benchmarks and end-to-end tests also hand functions to the browser page.
    files: ['**/*.mjs', '**/*.cjs', 'scripts/**', '**/scripts/**', '**/bench/**', '**/test/**', 'e2e/**', 'packages/sandbox/src/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // Pages the sandbox serves to the browser: plain scripts on one document (no React, no editor iframes),
    // importing URLs it serves; its local dashboard confirms with alert().
    files: ['packages/sandbox/assets/**'],
    languageOptions: { globals: globals.browser },
    rules: { 'import/no-unresolved': 'off', 'react-hooks/rules-of-hooks': 'off', '@wordpress/no-global-active-element': 'off', 'no-alert': 'off' },
  },
  // Each workspace may import what its own package.json or the root's lists (npm hoists the root's).
  ...workspaces.map((workspace) => ({
    files: [`${workspace}/**`],
    rules: { 'import/no-extraneous-dependencies': ['error', { packageDir: [__dirname, ...expand(workspace)] }] },
  })),
  {
    files: ['*.{js,cjs,mjs}'],
    rules: { 'import/no-extraneous-dependencies': ['error', { packageDir: [__dirname] }] },
  },
];

/** "plugins/*" -> the plugin folders; other workspace entries are folders already. */
function expand(workspace) {
  if (!workspace.endsWith('/*')) {
    return [path.join(__dirname, workspace)];
  }
  const parent = path.join(__dirname, workspace.slice(0, -2));
  return require('node:fs')
    .readdirSync(parent, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(parent, entry.name));
}

/**
 * The checkout plugin's pure PHP classes (includes/), without WordPress, on
 * every PHP of TEST_PHP_VERSIONS: /plugin is plugins/checkout, and
 * test/php/bootstrap.php loads the shared library under the plugin's
 * namespace (Card2Crypto\Checkout\Shared) as its zip carries it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPhp, type PhpRunner } from '@card2crypto/php/testing';

// The plugin's behaviour tests: the native PHP when present (the range's ends: compat.test.ts).
export { REPO_DIR, SUPPORTED_PHP_VERSIONS, PLUGIN_TEST_PHP_VERSIONS as TEST_PHP_VERSIONS, type CallResult } from '@card2crypto/php/testing';

/** plugins/checkout, from dist/test/support/php.js. */
export const PLUGIN_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export type PluginPhp = PhpRunner;
export const PluginPhp = {
  start: (version: string): Promise<PhpRunner> => startPhp(version, { mounts: { '/plugin': PLUGIN_DIR }, scripts: '/plugin/test/php' }),
};

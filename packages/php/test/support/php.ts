/**
 * The shared library's PHP tests: test/php/<script>, on every PHP of
 * TEST_PHP_VERSIONS, with the library loaded unprefixed (Card2Crypto\Shared) through
 * test/php/bootstrap.php.
 */
import { startPhp, type PhpRunner } from '../../testing/php.js';

export { REPO_DIR, SUPPORTED_PHP_VERSIONS, TEST_PHP_VERSIONS, type CallResult, type PhpRun } from '../../testing/php.js';

export type PhpSandbox = PhpRunner;
export const PhpSandbox = {
  start: (version: string, nativeArgs: string[] = []): Promise<PhpRunner> => startPhp(version, { mounts: {}, scripts: '/php/test/php', nativeArgs }),
};

/**
 * The shared library's PHP tests: test/php/<script>, on every supported
 * PHP, with the library loaded unprefixed (Card2Crypto\Shared) through
 * test/php/bootstrap.php.
 */
import { PhpWasm } from '../../testing/php-wasm.js';

export { REPO_DIR, SUPPORTED_PHP_VERSIONS, type CallResult, type PhpRun } from '../../testing/php-wasm.js';

export type PhpSandbox = PhpWasm;
export const PhpSandbox = {
  start: (version: string): Promise<PhpWasm> => PhpWasm.start(version, { mounts: {}, scripts: '/php/test/php' }),
};

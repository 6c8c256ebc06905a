/**
 * The shared library's PHP tests: test/php/<script>, on every PHP of
 * TEST_PHP_VERSIONS, with the library loaded unprefixed (Card2Crypto\Shared) through
 * test/php/bootstrap.php.
 *
 * A test process runs the suites of one PHP (suites/index.ts), so the runtime
 * is started once per process and shared by its suites: every call is a
 * request of its own (php-wasm) or a process of its own (native), so nothing
 * but the scratch files carries over, and each call writes the ones it reads.
 * Starting php-wasm (about half a second of CPU) per suite was most of the
 * unit tests' time. Suites never stop the runtime: it stops when the
 * process's tests are done.
 */
import { after } from 'node:test';
import { startPhp, type PhpRunner } from '../../testing/php.js';

export { REPO_DIR, SUPPORTED_PHP_VERSIONS, TEST_PHP_VERSIONS, type CallResult, type PhpRun } from '../../testing/php.js';

const started = new Map<string, Promise<PhpRunner>>();

after(async () => {
  for (const runner of started.values()) {
    (await runner.catch(() => null))?.exit();
  }
  started.clear();
});

export type PhpSandbox = PhpRunner;
export const PhpSandbox = {
  start: (version: string, nativeArgs: string[] = []): Promise<PhpRunner> => {
    const key = JSON.stringify([version, nativeArgs]);
    let runner = started.get(key);
    if (!runner) {
      runner = startPhp(version, { mounts: {}, scripts: '/php/test/php', nativeArgs });
      started.set(key, runner);
    }
    return runner;
  },
};

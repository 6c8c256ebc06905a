/**
 * The supported PHP range for a plugin whose behaviour tests run on the native
 * PHP: on php-wasm's oldest and newest supported PHP, every PHP file of the
 * plugin parses and names no built-in function or class that PHP lacks
 * (testing/compat.php). Running every behaviour test on three PHPs cost four
 * times the native run (18 s instead of 3.5 s for the checkout); what differs
 * between PHP versions for this code is syntax and built-ins, which this
 * checks for every file, including the ones no unit test loads: a built-in of
 * the native or newest PHP that one end lacks (added later, or removed) is
 * named with its file and line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nativePhp, startPhp, SUPPORTED_PHP_VERSIONS } from './php.js';

type Builtins = { functions: string[]; classes: string[]; optional: string[] };

/** The built-ins of the newest supported PHP and of the native one: a name either has built in is PHP's, not the plugin's. */
let builtinsOnce: Promise<Builtins> | null = null;
function knownBuiltins(): Promise<Builtins> {
  // Asked once per test file (each start of php-wasm costs seconds), shared by both ends' tests.
  builtinsOnce ??= readBuiltins();
  return builtinsOnce;
}

async function readBuiltins(): Promise<Builtins> {
  const known: Builtins = { functions: [], classes: [], optional: [] };
  for (const version of [SUPPORTED_PHP_VERSIONS[SUPPORTED_PHP_VERSIONS.length - 1]!, ...(nativePhp() ? ['native'] : [])]) {
    const php = await startPhp(version, { mounts: {}, scripts: '/php/testing' });
    try {
      const builtins = await php.runJson<Builtins>('builtins.php');
      known.functions.push(...builtins.functions);
      known.classes.push(...builtins.classes);
      known.optional.push(...builtins.optional);
    } finally {
      php.exit();
    }
  }
  return known;
}

/** WordPress's own polyfills (wp-includes/compat.php, 6.6): callable on any PHP the plugins support. */
const WORDPRESS_POLYFILLS = [
  'str_contains',
  'str_starts_with',
  'str_ends_with',
  'array_is_list',
  'array_key_first',
  'array_key_last',
  'is_countable',
  'is_iterable',
  'mb_substr',
  'mb_strlen',
  'hash_hmac',
  'hash_equals',
];

/** Registers one test per supported PHP version for the plugin at `pluginDir` (mounted at /plugin). */
export function testPhpCompatibility(pluginDir: string, skip: string[] = ['node_modules', 'dist', 'build', 'test']): void {
  for (const version of SUPPORTED_PHP_VERSIONS) {
    test(`PHP ${version}: every PHP file parses and uses only built-ins PHP ${version} has (or WordPress polyfills)`, async () => {
      const builtins = await knownBuiltins();
      const php = await startPhp(version, { mounts: { '/plugin': pluginDir }, scripts: '/php/testing' });
      try {
        const result = await php.runJson<{ files: number; problems: string[] }>('compat.php', {
          // GMP's and BCMath's functions count as present: code calls them only after extension_loaded() (Btc\Bip32).
          'compat.json': JSON.stringify({ root: '/plugin', skip, builtins, polyfills: [...WORDPRESS_POLYFILLS, ...builtins.optional] }),
        });
        assert.ok(result.files > 10, `checked ${result.files} files`);
        assert.deepEqual(result.problems, []);
      } finally {
        php.exit();
      }
    });
  }
}

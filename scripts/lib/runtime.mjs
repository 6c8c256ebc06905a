// Which runtime a harness site runs on:
// - playground: WordPress Playground (PHP as WebAssembly, SQLite), needs nothing but Node;
// - native: Debian's PHP-FPM, nginx and MariaDB, each site with its own processes (scripts/lib/native/).
// CARD2CRYPTO_RUNTIME=native|playground chooses; unset, each caller has its default:
// `npm start` Playground, the tests and benchmarks native when it is installed.
import { detectNative, describeNative } from './native/detect.mjs';

export const RUNTIMES = ['native', 'playground'];

/**
 * @param {{ env?: NodeJS.ProcessEnv, preferred: 'native'|'playground'|'auto' }} options
 *                                                                                       preferred: the caller's default when CARD2CRYPTO_RUNTIME is unset ('auto': native when installed).
 * @return {{ runtime: 'native'|'playground', why: string }}
 */
export function chooseRuntime({ env = process.env, preferred }) {
  const asked = env.CARD2CRYPTO_RUNTIME?.trim() || preferred;
  if (![...RUNTIMES, 'auto'].includes(asked)) {
    throw new Error(`CARD2CRYPTO_RUNTIME=${asked}: expected one of ${RUNTIMES.join(', ')}`);
  }
  const native = detectNative();
  if (asked === 'native') {
    if (!native.available) {
      throw new Error(`CARD2CRYPTO_RUNTIME=native, but the native runtime is not installed (missing: ${native.missing.join(', ')}). Run: npm run setup:native`);
    }
    return { runtime: 'native', why: describeNative(native) };
  }
  if (asked === 'playground') {
    return { runtime: 'playground', why: 'WordPress Playground (PHP as WebAssembly, SQLite)' };
  }
  return native.available
    ? { runtime: 'native', why: describeNative(native) }
    : { runtime: 'playground', why: `the native runtime is not installed (missing: ${native.missing.join(', ')}; npm run setup:native installs it)` };
}

/**
 * The plugin on the supported PHP range's ends (php-wasm): every PHP file
 * parses and uses only built-ins those PHPs have. Its behaviour tests run on
 * the native PHP (support/php.ts).
 */
import { testPhpCompatibility } from '@card2crypto/php/testing/compat';
import { PLUGIN_DIR } from './support/php.js';

testPhpCompatibility(PLUGIN_DIR);

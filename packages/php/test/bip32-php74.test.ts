/** test/support/bip32-suite.ts on PHP 7.4 (php-wasm, BCMath). */
import { bip32Suite } from './support/bip32-suite.js';

bip32Suite('7.4');

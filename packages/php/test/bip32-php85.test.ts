/** test/support/bip32-suite.ts on PHP 8.5 (php-wasm, BCMath). */
import { bip32Suite } from './support/bip32-suite.js';

bip32Suite('8.5');

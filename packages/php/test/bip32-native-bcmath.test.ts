/** test/support/bip32-suite.ts on the native PHP's BCMath backend (beside bip32-native.test.ts). */
import { bip32Suite } from './support/bip32-suite.js';

bip32Suite('native', 'bcmath');

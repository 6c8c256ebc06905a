/**
 * test/support/bip32-suite.ts on the native PHP: its own tests and the GMP
 * backend's, and the native PHP with neither extension. The BCMath backend's
 * run beside it: bip32-native-bcmath.test.ts.
 */
import { bip32Suite, noMathSuite } from './support/bip32-suite.js';

bip32Suite('native', 'gmp');
noMathSuite();

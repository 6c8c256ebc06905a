/** The shared library's PHP suites (suites/index.ts) on PHP 7.4 (php-wasm). */
import { phpSuites } from './suites/index.js';

phpSuites('7.4');

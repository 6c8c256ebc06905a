/** The shared library's PHP suites (suites/index.ts) on PHP 8.5 (php-wasm). */
import { phpSuites } from './suites/index.js';

phpSuites('8.5');

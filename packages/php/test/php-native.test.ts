/** The shared library's PHP suites (suites/index.ts) on the machine's own PHP. */
import { phpSuites } from './suites/index.js';

phpSuites('native');

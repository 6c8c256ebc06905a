/** The WordPress-level suite (test/wordpress/suite.ts) on the oldest supported PHP. */
import { wordpressSuite } from './wordpress/suite.js';

await wordpressSuite({ php: '7.4', port: 9520, defines: {} });

/**
 * The WordPress-level suite (test/wordpress/suite.ts) on the native runtime
 * (PHP-FPM, nginx, MariaDB), with the partner token set in wp-config.php.
 * Skipped, saying why, where the native runtime is not installed.
 */
import { wordpressSuite } from './wordpress/suite.js';

await wordpressSuite({ php: 'native', port: 9525, defines: { CARD2CRYPTO_PARTNER_TOKEN: 'token-from-wp-config' } });

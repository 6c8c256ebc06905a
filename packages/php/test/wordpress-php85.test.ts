/**
 * The WordPress-level suite (test/wordpress/suite.ts) on the newest supported
 * PHP, with the partner token set in "wp-config.php" (a PHP constant).
 */
import { wordpressSuite } from './wordpress/suite.js';

await wordpressSuite({ php: '8.5', port: 9530, defines: { CARD2CRYPTO_PARTNER_TOKEN: 'token-from-wp-config' } });

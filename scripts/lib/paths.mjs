// Where the harness keeps things. One place, so start, zip and the e2e run agree.
import { homedir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Local state (sites, sandbox data); gitignored. CARD2CRYPTO_STATE_DIR moves it (the harness's own tests). */
export const STATE_DIR = process.env.CARD2CRYPTO_STATE_DIR ? resolve(process.env.CARD2CRYPTO_STATE_DIR) : join(ROOT, '.card2crypto');

/** Caches shared by every checkout on this machine (WooCommerce, WordPress). */
export const CACHE_DIR = process.env.CARD2CRYPTO_CACHE_DIR
  ? resolve(process.env.CARD2CRYPTO_CACHE_DIR)
  : join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'card2crypto');

/**
 * The documented cache layout, several versions side by side:
 * wordpress/<version>/ (a WordPress directory) and woocommerce/<version>/ (a
 * WooCommerce plugin folder; a plugin folder directly at woocommerce/ counts too).
 */
export const WORDPRESS_CACHE_DIR = join(CACHE_DIR, 'wordpress');
export const WOOCOMMERCE_CACHE_DIR = join(CACHE_DIR, 'woocommerce');

export const DIST_DIR = join(ROOT, 'dist');

/** The two plugins: workspace directory, slug (= folder inside the zip) and main file. */
export const PLUGINS = [
  { key: 'checkout', dir: join(ROOT, 'plugins', 'checkout'), slug: 'card2crypto-checkout', main: 'card2crypto-checkout.php' },
  { key: 'widget', dir: join(ROOT, 'plugins', 'widget'), slug: 'card2crypto-widget', main: 'card2crypto-widget.php' },
];

export const SANDBOX_BIN = join(ROOT, 'packages', 'sandbox', 'bin', 'card2crypto-sandbox.js');
export const PLAYGROUND_CLI = join(ROOT, 'node_modules', '@wp-playground', 'cli', 'wp-playground.js');

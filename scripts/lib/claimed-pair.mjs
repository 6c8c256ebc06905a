// The newest WordPress and WooCommerce the plugins claim to be tested with
// ("Tested up to" in the checkout's readme.txt, "WC tested up to" in its main
// file), and how a pair the machine has falls short of that claim. The e2e
// runner says so loudly rather than let an older pair pass as "newest".
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareWordPressVersions } from './find-wordpress.mjs';
import { pluginHeaders } from './find-woocommerce.mjs';

const CHECKOUT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'plugins', 'checkout');

/** What the plugins claim to be tested up to: the pair the newest runs must prove. */
export function claimedNewestPair(pluginDir = CHECKOUT) {
  const readme = pluginHeaders(join(pluginDir, 'readme.txt'));
  const header = pluginHeaders(join(pluginDir, 'card2crypto-checkout.php'));
  return { wordpress: readme['Tested up to'], woocommerce: header['WC tested up to'] };
}

/**
 * Why `pair` ({ wordpress, woocommerce } as findWordPress and findWooCommerce
 * give them, or { error }) proves less than `claimed`, a line each; [] when it
 * proves it.
 */
export function shortOfClaim(pair, claimed) {
  if (pair.error) {
    return [pair.error];
  }
  const short = [];
  // WordPress's own order: 7.1.0 meets "7.1"; a 7.1 pre-release does not.
  if (compareWordPressVersions(pair.wordpress.version, claimed.wordpress) < 0) {
    short.push(`WordPress ${pair.wordpress.version} (from ${pair.wordpress.source}) is older than "Tested up to: ${claimed.wordpress}".`);
  }
  if (!pair.woocommerce?.found) {
    short.push(`No WooCommerce: the checkout's specs skip. ${pair.woocommerce?.message ?? ''}`.trim());
  } else if (compareWordPressVersions(pair.woocommerce.version, claimed.woocommerce) < 0) {
    short.push(`WooCommerce ${pair.woocommerce.version} is older than "WC tested up to: ${claimed.woocommerce}".`);
  }
  return short;
}

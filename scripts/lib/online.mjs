// Is wordpress.org reachable? Decides between "latest from the internet" and
// the offline sources (npm build of WordPress, local WooCommerce).

let cached;

/**
 * CARD2CRYPTO_OFFLINE=1 forces offline, CARD2CRYPTO_OFFLINE=0 forces online.
 * Otherwise one HEAD request with a short timeout; the answer is cached.
 */
export async function isOnline({ timeoutMs = 3000 } = {}) {
  const forced = process.env.CARD2CRYPTO_OFFLINE;
  if (forced === '1' || forced === 'true') return false;
  if (forced === '0' || forced === 'false') return true;
  if (cached !== undefined) return cached;
  try {
    const response = await fetch('https://api.wordpress.org/core/version-check/1.7/', {
      method: 'HEAD',
      signal: AbortSignal.timeout(timeoutMs),
    });
    cached = response.status < 500;
  } catch {
    cached = false;
  }
  return cached;
}

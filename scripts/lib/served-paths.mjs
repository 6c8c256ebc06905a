// What a local site's web server never hands out, whichever runs it: dot files
// (Playground's SQLite database is wp-content/database/.ht.sqlite, holding the
// partner secret), logs (debug.log, WooCommerce's and the plugins' logs) and
// database files. nginx says the same in its own words (native/nginx.mjs);
// Playground's server is told through playground-bind.mjs.

/**
 * True when the URL's path must be answered 403. A path that cannot be
 * decoded is refused too: what it names cannot be known.
 * @param {string} url the request's URL (path and query)
 */
export function refusedPath(url) {
  let path;
  try {
    path = decodeURIComponent(new URL(url, 'http://local').pathname);
  } catch {
    return true;
  }
  return /\/\./.test(path) || /\.(log|sql|sqlite)$/i.test(path) || path.startsWith('/wp-content/uploads/wc-logs/');
}

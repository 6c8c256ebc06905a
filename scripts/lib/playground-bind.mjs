// Preloaded into the Playground CLI (node --import), which has no options for
// either of these:
// - Its server listens on every interface. A site with an admin whose password
//   is "password" must not be reachable from the network, so a listen() given
//   only a port binds CARD2CRYPTO_BIND_HOST (127.0.0.1) instead.
// - It serves every file under the site: debug.log, the plugins' logs and the
//   SQLite database (which holds the partner secret). Those are answered 403
//   before its own handler sees them, as nginx does for native sites.
import http from 'node:http';
import net from 'node:net';
import { refusedPath } from './served-paths.mjs';

const host = process.env.CARD2CRYPTO_BIND_HOST;
if (host) {
  const listen = net.Server.prototype.listen;
  net.Server.prototype.listen = function listenOnHost(...args) {
    if (typeof args[0] === 'number' && (args.length === 1 || typeof args[1] === 'function')) {
      args.splice(1, 0, host);
    }
    return listen.apply(this, args);
  };
}

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function refuseUnservable(event, ...args) {
  if (event === 'request') {
    const [request, response] = args;
    if (refusedPath(request.url ?? '/')) {
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Forbidden');
      return true;
    }
  }
  return emit.call(this, event, ...args);
};

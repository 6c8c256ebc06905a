// Preloaded into the Playground CLI (node --import): its server listens on
// every interface and has no option to say otherwise. A site with an admin
// whose password is "password" must not be reachable from the network, so a
// listen() given only a port binds CARD2CRYPTO_BIND_HOST (127.0.0.1) instead.
import net from 'node:net';

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

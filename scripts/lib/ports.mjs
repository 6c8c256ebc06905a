import { createServer } from 'node:net';

/** True when nothing listens on 127.0.0.1:port. */
export function isPortFree(port, host = '127.0.0.1') {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.once('error', () => resolvePort(false));
    server.listen(port, host, () => server.close(() => resolvePort(true)));
  });
}

/**
 * The first free port from `preferred` upwards (at most `span` tries), or an
 * ephemeral one chosen by the OS when preferred is 0.
 */
export async function freePort(preferred = 0, span = 50, exclude = []) {
  if (preferred === 0) {
    return new Promise((resolvePort, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address();
        server.close(() => resolvePort(port));
      });
    });
  }
  for (let port = preferred; port < preferred + span; port++) {
    if (!exclude.includes(port) && (await isPortFree(port))) {
      return port;
    }
  }
  throw new Error(`No free port in ${preferred}-${preferred + span - 1}; pass another with --port`);
}

import type http from 'node:http';
import net from 'node:net';

/**
 * Starts `server` on a port the system chooses on 127.0.0.1 and resolves to it.
 * Fixed ports collide with whatever else the machine runs (another suite, a
 * server left over by an earlier run) and fail a whole suite in its set-up.
 */
export function listenOnFreePort(server: http.Server | net.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

/** A port nothing listens on (just released by the system), for "connection refused" cases. */
export async function closedPort(): Promise<number> {
  const probe = net.createServer();
  const port = await listenOnFreePort(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * A closed-loop HTTP load generator: `connections` keep-alive connections, each
 * sending the next request as soon as the previous answer is read, for
 * `durationMs`. The bodies come from `body()`, which the caller re-signs once a
 * second, so the generator's own cost is the same whatever server it measures.
 */
import http from 'node:http';

export interface LoadResult {
  requests: number;
  perSecond: number;
  non200: number;
  errors: number;
}

export async function load(url: string, body: () => string, connections: number, durationMs: number): Promise<LoadResult> {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let requests = 0;
  let non200 = 0;
  let errors = 0;
  const end = performance.now() + durationMs;
  const one = () =>
    new Promise<void>((resolve) => {
      const payload = body();
      const req = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (res) => {
          if (res.statusCode !== 200) {
            non200++;
          }
          res.on('data', () => {});
          res.on('end', () => {
            requests++;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(payload);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        await one();
      }
    }),
  );
  const elapsed = performance.now() - started;
  agent.destroy();
  return { requests, perSecond: (requests / elapsed) * 1000, non200, errors };
}

/**
 * npm run bench (packages/sandbox):
 * 1. Signed partner-API requests per second on loopback, the sandbox against a
 *    bare Node HTTP server answering a fixed JSON body, same load generator,
 *    same run; prints the ratio (goal: at least 0.5).
 * 2. 100,000 pending callback deliveries under the fast clock: time to schedule
 *    them, time until all are delivered (each first attempt refused, so each
 *    also waits for its retry), peak memory of the sandbox process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { PARTNER_API_PATHS, sign } from '@card2crypto/core';
import { load, type LoadResult } from './load.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CALLBACKS = Number(process.env.BENCH_CALLBACKS ?? 100_000);

interface Server {
  child: ChildProcess;
  baseUrl: string;
  /** CPU time the server process has used so far, microseconds. */
  cpu: () => Promise<number>;
}

/** Starts a server process and resolves once it prints `ready`. */
function startServer(args: string[]): Promise<Server> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    let waiting: ((us: number) => void) | undefined;
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const cpu = /^cpu: (\d+)$/m.exec(out);
      if (cpu && waiting) {
        out = out.replace(cpu[0], '');
        const done = waiting;
        waiting = undefined;
        done(Number(cpu[1]));
      }
      const base = /^base_url: (\S+)$/m.exec(out);
      if (base && /^ready$/m.test(out)) {
        out = '';
        resolve({
          child,
          baseUrl: base[1]!,
          cpu: () =>
            new Promise((done) => {
              waiting = done;
              child.stdin!.write('cpu\n');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}: ${out}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function throughput(): Promise<void> {
  const partner = { token: 'bench', secret: 'bench-secret-0123456789' };
  // One signed body a second (the timestamp window is 5 s behind): signing is not part of what is measured.
  let body = '';
  const resign = () => {
    const request: Record<string, unknown> = { partner_token: partner.token, timestamp: Date.now() };
    request.signature = sign(request, partner.secret, { form: 'general' });
    body = JSON.stringify(request);
  };
  resign();
  const timer = setInterval(resign, 1000);
  const sandbox = await startServer([here('./sandbox-server.js'), partner.token, partner.secret]);
  const bare = await startServer([here('./bare-server.js')]);
  const results: { bare: LoadResult[]; sandbox: LoadResult[] } = { bare: [], sandbox: [] };
  const cpu = { bare: 0, sandbox: 0 };
  const measure = async (which: 'bare' | 'sandbox', server: Server) => {
    const before = await server.cpu();
    const result = await load(server.baseUrl + PARTNER_API_PATHS.params, () => body, CONNECTIONS, SECONDS * 1000);
    cpu[which] += (await server.cpu()) - before;
    results[which].push(result);
  };
  try {
    const path = PARTNER_API_PATHS.params;
    // Warm both up (JIT, connections) before measuring, then alternate so that load from
    // elsewhere on the machine falls on both alike; the median round of each is reported.
    await load(bare.baseUrl + path, () => body, CONNECTIONS, 2000);
    await load(sandbox.baseUrl + path, () => body, CONNECTIONS, 2000);
    for (let round = 0; round < ROUNDS; round++) {
      await measure('bare', bare);
      await measure('sandbox', sandbox);
    }
  } finally {
    clearInterval(timer);
    await Promise.all([stop(sandbox.child), stop(bare.child)]);
  }
  const median = (rs: LoadResult[]) => {
    const sorted = rs.map((r) => r.perSecond).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  const rounds = (rs: LoadResult[]) => rs.map((r) => r.perSecond.toFixed(0)).join(', ');
  const failures = results.sandbox.reduce((s, r) => s + r.non200 + r.errors, 0);
  const ratio = median(results.sandbox) / median(results.bare);
  console.log(
    `partner API throughput (POST ${PARTNER_API_PATHS.params}, ${CONNECTIONS} keep-alive connections, ${ROUNDS} alternating rounds of ${SECONDS} s each, loopback)`,
  );
  console.log(`  bare node http, fixed JSON:      ${median(results.bare).toFixed(0)} req/s (median of ${rounds(results.bare)})`);
  console.log(
    `  sandbox, verified + signed:      ${median(results.sandbox).toFixed(0)} req/s (median of ${rounds(results.sandbox)}; ${failures} non-200 or failed)`,
  );
  console.log(`  ratio sandbox / bare:            ${ratio.toFixed(2)} (goal >= 0.5) ${ratio >= 0.5 ? 'OK' : 'BELOW GOAL'}`);
  const perRequest = (which: 'bare' | 'sandbox') => cpu[which] / results[which].reduce((s, r) => s + r.requests, 0);
  console.log(
    `  server CPU per request:          bare ${perRequest('bare').toFixed(1)} us, sandbox ${perRequest('sandbox').toFixed(1)} us (independent of other load on the machine)`,
  );
  if (failures > 0) {
    process.exitCode = 1;
  }
}

async function callbacks(): Promise<void> {
  // The partners' endpoint: refuses the first delivery of each operation, accepts the retry.
  const seen = new Set<string>();
  let requests = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests++;
      const id = /"id":"([^"]+)"/.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? '';
      const first = !seen.has(id);
      seen.add(id);
      res.writeHead(first ? 503 : 200, { 'content-type': 'text/plain' });
      res.end(first ? 'busy' : 'OK');
    });
  });
  receiver.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
  const speed = 10_000;
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [here('./callbacks-child.js'), url, String(CALLBACKS), '10', String(speed)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`callback benchmark exited with ${code}`))));
  });
  receiver.closeAllConnections();
  receiver.close();
  const r = JSON.parse(output.trim().split('\n').pop()!) as Record<string, number>;
  console.log(`callback delivery (${r.count} callbacks, 10 partners, clock speed ${speed}, first attempt of each refused)`);
  console.log(`  scheduled (operations created, signed callbacks stored): ${(r.scheduledMs! / 1000).toFixed(2)} s, ${r.pendingAfterSchedule} pending`);
  console.log(
    `  all delivered:                                           ${(r.deliveredMs! / 1000).toFixed(2)} s after the start (${r.delivered} delivered, ${r.attempts} attempts, receiver saw ${requests})`,
  );
  console.log(`  CPU time of the sandbox process:                         ${(r.cpuMs! / 1000).toFixed(1)} s`);
  console.log(`  peak memory of the sandbox process:                      ${r.peakRssMb!.toFixed(0)} MB RSS, ${r.peakHeapMb!.toFixed(0)} MB JS heap`);
  if (r.delivered !== r.count) {
    process.exitCode = 1;
  }
}

await throughput();
await callbacks();

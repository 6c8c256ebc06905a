/**
 * Child process of the callback benchmark (its memory is what is measured):
 * schedules COUNT callback deliveries through the real operation path (an
 * operation is created and declined 101, which stores one signed callback),
 * then waits until the dispatcher has delivered all of them to RECEIVER, which
 * refuses each first attempt, so every callback also takes the retry schedule.
 * Prints one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../src/index.js';

const [receiver = '', countText = '100000', partnersText = '10', speedText = '10000'] = process.argv.slice(2);
const count = Number(countText);
const partnerCount = Number(partnersText);
const clockSpeed = Number(speedText);

let peakHeap = 0;
const sampler = setInterval(() => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}, 50);

const dir = mkdtempSync(join(tmpdir(), 'c2c-bench-'));
const partners = Array.from({ length: partnerCount }, (_, i) => ({ token: `bench-${i}`, secret: `bench-secret-${i}`, callbackUrl: receiver }));
const sandbox = await startSandbox({ dataDir: dir, port: 0, partners, clockSpeed, rateLimit: 0, callbackConcurrency: 16 });
const ctx = sandbox.context;
// Count deliveries from the dispatcher's own report (no polling query on the table being written).
let deliveredSeen = 0;
let resolveAll: () => void = () => {};
const allDelivered = new Promise<void>((resolve) => (resolveAll = resolve));
ctx.dispatcher.onAttempt = (callback) => {
  if (callback.state === 'delivered' && ++deliveredSeen === count) {
    resolveAll();
  }
};
const quote = ctx.pricing.quote({ fromCurrency: 'EUR', toCurrency: 'BTC', fromAmount: 10000n });

const t0 = performance.now();
const BATCH = 1000;
for (let done = 0; done < count; done += BATCH) {
  ctx.store.transaction(() => {
    for (let i = done; i < Math.min(count, done + BATCH); i++) {
      const op = ctx.operations.create({
        partnerToken: partners[i % partnerCount]!.token,
        partnerOperationId: `order-${i}`,
        quote,
        toAccount: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
        email: `buyer${i % 1000}@example.com`,
        customerCountry: 'DE',
        calculationId: null,
        sessionId: null,
      });
      ctx.operations.force(op, 101);
    }
  });
}
const scheduledMs = performance.now() - t0;
const pendingAfterSchedule = ctx.store.countCallbacks('pending');

await allDelivered;
const deliveredMs = performance.now() - t0;
const attempts = (ctx.store.db.prepare('SELECT COUNT(*) AS n FROM callback_attempts').get() as { n: number }).n;
const delivered = ctx.store.countCallbacks('delivered');
clearInterval(sampler);
peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
await sandbox.close();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(
  `${JSON.stringify({
    count,
    pendingAfterSchedule,
    delivered,
    attempts,
    scheduledMs,
    deliveredMs,
    cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    peakHeapMb: peakHeap / 1024 / 1024,
  })}\n`,
);

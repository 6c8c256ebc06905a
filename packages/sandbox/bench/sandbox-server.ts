/**
 * The sandbox as the throughput benchmark runs it: exactly what the
 * card2crypto-sandbox bin starts (startSandbox), plus a CPU-time report.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../src/index.js';
import { reportCpuOnRequest } from './report-cpu.js';

const [token = 'bench', secret = 'bench-secret'] = process.argv.slice(2);
const dataDir = mkdtempSync(join(tmpdir(), 'c2c-bench-api-'));
const sandbox = await startSandbox({ dataDir, port: 0, partners: [{ token, secret }], rateLimit: 0 });
reportCpuOnRequest();
process.stdout.write(`base_url: ${sandbox.urls.base_url}\nready\n`);
process.on('SIGTERM', () => {
  void sandbox.close().then(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});

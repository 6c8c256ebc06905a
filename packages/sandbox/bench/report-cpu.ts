/** Lets a benchmark server answer "cpu" on stdin with its CPU time so far (user + system, microseconds). */
import { createInterface } from 'node:readline';

export function reportCpuOnRequest(): void {
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line.trim() !== 'cpu') {
      return;
    }
    const usage = process.cpuUsage();
    process.stdout.write(`cpu: ${usage.user + usage.system}\n`);
  });
}

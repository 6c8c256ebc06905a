/** card2crypto retry-schedule: when an undelivered callback is sent again. */
import { retrySchedule } from '../retry-schedule.js';
import { EXIT_OK, oneOf, parseOptions, type CliIo } from './io.js';

export const RETRY_SCHEDULE_HELP = `Usage: card2crypto retry-schedule [--format table|json]

Prints the service's retry schedule for callbacks that were not answered with
200 OK: 6 attempts 10 s apart, then 70 + 10 * 1.12^(n-4) seconds before
attempt n, capped at 4 hours, at most 120 attempts within 11 days. Attempt 1
is the first delivery (see docs/decisions.md).

Options:
  --format F        table (default) or json
  -h, --help        this help`;

export function retryScheduleCommand(args: string[], io: CliIo): number {
  const { values } = parseOptions(args, { format: { type: 'string' } });
  if (values.help) {
    io.out(`${RETRY_SCHEDULE_HELP}\n`);
    return EXIT_OK;
  }
  const format = oneOf('format', values.format, ['table', 'json'] as const, 'table');
  const rows = retrySchedule();
  if (format === 'json') {
    io.out(`${JSON.stringify(rows, null, 2)}\n`);
    return EXIT_OK;
  }
  const lines = [`${'attempt'.padStart(7)}  ${'delay'.padStart(12)}  ${'since first'.padStart(18)}`];
  for (const row of rows) {
    lines.push(
      `${String(row.attempt).padStart(7)}  ${`${row.delaySeconds.toFixed(3)} s`.padStart(12)}  ${duration(row.sinceFirstMs).padStart(18)}${row.capped ? '  (4 h cap)' : ''}`,
    );
  }
  const last = rows[rows.length - 1];
  if (last !== undefined) {
    lines.push(`${rows.length} attempts over ${duration(last.sinceFirstMs)}`);
  }
  io.out(`${lines.join('\n')}\n`);
  return EXIT_OK;
}

/** 93784123 ms → "1d 02:03:04.123" */
function duration(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  const rest = ms - days * 86_400_000;
  const h = Math.floor(rest / 3_600_000);
  const m = Math.floor((rest % 3_600_000) / 60_000);
  const s = Math.floor((rest % 60_000) / 1000);
  const milli = rest % 1000;
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${days > 0 ? `${days}d ` : ''}${two(h)}:${two(m)}:${two(s)}.${String(milli).padStart(3, '0')}`;
}

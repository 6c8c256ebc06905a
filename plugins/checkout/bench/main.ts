/**
 * npm run bench (plugins/checkout): run.ts (the plugin's own costs), then
 * scale.ts (the checkout at a busy store's scale), each in its own process,
 * each section's time printed; the run exits non-zero when a goal was missed
 * or a section failed, after every section printed its figures.
 *
 *   npm run bench -w plugins/checkout -- --only flood
 *   npm run bench -w plugins/checkout -- --only sizes,latency
 *
 * Sections: run.ts: sizes, ratio, duplicates, shuffled, frontend;
 * scale.ts: growth, polling (with growth's store), servers, latency,
 * reconcile, flood. BENCH_ONLY=... does the same as --only.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const RUN_SECTIONS = ['sizes', 'ratio', 'duplicates', 'shuffled', 'frontend'];
export const SCALE_SECTIONS = ['growth', 'polling', 'servers', 'latency', 'reconcile', 'flood'];

const args = process.argv.slice(2);
const at = args.findIndex((a) => a === '--only' || a.startsWith('--only='));
const only = at < 0 ? process.env.BENCH_ONLY : args[at]!.includes('=') ? args[at]!.split('=')[1] : args[at + 1];
const wanted = only
  ?.split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const unknown = wanted?.filter((name) => !RUN_SECTIONS.includes(name) && !SCALE_SECTIONS.includes(name)) ?? [];
if (unknown.length || (at >= 0 && !wanted?.length)) {
  console.error(`--only: unknown section ${unknown.join(', ') || '(none named)'}; the sections are ${[...RUN_SECTIONS, ...SCALE_SECTIONS].join(', ')}`);
  process.exit(2);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const times: string[] = [];
let failed = false;
for (const [file, sections] of [
  ['run.js', RUN_SECTIONS],
  ['scale.js', SCALE_SECTIONS],
] as const) {
  if (wanted && !wanted.some((name) => (sections as readonly string[]).includes(name))) {
    continue;
  }
  const t0 = performance.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [path.join(here, file)], {
      stdio: 'inherit',
      env: { ...process.env, ...(wanted ? { BENCH_ONLY: wanted.join(',') } : {}) },
    });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  times.push(
    `${file.replace('.js', '.ts')}: ${((performance.now() - t0) / 1000).toFixed(0)} s${code ? ` (exit ${code}: a goal missed or a section failed)` : ''}`,
  );
  failed ||= code !== 0;
}
console.log(`\n== checkout bench: ${times.join('; ')} ==`);
process.exitCode = failed ? 1 : 0;

#!/usr/bin/env node
// `npm run test:e2e`: the end-to-end suite on every WordPress/WooCommerce pair
// this machine has, one Playwright run each, then each run's and each spec
// file's duration.
//
// With the native runtime installed (npm run setup:native):
//   newest  the whole suite on the newest WordPress and WooCommerce in the cache, native;
//   oldest  the @oldest subset (install, a block checkout paid, a callback, the widget on a
//           page) on the oldest pair the plugins claim (WordPress 6.6, WooCommerce 9.8), native;
//   smoke   the `npm start` store (store.spec.ts) on Playground, so the default path never rots.
// Without it: the whole suite on Playground, with a loud banner.
// A pair that is not on the machine is skipped with a loud banner.
//
// E2E_PAIRS=newest,smoke runs some of them; WORDPRESS_DIR, WP_VERSION, WOOCOMMERCE_DIR,
// WC_VERSION or WP_BASE_URL make it one run of the whole suite on what they name.
// Arguments are passed to every Playwright run (a spec file, --grep ...).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findWordPress } from '../scripts/lib/find-wordpress.mjs';
import { findWooCommerce } from '../scripts/lib/find-woocommerce.mjs';
import { chooseRuntime } from '../scripts/lib/runtime.mjs';

const E2E_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = join(E2E_DIR, '..');
const PLAYWRIGHT = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

/** The oldest WordPress and WooCommerce the plugins claim ("Requires at least", "WC requires at least"). */
export const OLDEST_PAIR = { wordpress: '6.6', woocommerce: '9.8' };

function banner(lines) {
  const width = Math.max(...lines.map((l) => l.length)) + 4;
  const bar = '*'.repeat(width);
  console.log(`\n${bar}\n${lines.map((l) => `* ${l.padEnd(width - 4)} *`).join('\n')}\n${bar}\n`);
}

/** The WordPress and WooCommerce a run with `env` would get, or why it cannot run. */
async function pairFor(env) {
  try {
    const wordpress = await findWordPress({ env });
    const woocommerce = await findWooCommerce({ wordpressVersion: wordpress.version, env });
    return { wordpress, woocommerce };
  } catch (error) {
    return { error: error.message };
  }
}

async function plannedRuns() {
  const env = process.env;
  const explicit = ['WORDPRESS_DIR', 'WP_VERSION', 'WOOCOMMERCE_DIR', 'WC_VERSION', 'WP_BASE_URL'].filter((name) => env[name]);
  const { runtime, why } = chooseRuntime({ preferred: 'auto' });
  if (explicit.length) {
    return [{ name: 'custom', label: `the whole suite on ${explicit.map((n) => `${n}=${env[n]}`).join(', ')} (${runtime})`, env: {}, args: [] }];
  }
  if (runtime !== 'native') {
    banner([`*** The native runtime is not installed: the e2e suite runs on WordPress Playground (slow).`, `*** ${why}`]);
    return [{ name: 'playground', label: 'the whole suite on Playground', env: { CARD2CRYPTO_RUNTIME: 'playground', CARD2CRYPTO_E2E_SITE: 'e2e' }, args: [] }];
  }
  const newest = await pairFor(env);
  const oldestEnv = { WP_VERSION: OLDEST_PAIR.wordpress, WC_VERSION: OLDEST_PAIR.woocommerce };
  const oldest = await pairFor({ ...env, ...oldestEnv });
  const runs = [
    {
      name: 'newest',
      label: 'the whole suite, native, newest pair',
      pair: newest,
      env: { CARD2CRYPTO_RUNTIME: 'native', CARD2CRYPTO_E2E_SITE: 'e2e-newest', ...(newest.wordpress ? { WP_VERSION: newest.wordpress.version } : {}) },
      args: [],
    },
    {
      name: 'oldest',
      label: `the @oldest subset, native, WordPress ${OLDEST_PAIR.wordpress} + WooCommerce ${OLDEST_PAIR.woocommerce}`,
      pair: oldest,
      env: { CARD2CRYPTO_RUNTIME: 'native', CARD2CRYPTO_E2E_SITE: 'e2e-oldest', ...oldestEnv },
      args: ['--grep', '@oldest'],
      missing: oldest.error ?? (oldest.woocommerce?.found ? null : oldest.woocommerce?.message),
    },
    {
      name: 'smoke',
      label: 'the npm start store on Playground (store.spec.ts)',
      env: { CARD2CRYPTO_RUNTIME: 'playground', CARD2CRYPTO_E2E_SITE: 'e2e-smoke', CARD2CRYPTO_E2E_MODE: 'smoke', WP_VERSION: '' },
      args: [],
    },
  ];
  const wanted = env.E2E_PAIRS?.split(',').map((s) => s.trim()).filter(Boolean);
  return wanted ? runs.filter((run) => wanted.includes(run.name)) : runs;
}

function runPlaywright(run, extraArgs) {
  return new Promise((resolveRun) => {
    const env = { ...process.env, ...run.env };
    for (const [name, value] of Object.entries(run.env)) if (value === '') delete env[name];
    const child = spawn(process.execPath, [PLAYWRIGHT, 'test', ...run.args, ...extraArgs], { cwd: E2E_DIR, env, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolveRun(code ?? (signal ? 1 : 0)));
  });
}

/** [file, seconds, tests] per spec file from a Playwright JSON report. */
function fileDurations(reportFile) {
  if (!existsSync(reportFile)) return [];
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const files = new Map();
  const walk = (suite, file) => {
    const here = suite.file ?? file;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        for (const result of test.results ?? []) {
          const entry = files.get(here) ?? { ms: 0, tests: 0 };
          entry.ms += result.duration ?? 0;
          entry.tests += 1;
          files.set(here, entry);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file);
  const stats = report.stats ?? {};
  return { files: [...files].sort((a, b) => b[1].ms - a[1].ms), stats };
}

const extraArgs = process.argv.slice(2);
const runs = await plannedRuns();
const results = [];
for (const run of runs) {
  if (run.missing) {
    banner([`*** e2e ${run.name} SKIPPED: ${run.label}`, ...String(run.missing).split('\n').map((l) => `*** ${l}`)]);
    results.push({ run, code: null, seconds: 0 });
    continue;
  }
  const pair = run.pair?.wordpress ? `: WordPress ${run.pair.wordpress.version}${run.pair.woocommerce?.found ? ` + WooCommerce ${run.pair.woocommerce.version}` : ' WITHOUT WooCommerce'}` : '';
  console.log(`\n=== e2e ${run.name}: ${run.label}${pair} ===\n`);
  const started = Date.now();
  const code = await runPlaywright(run, extraArgs);
  const seconds = (Date.now() - started) / 1000;
  const report = fileDurations(join(ROOT, '.card2crypto', `${run.env.CARD2CRYPTO_E2E_SITE ?? process.env.CARD2CRYPTO_E2E_SITE ?? 'e2e'}-run`, 'report.json'));
  results.push({ run, code, seconds, report });
}

console.log('\n=== e2e summary ===');
for (const { run, code, seconds, report } of results) {
  const stats = report?.stats ?? {};
  const counts = code === null ? 'SKIPPED (not on this machine)' : `${stats.expected ?? 0} passed, ${stats.unexpected ?? 0} failed, ${stats.flaky ?? 0} flaky, ${stats.skipped ?? 0} skipped`;
  console.log(`${run.name.padEnd(10)} ${(seconds / 60).toFixed(1).padStart(5)} min  ${code === 0 ? 'ok  ' : code === null ? '    ' : 'FAIL'}  ${counts}`);
}
for (const { run, report } of results) {
  if (!report?.files?.length) continue;
  console.log(`\nspec files of ${run.name} (time in tests, retries included):`);
  for (const [file, { ms, tests }] of report.files) console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${String(tests).padStart(3)} test runs  ${relative(ROOT, join(E2E_DIR, 'specs', file))}`);
}
const failed = results.filter((r) => r.code !== 0 && r.code !== null);
process.exit(failed.length ? 1 : 0);

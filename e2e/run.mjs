#!/usr/bin/env node
// `npm run test:e2e`: the end-to-end suite on every WordPress/WooCommerce pair
// this machine has, one Playwright run each, then each run's and each spec
// file's duration.
//
// With the native runtime installed (npm run setup:native):
//   newest-a, newest-b  the whole suite on the newest WordPress and WooCommerce in the cache,
//                       native, its spec files in two groups, each group on its own site;
//   oldest  the @oldest subset (install, a block checkout paid, a callback, the widget on a
//           page) on the oldest pair the plugins claim (WordPress 6.6, WooCommerce 9.8), native;
//   smoke   the `npm start` store (store.spec.ts) on Playground, so the default path never rots.
// They run in two lanes at once (the specs mostly wait on the browser, the sandbox's
// clock and WordPress, so two sites share two cores well): newest-a; then newest-b,
// oldest and smoke. Each run's output is printed whole when it ends.
// Without the native runtime: the whole suite on Playground, one run, with a loud banner.
// A pair that is not on the machine is skipped with a loud banner.
//
// WordPress and WooCommerce come from the cache, else from wordpress.org
// (downloaded, verified and cached before the runs), else, offline, as a
// line says (scripts/lib/find-wordpress.mjs, find-woocommerce.mjs).
//
// The newest runs must prove what the plugins claim ("Tested up to" in readme.txt, "WC tested up
// to" in the checkout's header): when the newest pair on the machine is older, or lacks
// WooCommerce, a banner says so before the runs and the summary repeats it.
//
// E2E_PAIRS=newest-a,smoke runs some of them; WORDPRESS_DIR, WP_VERSION, WOOCOMMERCE_DIR,
// WC_VERSION or WP_BASE_URL make it one run of the whole suite on what they name.
// Arguments are passed to every Playwright run (a spec file, --grep ...).
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findWordPress } from '../scripts/lib/find-wordpress.mjs';
import { findWooCommerce } from '../scripts/lib/find-woocommerce.mjs';
import { claimedNewestPair, shortOfClaim } from '../scripts/lib/claimed-pair.mjs';
import { diesWithUs } from '../scripts/lib/process.mjs';
import { chooseRuntime } from '../scripts/lib/runtime.mjs';
import { readSpecTimes, recordSpecTimes, slowest, splitLanes } from '../scripts/lib/spec-times.mjs';

const E2E_DIR = dirname(fileURLToPath(import.meta.url));
const ROOT = join(E2E_DIR, '..');
const PLAYWRIGHT = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

/** The oldest WordPress and WooCommerce the plugins claim ("Requires at least", "WC requires at least"). */
export const OLDEST_PAIR = { wordpress: '6.6', woocommerce: '9.8' };

/**
 * Each spec file's seconds from its last run on the newest pair, and the
 * oldest and smoke runs' (lane b carries both): the newest pair's spec files
 * are split between the two lanes from them (scripts/lib/spec-times.mjs),
 * each lane on its own site, its specs one at a time. Each newest-a/newest-b
 * run writes its figures back; commit the file when they change.
 */
const SPEC_TIMES = join(E2E_DIR, 'spec-times.json');
/** The install project runs first on each lane's site: a fixed cost of both lanes, never split. */
const INSTALL_SPEC = 'specs/install-zips.spec.ts';

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
    // Offline, or an older WooCommerce than the newest: one line each, said before the runs.
    for (const line of [wordpress.notice, woocommerce.notice, woocommerce.note]) {
      if (line) {
        console.log(`e2e: ${line}`);
      }
    }
    return { wordpress, woocommerce };
  } catch (error) {
    return { error: error.message };
  }
}

/** specs/<name>.spec.ts of every spec file. */
async function specFiles() {
  const { readdir } = await import('node:fs/promises');
  return (await readdir(join(E2E_DIR, 'specs'))).filter((file) => file.endsWith('.spec.ts')).map((file) => `specs/${file}`);
}

/** Set by plannedRuns(): how the newest pair found falls short of the plugins' claim. */
let newestShortfall = [];
/** Set by plannedRuns() on the native runtime: the newest pair's two groups as split from spec-times.json. */
let lanePlan = null;

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
  const claimed = claimedNewestPair();
  newestShortfall = shortOfClaim(newest, claimed);
  if (newestShortfall.length) {
    banner([
      `*** The newest pair the plugins claim (WordPress ${claimed.wordpress} + WooCommerce ${claimed.woocommerce}) is not on this machine:`,
      ...newestShortfall.map((line) => `*** ${line}`),
      `*** The newest runs prove less than the plugins' headers say (see docs/harness.md, "Which WordPress and WooCommerce").`,
    ]);
  }
  const oldestEnv = { WP_VERSION: OLDEST_PAIR.wordpress, WC_VERSION: OLDEST_PAIR.woocommerce };
  const oldest = await pairFor({ ...env, ...oldestEnv });
  const newestEnv = (site) => ({
    CARD2CRYPTO_RUNTIME: 'native',
    CARD2CRYPTO_E2E_SITE: site,
    ...(newest.wordpress ? { WP_VERSION: newest.wordpress.version } : {}),
  });
  const wanted = env.E2E_PAIRS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const planned = (name) => !wanted || wanted.includes(name);
  // Lane b also carries the oldest pair's run and the smoke run (when they run and their pairs are here).
  const times = readSpecTimes(SPEC_TIMES);
  const laneBFixed =
    (planned('oldest') && !oldest.error && oldest.woocommerce?.found ? (times.runs.oldest ?? 0) : 0) + (planned('smoke') ? (times.runs.smoke ?? 0) : 0);
  const [groupA, groupB] = splitLanes(
    (await specFiles()).filter((file) => file !== INSTALL_SPEC),
    times,
    [0, laneBFixed],
  );
  lanePlan = { a: groupA, b: groupB, laneBFixed };
  const runs = [
    {
      name: 'newest-a',
      lane: 1,
      label: 'the whole suite, group a, native, newest pair',
      pair: newest,
      env: newestEnv('e2e-newest-a'),
      args: groupA.files,
      missing: newest.error,
    },
    {
      name: 'newest-b',
      lane: 2,
      label: 'the whole suite, group b, native, newest pair',
      pair: newest,
      env: newestEnv('e2e-newest-b'),
      // The install project runs first in both.
      args: groupB.files,
      missing: newest.error,
    },
    {
      name: 'oldest',
      lane: 2,
      label: `the @oldest subset, native, WordPress ${OLDEST_PAIR.wordpress} + WooCommerce ${OLDEST_PAIR.woocommerce}`,
      pair: oldest,
      env: { CARD2CRYPTO_RUNTIME: 'native', CARD2CRYPTO_E2E_SITE: 'e2e-oldest', ...oldestEnv },
      args: ['--grep', '@oldest'],
      missing: oldest.error ?? (oldest.woocommerce?.found ? null : oldest.woocommerce?.message),
    },
    {
      name: 'smoke',
      lane: 2,
      label: 'the npm start store on Playground (store.spec.ts)',
      env: { CARD2CRYPTO_RUNTIME: 'playground', CARD2CRYPTO_E2E_SITE: 'e2e-smoke', CARD2CRYPTO_E2E_MODE: 'smoke', WP_VERSION: '' },
      args: [],
    },
  ];
  return runs.filter((run) => planned(run.name));
}

/**
 * Spec files named among the arguments (`npm run test:e2e -- specs/x.spec.ts`)
 * narrow the runs that list their files (the newest pair's two groups:
 * Playwright would take a group's own list and the named file together) to
 * those files, and leave out a group that has none of them. Runs of every
 * spec (oldest, smoke, Playground) get the arguments as they are, as do
 * options (`--grep ...`); pick runs with E2E_PAIRS.
 */
function narrowedRuns(runs, args) {
  const isSpec = (arg) => arg.endsWith('.spec.ts');
  const named = args.filter(isSpec).map((arg) => `specs/${arg.split('/').pop()}`);
  if (!named.length) {
    return runs;
  }
  return runs.flatMap((run) => {
    const files = run.args.filter(isSpec);
    if (!files.length) {
      return [run];
    }
    const kept = files.filter((file) => named.includes(file));
    // Its files decided here; of the arguments only the options follow (Playwright would run every named file).
    return kept.length ? [{ ...run, args: [...run.args.filter((arg) => !isSpec(arg)), ...kept], extraArgs: args.filter((arg) => !isSpec(arg)) }] : [];
  });
}

/** Runs one Playwright run; its output goes to `logFile` and is printed whole when it ends (lanes run at once). */
function runPlaywright(run, extraArgs, logFile) {
  return new Promise((resolveRun) => {
    const env = { ...process.env, ...run.env };
    for (const [name, value] of Object.entries(run.env)) {
      if (value === '') {
        delete env[name];
      }
    }
    mkdirSync(dirname(logFile), { recursive: true });
    const log = createWriteStream(logFile);
    // A Playwright run (and through it its site) ends with this runner, even one killed.
    const [file, argv] = diesWithUs(process.execPath, [PLAYWRIGHT, 'test', ...run.args, ...(run.extraArgs ?? extraArgs)]);
    const child = spawn(file, argv, {
      cwd: E2E_DIR,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('exit', (code, signal) => log.end(() => resolveRun(code ?? (signal ? 1 : 0))));
  });
}

/** [file, seconds, tests] per spec file from a Playwright JSON report. */
function fileDurations(reportFile) {
  if (!existsSync(reportFile)) {
    return [];
  }
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
    for (const child of suite.suites ?? []) {
      walk(child, here);
    }
  };
  for (const suite of report.suites ?? []) {
    walk(suite, suite.file);
  }
  const stats = report.stats ?? {};
  return { files: [...files].sort((a, b) => b[1].ms - a[1].ms), stats };
}

async function execute(run) {
  if (run.missing) {
    banner([
      `*** e2e ${run.name} SKIPPED: ${run.label}`,
      ...String(run.missing)
        .split('\n')
        .map((l) => `*** ${l}`),
    ]);
    return { run, code: null, seconds: 0 };
  }
  const pair = run.pair?.wordpress
    ? `: WordPress ${run.pair.wordpress.version}${run.pair.woocommerce?.found ? ` + WooCommerce ${run.pair.woocommerce.version}` : ' WITHOUT WooCommerce'}`
    : '';
  const site = run.env.CARD2CRYPTO_E2E_SITE ?? process.env.CARD2CRYPTO_E2E_SITE ?? 'e2e';
  const runDir = join(ROOT, '.card2crypto', `${site}-run`);
  const logFile = join(runDir, 'output.log');
  console.log(`=== e2e ${run.name} started: ${run.label}${pair} (output: ${relative(ROOT, logFile)})`);
  const started = Date.now();
  const code = await runPlaywright(run, extraArgs, logFile);
  const seconds = (Date.now() - started) / 1000;
  console.log(`\n=== e2e ${run.name}: ${run.label}${pair}: ${code === 0 ? 'passed' : 'FAILED'} in ${(seconds / 60).toFixed(1)} min ===\n`);
  console.log(readFileSync(logFile, 'utf8'));
  return { run, code, seconds, report: fileDurations(join(runDir, 'report.json')) };
}

const minutes = (seconds) => `${(seconds / 60).toFixed(1)} min`;
const extraArgs = process.argv.slice(2);
const runs = narrowedRuns(await plannedRuns(), extraArgs);
// The admin-pages check of install-zips runs once per pair: with newest-a on the same pair, newest-b's site
// (set up the same way, from the same zips) skips it.
const newestA = runs.find((run) => run.name === 'newest-a' && !run.missing);
for (const run of runs) {
  if (run.name === 'newest-b' && newestA) {
    run.env = { ...run.env, CARD2CRYPTO_E2E_ADMIN_PAGES: 'newest-a' };
  }
}
if (lanePlan && runs.some((run) => run.name.startsWith('newest'))) {
  console.log(
    `e2e lanes from ${relative(ROOT, SPEC_TIMES)}: a ${lanePlan.a.files.length} spec files, about ${minutes(lanePlan.a.seconds)} in tests; ` +
      `b ${lanePlan.b.files.length} spec files${lanePlan.laneBFixed ? ' and the oldest and smoke runs' : ''}, about ${minutes(lanePlan.b.seconds)} ` +
      '(each lane also boots its site and runs install-zips)',
  );
}
const lanes = new Map();
for (const run of runs) {
  lanes.set(run.lane ?? 1, [...(lanes.get(run.lane ?? 1) ?? []), run]);
}
const started = Date.now();
const laneResults = await Promise.all(
  [...lanes.values()].map(async (laneRuns) => {
    const done = [];
    for (const run of laneRuns) {
      done.push(await execute(run));
    }
    return done;
  }),
);
const results = runs.map((run) => laneResults.flat().find((r) => r.run === run));

console.log('\n=== e2e summary ===');
for (const { run, code, seconds, report } of results) {
  const stats = report?.stats ?? {};
  const counts =
    code === null
      ? 'SKIPPED (not on this machine)'
      : `${stats.expected ?? 0} passed, ${stats.unexpected ?? 0} failed, ${stats.flaky ?? 0} flaky, ${stats.skipped ?? 0} skipped`;
  console.log(`${run.name.padEnd(10)} ${(seconds / 60).toFixed(1).padStart(5)} min  ${code === 0 ? 'ok  ' : code === null ? '    ' : 'FAIL'}  ${counts}`);
}
for (const { run, report } of results) {
  if (!report?.files?.length) {
    continue;
  }
  console.log(`\nspec files of ${run.name} (time in tests, retries included):`);
  for (const [file, { ms, tests }] of report.files) {
    console.log(`  ${(ms / 1000).toFixed(1).padStart(7)} s  ${String(tests).padStart(3)} test runs  ${relative(ROOT, join(E2E_DIR, 'specs', file))}`);
  }
}
// The slowest spec files of the newest pair, each lane's total, and the figures written back for the next split.
const newestFiles = results.filter((r) => r.run.name.startsWith('newest')).flatMap((r) => (r.report?.files ?? []).map(([file, { ms }]) => [file, ms / 1000]));
if (newestFiles.length) {
  console.log('\nthe slowest ten spec files (newest pair, seconds in tests):');
  for (const [file, seconds] of slowest(newestFiles)) {
    console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${file}`);
  }
}
console.log('\neach lane (wall time of its runs, one after another):');
for (const [lane, laneRuns] of lanes) {
  const laneDone = results.filter((r) => laneRuns.includes(r.run));
  const seconds = laneDone.reduce((sum, r) => sum + r.seconds, 0);
  console.log(`  lane ${lane}: ${minutes(seconds).padStart(9)}  (${laneDone.map((r) => `${r.run.name} ${minutes(r.seconds)}`).join(', ')})`);
}
// Only full runs of a group or of the other runs write figures (a run narrowed to a few files or tests measures those alone, which is fine
// for its files; --grep or other options change what a file runs, so they write nothing).
const measuredRuns = Object.fromEntries(
  results.filter((r) => ['oldest', 'smoke'].includes(r.run.name) && r.code === 0 && !extraArgs.length).map((r) => [r.run.name, r.seconds]),
);
if (lanePlan && (newestFiles.length || Object.keys(measuredRuns).length) && !extraArgs.some((arg) => !arg.endsWith('.spec.ts'))) {
  const measured = newestFiles.filter(([file]) => `specs/${file}` !== INSTALL_SPEC);
  if (recordSpecTimes(SPEC_TIMES, { specs: measured, runs: measuredRuns, existing: await specFiles() })) {
    console.log(`\n${relative(ROOT, SPEC_TIMES)} now holds this run's figures (commit it: the next split reads them)`);
  }
}
if (newestShortfall.length && results.some((r) => r.run.name.startsWith('newest'))) {
  console.log(`\n*** the newest runs fell short of the plugins' claim: ${newestShortfall.join(' ')}`);
}
console.log(`\ne2e wall time: ${((Date.now() - started) / 60000).toFixed(1)} min (runs in ${lanes.size} lane${lanes.size > 1 ? 's' : ''} at once)`);
const failed = results.filter((r) => r.code !== 0 && r.code !== null);
process.exit(failed.length ? 1 : 0);

#!/usr/bin/env node
// `npm test`: every test, in stages (build, the workspaces' unit tests, the
// end-to-end suite), each stage's time printed as it ends and all of them at
// the end. A failed stage does not stop the later ones (a CI log should say
// everything that is wrong), but fails the run. What failed is printed again
// at the very end, so that the tail of a long CI log names it with its error.
import { spawn } from 'node:child_process';
import { oldNodeLine } from './lib/node-version.mjs';
import { ROOT } from './lib/paths.mjs';

// The build, then the unit tests of the workspaces in two chains that run
// side by side (each chain one stage at a time; each stage's output is printed
// whole when it ends), then the end-to-end suite. The PHP unit tests (php,
// checkout, widget: PHP without WordPress, a goal of under 60 s together) come
// first in one chain; the WordPress-level tests (real stores on the native
// runtime and MariaDB, each file its own site on its own ports) are stages of
// their own, timed and totalled apart: the shared library's and the widget's
// in the chain of the harness's tests (two of those never start at once), the
// checkout's in the other. The stages are CPU-bound on CI's two cores: session
// 16 measured the lint and the PHP unit tests moved beside the WordPress-level
// tests (9.8 min for both chains, against 7.7 min plus the lint's 53 s alone),
// so the lint runs before npm test in CI (.ci/run) and the chains stay so.
const STEPS = [
  [[['build', ['run', 'build']]]],
  [
    [
      ['php', ['run', 'test:unit', '-w', 'packages/php']],
      ['checkout', ['run', 'test:unit', '-w', 'plugins/checkout']],
      ['widget', ['run', 'test:unit', '-w', 'plugins/widget']],
      ['harness', ['run', 'test', '-w', 'e2e']],
      ['wordpress: php', ['run', 'test:wordpress', '-w', 'packages/php']],
      ['wordpress: widget', ['run', 'test:wordpress', '-w', 'plugins/widget']],
    ],
    [
      ["jest (plugins' JS)", ['run', 'test:js']],
      ['core', ['run', 'test', '-w', 'packages/core']],
      ['sandbox', ['run', 'test', '-w', 'packages/sandbox']],
      ['wordpress: checkout', ['run', 'test:wordpress', '-w', 'plugins/checkout']],
    ],
  ],
  [[['end-to-end', ['run', 'test:e2e']]]],
];
const STAGES = STEPS.flat(2);
const PHP_STAGES = ['php', 'checkout', 'widget'];
const WORDPRESS_STAGES = STAGES.map(([name]) => name).filter((name) => name.startsWith('wordpress: '));

/** Lines that explain a failed stage: the "failing tests" sections of node's test runner and jest's "●" blocks. */
function failureReports(text) {
  const lines = text.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const picked = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^✖ failing tests:/.test(line) || /^\s*● /.test(line)) {
      // The section up to the next runner summary or npm's own error lines, at most 80 lines each.
      let end = i + 1;
      while (end < lines.length && end - i < 80 && !/^(npm (error|ERR!)|> |ℹ tests |\s*● |Test Suites:)/.test(lines[end])) {
        end++;
      }
      picked.push(...lines.slice(i, end));
      i = end - 1;
    }
  }
  return picked.length ? picked : lines.filter((l) => /✖|FAIL |Error:/.test(l)).slice(0, 80);
}

/** 42 s, or 3.4 min. */
const duration = (seconds) => (seconds < 120 ? `${seconds.toFixed(0)} s` : `${(seconds / 60).toFixed(1)} min`);

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const oldNode = oldNodeLine();
if (oldNode) {
  console.log(oldNode);
}
const results = [];

/**
 * One stage. Alone in its step, its output streams as it comes; beside another
 * chain, it is kept and printed whole when the stage ends, so two stages'
 * lines never mix.
 */
async function runStage(name, args, stream) {
  const header = `\n##### ${name}: npm ${args.join(' ')}\n`;
  if (stream) {
    console.log(header);
  }
  const started = Date.now();
  const output = [];
  const code = await new Promise((resolveStage) => {
    const child = spawn(npm, args, { cwd: ROOT, stdio: [stream ? 'inherit' : 'ignore', 'pipe', 'pipe'] });
    for (const [from, target] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      from.on('data', (chunk) => {
        if (stream) {
          target.write(chunk);
        }
        output.push(chunk);
      });
    }
    child.on('close', (exitCode, signal) => resolveStage(exitCode ?? (signal ? 1 : 0)));
  });
  const seconds = (Date.now() - started) / 1000;
  const text = Buffer.concat(output).toString('utf8');
  if (!stream) {
    process.stdout.write(`${header}\n${text}`);
  }
  results.push({ name, code, seconds, failures: code === 0 ? [] : failureReports(text) });
  console.log(`\n##### ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${duration(seconds)}`);
  return code;
}

const wallStarted = Date.now();
for (const chains of STEPS) {
  const stream = chains.length === 1;
  const started = Date.now();
  const codes = await Promise.all(
    chains.map(async (chain) => {
      const chainCodes = [];
      for (const [name, args] of chain) {
        chainCodes.push(await runStage(name, args, stream));
      }
      return chainCodes;
    }),
  );
  if (!stream) {
    console.log(`\n##### ${chains.length} chains side by side: ${duration((Date.now() - started) / 1000)} in all`);
  }
  // Without a build nothing later can run meaningfully.
  if (chains[0][0][0] === 'build' && codes[0][0] !== 0) {
    break;
  }
}

console.log('\n##### npm test: stage times');
for (const { name, code, seconds } of results) {
  console.log(`  ${name.padEnd(20)} ${duration(seconds).padStart(8)}  ${code === 0 ? 'passed' : 'FAILED'}`);
}
for (const { name, failures } of results) {
  if (failures.length) {
    console.log(`\n##### what failed in ${name}\n${failures.join('\n')}`);
  }
}
const stageSeconds = (names) => results.filter((r) => names.includes(r.name)).reduce((sum, r) => sum + r.seconds, 0);
console.log(
  `  (the PHP unit tests: ${stageSeconds(PHP_STAGES).toFixed(0)} s, goal 60 s; the WordPress-level tests: ${stageSeconds(WORDPRESS_STAGES).toFixed(0)} s)`,
);
// The stages of a step overlap: the total is the time the whole run took.
const total = (Date.now() - wallStarted) / 1000;
console.log(`  ${'total (wall)'.padEnd(20)} ${duration(total).padStart(8)}`);
process.exit(results.every((r) => r.code === 0) && results.length === STAGES.length ? 0 : 1);

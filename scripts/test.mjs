#!/usr/bin/env node
// `npm test`: every test, in stages (build, the workspaces' unit tests, the
// end-to-end suite), each stage's time printed as it ends and all of them at
// the end. A failed stage does not stop the later ones (a CI log should say
// everything that is wrong), but fails the run.
import { spawn } from 'node:child_process';
import { ROOT } from './lib/paths.mjs';

const STAGES = [
  ['build', ['run', 'build']],
  ['unit tests', ['run', 'test:unit']],
  ['end-to-end', ['run', 'test:e2e']],
];

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const results = [];
for (const [name, args] of STAGES) {
  console.log(`\n##### ${name}: npm ${args.join(' ')}\n`);
  const started = Date.now();
  const code = await new Promise((resolveStage) => {
    const child = spawn(npm, args, { cwd: ROOT, stdio: 'inherit' });
    child.on('exit', (exitCode, signal) => resolveStage(exitCode ?? (signal ? 1 : 0)));
  });
  const seconds = (Date.now() - started) / 1000;
  results.push({ name, code, seconds });
  console.log(`\n##### ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${(seconds / 60).toFixed(1)} min`);
  // Without a build nothing later can run meaningfully.
  if (name === 'build' && code !== 0) {
    break;
  }
}

console.log('\n##### npm test: stage times');
for (const { name, code, seconds } of results) {
  console.log(`  ${name.padEnd(12)} ${(seconds / 60).toFixed(1).padStart(5)} min  ${code === 0 ? 'passed' : 'FAILED'}`);
}
const total = results.reduce((sum, r) => sum + r.seconds, 0);
console.log(`  ${'total'.padEnd(12)} ${(total / 60).toFixed(1).padStart(5)} min`);
process.exit(results.every((r) => r.code === 0) && results.length === STAGES.length ? 0 : 1);

#!/usr/bin/env node
// `npm run setup:native`: installs the native runtime (Debian's PHP-FPM,
// nginx and MariaDB) when it is missing. Installs nothing else and starts no
// system service: every site starts its own processes (scripts/lib/native/).
// As root (or with password-less sudo) it runs apt-get; otherwise it prints
// the exact command to run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { NATIVE_PACKAGES, describeNative, detectNative } from './lib/native/detect.mjs';

const before = detectNative();
if (before.available) {
  console.log(`The native runtime is installed: ${describeNative(before)}.`);
  process.exit(0);
}
console.log(`The native runtime is missing: ${before.missing.join(', ')}.`);
const command = ['apt-get', 'install', '-y', '--no-install-recommends', ...NATIVE_PACKAGES];
if (!existsSync('/usr/bin/apt-get')) {
  console.error(
    `This is not a Debian-like system (no apt-get). Install PHP 8.2+ with PHP-FPM and the extensions ${NATIVE_PACKAGES.filter((p) => p.startsWith('php-')).join(', ')}, nginx and MariaDB 10.6+ with your package manager, then run this again.`,
  );
  process.exit(1);
}

const isRoot = process.getuid?.() === 0;
const sudo = !isRoot && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
if (!isRoot && !sudo) {
  console.error(`Run as root (or give this user password-less sudo), or run yourself:\n\n  sudo apt-get update && sudo ${command.join(' ')}\n`);
  process.exit(1);
}
const run = (args) => {
  const [file, ...rest] = isRoot ? args : ['sudo', '-n', ...args];
  console.log(`$ ${[file, ...rest].join(' ')}`);
  const result = spawnSync(file, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) {
    console.error(`${args.join(' ')} failed (exit ${result.status}).`);
    process.exit(1);
  }
};
run(['apt-get', 'update', '-qq']);
run([...command.slice(0, 3), '-qq', ...command.slice(3)]);
// Debian's packages start system services where an init system runs; the
// harness never uses them (each site runs its own), so leave them as they are.
const after = detectNative({ refresh: true });
if (!after.available) {
  console.error(`Still missing after the install: ${after.missing.join(', ')}.`);
  process.exit(1);
}
console.log(`The native runtime is installed: ${describeNative(after)}.`);

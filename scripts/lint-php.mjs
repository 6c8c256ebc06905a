// `npm run lint:php`: `php -l` (syntax check) over every PHP file of the
// repository that git knows or would add (.gitignore'd build output such as
// plugins/*/lib is a copy of packages/php, checked at its source).
// PHP is taken from $PHP, else `php` on the PATH; without it the check fails
// and says so, rather than passing having checked nothing.
import { execFile, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const php = process.env.PHP || 'php';

const version = spawnSync(php, ['-r', 'echo PHP_VERSION;'], { encoding: 'utf8' });
if (version.error || version.status !== 0) {
  console.error(`lint:php: no PHP found (tried ${process.env.PHP ? `$PHP=${php}` : '`php` on the PATH'}), so no PHP file was checked.`);
  console.error('lint:php: install the PHP command line (Debian: apt-get install php-cli) or set PHP=/path/to/php.');
  process.exit(2);
}

const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', '*.php'], { cwd: root, encoding: 'utf8' });
if (listed.status !== 0) {
  console.error(`lint:php: git ls-files failed: ${listed.stderr.trim()}`);
  process.exit(2);
}
const files = listed.stdout.split('\0').filter(Boolean);

// One `php -l` per file (it checks one at a time), as many at once as there are cores.
const failures = [];
const queue = [...files];
const lint = (file) =>
  new Promise((resolve) =>
    execFile(php, ['-l', '-d', 'display_errors=stderr', file], { cwd: root, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) {
        failures.push(`${file}:\n${(stderr || stdout || error.message).trim()}`);
      }
      resolve();
    }),
  );
await Promise.all(
  Array.from({ length: availableParallelism() }, async () => {
    while (queue.length) {
      await lint(queue.shift());
    }
  }),
);
failures.sort();
for (const failure of failures) {
  console.error(failure);
}
console.log(`lint:php: ${files.length} files checked with PHP ${version.stdout.trim()}, ${failures.length} with syntax errors.`);
process.exit(failures.length ? 1 : 0);

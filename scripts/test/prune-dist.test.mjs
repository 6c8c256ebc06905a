// scripts/prune-dist.mjs, run after each workspace's `tsc -b`: on a real
// directory, the outputs of a source that is gone are removed (its .js,
// .d.ts and maps, and a folder left empty), and nothing else is: not the
// outputs of sources that remain (.ts, .tsx, .mts), not what other tools put
// in dist/ (JSON, the build info), not a source file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { pruneDist, sourceBase } from '../lib/prune-dist.mjs';

const CLI = fileURLToPath(new URL('../prune-dist.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'c2c-prune-'));
after(() => rmSync(work, { recursive: true, force: true }));

function files(dir, relative = '') {
  return readdirSync(join(dir, relative), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(dir, join(relative, e.name)) : [join(relative, e.name)]))
    .sort();
}

function put(dir, names) {
  for (const name of names) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), '');
  }
}

test('the source of each kind of output tsc writes; none for what it does not write', () => {
  assert.equal(sourceBase('test/a.test.js'), 'test/a.test');
  assert.equal(sourceBase('test/a.test.d.ts'), 'test/a.test');
  assert.equal(sourceBase('test/a.test.js.map'), 'test/a.test');
  assert.equal(sourceBase('test/a.test.d.ts.map'), 'test/a.test');
  assert.equal(sourceBase('cli.mjs'), 'cli');
  assert.equal(sourceBase('src/data.json'), null);
  assert.equal(sourceBase('tsconfig.tsbuildinfo'), null);
  assert.equal(sourceBase('src/a.ts'), null);
});

test('a removed source loses its outputs and an emptied folder; everything else stays', () => {
  const pkg = join(work, 'pkg');
  put(pkg, ['test/kept.test.ts', 'src/view.tsx', 'src/cli.mts', 'src/types.ts']);
  const kept = [
    'dist/test/kept.test.js',
    'dist/test/kept.test.js.map',
    'dist/test/kept.test.d.ts',
    'dist/test/kept.test.d.ts.map',
    'dist/src/view.js',
    'dist/src/cli.mjs',
    'dist/src/types.d.ts',
    'dist/src/data.json',
    'dist/tsconfig.tsbuildinfo',
  ];
  const stale = [
    'dist/test/gone.test.js',
    'dist/test/gone.test.js.map',
    'dist/test/gone.test.d.ts',
    'dist/test/gone.test.d.ts.map',
    'dist/test/old/helper.js',
    'dist/src/sha256.js',
  ];
  put(pkg, [...kept, ...stale]);
  const removed = pruneDist(pkg);
  assert.deepEqual(removed.sort(), [...stale].sort());
  assert.deepEqual(files(pkg), [...kept, 'src/cli.mts', 'src/types.ts', 'src/view.tsx', 'test/kept.test.ts'].sort());
  assert.equal(existsSync(join(pkg, 'dist/test/old')), false, 'the emptied folder is gone');
  // Nothing more to do the second time.
  assert.deepEqual(pruneDist(pkg), []);
});

test('the command says what it removed, and is silent when nothing is stale; a package without dist is fine', () => {
  const pkg = join(work, 'cli');
  put(pkg, ['a.ts', 'dist/a.js', 'dist/b.js']);
  const said = execFileSync(process.execPath, [CLI, pkg], { encoding: 'utf8' });
  assert.match(said, /^prune-dist: removed 1 file\(s\) of cli\/dist whose source is gone: dist\/b\.js\n$/);
  assert.equal(execFileSync(process.execPath, [CLI, pkg], { encoding: 'utf8' }), '');
  assert.equal(execFileSync(process.execPath, [CLI, join(work, 'nothing-here')], { encoding: 'utf8' }), '');
});

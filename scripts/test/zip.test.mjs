// The plugin zips: our ZIP writer read back by an independent reader (yauzl,
// and Info-ZIP's unzip when installed), .distignore semantics, and a whole
// plugin folder zipped as WordPress's uploader expects it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readdirSync } from 'node:fs';
import { listShippedFiles, parseDistignore } from '../lib/distignore.mjs';
import { PLUGINS } from '../lib/paths.mjs';
import { buildPluginZip, readmeProblems } from '../lib/plugin-zip.mjs';
import { readZip } from '../lib/unzip.mjs';
import { crc32, createZip } from '../lib/zip.mjs';

const hasUnzip = spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0;
let work;
before(async () => {
  work = await mkdtemp(join(tmpdir(), 'c2c-zip-test-'));
});
after(async () => {
  await rm(work, { recursive: true, force: true });
});

const README = `=== Demo Plugin ===
Contributors: card2crypto
Tags: payments
Requires at least: 6.2
Tested up to: 6.7
Requires PHP: 7.4
Stable tag: 1.2.3
License: GPLv2 or later

Short description of the demo plugin.

== Description ==

Long text.
`;

describe('createZip', () => {
  test('crc32 matches the standard check value', () => {
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  });

  test('round-trips names, directories, empty, text and incompressible files through yauzl', async () => {
    const random = randomBytes(50_000);
    const text = Buffer.from('hello zip\n'.repeat(1000));
    const entries = [
      { name: 'plugin/' },
      { name: 'plugin/empty.txt', data: Buffer.alloc(0) },
      { name: 'plugin/text.txt', data: text },
      { name: 'plugin/random.bin', data: random },
      { name: 'plugin/dossier/é-ü.php', data: Buffer.from('<?php // ünïcode') },
    ];
    const file = join(work, 'roundtrip.zip');
    const zip = createZip(entries);
    assert.ok(zip.length < text.length + random.length, 'text is deflated');
    await writeFile(file, zip);
    const read = await readZip(file);
    assert.deepEqual(
      read.map((e) => e.name),
      entries.map((e) => e.name),
    );
    assert.equal(read[0].isDirectory, true);
    assert.deepEqual(read[1].content, Buffer.alloc(0));
    assert.deepEqual(read[2].content, text);
    assert.deepEqual(read[3].content, random);
    assert.equal(read[4].content.toString(), '<?php // ünïcode');
  });

  test('Info-ZIP unzip accepts the archive', { skip: hasUnzip ? false : 'unzip is not installed' }, async () => {
    const file = join(work, 'infozip.zip');
    await writeFile(file, createZip([{ name: 'a/' }, { name: 'a/b.txt', data: Buffer.from('b'.repeat(5000)) }]));
    const result = spawnSync('unzip', ['-t', file], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /No errors detected/);
  });

  test('refuses unsafe and duplicate names', () => {
    assert.throws(() => createZip([{ name: '../evil.php', data: Buffer.from('x') }]), /Unsafe/);
    assert.throws(() => createZip([{ name: '/abs.php' }]), /Unsafe/);
    assert.throws(() => createZip([{ name: 'a.txt' }, { name: 'a.txt' }]), /Duplicate/);
  });
});

describe('.distignore', () => {
  const excluded = parseDistignore('# comment\n/src\n*.map\nnode_modules\nbuild/cache/\n/tests\n**/fixtures\n');
  const cases = [
    ['src', true, true],
    ['lib/src', true, false],
    ['build/app.js.map', false, true],
    ['build/app.js', false, false],
    ['vendor/node_modules', true, true],
    ['build/cache', true, true],
    ['build/cache', false, false],
    ['tests', true, true],
    ['a/b/fixtures', true, true],
    ['.git', true, true],
    ['readme.txt', false, false],
  ];
  for (const [path, isDirectory, expected] of cases) {
    test(`${path}${isDirectory ? '/' : ''} is ${expected ? 'excluded' : 'shipped'}`, () => {
      assert.equal(excluded(path, isDirectory), expected);
    });
  }
});

describe('buildPluginZip', () => {
  async function fixture(name, { readme = README, version = '1.2.3' } = {}) {
    const dir = join(work, name);
    await mkdir(join(dir, 'src'), { recursive: true });
    await mkdir(join(dir, 'build'), { recursive: true });
    await mkdir(join(dir, 'node_modules', 'dep'), { recursive: true });
    await writeFile(join(dir, 'demo.php'), `<?php\n/**\n * Plugin Name: Demo\n * Version: ${version}\n */\n`);
    if (readme !== null) {
      await writeFile(join(dir, 'readme.txt'), readme);
    }
    await writeFile(join(dir, 'src', 'index.ts'), 'export {};');
    await writeFile(join(dir, 'build', 'index.js'), 'console.log(1);');
    await writeFile(join(dir, 'build', 'index.js.map'), '{}');
    await writeFile(join(dir, 'node_modules', 'dep', 'index.js'), '');
    await writeFile(join(dir, 'package.json'), '{}');
    await writeFile(join(dir, '.distignore'), '/src\n/package.json\n/.distignore\n*.map\n');
    return { dir, slug: 'demo-plugin', main: 'demo.php' };
  }

  test('puts the plugin folder at the zip root and leaves dev files out', async () => {
    const plugin = await fixture('ok');
    const out = join(work, 'dist', 'demo-plugin.zip');
    const result = await buildPluginZip(plugin, out);
    assert.equal(result.version, '1.2.3');
    const names = (await readZip(out)).map((e) => e.name);
    assert.deepEqual(
      names.sort(),
      ['demo-plugin/', 'demo-plugin/build/', 'demo-plugin/build/index.js', 'demo-plugin/demo.php', 'demo-plugin/readme.txt'].sort(),
    );
    assert.deepEqual(
      (await listShippedFiles(plugin.dir)).map((e) => e.path),
      ['build/', 'build/index.js', 'demo.php', 'readme.txt'],
    );
  });

  test('fails clearly without readme.txt', async () => {
    const plugin = await fixture('no-readme', { readme: null });
    await assert.rejects(buildPluginZip(plugin, join(work, 'x.zip')), /readme\.txt is missing/);
  });

  test('fails clearly when the readme is malformed or its stable tag is not the version', async () => {
    const plugin = await fixture('bad-readme', { version: '2.0.0' });
    await assert.rejects(buildPluginZip(plugin, join(work, 'y.zip')), /Stable tag: 1\.2\.3.*Version: 2\.0\.0/s);
    assert.deepEqual(readmeProblems(README, '1.2.3'), []);
    const problems = readmeProblems('Demo\nStable tag: 1\n', '1');
    assert.ok(problems.some((p) => p.includes('=== Plugin Name ===')));
    assert.ok(problems.some((p) => p.includes('Contributors')));
    assert.ok(problems.some((p) => p.includes('Description')));
  });
});

// The zips a store installs, made from the plugins as built (npm test builds first): what WordPress
// needs to run them and translators to translate them, and nothing of the sources.
describe("the plugins' zips", () => {
  for (const plugin of PLUGINS) {
    test(`${plugin.slug}.zip ships its translation template, an asset file for every script, its shared library, and no sources`, async () => {
      const out = join(work, 'dist', `${plugin.slug}.zip`);
      await buildPluginZip(plugin, out);
      const names = new Set((await readZip(out)).map((e) => e.name));
      const want = (name) => assert.ok(names.has(`${plugin.slug}/${name}`), `${plugin.slug}.zip lacks ${name}`);
      want(plugin.main);
      want('readme.txt');
      want('uninstall.php');
      want(`languages/${plugin.slug}.pot`);
      want('lib/settings-schema.php');
      want('lib/shared/Plugin_Bootstrap.php');
      const scripts = readdirSync(join(plugin.dir, 'build')).filter((file) => file.endsWith('.js'));
      assert.ok(scripts.length > 0, `${plugin.key} is built`);
      for (const script of scripts) {
        want(`build/${script}`);
        // WordPress registers every script from its asset file (dependencies, version).
        want(`build/${script.replace(/\.js$/, '.asset.php')}`);
      }
      const dev = [...names].filter((name) => /\/(src|test|node_modules|dist)\/|\.map$|\/package\.json$|\/tsconfig\.json$/.test(name));
      assert.deepEqual(dev, [], 'no sources, tests or build configuration');
    });
  }
});

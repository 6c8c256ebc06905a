/**
 * scripts/prefix.mjs writes the library into a plugin as the plugin ships
 * it: every file under the plugin's namespace, guarded against direct
 * loading (defined( 'ABSPATH' ) || exit; after the namespace and use lines),
 * with the plugin's text domain, and the settings schema beside it as a PHP
 * array that PHP reads back exactly as it would decode core's JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PHP_PACKAGE_DIR, REPO_DIR } from '../testing/php.js';

/** What prefix.mjs reads by default. */
const SCHEMA = path.join(REPO_DIR, 'packages', 'core', 'schema', 'settings.json');

function phpFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? phpFiles(path.join(dir, e.name)) : e.name.endsWith('.php') ? [path.join(dir, e.name)] : [],
  );
}

test('every copied file is in the plugin namespace, guarded against direct loading, with the plugin text domain', (t) => {
  const plugin = mkdtempSync(path.join(tmpdir(), 'c2c-prefix-'));
  try {
    execFileSync(
      process.execPath,
      [
        path.join(PHP_PACKAGE_DIR, 'scripts', 'prefix.mjs'),
        '--plugin-dir',
        plugin,
        '--namespace',
        'Card2Crypto\\Example',
        '--text-domain',
        'card2crypto-example',
        '--schema-plugin',
        'widget',
      ],
      { stdio: 'pipe' },
    );
    const files = phpFiles(path.join(plugin, 'lib', 'shared'));
    assert.equal(files.length, phpFiles(path.join(PHP_PACKAGE_DIR, 'src')).length);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const name = path.relative(plugin, file);
      assert.match(text, /^namespace Card2Crypto\\Example\\Shared(\\[A-Za-z_]+)?;\n(\n?use [^;]+;\n)*\ndefined\( 'ABSPATH' \) \|\| exit;\n\n/m, name);
      assert.equal(text.match(/defined\( 'ABSPATH' \)/g)?.length, 1, name);
      assert.doesNotMatch(text, /Card2Crypto\\{1,2}Shared|'card2crypto-shared'/, name);
    }
    assert.match(readFileSync(path.join(plugin, 'lib', 'shared', 'Settings', 'Settings_Page.php'), 'utf8'), /'card2crypto-example'/);
    // The schema as PHP reads it back is core's JSON as json_decode reads it, key order included.
    const php = spawnSync(
      'php',
      [
        '-r',
        `define('ABSPATH', '/'); echo json_encode(include '${path.join(plugin, 'lib', 'settings-schema.php')}'), "\\n", json_encode(json_decode(file_get_contents('${SCHEMA}'), true));`,
      ],
      {
        encoding: 'utf8',
      },
    );
    if (php.status === null || php.error) {
      t.diagnostic('no native php: the PHP schema file is compared with the JSON in the WordPress suites only');
    } else {
      const [fromPhp, fromJson] = php.stdout.split('\n');
      assert.ok(fromPhp && fromPhp.length > 10_000, php.stderr);
      assert.equal(fromPhp, fromJson);
    }
  } finally {
    rmSync(plugin, { recursive: true, force: true });
  }
});

test("schema-php.mjs alone writes the schema and this plugin's strings, and names a plugin the schema lacks", () => {
  const lib = mkdtempSync(path.join(tmpdir(), 'c2c-schema-php-'));
  const emitter = path.join(PHP_PACKAGE_DIR, 'scripts', 'schema-php.mjs');
  try {
    execFileSync(process.execPath, [emitter, '--lib-dir', lib, '--text-domain', 'card2crypto-checkout'], { stdio: 'pipe' });
    assert.deepEqual(readdirSync(lib).sort(), ['i18n-schema-strings.php', 'settings-schema.php']);
    assert.match(readFileSync(path.join(lib, 'settings-schema.php'), 'utf8'), /^<\?php\n[\s\S]*\nreturn array\(\n/);
    const strings = readFileSync(path.join(lib, 'i18n-schema-strings.php'), 'utf8');
    const checkout = JSON.parse(readFileSync(SCHEMA, 'utf8')).plugins.checkout as { title: string };
    assert.ok(strings.includes(`__( '${checkout.title.replace(/'/g, "\\'")}', 'card2crypto-checkout' );`), strings.slice(0, 600));
    const refused = spawnSync(process.execPath, [emitter, '--lib-dir', lib, '--text-domain', 'card2crypto-example'], { encoding: 'utf8' });
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /^schema-php: --schema-plugin: the settings schema has no plugin "example" \(it has checkout, widget\)/);
  } finally {
    rmSync(lib, { recursive: true, force: true });
  }
});

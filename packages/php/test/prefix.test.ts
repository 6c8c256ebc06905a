/**
 * scripts/prefix.mjs writes the library into a plugin as the plugin ships
 * it: every file under the plugin's namespace, guarded against direct
 * loading (defined( 'ABSPATH' ) || exit; after the namespace and use lines),
 * with the plugin's text domain, and the settings schema beside it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PHP_PACKAGE_DIR } from '../testing/php.js';

function phpFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? phpFiles(path.join(dir, e.name)) : e.name.endsWith('.php') ? [path.join(dir, e.name)] : [],
  );
}

test('every copied file is in the plugin namespace, guarded against direct loading, with the plugin text domain', () => {
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
    assert.ok(JSON.parse(readFileSync(path.join(plugin, 'lib', 'settings-schema.json'), 'utf8')).plugins.widget);
  } finally {
    rmSync(plugin, { recursive: true, force: true });
  }
});

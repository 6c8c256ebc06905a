/**
 * The test runtimes import one another without a loop: php.ts (the entry
 * point and the native PHP) and php-wasm.ts (PHP in WebAssembly) both build
 * on runner.ts, and runner.ts on neither.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PHP_PACKAGE_DIR } from '../testing/php.js';

test('the modules of testing/ import one another without a loop', () => {
  const dir = path.join(PHP_PACKAGE_DIR, 'testing');
  const modules = readdirSync(dir).filter((name) => name.endsWith('.ts'));
  const imports = new Map(
    modules.map((name) => {
      const source = readFileSync(path.join(dir, name), 'utf8');
      // Static and dynamic imports alike: import … from './x.js', import('./x.js').
      const local = [...source.matchAll(/(?:from\s+|import\(\s*)'\.\/([\w-]+)\.js'/g)].map((m) => `${m[1]}.ts`);
      return [name, local];
    }),
  );
  assert.deepEqual(imports.get('runner.ts'), [], 'runner.ts imports no other module of testing/');
  assert.ok(imports.get('php-wasm.ts')?.includes('runner.ts') && !imports.get('php-wasm.ts')?.includes('php.ts'));
  // Depth-first: a module met again on its own path is a loop.
  const visit = (name: string, trail: string[]): void => {
    assert.ok(!trail.includes(name), `an import loop: ${[...trail, name].join(' -> ')}`);
    for (const next of imports.get(name) ?? []) {
      visit(next, [...trail, name]);
    }
  };
  for (const name of modules) {
    visit(name, []);
  }
});

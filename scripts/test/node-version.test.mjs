// The supported Node (package.json "engines", .nvmrc) and the one line an
// older one gets (scripts/check-node.mjs: npm install's preinstall, npm start, npm test).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { oldNodeLine, supportedNode } from '../lib/node-version.mjs';
import { ROOT } from '../lib/paths.mjs';

describe('the supported Node', () => {
  test('package.json and .nvmrc agree: Node 24, the LTS, from 24.18 (what @php-wasm asks)', () => {
    assert.deepEqual(supportedNode(), [24, 18, 0]);
    assert.equal(readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim(), '24');
  });

  test('an older Node gets one line naming both versions and the fix; a newer one nothing', () => {
    const line = oldNodeLine('20.20.2', [24, 18, 0]);
    assert.equal(line.split('\n').length, 1);
    assert.match(line, /needs Node 24\.18 or newer \(Node 24, the LTS: \.nvmrc\), this is Node 20\.20\.2: .*EBADENGINE.*"nvm install" in this folder/);
    assert.match(oldNodeLine('24.17.9', [24, 18, 0]), /this is Node 24\.17\.9/);
    for (const version of ['24.18.0', '24.21.0', 'v25.0.0', '26.10.1']) {
      assert.equal(oldNodeLine(version, [24, 18, 0]), null, version);
    }
  });

  test('scripts/check-node.mjs says it on this Node when it is older, and never fails', () => {
    const run = spawnSync(process.execPath, [fileURLToPath(new URL('../check-node.mjs', import.meta.url))], { encoding: 'utf8' });
    assert.equal(run.status, 0);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr.trim(), oldNodeLine() ?? '');
  });
});

// The supported Node (package.json "engines", .nvmrc) and the one line an
// older one gets (scripts/check-node.mjs: npm install's preinstall, npm start, npm test);
// npm start stops there. An older Node is played by this one: node's own --import
// runs a module first that makes process.versions.node say so.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

const OLD = '20.20.2';
const AS_OLD_NODE = `data:text/javascript,Object.defineProperty(process.versions, 'node', { value: '${OLD}' });`;

/** `node [--import AS_OLD_NODE] script args` with the store's state in a folder of its own, the network off. */
function runAs(version, script, args = []) {
  const stateDir = mkdtempSync(join(tmpdir(), 'c2c-old-node-'));
  try {
    const run = spawnSync(process.execPath, [...(version === OLD ? ['--import', AS_OLD_NODE] : []), fileURLToPath(new URL(script, import.meta.url)), ...args], {
      encoding: 'utf8',
      env: { ...process.env, CARD2CRYPTO_STATE_DIR: join(stateDir, 'state'), CARD2CRYPTO_OFFLINE: '1', CARD2CRYPTO_RUNTIME: 'playground' },
      timeout: 30_000,
    });
    return { ...run, touched: existsSync(join(stateDir, 'state')) };
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

describe('npm start on a Node older than the supported one', () => {
  const line = oldNodeLine(OLD);

  test('scripts/start.mjs prints the one line and stops (exit 1) before reading options or touching a site', () => {
    const run = runAs(OLD, '../start.mjs', ['--port', '9400']);
    assert.equal(run.status, 1, run.stderr);
    assert.equal(run.stderr.trim(), line);
    assert.equal(run.stdout, '', 'nothing started, not even the "Starting" line');
    assert.equal(run.touched, false, 'no site folder made');
  });

  test('scripts/check-node.mjs --refuse (what npm start runs before building) stops too; without it never fails', () => {
    const refused = runAs(OLD, '../check-node.mjs', ['--refuse']);
    assert.equal(refused.status, 1);
    assert.equal(refused.stderr.trim(), line);
    const warned = runAs(OLD, '../check-node.mjs');
    assert.equal(warned.status, 0);
    assert.equal(warned.stderr.trim(), line);
    const current = runAs(process.versions.node, '../check-node.mjs', ['--refuse']);
    assert.equal(current.status, oldNodeLine() ? 1 : 0);
  });

  test('npm start checks the Node before it builds or starts anything', () => {
    const start = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start;
    assert.match(start, /^node scripts\/check-node\.mjs --refuse && npm run build && node scripts\/start\.mjs$/);
  });
});

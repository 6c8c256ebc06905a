// `npm start` run twice in the same folder, and a record left by a run that
// crashed (scripts/lib/site-lock.mjs through scripts/start.mjs); which
// runtime `npm start` takes by default. Nothing is booted: the second start
// stops at the record of the first.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { detectNative } from '../lib/native/detect.mjs';
import { AlreadyRunningError, lockSite } from '../lib/site-lock.mjs';

const START = fileURLToPath(new URL('../start.mjs', import.meta.url));
const LOCK = new URL('../lib/site-lock.mjs', import.meta.url).href;

let stateDir;
before(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'c2c-state-'));
});
after(() => rm(stateDir, { recursive: true, force: true }));

/** A process holding the site `name`'s record, as a running `npm start` does; resolves once it holds it. */
async function holder(name, storeUrl) {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { lockSite } from ${JSON.stringify(LOCK)};
       const lock = await lockSite(${JSON.stringify(join(stateDir, name))}, { what: 'npm start' });
       await lock.update({ storeUrl: ${JSON.stringify(storeUrl)} });
       console.log('locked');
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await once(child.stdout, 'data');
  return child;
}

/** `node scripts/start.mjs args` with the state under the test's folder, the network off; its output and exit code. */
async function start(args, env = {}) {
  const child = spawn(process.execPath, [START, ...args], {
    env: { ...process.env, CARD2CRYPTO_STATE_DIR: stateDir, CARD2CRYPTO_OFFLINE: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const [code] = await once(child, 'exit');
  return { code, out };
}

describe('a second npm start in the same folder', () => {
  test('is told that a store runs from this folder, its address and process id, and how to stop it', async () => {
    const first = await holder('store', 'http://127.0.0.1:9400');
    try {
      const started = Date.now();
      const { code, out } = await start([], { CARD2CRYPTO_RUNTIME: 'playground' });
      assert.equal(code, 1, out);
      assert.match(
        out,
        new RegExp(
          `Could not start the store: a store is already running from this folder: http://127\\.0\\.0\\.1:9400/ \\(npm start, process ${first.pid}, since \\d\\d:\\d\\d\\)\\. Use that one, or stop it first \\(Ctrl-C where it runs, or kill ${first.pid}\\)\\.`,
        ),
      );
      assert.doesNotMatch(out, /MariaDB|exited/);
      assert.ok(Date.now() - started < 20_000);
      // The running one's record is untouched.
      assert.equal(JSON.parse(readFileSync(join(stateDir, 'store.owner.json'), 'utf8')).pid, first.pid);
    } finally {
      first.kill('SIGKILL');
      await once(first, 'exit');
    }
  });

  test("a crashed run's record is cleared, and said so", async () => {
    const crashed = await holder('crashed', 'http://127.0.0.1:9401');
    crashed.kill('SIGKILL');
    await once(crashed, 'exit');
    await mkdir(join(stateDir, 'crashed'), { recursive: true });
    await writeFile(join(stateDir, 'crashed', 'running.json'), '{}');
    const said = [];
    const lock = await lockSite(join(stateDir, 'crashed'), { what: 'npm start', log: (line) => said.push(line) });
    assert.deepEqual(said, [`Cleared the record of a run that did not stop cleanly (process ${crashed.pid}, gone): ${join(stateDir, 'crashed.owner.json')}`]);
    assert.ok(!existsSync(join(stateDir, 'crashed', 'running.json')), "the crashed run's running.json is gone too");
    assert.equal(JSON.parse(readFileSync(join(stateDir, 'crashed.owner.json'), 'utf8')).pid, process.pid);
    // Held now: a second taker in this process is refused; released, it is free.
    await assert.rejects(lockSite(join(stateDir, 'crashed'), { what: 'x' }), AlreadyRunningError);
    await lock.release();
    await (await lockSite(join(stateDir, 'crashed'), { what: 'x' })).release();
  });
});

describe('the runtime npm start takes', () => {
  test('native when npm run setup:native installed it, else Playground; CARD2CRYPTO_RUNTIME chooses', async () => {
    const native = detectNative().available;
    // Both sites held, so that start stops right after saying which runtime it takes.
    const held = [await holder('store', 'http://127.0.0.1:9400'), await holder('store-native', 'http://127.0.0.1:9400')];
    try {
      const chosen = await start([], { CARD2CRYPTO_RUNTIME: '' });
      assert.match(
        chosen.out,
        native ? /^Starting the card2crypto local store on the native runtime/m : /^Starting the card2crypto local store on WordPress Playground/m,
      );
      const playground = await start([], { CARD2CRYPTO_RUNTIME: 'playground' });
      assert.match(playground.out, /^Starting the card2crypto local store on WordPress Playground/m);
    } finally {
      for (const child of held) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    }
  });

  test('--help names --offline and the runtime default', async () => {
    const { code, out } = await start(['--help']);
    assert.equal(code, 0);
    assert.match(out, /--offline +do not ask wordpress\.org/);
    assert.match(out, /CARD2CRYPTO_RUNTIME=native\|playground \(default: native when npm run setup:native/);
  });
});

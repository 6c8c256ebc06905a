/**
 * --latency and --latency-jitter (issue 26, point 3): every partner API
 * answer, refusals included, waits as from a service far away, in real time
 * (never the sandbox clock), over real HTTP; a bad value is refused before
 * anything starts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from '../src/index.js';
import { callApi, startTestSandbox, tempDir, OTHER, type TestSandbox } from './helpers.js';

async function timed<T>(call: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await call();
  return { value, ms: performance.now() - started };
}

describe('latency', () => {
  let near: TestSandbox;
  let far: TestSandbox;
  let jittery: TestSandbox;
  before(async () => {
    [near, far, jittery] = await Promise.all([
      startTestSandbox(),
      // The clock runs fast: the wait is real time all the same.
      startTestSandbox({ latencyMs: 300, clockSpeed: 50 }),
      startTestSandbox({ latencyMs: 100, latencyJitterMs: 200 }),
    ]);
  });
  after(async () => {
    await Promise.all([near?.dispose(), far?.dispose(), jittery?.dispose()]);
  });

  it('every answer waits the latency: a 200 and a refusal alike; none without it', async () => {
    // Without latency: the fastest of three (a busy machine may slow one) is well under the latency.
    const bases: number[] = [];
    for (let i = 0; i < 3; i++) {
      const base = await timed(() => callApi(near, '/api/partner/params'));
      assert.equal(base.value.status, 200);
      bases.push(base.ms);
    }
    assert.ok(Math.min(...bases) < 250, `no latency: ${bases.map((b) => b.toFixed(0)).join(', ')} ms`);
    const ok = await timed(() => callApi(far, '/api/partner/params'));
    assert.equal(ok.value.status, 200);
    assert.ok(ok.ms >= 295 && ok.ms < 1500, `300 ms latency: ${ok.ms.toFixed(0)} ms`);
    const refused = await timed(() => callApi(far, '/api/partner/params', {}, { token: OTHER.token, secret: 'wrong-secret' }));
    assert.equal(refused.value.status, 401);
    assert.ok(refused.ms >= 295, `a refusal waits too: ${refused.ms.toFixed(0)} ms`);
  });

  it('the jitter draws a new wait for each answer, between the latency and latency + jitter', async () => {
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const { value, ms } = await timed(() => callApi(jittery, '/api/partner/params'));
      assert.equal(value.status, 200);
      waits.push(ms);
    }
    for (const ms of waits) {
      assert.ok(ms >= 95 && ms < 1300, `between 100 and 300 ms (plus the request): ${ms.toFixed(0)} ms`);
    }
    assert.ok(Math.max(...waits) - Math.min(...waits) > 20, `the waits differ: ${waits.map((w) => w.toFixed(0)).join(', ')}`);
  });

  it('a latency that is not a number of milliseconds is refused before anything starts', async () => {
    const dir = tempDir();
    try {
      await assert.rejects(startSandbox({ dataDir: dir.path, latencyMs: -1 }), /latencyMs must be a number of milliseconds >= 0, got -1/);
      await assert.rejects(startSandbox({ dataDir: dir.path, latencyJitterMs: Number.NaN }), /latencyJitterMs must be a number of milliseconds >= 0/);
    } finally {
      dir.remove();
    }
  });
});

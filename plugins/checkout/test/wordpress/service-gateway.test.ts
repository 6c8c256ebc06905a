/**
 * One door to the service (issue 33, point 1) in a real store: WordPress,
 * WooCommerce, our plugins and the sandbox on the native runtime (PHP-FPM,
 * nginx, MariaDB); the sandbox limits the partner to 20 requests a second,
 * the store's own budget is its default, 10.
 *
 * - Six PHP workers asking at once share one store-wide bucket in the
 *   database: the sandbox never refuses one of their requests (no 429), and
 *   each is answered within a second, sent or kept back.
 * - A 429 of the service (other traffic spent the partner's rate) pauses the
 *   whole store for its Retry-After: no other request of any lane, in any
 *   worker, reaches the service meanwhile.
 * - With the bucket empty a buyer is told "try again in a minute" within a
 *   second, and nothing is sent; with a few tokens short, the buyer waits
 *   for them (under a second) and gets the rate.
 * - Background work yields to buyers: it takes no token while the bucket
 *   holds less than its reserve, and never waits.
 * - Eight client addresses (through the trusted proxy header) following
 *   their orders' landing links at once, ten times each: every one is
 *   answered (a landing page or "try again"), and the sandbox refuses none
 *   of the store's requests. (Four PHP-FPM workers on this machine do not
 *   reach the sandbox's 20 a second this way even without the bucket: this
 *   one guards the whole path; the floods that did are the bench's.)
 *
 * Time moves by writing the bucket, never by waiting, except for the
 * sandbox's own bucket (real time). Run alone (it starts a store):
 * `node --test dist/test/wordpress/service-gateway.test.js`. Skipped where
 * the native runtime is missing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { phpStep, serviceRate, storeStep } from '../support/reconcile-store.js';
import { REPO_DIR } from '../support/php.js';
import { needsNative, startTestStore, type TestStore } from '../support/test-store.js';

const STEPS = path.join(REPO_DIR, 'plugins', 'checkout', 'test', 'support', 'gateway-steps.php');
const WORK = mkdtempSync(path.join(os.tmpdir(), 'c2c-gateway-'));
/** The harness's CLI run of WordPress (native.runPhp() keeps one options file: one run at a time). */
const { wpSetup } = (await import(pathToFileURL(path.join(REPO_DIR, 'scripts', 'lib', 'native', 'site.mjs')).href)) as {
  wpSetup: (step: string, siteDir: string, options: object, dirs: { runDir: string; logDir: string }) => Promise<unknown>;
};
let runs = 0;
const TRY_AGAIN = /Payment_Refused: Card payment could not be prepared\. Please try again in a minute\.$/;

type Sent = [string, number];
interface Flood {
  sent: Sent[];
  other: number[];
}

describe('one door to the service in a real store', { skip: needsNative, timeout: 10 * 60_000 }, () => {
  let s: TestStore;
  const step = <T>(action: string, input: Record<string, unknown> = {}) => phpStep<T>(s, STEPS, action, input);
  const flood = async (input: Record<string, unknown>) => (await step<Flood>('flood', input)).sent;
  /** A flood in a PHP process of its own, beside others at the same time (a worker of its own each). */
  async function worker(input: Record<string, unknown>): Promise<Sent[]> {
    const dir = mkdtempSync(path.join(WORK, `worker-${++runs}-`));
    const out = path.join(dir, 'out.json');
    const script = path.join(dir, 'step.php');
    writeFileSync(
      script,
      `<?php\n$c2c_step = json_decode(${JSON.stringify(JSON.stringify({ action: 'flood', input, out }))}, true);\nrequire ${JSON.stringify(STEPS)};\n`,
    );
    await wpSetup('setup', s.dirs.siteDir, { url: s.storeUrl, activate: [], run: [script], seed: null, path: '/' }, { runDir: dir, logDir: s.dirs.logDir });
    const result = JSON.parse(readFileSync(out, 'utf8')) as { value?: Flood; error?: string };
    assert.equal(result.error, undefined, result.error);
    return result.value!.sent;
  }
  /** The sandbox's own bucket (20, refilling 20 a second, real time) full again. */
  const sandboxRested = () => new Promise((resolve) => setTimeout(resolve, 1100));

  before(async () => {
    s = await startTestStore({ name: 'test-gateway', port: 9901, sandboxPort: 9951 });
    // The partner's limit is 20; the store keeps to its default, 10 a second (the setting not set).
    await storeStep(s, 'settings', { service_rate: '' });
  });
  after(() => s?.stop());

  test('six workers flooding at once: one bucket for all, no 429 at the sandbox, each answered within a second', async () => {
    await step('set_bucket', { tokens: 10 });
    await sandboxRested();
    const before_ = await serviceRate(s);
    const startAt = Date.now() + 2500; // Every worker's PHP has booted by then.
    const floods = await Promise.all(['paying', 'paying', 'start', 'start', 'admin', 'info'].map((lane) => worker({ lane, count: 12, start_at: startAt })));
    const after_ = await serviceRate(s);
    const all = floods.flat();
    const sent = all.filter(([what]) => what === 'ok').length;
    assert.equal(after_.limited - before_.limited, 0, `no request refused by the sandbox: ${JSON.stringify(floods)}`);
    assert.equal(all.filter(([what]) => what === '429').length, 0);
    assert.equal((after_.calls.params ?? 0) - (before_.calls.params ?? 0), sent, 'what the store says it sent is what the sandbox received');
    assert.deepEqual(
      all.filter(([what]) => what !== 'ok' && what !== 'kept'),
      [],
      'sent or kept back, nothing else',
    );
    // 72 asked at once: the bucket's 10 and 10 a second while the workers waited (under a second each), not 72.
    assert.ok(sent >= 10 && sent <= 35, `${sent} sent`);
    assert.ok(all.filter(([what]) => what === 'kept').length >= 30, 'most kept back');
    assert.ok(Math.max(...all.map(([, ms]) => ms)) < 1000, `each answered within a second: ${Math.max(...all.map(([, ms]) => ms))} ms`);
    assert.ok(after_.peak_per_second <= 20, `peak ${after_.peak_per_second} a second`);
  });

  test('a 429 with Retry-After pauses every request of the store, in every lane, until it has passed', async () => {
    await step('set_bucket', { tokens: 10 });
    await sandboxRested();
    const before_ = await serviceRate(s);
    // Other traffic of the same partner has spent its rate at the sandbox (for a second, told by its
    // dashboard rather than raced against its refill of one token each 50 ms); then the store asks in every lane.
    const spent = await step<Flood>('flood', { lanes: ['paying', 'paying', 'start', 'admin', 'info', 'background'], spent_ms: 1000, sandbox: s.sandbox!.url });
    assert.deepEqual(
      spent.sent.map(([what]) => what),
      ['429', 'kept', 'kept', 'kept', 'kept', 'kept'],
      'the service said 429 once; the store asks no more, whatever the lane',
    );
    assert.ok(Math.max(...spent.sent.map(([, ms]) => ms)) < 1000, 'no one waits out the pause');
    const during = await serviceRate(s);
    assert.equal(
      (during.calls.params ?? 0) - (before_.calls.params ?? 0),
      spent.other.length + 1,
      'one request of the store reached the service: the refused one',
    );
    // The pause is the store's, in the database every worker reads.
    const bucket = await step<{ row: { at: number; paused_until: number; tokens: number } }>('bucket');
    assert.ok(bucket.row.paused_until - bucket.row.at >= 1000, `paused for the Retry-After (1 s): ${JSON.stringify(bucket.row)}`);
    assert.equal(bucket.row.tokens, 0, 'and the bucket emptied');
    // A worker finding the store paused (time moved back by a fresh pause) sends nothing either.
    await step('set_bucket', { tokens: 10, paused_ms: 60_000 });
    const others = await Promise.all(['paying', 'start'].map((lane) => worker({ lane, count: 2 })));
    assert.deepEqual(
      others.flat().map(([what]) => what),
      Array(4).fill('kept'),
    );
    assert.equal(((await serviceRate(s)).calls.params ?? 0) - (during.calls.params ?? 0), 0);
    // The pause over (time moved on) and the sandbox rested: the store asks again.
    await step('set_bucket', { tokens: 10 });
    await sandboxRested();
    assert.deepEqual(
      (await flood({ lane: 'info', count: 2 })).map(([what]) => what),
      ['ok', 'ok'],
    );
  });

  test('an empty bucket answers a buyer within a second ("try again in a minute"), sending nothing; a few tokens short, the buyer waits for them', async () => {
    await sandboxRested();
    const before_ = await serviceRate(s);
    const told = await step<{ error?: string; rate?: boolean; ms: number }>('fixed_rate', { tokens: 0, paused_ms: 60_000 });
    assert.match(told.error ?? '', TRY_AGAIN);
    assert.ok(told.ms < 1000, `told in ${told.ms} ms`);
    assert.equal((await serviceRate(s)).calls.calculate ?? 0, before_.calls.calculate ?? 0, 'nothing sent');
    // Empty but not paused: a starting buyer needs 2.8 tokens at 10 a second, 280 ms away, and waits for them.
    const waited = await step<{ error?: string; rate?: boolean; ms: number }>('fixed_rate', { tokens: 0 });
    assert.equal(waited.error, undefined, waited.error);
    assert.equal(waited.rate, true);
    assert.ok(waited.ms >= 250 && waited.ms < 1000, `waited ${waited.ms} ms`);
    assert.equal((await serviceRate(s)).calls.calculate ?? 0, (before_.calls.calculate ?? 0) + 1);
  });

  test('background work yields to buyers: no token under its reserve, and no wait; a paying buyer still gets one', async () => {
    await sandboxRested();
    // 5 tokens of 10: background keeps 4.5 for the lanes before it and needs 1 more; pages keep 3.6; paying buyers none.
    const sent = await flood({ tokens: 5, lanes: ['background', 'info', 'background', 'paying', 'paying', 'paying'] });
    assert.deepEqual(
      sent.map(([what]) => what),
      ['kept', 'ok', 'kept', 'ok', 'ok', 'ok'],
    );
    assert.ok(sent[0]![1] < 100 && sent[2]![1] < 100, `background never waits: ${sent[0]![1]}, ${sent[2]![1]} ms`);
  });

  test('eight client addresses following their landing links at once: all answered, no 429 at the sandbox', async () => {
    await storeStep(s, 'settings', { trust_proxy_header: 'X-Forwarded-For' });
    try {
      const orders: Array<{ id: number; landing: string }> = [];
      for (let i = 0; i < 8; i++) {
        orders.push(await storeStep<{ id: number; landing: string }>(s, 'order'));
      }
      await step('set_bucket', { tokens: 10 });
      await sandboxRested();
      const before_ = await serviceRate(s);
      const answers = await Promise.all(
        orders.flatMap((order, i) =>
          Array.from({ length: 10 }, async () => {
            const response = await fetch(order.landing, { redirect: 'manual', headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } });
            await response.arrayBuffer();
            return [response.status, response.headers.get('location') ?? ''] as [number, string];
          }),
        ),
      );
      const after_ = await serviceRate(s);
      assert.deepEqual(
        answers.filter(([status]) => status !== 302),
        [],
        'every landing link answered with a redirect: the landing page or the order with words',
      );
      assert.equal(after_.limited - before_.limited, 0, `no request of the store refused by the sandbox (peak ${after_.peak_per_second} a second)`);
      const sent = Object.values(after_.calls).reduce((a, b) => a + b, 0) - Object.values(before_.calls).reduce((a, b) => a + b, 0);
      assert.ok(sent > 0, 'the service was asked');
    } finally {
      await storeStep(s, 'settings', { trust_proxy_header: '' });
    }
  });
});

/**
 * Automatic confirmations the service could not take now are tried again
 * later, not handed to the owner (docs/decisions.md, "Automatic
 * confirmation: busy service, later tries"), in a real store: WordPress,
 * WooCommerce with its Action Scheduler, our plugins and the sandbox on the
 * native runtime (PHP-FPM, nginx, MariaDB).
 *
 * - A payment awaiting partner confirmation while the store is paused (a
 *   429's Retry-After, the store-wide bucket empty) is put on hold with one
 *   note, the owner is not mailed, and one try is queued for the pause's
 *   end; that try asks the service first and confirms it (once).
 * - Two runs of one try at once (two web servers) and the action run again:
 *   the service gets one confirmation.
 * - The payment moved on at the service meanwhile (confirmed in the
 *   partner portal): no confirmation is sent; what the service reports is applied.
 * - A refusal (403) of the later try, and tries running out after an hour,
 *   hand it to the owner with today's note and e-mail.
 *
 * Time moves by setting the store-wide bucket and running the queued try
 * on demand, never by waiting.
 *
 * Run alone (it starts a store): `node --test dist/test/wordpress/confirm-retry.test.js`
 * (npm run test:wordpress). Skipped where the native runtime is missing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sign } from '@card2crypto/core';
import { SANDBOX_OPERATIONS_PATH } from '@card2crypto/sandbox';
import { partnerSecret, phpStep, serviceRate, storeStep } from '../support/reconcile-store.js';
import { REPO_DIR } from '../support/php.js';
import { needsNative, sandboxAction, startTestStore, type TestStore } from '../support/test-store.js';

interface Made {
  id: number;
  partner_operation_id: string;
  amount: number;
  currency: string;
  wallet: string;
}
interface Pending {
  id: number;
  args: [number, string, number];
  in: number;
}
interface State {
  status: string;
  notes: string[];
  queued: { operation: string; tries: number; first: number; due: number } | null;
  pending: Pending[];
}

const STEPS = path.join(REPO_DIR, 'plugins', 'checkout', 'test', 'support', 'confirm-retry-steps.php');
const WORK = mkdtempSync(path.join(os.tmpdir(), 'c2c-confirm-retry-'));
/** The harness's CLI run of WordPress (native.runPhp() keeps one options file: one run at a time). */
const { wpSetup } = (await import(pathToFileURL(path.join(REPO_DIR, 'scripts', 'lib', 'native', 'site.mjs')).href)) as {
  wpSetup: (step: string, siteDir: string, options: object, dirs: { runDir: string; logDir: string }) => Promise<unknown>;
};
let runs = 0;

/** A mail header's text, its RFC 2047 encoded words ("=?us-ascii?Q?...?=", folded over lines) decoded. */
function decodeHeader(value: string): string {
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}
const DELAYED = 'Card2Crypto: confirmation delayed: the service is busy, retrying.';
const CONFIRMED = 'Amount, currency and wallet match the order: confirmed automatically.';
const OWNER_SUBJECT = 'A card payment waits for your confirmation';

describe('automatic confirmation while the service is busy', { skip: needsNative, timeout: 10 * 60_000 }, () => {
  let s: TestStore;
  let secret: string;
  const step = <T>(action: string, input: Record<string, unknown> = {}) => phpStep<T>(s, STEPS, action, input);

  /** The sandbox's state of the order's operation, through its signed test helper (not counted against the rate). */
  async function serviceHas(made: Made, status: string, statusCode: number): Promise<string> {
    const operationId = `op-${made.partner_operation_id}`;
    const body: Record<string, unknown> = {
      partner_token: s.partner.token,
      timestamp: Date.now(),
      operation_id: operationId,
      partner_operation_id: made.partner_operation_id,
      status,
      status_code: statusCode,
      from_currency: made.currency,
      from_amount: made.amount,
      to_currency: 'BTC',
      to_amount: 1000,
      to_account: made.wallet,
      ...(statusCode === 0 ? { blockchain_tx_id: `tx-${made.partner_operation_id}` } : {}),
    };
    body.signature = sign(body, secret, { form: 'general' });
    const response = await fetch(`${s.sandbox!.url}${SANDBOX_OPERATIONS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 200, await response.text());
    return operationId;
  }

  /** Confirmation requests the sandbox received from the store's partner (refused ones too). */
  const confirms = async () => (await serviceRate(s)).calls.confirm ?? 0;

  /** The owner's e-mails about order `id` asking for a confirmation by hand (the site's outgoing mail log). */
  function ownerMails(id: number): number {
    const file = path.join(s.dirs.logDir, 'mail.log');
    if (!existsSync(file)) {
      return 0;
    }
    const raw = readFileSync(file, 'utf8').replace(/\r?\n[ \t]+/g, ' ');
    return [...raw.matchAll(/^Subject: (.*)$/gim)]
      .map((m) => decodeHeader(m[1]!))
      .filter((subject) => subject.includes(`Order #${id}:`) && subject.includes(OWNER_SUBJECT)).length;
  }

  /** One try's callback in a PHP process of its own (a web server's run), beside others at the same time. */
  async function tryInWorker(input: Record<string, unknown>): Promise<string> {
    const dir = mkdtempSync(path.join(WORK, `worker-${++runs}-`));
    const out = path.join(dir, 'out.json');
    const script = path.join(dir, 'step.php');
    writeFileSync(
      script,
      `<?php\n$c2c_step = json_decode(${JSON.stringify(JSON.stringify({ action: 'try', input, out }))}, true);\nrequire ${JSON.stringify(STEPS)};\n`,
    );
    await wpSetup('setup', s.dirs.siteDir, { url: s.storeUrl, activate: [], run: [script], seed: null, path: '/' }, { runDir: dir, logDir: s.dirs.logDir });
    const result = JSON.parse(readFileSync(out, 'utf8')) as { value?: string; error?: string };
    assert.equal(result.error, undefined, result.error);
    return result.value!;
  }

  const count = (notes: string[], text: string) => notes.filter((n) => n.includes(text)).length;

  /** A matching payment awaiting confirmation, applied while the store is paused `pausedMs` (the bucket empty): one try queued. */
  async function awaitingWhilePaused(tag: string, pausedMs: number): Promise<{ made: Made; operation: string; state: State }> {
    const made = await step<Made>('order', { tag });
    const operation = await serviceHas(made, 'awaiting confirm', 8);
    const sent = await confirms();
    assert.equal(await step<string>('deliver', { order: made.id, operation, tokens: 0, paused_ms: pausedMs }), 'applied');
    assert.equal(await confirms(), sent, 'the store kept the confirmation back: nothing reached the service');
    const state = await step<State>('state', { order: made.id });
    assert.equal(state.status, 'on-hold');
    assert.equal(count(state.notes, DELAYED), 1, state.notes.join(' / '));
    assert.equal(count(state.notes, 'Automatic confirmation failed'), 0, state.notes.join(' / '));
    assert.equal(ownerMails(made.id), 0, 'the owner is not mailed for a busy service');
    assert.equal(state.pending.length, 1, JSON.stringify(state.pending));
    assert.deepEqual(state.pending[0]!.args, [made.id, operation, 0]);
    assert.deepEqual(state.queued && [state.queued.operation, state.queued.tries], [operation, 0]);
    return { made, operation, state };
  }

  before(async () => {
    s = await startTestStore({ name: 'test-confirm-retry', port: 9941, sandboxPort: 9991 });
    secret = partnerSecret(s.dirs.harnessDir);
    await storeStep(s, 'settings', { auto_confirm: 'yes' });
  });
  after(async () => {
    if (s?.sandbox) {
      await sandboxAction(s, `partners/${encodeURIComponent(s.partner.token)}/block`, { blocked: false }).catch(() => {});
    }
    await s?.stop();
  });

  test('paused by a 429: held with one note, no mail, confirmed by the try queued for the pause’s end', async () => {
    const { made, state } = await awaitingWhilePaused('pause', 90_000);
    assert.ok(state.pending[0]!.in >= 80 && state.pending[0]!.in <= 95, `due when the pause ends: in ${state.pending[0]!.in} s`);

    const sent = await confirms();
    assert.deepEqual(await step<number[]>('run', { order: made.id }), [1]);
    assert.equal(await confirms(), sent + 1, 'one confirmation reached the service');
    const done = await step<State>('state', { order: made.id });
    assert.equal(count(done.notes, CONFIRMED), 1, done.notes.join(' / '));
    assert.equal(count(done.notes, DELAYED), 1, 'the delay noted once');
    assert.equal(count(done.notes, 'Automatic confirmation failed'), 0);
    assert.equal(done.queued, null);
    assert.deepEqual(done.pending, []);
    assert.equal(done.status, 'on-hold', 'held until the service reports the payment');
    assert.equal(ownerMails(made.id), 0);
  });

  test('a try whose job was removed by hand is queued again by the hourly sweep, and confirms once', async () => {
    const { made } = await awaitingWhilePaused('orphan', 10_000);
    assert.equal(await step<number>('unschedule', { order: made.id }), 0, 'the job is gone, the row stays');
    // Not yet overdue: a busy queue may run a try late; the sweep leaves it.
    assert.deepEqual(await step('sweep', { order: made.id }), { scheduled: true, queued: 0 });
    // Overdue by more than ten minutes with no job: queued again, due now.
    assert.deepEqual(await step('sweep', { order: made.id, overdue: 700 }), { scheduled: true, queued: 1 });
    assert.deepEqual(await step('sweep', { order: made.id }), { scheduled: true, queued: 0 }, 'queued once, not on every sweep');
    const sent = await confirms();
    assert.deepEqual(await step<number[]>('run', { order: made.id }), [1]);
    assert.equal(await confirms(), sent + 1, 'one confirmation reached the service');
    const done = await step<State>('state', { order: made.id });
    assert.equal(count(done.notes, CONFIRMED), 1, done.notes.join(' / '));
    assert.equal(done.queued, null);
    assert.equal(ownerMails(made.id), 0);
  });

  test('paused briefly, then again at the first try: one note, the next try backs off; two runs of a try at once confirm once', async () => {
    const { made, operation, state } = await awaitingWhilePaused('race', 10_000);
    assert.ok(state.pending[0]!.in >= 25 && state.pending[0]!.in <= 35, `the first back-off, 30 s: in ${state.pending[0]!.in} s`);

    // The first try finds the store paused again: no note, the next try in 2 minutes.
    const sent = await confirms();
    assert.deepEqual(await step<number[]>('run', { order: made.id, paused_ms: 5_000 }), [1]);
    let now = await step<State>('state', { order: made.id });
    assert.equal(await confirms(), sent);
    assert.equal(count(now.notes, DELAYED), 1, now.notes.join(' / '));
    assert.equal(now.pending.length, 1, JSON.stringify(now.pending));
    assert.deepEqual(now.pending[0]!.args, [made.id, operation, 1]);
    assert.ok(now.pending[0]!.in >= 110 && now.pending[0]!.in <= 125, `the second back-off, 2 min: in ${now.pending[0]!.in} s`);

    // Two web servers run that try at once, then the action itself runs too.
    const ran = await Promise.all([1, 2].map(() => tryInWorker({ order: made.id, operation, tries: 1 })));
    assert.deepEqual([...ran].sort(), ['confirm', 'not_queued'], JSON.stringify(ran));
    assert.deepEqual(await step<Array<number | string>>('run', { order: made.id, times: 1 }), [1, 'not_queued']);
    assert.equal(await confirms(), sent + 1, 'the service got one confirmation');
    now = await step<State>('state', { order: made.id });
    assert.equal(count(now.notes, CONFIRMED), 1, now.notes.join(' / '));
    assert.equal(count(now.notes, DELAYED), 1);
    assert.equal(now.queued, null);
    assert.deepEqual(now.pending, []);
    assert.equal(ownerMails(made.id), 0);
  });

  test('confirmed in the partner portal meanwhile: the try sends no confirmation and applies what the service reports', async () => {
    const { made } = await awaitingWhilePaused('moved', 60_000);
    await serviceHas(made, 'success', 0);
    const sent = await confirms();
    await step('run', { order: made.id });
    assert.equal(await confirms(), sent, 'nothing to confirm');
    const now = await step<State>('state', { order: made.id });
    assert.ok(['processing', 'completed'].includes(now.status), now.status);
    assert.equal(count(now.notes, CONFIRMED), 0);
    assert.equal(now.queued, null);
    assert.equal(ownerMails(made.id), 0);
  });

  test('a refusal (403) of the later try mails the owner, once', async () => {
    const { made } = await awaitingWhilePaused('refused', 60_000);
    const blocked = await sandboxAction(s, `partners/${encodeURIComponent(s.partner.token)}/block`, { blocked: true });
    assert.equal(blocked.status, 200);
    try {
      await step('run', { order: made.id });
    } finally {
      await sandboxAction(s, `partners/${encodeURIComponent(s.partner.token)}/block`, { blocked: false });
    }
    const now = await step<State>('state', { order: made.id });
    assert.equal(ownerMails(made.id), 1);
    assert.equal(count(now.notes, 'confirm or cancel it on this order'), 1, now.notes.join(' / '));
    assert.equal(now.queued, null);
    assert.deepEqual(now.pending, []);
    assert.equal(now.status, 'on-hold');
  });

  test('still busy after an hour: the owner confirms by hand', async () => {
    const { made } = await awaitingWhilePaused('hour', 60_000);
    await step('age', { order: made.id, seconds: 3_580 });
    await step('run', { order: made.id, paused_ms: 60_000 });
    const now = await step<State>('state', { order: made.id });
    assert.equal(ownerMails(made.id), 1);
    assert.equal(count(now.notes, 'confirm or cancel it on this order'), 1, now.notes.join(' / '));
    assert.equal(now.queued, null);
    assert.deepEqual(now.pending, []);
  });
});

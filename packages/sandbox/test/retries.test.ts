/**
 * Callback delivery: core's retry schedule under the fast clock, only 200
 * ends it, a restart in the middle resumes it, one partner never blocks
 * another, the source address is --callback-ip.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { RETRY_MAX_ATTEMPTS, retrySchedule, verifyCallback } from '@card2crypto/core';
import { CallbackReceiver, createOperation, OTHER, PARTNER, sleep, startTestSandbox, tempDir, until } from './helpers.js';

/** An operation whose first callback (pending 2) is the one under test; later steps are far away. */
function debitOnly(sandbox: Awaited<ReturnType<typeof startTestSandbox>>, partner = PARTNER) {
  // The test card for partner confirmation stops at 8: callbacks 2 and 8 only.
  return createOperation(sandbox, { partner, card: '4000000800000004' });
}

describe('callback retries', () => {
  it('follows core schedule to attempt 120 under the fast clock, then stops', async () => {
    const speed = 200_000; // 10.24 days in about 4.4 s
    const receiver = await new CallbackReceiver().start();
    receiver.respond = () => 500;
    const sandbox = await startTestSandbox({ clockSpeed: speed, stepDelayMs: 0, partners: [{ ...PARTNER, callbackUrl: receiver.url }] });
    try {
      const op = createOperation(sandbox, { card: '4000010100000000' }); // one callback: declined 101
      const callback = await until(() => sandbox.context.store.callbacksOf(op.id)[0], 5000, 'callback stored');
      const done = await until(
        () => {
          const c = sandbox.context.store.getCallback(callback.id)!;
          return c.state === 'exhausted' ? c : undefined;
        },
        30_000,
        'schedule to end',
      );
      assert.equal(done.attempts, RETRY_MAX_ATTEMPTS);
      await sleep(300);
      assert.equal(receiver.received.length, RETRY_MAX_ATTEMPTS, 'one request per attempt, none after the last');
      const attempts = sandbox.context.store.attemptsOf(callback.id);
      assert.deepEqual(
        attempts.map((a) => a.attempt),
        retrySchedule().map((r) => r.attempt),
      );
      assert.ok(attempts.every((a) => a.httpStatus === 500 && a.excerpt === 'refused with 500'));
      // Each attempt at its scheduled time: anchor + sinceFirst(n) / speed, the anchor being attempt 1 and moving
      // only when an attempt starts more than a second late (decisions.md, "Sandbox: callback delivery").
      // Never early; late only by event-loop delays (other test files load the machine).
      let anchor = attempts[0]!.at;
      let onTime = 0;
      for (const [i, row] of retrySchedule().entries()) {
        const due = anchor + row.sinceFirstMs / speed;
        const at = attempts[i]!.at;
        assert.ok(at >= Math.floor(due) - 1, `attempt ${row.attempt} early by ${due - at} ms`);
        if (at - due > 1000) {
          anchor += at - due;
        }
        if (at - due < 100) {
          onTime++;
        }
      }
      // Mostly on time even on a busy machine (the rule above is what must hold; this is a sanity check).
      assert.ok(onTime >= 30, `only ${onTime} of 120 attempts within 100 ms of their time`);
      const span = attempts.at(-1)!.at - attempts[0]!.at;
      assert.ok(span >= retrySchedule().at(-1)!.sinceFirstMs / speed - 1, `the schedule took ${span} ms`);
      // All identical bodies, correctly signed.
      assert.equal(new Set(receiver.received.map((r) => r.body)).size, 1);
      assert.equal(verifyCallback(receiver.received[0]!.body, PARTNER.secret).ok, true);
    } finally {
      await sandbox.dispose();
      await receiver.stop();
    }
  });

  it('only HTTP 200 counts as delivered (204, 302, 400 and no answer are retried)', async () => {
    const receiver = await new CallbackReceiver().start();
    const answers = [204, 302, 400, 503, 200];
    receiver.respond = (_r, i) => answers[i] ?? 200;
    const sandbox = await startTestSandbox({ clockSpeed: 10_000, stepDelayMs: 0, partners: [{ ...PARTNER, callbackUrl: receiver.url }] });
    try {
      const op = createOperation(sandbox, { card: '4000010100000000' });
      const callback = await until(() => sandbox.context.store.callbacksOf(op.id)[0], 5000, 'callback stored');
      await until(() => (sandbox.context.store.getCallback(callback.id)!.state === 'delivered' ? true : undefined), 10_000, 'delivery');
      await sleep(100);
      assert.equal(receiver.received.length, 5);
      assert.deepEqual(
        sandbox.context.store.attemptsOf(callback.id).map((a) => a.httpStatus),
        answers,
      );
    } finally {
      await sandbox.dispose();
      await receiver.stop();
    }
  });

  it('resumes the schedule after a restart: no attempt lost, none repeated, nothing fired in a burst', async () => {
    const dir = tempDir();
    const receiver = await new CallbackReceiver().start();
    receiver.respond = () => 500;
    const options = { dataDir: dir.path, clockSpeed: 1000, stepDelayMs: 0, partners: [{ ...PARTNER, callbackUrl: receiver.url }] };
    let sandbox = await startTestSandbox(options);
    try {
      const op = createOperation(sandbox, { card: '4000010100000000' });
      const callback = await until(() => sandbox.context.store.callbacksOf(op.id)[0], 5000, 'callback stored');
      // Attempts 1-6 come 10 ms apart at this speed; attempt 7 is 134 ms after the first.
      await until(() => (sandbox.context.store.getCallback(callback.id)!.attempts >= 7 ? true : undefined), 5000, '7 attempts');
      await sandbox.close();
      // A delivery cut short by the stop may still reach the receiver just after: it was not an attempt
      // (no answer was read) and is made again after the restart.
      await sleep(100);
      const before = receiver.received.length;
      await sleep(400); // several attempts would have been due meanwhile
      assert.equal(receiver.received.length, before, 'nothing is sent while the sandbox is stopped');

      receiver.respond = () => 200;
      const restartedAt = Date.now();
      sandbox = await startTestSandbox(options);
      await until(() => (sandbox.context.store.getCallback(callback.id)!.state === 'delivered' ? true : undefined), 5000, 'delivery after restart');
      await sleep(200);
      assert.equal(receiver.received.length, before + 1, 'exactly one more request: the next attempt, not a burst');
      const attempts = sandbox.context.store.attemptsOf(callback.id);
      assert.ok(attempts.length >= 8);
      assert.deepEqual(
        attempts.map((a) => a.attempt),
        Array.from({ length: attempts.length }, (_, i) => i + 1),
        'attempt numbers continue, none lost or repeated',
      );
      assert.deepEqual(
        attempts.map((a) => a.at >= restartedAt),
        attempts.map((_, i) => i === attempts.length - 1),
        'only the last attempt is after the restart',
      );
      assert.equal(attempts.at(-1)!.httpStatus, 200);
      assert.equal(new Set(receiver.received.map((r) => r.body)).size, 1, 'the same signed body');
    } finally {
      await sandbox.dispose();
      await receiver.stop();
      dir.remove();
    }
  });

  it('keeps operations across a restart and finishes their steps', async () => {
    const dir = tempDir();
    const options = { dataDir: dir.path, clockSpeed: 1, stepDelayMs: 150, partners: [PARTNER] };
    let sandbox = await startTestSandbox(options);
    try {
      const op = createOperation(sandbox, { partnerOperationId: 'order-restart' });
      await until(() => (sandbox.context.operations.get(op.id)!.statusCode === 2 ? true : undefined), 5000, 'money received');
      await sandbox.close();
      sandbox = await startTestSandbox(options);
      assert.equal(sandbox.context.store.findByPartnerOperationId(PARTNER.token, 'order-restart')!.id, op.id);
      await until(() => (sandbox.context.operations.get(op.id)!.statusCode === 0 ? true : undefined), 5000, 'completion after restart');
      const codes = sandbox.context.store.history(op.id).map((h) => h.statusCode);
      assert.deepEqual(codes, [1, 1, 2, 3, 4, 7, 6, 0]);
    } finally {
      await sandbox.dispose();
      dir.remove();
    }
  });

  it('a partner whose endpoint hangs does not hold up another partner', async () => {
    // Accepts connections and never answers.
    const hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', () => resolve()));
    const hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/callback`;
    const receiver = await new CallbackReceiver().start();
    const sandbox = await startTestSandbox({
      clockSpeed: 1,
      stepDelayMs: 0,
      callbackConcurrency: 2,
      callbackTimeoutMs: 20_000,
      partners: [
        { ...OTHER, callbackUrl: hangingUrl },
        { ...PARTNER, callbackUrl: receiver.url },
      ],
    });
    try {
      for (let i = 0; i < 6; i++) {
        debitOnly(sandbox, OTHER);
      }
      await sleep(100); // the slow partner's slots are all taken
      const started = Date.now();
      const op = debitOnly(sandbox, PARTNER);
      await receiver.waitFor(2, 3000);
      assert.ok(Date.now() - started < 1000, `delivered after ${Date.now() - started} ms`);
      assert.deepEqual(
        receiver.received.map((r) => {
          const v = verifyCallback(r.body, PARTNER.secret);
          return v.ok ? `${v.operation.operation_info.id} ${v.operation.status_code}` : 'bad';
        }),
        [`${op.id} 2`, `${op.id} 8`],
      );
    } finally {
      hanging.closeAllConnections();
      hanging.close();
      await sandbox.dispose();
      await receiver.stop();
    }
  });

  it('sends callbacks from --callback-ip', async () => {
    const receiver = await new CallbackReceiver().start();
    const sandbox = await startTestSandbox({
      clockSpeed: 1000,
      stepDelayMs: 0,
      callbackIp: '127.0.0.2',
      partners: [{ ...PARTNER, callbackUrl: receiver.url }],
    });
    try {
      assert.equal(sandbox.callbackIp, '127.0.0.2');
      createOperation(sandbox, { card: '4000010100000000' });
      await receiver.waitFor(1);
      assert.equal(receiver.received[0]!.remoteAddress, '127.0.0.2');
    } finally {
      await sandbox.dispose();
      await receiver.stop();
    }
  });
});

/**
 * An operation the buyer created but never paid (pending 1) does not stay
 * open for ever: after the unpaid lifetime (--unpaid-lifetime, sandbox time)
 * it ends in declined 102 (the buyer left), through the status model; paying before
 * then replaces that plan, and the lifetime survives a restart.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CALLBACK_CONDITIONS } from '@card2crypto/core';
import { parseCli } from '../src/cli.js';
import { CallbackReceiver, createOperation, PARTNER, startTestSandbox, tempDir, until } from './helpers.js';

describe('unpaid lifetime', () => {
  it('an unpaid created operation ends in declined 102 after the lifetime; a paid one does not', async () => {
    const receiver = await new CallbackReceiver().start();
    // 60 sandbox seconds at speed 200: 300 real ms.
    const sandbox = await startTestSandbox({
      clockSpeed: 200,
      stepDelayMs: 2000,
      unpaidLifetimeSeconds: 60,
      partners: [{ ...PARTNER, callbackUrl: receiver.url }],
    });
    try {
      const started = Date.now();
      const unpaid = createOperation(sandbox, { pay: false });
      const paid = createOperation(sandbox, { card: '4000000800000004' }); // stops at awaiting confirm 8
      assert.equal(sandbox.context.operations.get(unpaid.id)!.statusCode, 1);
      const ended = await until(
        () => {
          const op = sandbox.context.operations.get(unpaid.id)!;
          return op.statusCode === 102 ? op : undefined;
        },
        5000,
        'the unpaid operation to end',
      );
      assert.ok(Date.now() - started >= 250, 'not before the lifetime');
      assert.equal(ended.status, 'declined');
      assert.equal(ended.nextStepAt, null);
      assert.equal(ended.card, null);
      const last = sandbox.context.store.history(unpaid.id).at(-1)!;
      assert.deepEqual([last.status, last.statusCode, last.source], ['declined', 102, 'flow']);
      assert.match(last.note, /unpaid lifetime/);
      // A callback exactly when 102 is one of core's callback conditions, as for any other step.
      assert.equal(
        sandbox.context.store.callbacksOf(unpaid.id).some((c) => c.statusCode === 102),
        CALLBACK_CONDITIONS.some((c) => c.status_code === 102),
      );
      await until(() => (sandbox.context.operations.get(paid.id)!.statusCode === 8 ? true : undefined), 5000, 'the paid operation to wait for confirmation');
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(sandbox.context.operations.get(paid.id)!.statusCode, 8, 'paying replaced the lifetime');
    } finally {
      await sandbox.dispose();
      await receiver.stop();
    }
  });

  it('is one hour by default, continues after a restart and is set by --unpaid-lifetime', async () => {
    const dir = tempDir();
    try {
      let sandbox = await startTestSandbox({ dataDir: dir.path, clockSpeed: 1 });
      const op = createOperation(sandbox, { pay: false });
      const planned = sandbox.context.operations.get(op.id)!;
      assert.deepEqual(planned.plan, [102]);
      assert.ok(Math.abs(planned.nextStepAt! - (planned.createdAt + 3_600_000)) < 1000, 'an hour after creation');
      await sandbox.close();
      sandbox = await startTestSandbox({ dataDir: dir.path, clockSpeed: 1 });
      assert.deepEqual(sandbox.context.operations.get(op.id)!.plan, [102], 'kept across a restart');
      await sandbox.close();
    } finally {
      dir.remove();
    }
    const options = parseCli(['--unpaid-lifetime', '900']);
    assert.notEqual(options, 'help');
    assert.equal(options !== 'help' && options.unpaidLifetimeSeconds, 900);
    assert.throws(() => parseCli(['--unpaid-lifetime', '0']), /--unpaid-lifetime must be a number > 0/);
  });
});

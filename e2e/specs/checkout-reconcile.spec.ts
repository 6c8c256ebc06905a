/**
 * The reconciliation schedule against a real WooCommerce and its Action
 * Scheduler: every order sent to pay gets one planned check; each check that
 * finds no final state plans the next one further out (15 min, 30 min, 1 h,
 * ...); a success ends the checks, a decline leaves one last look when the
 * payment window has passed. A check is run by making it due and running the
 * one batch action through the "Run" link of Tools → Scheduled Actions, which
 * processes it as the queue runner does (runReconcile()). (The owner spec
 * proves a run completes a paid order whose callbacks never came.)
 */
import { expect, test } from '@playwright/test';
import {
  adminOrder,
  loginAsAdmin,
  operationData,
  partnerSecret,
  pendingReconcile,
  placeOrder,
  reconcilePlan,
  requireWooCommerce,
  runReconcile,
  runningStore,
  sendCallback,
  serviceHas,
} from './checkout-helpers.js';

const store = runningStore();

test.describe('reconciliation schedule', () => {
  test.beforeEach(() => requireWooCommerce(store));

  test('checks back off (15 min, 30 min, 1 h) while nothing is final; a decline leaves one last look after the payment window', async ({ page, request }) => {
    test.setTimeout(1_200_000);
    await loginAsAdmin(page, store);
    // The buyer is sent to pay but never starts: the service has no operation for this order yet.
    const order = await placeOrder(request, store);

    const first = await pendingReconcile(page, store, order.id);
    expect(first.delaySeconds).toBe(900);
    await runReconcile(page, store, order.id);
    const second = await pendingReconcile(page, store, order.id);
    expect(second.checks).toBe(1);
    expect(second.delaySeconds).toBe(1800);
    await runReconcile(page, store, order.id);
    const third = await pendingReconcile(page, store, order.id);
    expect(third.delaySeconds).toBe(3600);
    expect((await adminOrder(page, store, order.id)).status).toBe('wc-pending');

    // The payment ends (declined: a final state) by callback; the job still pending finds it ended,
    // changes nothing and leaves one last look for when the payment window (1 h) has passed: the
    // buyer may still try again inside the widget, a new operation whose callbacks may be lost too.
    const declined = operationData(order, 'declined', 104);
    await serviceHas(store, partnerSecret(store), declined);
    expect(await sendCallback(store, partnerSecret(store), declined)).toBe('200 OK');
    const failed = await adminOrder(page, store, order.id);
    expect(failed.status).toBe('wc-failed');
    await runReconcile(page, store, order.id);
    const last = await pendingReconcile(page, store, order.id);
    expect(last.delaySeconds).toBeGreaterThan(3000);
    expect(last.delaySeconds).toBeLessThanOrEqual(3600);
    // Two checks asked the service; the third found the payment ended and only planned the last look.
    expect(last.checks).toBe(2);
    expect((await reconcilePlan(page, store, order.id)).retired).toBe(false);
    const after = await adminOrder(page, store, order.id);
    expect(after.status).toBe('wc-failed');
    expect(after.notes).toEqual(failed.notes);
  });
});

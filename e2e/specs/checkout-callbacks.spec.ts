/**
 * Callbacks against a real WooCommerce: forged, duplicate, concurrent,
 * reordered and mismatching deliveries. Orders are placed through the
 * Store API (the landing URL tells the partner_operation_id); callbacks are
 * signed here with the partner secret, as the service signs them.
 *
 * A callback is only a trigger: before a success completes an order the store
 * asks the service's operation-info endpoint and applies its answer
 * (docs/decisions.md, "Callbacks: ambiguous bodies and the service's word").
 * A genuine success is therefore first put into the sandbox's state
 * (serviceHas); an untrue one is left unbacked, or backed by the truth.
 */
import { expect, test } from './fixtures';
import {
  adminOrder,
  loginAsAdmin,
  operationData,
  placeOrder,
  requireWooCommerce,
  runningStore,
  sendCallback,
  serviceHas,
  partnerSecret,
  waitForOrder,
} from './checkout-helpers.js';

const store = runningStore();
const secret = partnerSecret(store);

test.describe('checkout callbacks', () => {
  // WordPress in WebAssembly answers one request in seconds on a busy machine.
  test.describe.configure({ timeout: 900_000 });
  test.beforeEach(async ({ page }) => {
    requireWooCommerce(store);
    await loginAsAdmin(page, store);
  });

  test('a forged callback changes nothing; the genuine one completes the order with its transaction', { tag: '@oldest' }, async ({ page, request }) => {
    const order = await placeOrder(request, store);
    const success = operationData(order, 'success', 6);
    // Forged: signed with another secret. Refused before anything is read, even though the service has the operation.
    await serviceHas(store, secret, success);
    expect(await sendCallback(store, `${secret}x`, success)).toBe('401 Wrong signature');
    const untouched = await adminOrder(page, store, order.id);
    expect(untouched.status).toBe('wc-pending');
    expect(untouched.notes.filter((n) => n.includes('Crypto sent to the wallet (success)'))).toEqual([]);

    // Signed correctly, but for an operation the service does not have: noted, nothing changed, 200 (a retry cannot help).
    const unknown = operationData(order, 'success', 6, { id: `op-${order.id}-unknown` });
    expect(await sendCallback(store, secret, unknown)).toBe('200 OK');
    const unconfirmed = await adminOrder(page, store, order.id);
    expect(unconfirmed.status).toBe('wc-pending');
    expect(unconfirmed.panel.transaction).toBeUndefined();
    expect(
      unconfirmed.notes.some((n) =>
        n.includes(`a callback reported "Crypto sent to the wallet (success)" for operation op-${order.id}-unknown, but the service does not confirm it`),
      ),
    ).toBe(true);

    // Signed correctly, but the service reports less: funds debited (pending 2), no transaction. The service's word is
    // applied (on hold), the success is not, and the callback is answered 500 so that the service sends it again.
    await serviceHas(store, secret, operationData(order, 'pending', 2));
    expect(await sendCallback(store, secret, success)).toBe('500 Callback not received; please send it again');
    const behind = await adminOrder(page, store, order.id);
    expect(behind.status).toBe('wc-on-hold');
    expect(behind.panel['status-code']).toMatch(/^2 /);
    expect(behind.panel.transaction).toBeUndefined();
    expect(
      behind.notes.some(
        (n) => n.includes('a callback reported "Crypto sent to the wallet (success)"') && n.includes('the service answers "Card payment received (pending)"'),
      ),
    ).toBe(true);

    // The genuine one: the service reports the transaction, and its repeat completes the order.
    await serviceHas(store, secret, success);
    expect(await sendCallback(store, secret, success)).toBe('200 OK');
    const paid = await adminOrder(page, store, order.id);
    expect(paid.status).toBe('wc-processing');
    expect(paid.panel.transaction).toBe(`txop-${order.id}-a`);
    // A sandbox order's transaction is simulated: named, never linked to an explorer (issue 32).
    expect(
      paid.notes.some((n) => n.includes(`BTC transaction: txop-${order.id}-a`) && n.includes('not on the blockchain') && !n.includes('mempool.space')),
    ).toBe(true);
  });

  test('20 concurrent duplicates make one transition and one note; a repeat answers 200 "already received"', async ({ page, request }) => {
    test.setTimeout(900_000); // Playground serves two requests at a time.
    const order = await placeOrder(request, store);
    const funds = operationData(order, 'pending', 2);
    const answers = await Promise.all(Array.from({ length: 20 }, () => sendCallback(store, secret, funds)));
    expect(answers.filter((a) => a === '200 OK')).toHaveLength(1);
    expect(answers.filter((a) => a === '200 OK (already received)')).toHaveLength(19);
    expect(await sendCallback(store, secret, funds)).toBe('200 OK (already received)');
    const view = await adminOrder(page, store, order.id);
    expect(view.status).toBe('wc-on-hold');
    expect(view.notes.filter((n) => n.includes('Card payment received (pending)'))).toHaveLength(1);
  });

  test('reordered: the transaction arrives first, the late "funds debited" and "awaiting confirmation" change nothing', async ({ page, request }) => {
    // Only the spec's five callback conditions are sent (CALLBACK_CONDITIONS in core). A realistic
    // reordering: "funds debited" (pending 2) and "awaiting confirmation" (8) failed to reach the
    // store and are retried by the service after "transaction created" (success 6) got through.
    const order = await placeOrder(request, store);
    await serviceHas(store, secret, operationData(order, 'success', 6));
    expect(await sendCallback(store, secret, operationData(order, 'success', 6))).toBe('200 OK');
    const paid = await adminOrder(page, store, order.id);
    expect(paid.status).toBe('wc-processing');
    expect(paid.panel.transaction).toBe(`txop-${order.id}-a`);

    expect(await sendCallback(store, secret, operationData(order, 'pending', 2))).toBe('200 OK');
    expect(await sendCallback(store, secret, operationData(order, 'awaiting confirm', 8))).toBe('200 OK');
    const view = await adminOrder(page, store, order.id);
    expect(view.status).toBe('wc-processing');
    expect(view.panel['status-code']).toMatch(/^6 /);
    expect(view.panel.transaction).toBe(`txop-${order.id}-a`);
    // No note, no hold, no confirmation for the older statuses: the order's history is unchanged.
    expect(view.notes.filter((n) => n.includes('Card payment received (pending)') || n.includes('Waiting for your confirmation (awaiting confirm)'))).toEqual(
      [],
    );
    expect(view.notes).toHaveLength(paid.notes.length);
  });

  test('an amount, currency or wallet that does not match puts the order on hold and never completes it', async ({ page, request }) => {
    // Every mismatching success here is the service's truth (serviceHas), so the store applies it and must hold, not complete.
    const order = await placeOrder(request, store);
    const short = operationData(order, 'pending', 2, { amount: Number(order.params.from_amount) - 1 });
    expect(await sendCallback(store, secret, short)).toBe('200 OK');
    const shortSuccess = operationData(order, 'success', 6, { amount: Number(order.params.from_amount) - 1 });
    await serviceHas(store, secret, shortSuccess);
    expect(await sendCallback(store, secret, shortSuccess)).toBe('200 OK');
    const view = await adminOrder(page, store, order.id);
    expect(view.status).toBe('wc-on-hold');
    expect(view.panel['status-code']).toMatch(/^6 /);
    expect(view.notes.some((n) => n.includes('does NOT match this order') && n.includes('amount:'))).toBe(true);
    expect(view.panel.check).toMatch(/NOT match/);

    const other = await placeOrder(request, store);
    const thief = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
    expect(other.params.to_account, 'the store wallet differs from the one the BTC goes to').not.toBe(thief);
    const stolen = operationData(other, 'success', 6, { wallet: thief });
    await serviceHas(store, secret, stolen);
    expect(await sendCallback(store, secret, stolen)).toBe('200 OK');
    const stolenView = await adminOrder(page, store, other.id);
    expect(stolenView.status).toBe('wc-on-hold');
    expect(stolenView.panel['status-code']).toMatch(/^6 /);
    expect(stolenView.notes.some((n) => n.includes('does NOT match this order') && n.includes('wallet:'))).toBe(true);

    const third = await placeOrder(request, store);
    const dollars = operationData(third, 'success', 6, { currency: third.params.from_currency === 'USD' ? 'EUR' : 'USD' });
    await serviceHas(store, secret, dollars);
    expect(await sendCallback(store, secret, dollars)).toBe('200 OK');
    const dollarsView = await adminOrder(page, store, third.id);
    expect(dollarsView.status).toBe('wc-on-hold');
    expect(dollarsView.notes.some((n) => n.includes('does NOT match this order') && n.includes('currency:'))).toBe(true);
  });

  test('a declined payment fails the order with its reason, and the buyer can pay again with a new attempt', async ({ page, request }) => {
    const order = await placeOrder(request, store);
    expect(await sendCallback(store, secret, operationData(order, 'declined', 104))).toBe('200 OK');
    const view = await waitForOrder(page, store, order.id, (v) => v.status === 'wc-failed');
    expect(view.notes.some((n) => n.includes('the card payment did not go through') && n.includes('bank card failed verification'))).toBe(true);
  });

  test('an unknown status pair is answered 200 and flagged, never applied', async ({ page, request }) => {
    const order = await placeOrder(request, store);
    expect(await sendCallback(store, secret, operationData(order, 'success', 2))).toBe('200 OK');
    const view = await adminOrder(page, store, order.id);
    expect(view.status).toBe('wc-pending');
    expect(view.notes.some((n) => n.includes('Unknown state (success, code 2)'))).toBe(true);
  });
});

/**
 * The embedded flow as careful as the redirect flow (issue 32, points 1 and
 * 3), in a real store: WordPress, WooCommerce, our plugins and the sandbox
 * on the native runtime. Every request is the one the order-pay page's
 * script sends (its data read from the page as a browser gets it); the
 * service's side of each payment is put into the sandbox (its signed test
 * helper) or changed with its dashboard (a blocked partner).
 *
 * - A second tab of an order whose widget has an operation with no card
 *   entered: that operation is cancelled at the service and the second tab
 *   gets a widget; the first tab, asking about its payment, is told in the
 *   store's words that it was replaced.
 * - A second tab while a card payment is under way: no widget, the store's
 *   words; the page's watch (payment-state) reads the order paid once it is.
 * - Two declines inside the widget: each is a note for the owner, the
 *   buyer reads the second's words, and no "failed" e-mail goes out until
 *   the outcome is known: the widget closed (one mail each to buyer and
 *   owner) or its retry window over (time moved on, not waited for).
 * - A blocked partner while the widget is open: the store's words, the
 *   order kept, the owner e-mailed once however many buyers meet it.
 *
 * Run alone (it starts a store): `node --test dist/test/wordpress/embedded-tabs.test.js`.
 * Skipped where the native runtime is missing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sign } from '@card2crypto/core';
import { SANDBOX_OPERATIONS_PATH } from '@card2crypto/sandbox';
import { REPO_DIR } from '../support/php.js';
import { partnerSecret, phpStep } from '../support/reconcile-store.js';
import { needsNative, sandboxAction, startTestStore, type TestStore } from '../support/test-store.js';

interface NewOrder {
  id: number;
  key: string;
  pay: string;
}
interface OrderState {
  status: string;
  notes: string[];
  attempts: Array<{ partner_operation_id: string; status: string; status_code: string }>;
  retry_until: string;
  pending: number;
}
/** What the order-pay page's script is given (Order_Pay::render()). */
interface PageData {
  rest: string;
  key: string;
  nonce: string;
  returned: string;
  state: string;
}
interface Signed {
  status: number;
  body: { settings?: Record<string, unknown>; code?: string; kind?: string; message?: string; redirect?: string };
}

/** A header's MIME encoded-words (RFC 2047, "Q" as PHPMailer writes long subjects) as plain text. */
function decodeWords(text: string): string {
  return text
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?Q\?([^?]*)\?=/gi, (_, q: string) =>
      q.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, h: string) => String.fromCharCode(parseInt(h, 16))),
    );
}

const STEPS = path.join(REPO_DIR, 'plugins', 'checkout', 'test', 'support', 'embedded-steps.php');
const CANCELLED = 'in which no card had been entered, was cancelled at the service';
const REPLACED = 'This payment window is no longer in use';
const UNDER_WAY = 'A card payment for this order is already under way.';
const KEPT = 'Card payment is unavailable right now. Your order is kept: we will e-mail you a link to pay it as soon as card payment is back.';
const MAY_RETRY = 'The buyer can try again in the payment window still open on the order page';

describe('the embedded flow with two tabs, declines and a refusing service', { skip: needsNative, timeout: 10 * 60_000 }, () => {
  let s: TestStore;
  let secret: string;
  let client = 0;
  const step = <T>(action: string, input: Record<string, unknown> = {}) => phpStep<T>(s, STEPS, action, input);
  const state = (order: NewOrder) => step<OrderState>('state', { order: order.id });

  /** A tab of the order's payment page: the data its script gets, read from the page's HTML. */
  async function openTab(order: NewOrder): Promise<PageData> {
    const response = await fetch(order.pay, { headers: { 'x-forwarded-for': `198.51.100.${++client}` } });
    const html = await response.text();
    const match = /window\.card2cryptoOrderPay=(\{.*\});/.exec(html);
    assert.ok(match, `order ${order.id}'s payment page carries the widget's data (${response.status}): ${html.slice(0, 300)}`);
    return JSON.parse(match[1]!) as PageData;
  }

  async function post(url: string, body: Record<string, unknown>): Promise<Signed> {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Signed['body'] };
  }

  /** The tab asks for widget settings signed now, as the page's script does when it starts the widget. */
  const widget = (tab: PageData) => post(tab.rest, { key: tab.key, nonce: tab.nonce });
  /** The tab's widget reported a failure, a close or an error: what the store tells the buyer. */
  const returned = (tab: PageData, event: 'fail' | 'exit' | 'error', attempt?: unknown) =>
    post(tab.returned, { key: tab.key, nonce: tab.nonce, event, ...(attempt ? { attempt } : {}) });

  /** The service holds this operation of the payment (its signed test helper: no callback is sent). */
  async function serviceHas(partnerOperationId: unknown, id: string, status: string, code: number, settings: Record<string, unknown>): Promise<void> {
    const body: Record<string, unknown> = {
      partner_token: s.partner.token,
      timestamp: Date.now(),
      operation_id: id,
      partner_operation_id: partnerOperationId,
      status,
      status_code: code,
      from_currency: settings.from_currency,
      from_amount: settings.from_amount,
      to_currency: 'BTC',
      to_amount: 123456,
      to_account: settings.to_account,
      ...(code === 0 || code === 6 ? { blockchain_tx_id: `tx-${id}` } : {}),
    };
    body.signature = sign(body, secret, { form: 'general' });
    const response = await fetch(`${s.sandbox!.url}${SANDBOX_OPERATIONS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 200, await response.text());
  }

  /** The operation as the service holds it (its dashboard). */
  async function atService(id: string): Promise<{ status: string; status_code: number } | undefined> {
    const all = (await (await fetch(`${s.sandbox!.url}/dashboard/api/state?limit=500`)).json()) as {
      operations: Array<{ id: string; status: string; status_code: number }>;
    };
    return all.operations.find((op) => op.id === id);
  }

  /** The site's outgoing mail (logs/mail.log of the native runtime): [to, subject] each. */
  function mails(): Array<[string, string]> {
    const file = path.join(s.dirs.logDir, 'mail.log');
    if (!existsSync(file)) {
      return [];
    }
    const raw = readFileSync(file, 'utf8');
    const starts = [...raw.matchAll(/^To: /gm)].map((m) => m.index!);
    return starts.map((start, i) => {
      const message = raw.slice(start, starts[i + 1] ?? raw.length);
      const head = message.slice(0, message.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
      const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
      return [header('To'), decodeWords(header('Subject'))];
    });
  }
  /**
   * WooCommerce's failed-order mails: to the owner about the order ("Order #N has failed") and, since `since`, to the
   * buyer ("Your order at … was unsuccessful": its subject names no order, so the tests count what each one adds).
   */
  function failedMails(order: NewOrder, since = { buyer: 0 }): { owner: number; buyer: number } {
    const all = mails();
    return {
      owner: all.filter(([to, subject]) => !to.includes('buyer@example.com') && subject.includes(`#${order.id} has failed`)).length,
      buyer: all.filter(([to, subject]) => to.includes('buyer@example.com') && /was unsuccessful/i.test(subject)).length - since.buyer,
    };
  }

  async function newOrder(): Promise<NewOrder> {
    return step<NewOrder>('order');
  }

  before(async () => {
    s = await startTestStore({ name: 'test-embedded-tabs', port: 9921, sandboxPort: 9971 });
    secret = partnerSecret(s.dirs.harnessDir);
    await step('embedded');
  });
  after(async () => {
    if (s?.sandbox) {
      await sandboxAction(s, `partners/${encodeURIComponent(s.partner.token)}/block`, { blocked: false }).catch(() => {});
    }
    await s?.stop();
  });

  test("a second tab ends the first tab's unused operation at the service and gets a widget; the first tab is told", async () => {
    const order = await newOrder();
    const first = await openTab(order);
    const one = await widget(first);
    assert.equal(one.status, 200, JSON.stringify(one.body));
    const p1 = one.body.settings!.partner_operation_id;
    // The buyer reached the Confirm step: the operation exists, no card entered yet.
    await serviceHas(p1, `op-${order.id}-a`, 'pending', 1, one.body.settings!);

    const second = await openTab(order);
    const two = await widget(second);
    assert.equal(two.status, 200, JSON.stringify(two.body));
    const p2 = two.body.settings!.partner_operation_id;
    assert.notEqual(p2, p1, 'the second tab runs a payment of its own');
    assert.deepEqual(await atService(`op-${order.id}-a`).then((op) => [op?.status, op?.status_code]), ['declined', 106], 'the first operation was cancelled');
    const now = await state(order);
    assert.equal(now.notes.filter((n) => n.includes(CANCELLED)).length, 1, now.notes.join('\n'));

    // The first tab's widget reports its end (or its page's watch sees another payment): the store's words, no question to the service.
    const told = await returned(first, 'fail', p1);
    assert.equal(told.status, 200, JSON.stringify(told.body));
    assert.equal(told.body.kind, 'replaced');
    assert.ok(String(told.body.message).startsWith(REPLACED), String(told.body.message));
    // The page's watch: the order's payment is the second tab's now.
    const watched = (await (await fetch(first.state)).json()) as { attempt: unknown };
    assert.equal(watched.attempt, p2);
  });

  test("a second tab while a card payment is under way: no widget, the store's words; paid, the watch reads it", async () => {
    const order = await newOrder();
    const first = await openTab(order);
    const one = await widget(first);
    assert.equal(one.status, 200, JSON.stringify(one.body));
    const p1 = one.body.settings!.partner_operation_id;
    await serviceHas(p1, `op-${order.id}-a`, 'pending', 2, one.body.settings!);

    const second = await openTab(order);
    const two = await widget(second);
    assert.equal(two.status, 409, JSON.stringify(two.body));
    assert.equal(two.body.settings, undefined);
    assert.equal(two.body.kind, 'in_progress');
    assert.ok(String(two.body.message).startsWith(UNDER_WAY), String(two.body.message));
    assert.deepEqual(await atService(`op-${order.id}-a`).then((op) => op?.status_code), 2, 'a payment with a card entered is never cancelled');
    assert.equal((await state(order)).attempts.length, 1, 'no second payment');
    // The payment page opened again now (the order is held while the money moves): the order's own page, not WooCommerce's
    // "cannot be paid for".
    const again = await fetch(order.pay, { redirect: 'manual' });
    await again.arrayBuffer();
    assert.equal(again.status, 302);
    assert.match(again.headers.get('location') ?? '', /order-received/);

    // The payment completes; the store hears of it (the first tab's return asks the service); the second tab's watch reads "paid".
    await serviceHas(p1, `op-${order.id}-a`, 'success', 0, one.body.settings!);
    const paid = await returned(first, 'exit', p1);
    assert.equal(paid.body.kind, 'paid', JSON.stringify(paid.body));
    const watched = (await (await fetch(second.state)).json()) as { state: string };
    assert.equal(watched.state, 'paid');
  });

  test('two declines inside the widget: each noted, the second told, no "failed" mail until the widget is closed, then one', async () => {
    const order = await newOrder();
    const earlier = failedMails(order);
    const tab = await openTab(order);
    const one = await widget(tab);
    const p1 = one.body.settings!.partner_operation_id;
    await serviceHas(p1, `op-${order.id}-a`, 'declined', 101, one.body.settings!);
    const first = await returned(tab, 'fail', p1);
    assert.equal(first.body.kind, 'failed', JSON.stringify(first.body));
    assert.match(String(first.body.message), /declined/);
    let now = await state(order);
    assert.equal(now.status, 'pending', 'the buyer may still try again in the widget: not failed yet');
    assert.ok(now.retry_until !== '' && now.pending === 1, JSON.stringify(now));

    // The widget's own "Try again": a new operation under the same payment, declined too (card verification).
    await serviceHas(p1, `op-${order.id}-b`, 'declined', 104, one.body.settings!);
    const second = await returned(tab, 'fail', p1);
    assert.equal(second.body.kind, 'failed', JSON.stringify(second.body));
    assert.match(String(second.body.message), /could not be verified/, "the second decline's own words");
    now = await state(order);
    assert.equal(now.status, 'pending');
    assert.equal(now.notes.filter((n) => n.includes(MAY_RETRY)).length, 2, now.notes.join('\n'));
    assert.deepEqual(failedMails(order, earlier), { owner: 0, buyer: 0 });

    // The buyer closes the widget: the outcome is known, the order failed, one mail each.
    const closed = await returned(tab, 'exit', p1);
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    now = await state(order);
    assert.equal(now.status, 'failed');
    assert.equal(now.retry_until, '');
    assert.deepEqual(failedMails(order, earlier), { owner: 1, buyer: 1 });
    // The end of the window finds nothing more to do.
    assert.equal(await step('retry_over', { order: order.id }), 'failed');
    assert.deepEqual(failedMails(order, earlier), { owner: 1, buyer: 1 });
  });

  test('a decline inside the widget and no new try: failed, and mailed once, when the retry window ends', async () => {
    const order = await newOrder();
    const earlier = failedMails(order);
    const tab = await openTab(order);
    const one = await widget(tab);
    const p1 = one.body.settings!.partner_operation_id;
    await serviceHas(p1, `op-${order.id}-a`, 'declined', 101, one.body.settings!);
    await returned(tab, 'fail', p1);
    assert.equal((await state(order)).status, 'pending');
    assert.equal(await step('retry_over', { order: order.id }), 'failed');
    assert.deepEqual(failedMails(order, earlier), { owner: 1, buyer: 1 });
    const now = await state(order);
    assert.ok(
      now.notes.some((n) => n.includes('did not try again within 15 minutes')),
      now.notes.join('\n'),
    );
  });

  test('a new try under way when the retry window ends keeps the order waiting for it, and its success pays', async () => {
    const order = await newOrder();
    const earlier = failedMails(order);
    const tab = await openTab(order);
    const one = await widget(tab);
    const p1 = one.body.settings!.partner_operation_id;
    await serviceHas(p1, `op-${order.id}-a`, 'declined', 101, one.body.settings!);
    await returned(tab, 'fail', p1);
    // The buyer tries again in the widget; the service has the new operation, which it reports to no one yet.
    await serviceHas(p1, `op-${order.id}-b`, 'pending', 1, one.body.settings!);
    assert.equal(await step('retry_over', { order: order.id }), 'pending');
    await serviceHas(p1, `op-${order.id}-b`, 'success', 0, one.body.settings!);
    const paid = await returned(tab, 'exit', p1);
    assert.equal(paid.body.kind, 'paid', JSON.stringify(paid.body));
    // Paid (an order of nothing to ship completes at once).
    assert.ok(['processing', 'completed'].includes((await state(order)).status));
    assert.deepEqual(failedMails(order, earlier), { owner: 0, buyer: 0 });
  });

  test("a blocked partner while the widget is open: the store's words, the order kept, the owner mailed once", async () => {
    const ownerRefusals = () => mails().filter(([, subject]) => subject.includes('the service refuses your store')).length;
    assert.equal(ownerRefusals(), 0);
    const orders = [await newOrder(), await newOrder()];
    const tabs = [await openTab(orders[0]!), await openTab(orders[1]!)];
    const signed = [await widget(tabs[0]!), await widget(tabs[1]!)];
    assert.deepEqual(
      signed.map((x) => x.status),
      [200, 200],
    );
    const blocked = await sandboxAction(s, `partners/${encodeURIComponent(s.partner.token)}/block`, { blocked: true });
    assert.equal(blocked.status, 200, await blocked.text());
    try {
      for (const [i, tab] of tabs.entries()) {
        // The widget stops with the service's own "Partner blocked.": the page asks the store instead of showing it.
        const told = await returned(tab, 'error', signed[i]!.body.settings!.partner_operation_id);
        assert.equal(told.status, 200, JSON.stringify(told.body));
        assert.equal(told.body.message, KEPT);
        assert.match(String(told.body.redirect), /card2crypto-unavailable=1/);
        assert.doesNotMatch(JSON.stringify(told.body), /Partner blocked/i);
        const now = await state(orders[i]!);
        assert.equal(now.status, 'pending');
        assert.equal(now.notes.filter((n) => n.includes('The order is kept; the buyer is e-mailed a link')).length, 1, now.notes.join('\n'));
      }
      assert.equal(ownerRefusals(), 1, JSON.stringify(mails()));
    } finally {
      await sandboxAction(s, `partners/${encodeURIComponent(s.partner.token)}/block`, { blocked: false });
    }
  });
});

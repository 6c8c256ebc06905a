/**
 * "We will e-mail you a link" kept through a flapping service (issue 32,
 * point 2), in a real store: WordPress, WooCommerce with its Action
 * Scheduler, our plugins and the sandbox on the native runtime (PHP-FPM,
 * nginx, MariaDB); the sandbox blocks and unblocks the store's partner (its
 * dashboard's block action: every signed request answers 403) while the
 * "service is back" job runs on demand at awkward moments:
 *
 * - right after the service recovered, while the store's health state is
 *   still the refusal it found less than a minute ago (the job once read it,
 *   mailed nobody and was never queued again);
 * - while the service refuses again, before the store saw it recover;
 * - after the recovery, found by the job itself (no page asked) and by a
 *   page's health check, once and twice (two web servers);
 * - two runs at once: another run mails between this run's read and its claims.
 *
 * Each kept order gets exactly one "pay for this order" e-mail (WooCommerce's
 * customer invoice, read from the site's outgoing mail log), only once card
 * payment is back; the order paid and the order cancelled meanwhile get none;
 * the job queues itself again with its back-off (1, 2, 5, 10 minutes) while
 * an order waits, and nothing is left queued once every promise is kept.
 * Time moves by ageing the store's health state and running the queue on
 * demand, never by waiting.
 *
 * Run alone (it starts a store): `node --test dist/test/wordpress/service-back.test.js`
 * (npm run test:wordpress). Skipped where the native runtime is missing.
 */
import { after, before, describe, test } from 'node:test';
import { Session } from '../support/wp-session.js';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { phpStep, serviceRate } from '../support/reconcile-store.js';
import { REPO_DIR } from '../support/php.js';
import { needsNative, sandboxAction, startTestStore, type TestStore } from '../support/test-store.js';

interface Pending {
  id: number;
  args: number[];
  in: number;
}
interface Ran {
  ran: Pending;
  status: string;
  log: string[];
  pending: Pending[];
  raced: boolean;
}
interface OrderState {
  status: string;
  mark: string;
  notes: string[];
}
interface State {
  orders: Record<string, OrderState>;
  health: { state: string; at: number } | null;
  pending: Pending[];
}

const STEPS = path.join(REPO_DIR, 'plugins', 'checkout', 'test', 'support', 'service-back-steps.php');
const KEPT = 'Card payment is unavailable right now. Your order is kept: we will e-mail you a link to pay it as soon as card payment is back.';
const MAILED = 'Card2Crypto: card payment is back; the buyer was e-mailed a link to pay this order.';

describe('the "card payment is back" e-mail with a flapping service', { skip: needsNative, timeout: 10 * 60_000 }, () => {
  let s: TestStore;
  const step = <T>(action: string, input: Record<string, unknown> = {}) => phpStep<T>(s, STEPS, action, input);

  /** The sandbox blocks (403 "Partner blocked") or accepts the store's partner again, as its dashboard does. */
  async function block(blocked: boolean): Promise<void> {
    const response = await sandboxAction(s, `partners/${encodeURIComponent(s.partner.token)}/block`, { blocked });
    assert.equal(response.status, 200, await response.text());
  }

  /** Signed params requests the sandbox received from the store's partner (the health check's question), refused ones too. */
  async function paramsCalls(): Promise<number> {
    return (await serviceRate(s)).calls.params ?? 0;
  }

  /** The site's outgoing mail (the native runtime's sendmail stand-in appends each message to logs/mail.log): [to, subject] each. */
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
      return [header('To'), header('Subject')];
    });
  }

  /** The pay-link e-mails each order's buyer got (WooCommerce's customer invoice: "Details for order #N"). */
  function payLinks(orders: Record<string, string>): Record<string, number> {
    const all = mails();
    return Object.fromEntries(
      Object.entries(orders).map(([id, email]) => [
        id,
        all.filter(([to, subject]) => to.includes(email) && new RegExp(`^Details for order #${id}\\b`).test(subject)).length,
      ]),
    );
  }

  const counts = (ids: string[], n: number) => Object.fromEntries(ids.map((id) => [id, n]));

  /** Runs the waiting job once (due or not: time moved on). */
  async function runJob(race = false): Promise<Ran> {
    const ran = await step<Ran>('run', { race });
    assert.equal(ran.status, 'complete', `the job ran without error: ${ran.log.join(' / ')}`);
    assert.equal(ran.raced, race, 'the other run came between the read and the claims');
    return ran;
  }

  /** One action waits, with this argument (runs without card payment back) and due in about `seconds`. */
  function waitsOne(pending: Pending[], runs: number, seconds: number, what: string): void {
    assert.equal(pending.length, 1, `${what}: one action waits: ${JSON.stringify(pending)}`);
    assert.deepEqual(pending[0]!.args, [runs], `${what}: ${JSON.stringify(pending)}`);
    assert.ok(Math.abs(pending[0]!.in - seconds) <= 30, `${what}: due in ${pending[0]!.in} s, expected about ${seconds} s`);
  }

  /** The service refuses, and the store's background check has found it out. */
  async function refuse(): Promise<void> {
    await block(true);
    await step('found', { ago: 400 });
    const health = await step<{ state: string }>('check');
    assert.equal(health.state, 'refused');
  }

  before(async () => {
    s = await startTestStore({ name: 'test-service-back', port: 9731, sandboxPort: 9781 });
  });
  after(async () => {
    if (s?.sandbox) {
      await block(false).catch(() => {});
    }
    await s?.stop();
  });

  test('refused, recovered, refused, recovered: each kept order is mailed once, after the recovery; the paid and cancelled ones never', async () => {
    assert.equal((await step<{ state: string }>('check')).state, 'ok', 'the service accepts the store at first');
    const orders = await step<Record<string, string>>('orders', { count: 4, tag: 'flap' });
    const [a, b, c, d] = Object.keys(orders);
    const all = [a!, b!, c!, d!];

    // Outage 1: three buyers are told their order is kept; the job will look in a minute.
    await refuse();
    for (const id of [a!, b!, c!]) {
      assert.equal(await step<string>('keep', { order: id }), KEPT);
    }
    let state = await step<State>('state', { orders: all });
    waitsOne(state.pending, 1, 60, 'after the orders were kept');
    for (const id of [a!, b!, c!]) {
      assert.match(state.orders[id]!.mark, /^\d+$/, `order ${id} waits`);
    }

    // The job while refused (the refusal found a moment ago stands: the service is not asked again): no mail, back in 2 minutes.
    await step('found', { ago: 5 });
    let asked = await paramsCalls();
    let ran = await runJob();
    waitsOne(ran.pending, 2, 120, 'refused');
    assert.equal(await paramsCalls(), asked, 'a refusal younger than its minute is not asked again');
    assert.deepEqual(payLinks(orders), counts(all, 0));

    // Order B is paid another way meanwhile.
    await step('pay', { order: b });

    // Recovery 1, and the job runs at once: the store's state is still the refusal it found under a minute ago.
    // It mails nobody yet, and queues itself again (the lost e-mail of issue 32).
    await block(false);
    await step('found', { ago: 5 });
    asked = await paramsCalls();
    ran = await runJob();
    assert.equal(await paramsCalls(), asked, 'not asked within the minute');
    waitsOne(ran.pending, 3, 300, 'right after the recovery, before the store asked again');
    assert.deepEqual(payLinks(orders), counts(all, 0));

    // Outage 2 before anything saw the recovery. A minute later the job asks the service itself (one question): still refused.
    await block(true);
    await step('found', { ago: 61 });
    asked = await paramsCalls();
    ran = await runJob();
    assert.equal(await paramsCalls(), asked + 1, 'the job asked once, through the health check');
    waitsOne(ran.pending, 4, 600, 'refused again');
    assert.equal((await step<State>('state', { orders: all })).health?.state, 'refused');
    assert.deepEqual(payLinks(orders), counts(all, 0));

    // A fourth buyer is kept during outage 2: the job already waits, none is added.
    assert.equal(await step<string>('keep', { order: d }), KEPT);
    // Order C is cancelled meanwhile.
    await step('cancel', { order: c });
    state = await step<State>('state', { orders: all });
    waitsOne(state.pending, 4, 600, 'a buyer kept while the job waits');

    // Recovery 2, found by the job itself (no page asked): the minute has passed, it asks, and mails A and D.
    await block(false);
    await step('found', { ago: 61 });
    asked = await paramsCalls();
    ran = await runJob();
    assert.equal(await paramsCalls(), asked + 1, 'one question');
    assert.deepEqual(ran.pending, [], 'every promise kept: nothing is queued');
    assert.deepEqual(payLinks(orders), { ...counts([a!, d!], 1), ...counts([b!, c!], 0) });
    state = await step<State>('state', { orders: all });
    assert.equal(state.health?.state, 'ok');
    for (const id of all) {
      assert.equal(state.orders[id]!.mark, '', `order ${id} waits no more`);
      assert.equal(
        state.orders[id]!.notes.filter((n) => n === MAILED).length,
        id === a || id === d ? 1 : 0,
        `order ${id}: ${state.orders[id]!.notes.join(' / ')}`,
      );
    }
    assert.ok(['processing', 'completed'].includes(state.orders[b!]!.status), state.orders[b!]!.status);
    assert.equal(state.orders[c!]!.status, 'cancelled');

    // Two web servers' checks see the service back after the job did: each queues one run, which finds nobody to mail.
    assert.equal((await step<Pending[]>('came_back')).length, 1);
    waitsOne(await step<Pending[]>('came_back'), 0, 0, 'seen back twice');
    ran = await runJob();
    assert.deepEqual(ran.pending, []);
    assert.deepEqual(payLinks(orders), { ...counts([a!, d!], 1), ...counts([b!, c!], 0) }, 'nobody mailed twice');
    assert.deepEqual((await step<State>('state', { orders: all })).pending, [], 'nothing left queued after the last recovery');
  });

  test('a recovery seen by a page replaces the waiting run; two runs at once mail each buyer once', async () => {
    const orders = await step<Record<string, string>>('orders', { count: 3, tag: 'race' });
    const ids = Object.keys(orders);
    await refuse();
    for (const id of ids) {
      assert.equal(await step<string>('keep', { order: id }), KEPT);
    }
    waitsOne((await step<State>('state', { orders: ids })).pending, 1, 60, 'kept');
    await step('found', { ago: 5 });
    await runJob();

    // Recovered; a minute later a page's background check asks and sees it: the run waiting 2 minutes is replaced by one now.
    await block(false);
    await step('found', { ago: 61 });
    const seen = await step<State>('state', { orders: ids });
    waitsOne(seen.pending, 2, 120, 'before the page asks');
    assert.equal((await step<{ state: string }>('check')).state, 'ok');
    waitsOne((await step<State>('state', { orders: ids })).pending, 0, 0, 'seen back by a page');
    assert.deepEqual(payLinks(orders), counts(ids, 0));

    // Another web server's run mails between this run's read of the waiting orders and its claims.
    const ran = await runJob(true);
    assert.deepEqual(ran.pending, []);
    assert.deepEqual(payLinks(orders), counts(ids, 1), 'each buyer mailed once');
    const state = await step<State>('state', { orders: ids });
    for (const id of ids) {
      assert.equal(state.orders[id]!.notes.filter((n) => n === MAILED).length, 1, state.orders[id]!.notes.join(' / '));
      assert.equal(state.orders[id]!.mark, '');
    }
    assert.deepEqual(state.pending, []);
  });

  test('"Pay" pressed on a page shown before the refusal: told the order is kept, never "Invalid payment method."', async () => {
    const orders = await step<Record<string, string>>('orders', { count: 1, tag: 'race', total: '79.00' });
    const id = Object.keys(orders)[0]!;
    const payUrl = await step<string>('pay_url', { order: id });
    // The page is shown while the service accepts the store: the method is offered.
    await block(false);
    await step('found', { ago: 400 });
    assert.equal((await step<{ state: string }>('check')).state, 'ok');
    const buyer = new Session(s.storeUrl);
    const page = await buyer.request(payUrl);
    assert.equal(page.status, 200);
    const main = (html: string) =>
      (/<main[\s\S]*?<\/main>/.exec(html)?.[0] ?? html)
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .slice(0, 1500);
    assert.ok(/name="payment_method" value="card2crypto"/.test(page.text), `the method is offered on the page: ${main(page.text)}`);
    const nonce = /name="woocommerce-pay-nonce" value="([^"]+)"/.exec(page.text)?.[1];
    assert.ok(nonce, 'the payment form carries its nonce');
    // Meanwhile the store learns that the service refuses it (another request's check); then the buyer presses "Pay".
    await refuse();
    const form = new URLSearchParams({ woocommerce_pay: '1', payment_method: 'card2crypto', 'woocommerce-pay-nonce': nonce!, _wp_http_referer: payUrl });
    const answer = await buyer.request(payUrl, { form });
    assert.equal(answer.status, 200);
    assert.ok(answer.text.includes(KEPT), 'the buyer reads that the order is kept and a link comes by e-mail');
    assert.ok(!answer.text.includes('Invalid payment method.'), "WooCommerce's dead end is not shown");
    const state = await step<State>('state', { orders: [id] });
    assert.equal(state.orders[id]!.status, 'pending');
    assert.notEqual(state.orders[id]!.mark, '', 'the order is kept for the e-mail');
    assert.equal(state.orders[id]!.notes.filter((n) => n.includes('The order is kept; the buyer is e-mailed a link')).length, 1);
    await block(false);
  });

  test("with WooCommerce's posts storage (HPOS off) too: each kept buyer mailed once", async () => {
    assert.equal(await step<string>('storage', { hpos: false }), 'no');
    try {
      const orders = await step<Record<string, string>>('orders', { count: 2, tag: 'posts' });
      const ids = Object.keys(orders);
      await refuse();
      for (const id of ids) {
        assert.equal(await step<string>('keep', { order: id }), KEPT);
      }
      await block(false);
      await step('found', { ago: 61 });
      assert.equal((await step<{ state: string }>('check')).state, 'ok');
      const ran = await runJob(true);
      assert.deepEqual(ran.pending, []);
      assert.deepEqual(payLinks(orders), counts(ids, 1), 'each buyer mailed once');
      const state = await step<State>('state', { orders: ids });
      for (const id of ids) {
        assert.equal(state.orders[id]!.mark, '');
        assert.equal(state.orders[id]!.notes.filter((n) => n === MAILED).length, 1, state.orders[id]!.notes.join(' / '));
      }
    } finally {
      await step('storage', { hpos: true });
    }
  });
});

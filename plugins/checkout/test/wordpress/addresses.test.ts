/**
 * "One order, one address" in a real store (issue 31): WordPress,
 * WooCommerce, our plugins and the sandbox on the native runtime, with a new
 * address of a testnet wallet for each order. Every request is real HTTP as
 * a buyer's browser sends it (the landing link, the payment page), each
 * buyer behind its own address (X-Forwarded-For, the proxy header the owner
 * trusts); reconciliation runs on demand.
 *
 * - An unpaid order keeps one address across every "Pay" (ten presses, one
 *   index), and a client cannot take new addresses without bound.
 * - An order whose payments died gives its address back; reopening its old
 *   landing link never signs that address again (it may be the next order's
 *   now): the order gets a new one.
 * - A late success to an address given to another order since holds the
 *   order and tells the owner; the address is paid, never handed out again.
 * - A timestamp refusal (this server's clock behind the service's) retires
 *   nothing and frees nothing; the owner's status box says by how much.
 * - The landing page's fail return acts on a registered customer's order
 *   only for its customer, and repeated returns add one note.
 *
 * Run alone (it starts a store): `node --test dist/test/wordpress/addresses.test.js`.
 * Skipped where the native runtime is missing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deriveAddresses, parseLandingUrl } from '@card2crypto/core';
import { partnerSecret, serviceKnows, serviceRate, storeStep, type Seeded } from '../support/reconcile-store.js';
import { needsNative, sandboxAction, startTestStore, type TestStore } from '../support/test-store.js';

interface NewOrder {
  id: number;
  key: string;
  landing: string;
  pay: string;
}
interface Addresses {
  attempts: Array<{ id: string; partner_operation_id: string; expected_wallet: string; signed_at: string | null; retired_at: string | null; status: string }>;
  rows: Array<{ address_index: string; address: string; order_id: string; state: string }>;
  meta: { index: number; address: string; payment: string } | null;
  status: string;
}

/** A testnet account key (core's vectors/bip32-addresses.json, random-vpub-0). */
const VPUB = 'vpub5a4dEdDnep63MvxDLiqv26g1p6LS4uq2KhUq6gmaJhgzVLuVB19FJ8Deb4UbNg3Pv4UXq2AxawQgg6mRCeSWX7Eor8SG3omJPhuVgtwya1o';
const WALLET = deriveAddresses(VPUB, { from: 0, count: 40, environment: 'sandbox' }).map((a) => a.address);
const EXHAUSTED = 'Too many new card payments from your connection in a short time. Please try again later.';

describe('one order, one address, in a real store', { skip: needsNative, timeout: 10 * 60_000 }, () => {
  let s: TestStore;
  let secret: string;
  let client = 0;
  /** A buyer of its own: another address behind the trusted proxy. */
  const buyer = () => `203.0.113.${++client}`;

  /** The landing link followed as a browser does; where it sends the buyer. */
  async function land(order: NewOrder, from: string): Promise<{ address: string | null; partnerOperationId: string | null; location: string }> {
    const response = await fetch(order.landing, { redirect: 'manual', headers: { 'x-forwarded-for': from } });
    const body = await response.text();
    assert.equal(response.status, 302, `the landing link ${order.landing} redirects (order ${order.id}; store ${s.storeUrl}): ${body.slice(0, 300)}`);
    const location = response.headers.get('location') ?? '';
    const landing = parseLandingUrl(location);
    if (!landing.ok) {
      return { address: null, partnerOperationId: null, location };
    }
    return { address: String(landing.payload.params.to_account), partnerOperationId: String(landing.payload.params.partner_operation_id), location };
  }
  const addresses = (order: NewOrder) => storeStep<Addresses>(s, 'addresses', { order: order.id });
  const newOrder = (customer = false) => storeStep<NewOrder>(s, 'order', { customer });
  /** The words a "told" redirect keeps for the order's payment page, read as the buyer's browser does. */
  async function told(location: string, from: string): Promise<string> {
    const first = await fetch(location, { redirect: 'manual', headers: { 'x-forwarded-for': from } });
    await first.arrayBuffer();
    const cookie = (first.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
    const page = await fetch(new URL(first.headers.get('location') ?? location, location), { headers: { cookie, 'x-forwarded-for': from } });
    return page.text();
  }

  before(async () => {
    s = await startTestStore({ name: 'test-addresses', port: 9761, sandboxPort: 9811 });
    secret = partnerSecret(s.dirs.harnessDir);
    await storeStep(s, 'settings', { trust_proxy_header: 'X-Forwarded-For', reconcile_rate: '10' });
    const gap = await storeStep<{ gap: number }>(s, 'wallet', { key: VPUB, gap_limit: '20' });
    assert.equal(gap.gap, 0);
  });
  after(() => s?.stop());

  test('ten "Pay" presses of one order: one address; a client takes at most ten new ones an hour', async () => {
    const order = await newOrder();
    const from = buyer();
    const presses = [];
    for (let i = 0; i < 10; i++) {
      presses.push(await land(order, from));
    }
    if (presses[0]!.address === null) {
      // Say what the buyer was told instead of a landing page.
      const page = await told(presses[0]!.location, from);
      assert.fail(
        `no landing page: ${
          /woocommerce-(error|info|message)[^>]*>([\s\S]*?)<\/(ul|div)>/
            .exec(page)?.[2]
            ?.replace(/<[^>]+>/g, ' ')
            .trim() ?? presses[0]!.location
        }`,
      );
    }
    assert.equal(presses.filter((p) => p.address === null).length, 0, JSON.stringify(presses.map((p) => p.location)));
    assert.deepEqual(new Set(presses.map((p) => p.address)), new Set([WALLET[0]]), 'every press signs the order its one address');
    const held = await addresses(order);
    assert.deepEqual(
      held.rows.map((r) => [r.address_index, r.state]),
      [['0', 'held']],
      'one index for the order',
    );
    assert.deepEqual(held.meta, { index: 0, address: WALLET[0], payment: held.meta!.payment });
    assert.ok(held.attempts.every((a) => a.expected_wallet === WALLET[0]));

    // One visitor with orders of its own: ten new addresses, then plain words and no address.
    const flood = buyer();
    const taken = [];
    for (let i = 0; i < 11; i++) {
      taken.push(await land(await newOrder(), flood));
    }
    assert.deepEqual(
      taken.map((t) => t.address),
      [...WALLET.slice(1, 11), null],
    );
    assert.match(await told(taken[10]!.location, flood), new RegExp(EXHAUSTED.replace(/\./g, '\\.')));
    // Another buyer still pays.
    assert.equal((await land(await newOrder(), buyer())).address, WALLET[11]);
  });

  test("a dead payment's address goes to the next order; its old landing link never signs it again", async () => {
    const first = await newOrder();
    const signed = await land(first, buyer());
    const address = signed.address!;
    // The buyer never started paying: after the payment window, the service says it never heard of the payment.
    await storeStep(s, 'age', { order: first.id, seconds: 7200 });
    await storeStep(s, 'run', { seconds: 30, batch_seconds: 5 });
    const dead = await addresses(first);
    assert.ok(
      dead.attempts.every((a) => a.retired_at !== null),
      JSON.stringify(dead.attempts),
    );
    assert.deepEqual(
      dead.rows.map((r) => [r.address, r.state]),
      [[address, 'free']],
    );
    assert.equal(dead.meta, null, 'the order forgets the address');

    // The next order takes the freed address (the lowest free index) ...
    const next = await newOrder();
    assert.equal((await land(next, buyer())).address, address, 'a freed index is taken first');
    // ... and the first order's buyer, coming back through the old link, gets an address of its own.
    const back = await land(first, buyer());
    assert.ok(back.address, back.location);
    assert.notEqual(back.address, address, "never the address that is the next order's now");
    assert.notEqual(back.partnerOperationId, signed.partnerOperationId, 'a new payment, not the dead one signed again');
    const now = await addresses(first);
    assert.deepEqual(
      now.rows.filter((r) => r.state === 'held').map((r) => r.address),
      [back.address],
    );
    assert.equal((await addresses(next)).rows[0]!.address, address);
  });

  test('a late success to an address given to another order since: held, the owner told, the address never given again', async () => {
    const late = await newOrder();
    const signed = await land(late, buyer());
    await storeStep(s, 'age', { order: late.id, seconds: 7200 });
    await storeStep(s, 'run', { seconds: 30, batch_seconds: 5 });
    const other = await newOrder();
    const from = buyer();
    assert.equal((await land(other, from)).address, signed.address, 'the freed address went to the other order');

    // The buyer of the first order paid after all, in a window left open: the service reports the success.
    const seed: Seeded = {
      first: late.id,
      last: late.id,
      tag: '',
      currency: 'EUR',
      amount: 7900,
      wallet: signed.address!,
      pending: { batch: 0, per_order: 0, first: null },
    };
    await serviceKnows(s, secret, { ...seed, tag: signed.partnerOperationId!.replace(`wc-${late.id}-`, '') }, [[late.id, 'paid']]);
    await storeStep(s, 'check', { order: late.id });
    const held = await addresses(late);
    assert.equal(held.status, 'on-hold', "never completed: the address is another order's");
    const notes = await storeStep<string[]>(s, 'notes', { order: late.id });
    assert.ok(
      notes.some((n) => n.includes(`the address ${signed.address} now belongs to order ${other.id}`)),
      notes.join('\n'),
    );
    // Money arrived there: paid, whoever held it; the other order's next payment gets a new address.
    assert.deepEqual(
      (await addresses(other)).rows.map((r) => r.state),
      ['paid'],
    );
    const again = await land(other, from);
    assert.ok(again.address && again.address !== signed.address, again.location);
  });

  test("the service refuses this server's timestamps: nothing retired or freed, the owner told by how much", async () => {
    const order = await newOrder();
    const signed = await land(order, buyer());
    await storeStep(s, 'age', { order: order.id, seconds: 7200 });
    const calls = (await serviceRate(s)).operation_calls;
    // The service's clock 10 s ahead: this store's timestamps are 10 s behind it, past the 5 s it accepts.
    const clock = (offset: number) => sandboxAction(s, 'clock', { offset_ms: offset }).then((r) => assert.equal(r.status, 200));
    await clock(10_000);
    try {
      const run = await storeStep<{ rounds: Array<{ after: { batch: number; first: number | null }; ended: number }> }>(s, 'run', {
        seconds: 20,
        batch_seconds: 5,
      });
      assert.equal(run.rounds.length, 1, 'the batch stops at the refusal');
      const next = run.rounds[0]!.after;
      assert.equal(next.batch, 1);
      assert.ok(next.first! >= run.rounds[0]!.ended + 290, `the next batch waits (${next.first! - run.rounds[0]!.ended} s)`);
      assert.equal((await serviceRate(s)).operation_calls, calls + 1, 'one question, refused');
      const still = await addresses(order);
      assert.ok(
        still.attempts.every((a) => a.retired_at === null),
        'a timestamp refusal is no news about the payment',
      );
      assert.deepEqual(
        still.rows.map((r) => [r.address, r.state]),
        [[signed.address, 'held']],
      );
      const box = await storeStep<string>(s, 'status_box');
      assert.match(box, /data-card2crypto="clock-off"[\s\S]*?this server&#039;s clock is (9|10|11) seconds behind the service&#039;s/);
    } finally {
      await clock(0);
    }
    // The clock right again: the payment is asked about, and retired as the service never heard of it.
    await storeStep(s, 'age', { order: order.id, seconds: 7200 });
    const rerun = await storeStep(s, 'run', { seconds: 30, batch_seconds: 5 });
    const after_ = await addresses(order);
    assert.ok(
      after_.attempts.every((a) => a.retired_at !== null),
      JSON.stringify({ rerun, after_, check: await storeStep(s, 'check', { order: order.id }) }),
    );
    assert.doesNotMatch(await storeStep<string>(s, 'status_box'), /clock-off/, 'answered again: the warning goes');
  });

  test("the landing page's fail return acts on a registered customer's order only for its customer; repeated returns add one note", async () => {
    const customers = await newOrder(true);
    await land(customers, buyer()); // Not the customer: the landing link itself sends a stranger to log in.
    const calls = (await serviceRate(s)).operation_calls;
    const url = `${customers.pay}&card2crypto-return=1`;
    const stranger = await fetch(url, { redirect: 'manual', headers: { 'x-forwarded-for': buyer() } });
    const page = await stranger.text();
    assert.notEqual(stranger.status, 302, 'not redirected as a return');
    assert.match(page, /log in|Log in|login/i, "WooCommerce's page asks the customer to log in");
    assert.equal((await serviceRate(s)).operation_calls, calls, 'the service is not asked');
    assert.deepEqual(
      (await storeStep<string[]>(s, 'notes', { order: customers.id })).filter((n) => n.includes('The buyer was told')),
      [],
      'no note',
    );

    const guest = await newOrder();
    const from = buyer();
    await land(guest, from);
    for (let i = 0; i < 3; i++) {
      const back = await fetch(`${guest.pay}&card2crypto-return=1`, { redirect: 'manual', headers: { 'x-forwarded-for': from } });
      await back.arrayBuffer();
      assert.equal(back.status, 302);
    }
    const notes = (await storeStep<string[]>(s, 'notes', { order: guest.id })).filter((n) => n.includes('The buyer was told'));
    assert.equal(notes.length, 1, notes.join('\n'));
  });
});

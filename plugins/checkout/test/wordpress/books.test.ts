/**
 * The owner's books in a real store (issue 36, point 4): WordPress,
 * WooCommerce, the checkout and the sandbox on the native runtime (PHP-FPM,
 * nginx, MariaDB), the site in Tokyo's time zone.
 *
 * Buyers follow the orders' landing links (the store signs each payment);
 * the service (the sandbox's test helper) then has a paid, a declined, a
 * pending operation, and one order whose first operation was declined and
 * whose second, in the same payment, was paid; the owner's "refresh" asks the
 * service and the store applies what it says. Two payments were never begun
 * (abandoned), one is still open, and one paid order is a real one (no
 * test-mode mark).
 *
 * - REST (GET /card2crypto/v1/books): the exact CSV (every row, amounts as
 *   text, the dates in the site's time zone) and JSON, a date range by the
 *   site's days, 400 naming the field for a bad date, a range that ends
 *   before it starts, an unknown format; 403 without view_woocommerce_reports
 *   (a shop manager whose capability was taken away), 401 for a visitor;
 *   allowed to an accountant with that capability alone.
 * - The orders screen: the export's fields and their form with its nonce;
 *   the download over admin-post.php (the same CSV), refused without the
 *   nonce, 403 with a nonce for a user without the capability, 400 naming
 *   the field for a bad date.
 * - The settings page: the chart's numbers for the last 30 days of test
 *   payments in the page (no request), its box beside the status box.
 * - Neither the partner secret nor any card detail in anything exported.
 * - Read in pages by the created_at indexes (any page size, the same rows);
 *   20,000 operations streamed in a few megabytes; tables the database
 *   cannot read give a 500 that says so, never an empty file.
 *
 * Run alone (it starts a store): `node --test dist/test/wordpress/books.test.js`.
 * Skipped where the native runtime is missing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { parseLandingUrl, sign } from '@card2crypto/core';
import { SANDBOX_OPERATIONS_PATH } from '@card2crypto/sandbox';
import { REPO_DIR } from '../support/php.js';
import { partnerSecret, phpStep, storeStep } from '../support/reconcile-store.js';
import { Session } from '../support/wp-session.js';
import { needsNative, startTestStore, type TestStore } from '../support/test-store.js';

interface NewOrder {
  id: number;
  key: string;
  landing: string;
}
interface Landed {
  order: number;
  pid: string;
  address: string;
  currency: string;
  amount: number;
}
interface Stored {
  attempts: Array<{ id: string; order_id: string; partner_operation_id: string; created_at: string }>;
  operations: Array<{ id: string; order_id: string; operation_id: string; created_at: string }>;
}
interface ChartDay {
  date: string;
  label: string;
  paid: number;
  declined: number;
  abandoned: number;
  sats: string;
  btc: string;
}
interface Chart {
  test: boolean;
  days: ChartDay[];
  totals: { paid: number; declined: number; abandoned: number; sats: string; btc: string };
  summary: string;
  texts: Record<string, string>;
}

const STEPS = path.join(REPO_DIR, 'plugins', 'checkout', 'test', 'support', 'books-steps.php');
const PASSWORD = 'Books-test-password-1';
const COLUMNS =
  'date,order_id,partner_operation_id,operation_id,outcome,status,status_code,fiat_amount,fiat_currency,btc_amount,rate,wallet_address,transaction_hash,test';
/** Tokyo: UTC+9 all year (no daylight saving), so a stored UTC time's local day is plain arithmetic. */
const OFFSET_HOURS = 9;

/** A stored UTC time (MySQL format) as the books write it: ISO 8601 in Tokyo's time. */
function tokyo(utc: string): string {
  const local = new Date(Date.parse(`${utc.replace(' ', 'T')}Z`) + OFFSET_HOURS * 3600_000);
  return `${local.toISOString().slice(0, 19)}+09:00`;
}
/** The Tokyo day (YYYY-MM-DD) of a Unix time in milliseconds. */
const tokyoDay = (ms: number) => new Date(ms + OFFSET_HOURS * 3600_000).toISOString().slice(0, 10);

/** CSV lines (the books quote no cell of these rows: every one is a plain word, number, address or id). */
const lines = (csv: string) => csv.split('\r\n').filter((l) => l !== '');

describe("the owner's books in a real store", { skip: needsNative, timeout: 15 * 60_000 }, () => {
  let s: TestStore;
  let secret: string;
  let admin: Session;
  let client = 0;
  const step = <T>(action: string, input: Record<string, unknown> = {}) => phpStep<T>(s, STEPS, action, input);
  const newOrder = () => storeStep<NewOrder>(s, 'order', {});
  /** Whether the sandbox's helper answered, and the rate it reported for each operation (as it wrote it). */
  const rates = new Map<string, string>();
  const orders: Record<string, Landed> = {};
  /** The CSV row each payment is expected to give, by operation id (or the partner id of an abandoned one), date left out. */
  const expected = new Map<string, string[]>();

  /** The order's landing link, followed as a buyer's browser does: the store signs a payment for it. */
  async function land(order: NewOrder): Promise<Landed> {
    const response = await fetch(order.landing, { redirect: 'manual', headers: { 'x-forwarded-for': `203.0.113.${++client}` } });
    await response.arrayBuffer();
    assert.equal(response.status, 302, `the landing link redirects (order ${order.id})`);
    const landing = parseLandingUrl(response.headers.get('location') ?? '');
    assert.ok(landing.ok, `a landing page for order ${order.id}: ${response.headers.get('location')}`);
    const params = landing.payload.params;
    return {
      order: order.id,
      pid: String(params.partner_operation_id),
      address: String(params.to_account),
      currency: String(params.from_currency),
      amount: Number(params.from_amount),
    };
  }

  /** The service has operation `id` for the payment (the sandbox's signed test helper); the store's owner then refreshes. */
  async function serviceHas(landed: Landed, id: string, status: 'success' | 'declined' | 'pending', code: number, sats: number, tx?: string): Promise<void> {
    const body: Record<string, unknown> = {
      partner_token: s.partner.token,
      timestamp: Date.now(),
      operation_id: id,
      partner_operation_id: landed.pid,
      status,
      status_code: code,
      from_currency: landed.currency,
      from_amount: landed.amount,
      to_currency: 'BTC',
      to_amount: sats,
      to_account: landed.address,
      ...(tx ? { blockchain_tx_id: tx } : {}),
    };
    body.signature = sign(body, secret, { form: 'general' });
    const response = await fetch(`${s.sandbox!.url}${SANDBOX_OPERATIONS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    // The rate as the service wrote it in its JSON (the text, not a float's rendering here).
    const rate = /"currency_rate":(-?[0-9.eE+-]+)/.exec(text)?.[1];
    assert.ok(rate, text);
    rates.set(id, rate);
    const checked = await storeStep<Array<{ ok: boolean; message: string | null }>>(s, 'check', { order: landed.order });
    assert.ok(
      checked.some((c) => c.ok),
      JSON.stringify(checked),
    );
  }

  before(async () => {
    // Action Scheduler's runners and WP-Cron stay idle: only the owner's refresh asks the service.
    s = await startTestStore({ name: 'test-books', port: 9861, sandboxPort: 9871, noCron: true });
    secret = partnerSecret(s.dirs.harnessDir);
    // Each buyer its own address behind the trusted proxy (the start budget is per client).
    await storeStep(s, 'settings', { trust_proxy_header: 'X-Forwarded-For' });
    const users = await step<Record<string, { login: string; reports: boolean; manage: boolean }>>('setup', { timezone: 'Asia/Tokyo', password: PASSWORD });
    assert.deepEqual(users, {
      manager: { login: 'books-manager', reports: true, manage: true },
      limited: { login: 'books-limited', reports: false, manage: true },
      accountant: { login: 'books-accountant', reports: true, manage: false },
    });
    admin = new Session(s.storeUrl);
    await admin.login(s.admin.username, s.admin.password);

    // The payments. Every one asks 79.00 EUR of the store's one wallet address.
    for (const name of ['paid', 'real', 'declined', 'retried', 'pending', 'abandoned', 'old', 'open']) {
      orders[name] = await land(await newOrder());
    }
    assert.equal(orders.paid!.currency, 'EUR');
    assert.equal(orders.paid!.amount, 7900);
    const address = orders.paid!.address;
    await serviceHas(orders.paid!, 'op-books-paid', 'success', 0, 131579, 'tx-books-paid');
    await serviceHas(orders.real!, 'op-books-real', 'success', 0, 131580, 'tx-books-real');
    await serviceHas(orders.declined!, 'op-books-declined', 'declined', 104, 131000);
    // The buyer tried again inside the widget: a second operation under the same payment.
    await serviceHas(orders.retried!, 'op-books-retry-1', 'declined', 101, 130500);
    await serviceHas(orders.retried!, 'op-books-retry-2', 'success', 6, 130400, 'tx-books-retry');
    await serviceHas(orders.pending!, 'op-books-pending', 'pending', 2, 131200);
    // Never begun at the service, and the time to pay is over (two hours ago); "open" is still within its hour.
    await storeStep(s, 'age', { order: orders.abandoned!.order, seconds: 7200 });
    await storeStep(s, 'age', { order: orders.old!.order, seconds: 7200 });
    // Recorded earlier: the declined one three days ago, the old abandoned one forty.
    await step('shift', { order: orders.declined!.order, days: 3 });
    await step('shift', { order: orders.old!.order, days: 40 });
    assert.equal(await step<boolean>('unmark', { order: orders.real!.order }), false, 'the real order has no test mark');

    const row = (o: Landed, operation: string, outcome: string, status: string, code: string, sats: string, rate: string, tx: string, isTest = 'yes') => [
      String(o.order),
      o.pid,
      operation,
      outcome,
      status,
      code,
      '79.00',
      'EUR',
      sats,
      rate,
      address,
      tx,
      isTest,
    ];
    expected.set('op-books-paid', row(orders.paid!, 'op-books-paid', 'paid', 'success', '0', '0.00131579', rates.get('op-books-paid')!, 'tx-books-paid'));
    expected.set('op-books-real', row(orders.real!, 'op-books-real', 'paid', 'success', '0', '0.00131580', rates.get('op-books-real')!, 'tx-books-real', 'no'));
    expected.set(
      'op-books-declined',
      row(orders.declined!, 'op-books-declined', 'declined', 'declined', '104', '0.00131000', rates.get('op-books-declined')!, ''),
    );
    // The first operation of the retried payment: the order's details are the second's, so only what the payment asked is known.
    expected.set('op-books-retry-1', row(orders.retried!, 'op-books-retry-1', 'declined', 'declined', '101', '', '', ''));
    expected.set(
      'op-books-retry-2',
      row(orders.retried!, 'op-books-retry-2', 'paid', 'success', '6', '0.00130400', rates.get('op-books-retry-2')!, 'tx-books-retry'),
    );
    expected.set('op-books-pending', row(orders.pending!, 'op-books-pending', 'pending', 'pending', '2', '0.00131200', rates.get('op-books-pending')!, ''));
    expected.set(orders.abandoned!.pid, row(orders.abandoned!, '', 'abandoned', '', '', '', '', ''));
    expected.set(orders.old!.pid, row(orders.old!, '', 'abandoned', '', '', '', '', ''));
  });
  after(() => s?.stop());

  /** Every row expected, oldest first, with its date from the store's records. */
  async function allRows(): Promise<string[]> {
    const stored = await step<Stored>('stored', { orders: Object.values(orders).map((o) => o.order) });
    const dated: Array<[string, number, string[]]> = [];
    for (const op of stored.operations) {
      dated.push([op.created_at, Number(op.id), [tokyo(op.created_at), ...expected.get(op.operation_id)!]]);
    }
    for (const name of ['abandoned', 'old']) {
      const attempt = stored.attempts.find((a) => a.partner_operation_id === orders[name]!.pid)!;
      dated.push([attempt.created_at, 1e12 + Number(attempt.id), [tokyo(attempt.created_at), ...expected.get(attempt.partner_operation_id)!]]);
    }
    assert.equal(dated.length, 8, 'six operations and two abandoned payments; the open one is not in the books');
    return dated.sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1)).map(([, , cells]) => cells.join(','));
  }

  test('REST: the whole books as CSV, exact to the digit, oldest first', async () => {
    const answer = await admin.rest('/books');
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(answer.headers.get('content-disposition'), 'attachment; filename="card2crypto-payments.csv"');
    assert.deepEqual(lines(answer.text), [COLUMNS, ...(await allRows())]);
    assert.ok(answer.text.endsWith('\r\n'));
    for (const rate of rates.values()) {
      assert.match(rate, /^[0-9]+(\.[0-9]+)?$/, 'the sandbox writes plain decimal rates');
    }
    assert.ok(!answer.text.includes(secret), 'never the partner secret');
    assert.doesNotMatch(answer.text, /4242|TEST BUYER|buyer@example\.com/, 'no card or buyer detail');
  });

  test('read in pages: any page size gives the same rows in the same order (keyset paging through ties of one second)', async () => {
    const [whole] = await step<Array<Array<[string, string]>>>('pages', { size: 500 });
    assert.equal(whole!.length, 8);
    const small = await step<Array<Array<[string, string]>>>('pages', { size: 3 });
    assert.deepEqual(
      small.map((p) => p.length),
      [3, 3, 2],
    );
    assert.deepEqual(small.flat(), whole);
    assert.deepEqual(
      whole!.map(([kind]) => kind),
      ['abandoned', 'operation', 'abandoned', 'operation', 'operation', 'operation', 'operation', 'operation'],
    );
    const indexes = await step<{ indexes: string[][]; version: string }>('indexes');
    assert.deepEqual(indexes, { indexes: [['created_at'], ['created_at']], version: '7' }, 'both tables are read by their created_at index');
  });

  test('REST: JSON, the same rows; a date range is days of the site (Tokyo)', async () => {
    const csv = lines((await admin.rest('/books')).text).slice(1);
    const json = await admin.rest('/books?format=json');
    assert.equal(json.status, 200, json.text);
    assert.equal(json.headers.get('content-type'), 'application/json; charset=utf-8');
    const rows = JSON.parse(json.text) as Array<Record<string, unknown>>;
    assert.deepEqual(
      rows.map((r) =>
        COLUMNS.split(',')
          .map((c) => (c === 'test' ? (r[c] ? 'yes' : 'no') : r[c] === null ? '' : String(r[c])))
          .join(','),
      ),
      csv,
    );
    assert.equal(typeof rows.find((r) => r.outcome === 'paid')!.status_code, 'number');
    assert.equal(rows.find((r) => r.outcome === 'abandoned')!.status_code, null);
    assert.ok(
      rows.every((r) => typeof r.fiat_amount === 'string' && typeof r.btc_amount === 'string' && typeof r.rate === 'string'),
      'amounts stay text',
    );

    // The declined payment's day alone (three days ago in Tokyo), then from the day after it on.
    const declined = csv.find((l) => l.includes('op-books-declined'))!;
    const day = declined.slice(0, 10);
    const only = await admin.rest(`/books?from=${day}&to=${day}`);
    assert.equal(only.status, 200, only.text);
    assert.equal(only.headers.get('content-disposition'), `attachment; filename="card2crypto-payments-from-${day}-to-${day}.csv"`);
    assert.deepEqual(lines(only.text), [COLUMNS, ...csv.filter((l) => l.startsWith(day))]);
    assert.ok(lines(only.text).includes(declined));
    const next = tokyoDay(Date.parse(`${day}T00:00:00Z`) + 86_400_000 - OFFSET_HOURS * 3600_000);
    const since = await admin.rest(`/books?from=${next}`);
    assert.deepEqual(lines(since.text), [COLUMNS, ...csv.filter((l) => l.slice(0, 10) >= next)]);
    assert.ok(!since.text.includes('op-books-declined') && !since.text.includes(orders.old!.pid));
    const until = await admin.rest(`/books?to=${day}`);
    assert.deepEqual(lines(until.text), [COLUMNS, ...csv.filter((l) => l.slice(0, 10) <= day)]);
    assert.equal(lines(until.text).length, 3, 'the old abandoned payment and the declined one');
  });

  test('REST: a bad date, a range ending before it starts, an unknown format: 400 naming the field', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['?from=2025-02-30', 'from', /^from must be a date written YYYY-MM-DD, for example 2025-01-31\.$/],
      ['?from=2025-01-01&to=31/01/2025', 'to', /^to must be a date written YYYY-MM-DD/],
      ['?from=2025-03-02&to=2025-03-01', 'to', /^to must be the same day as from or a later one\.$/],
      ['?format=xml', 'format', /^format is not one of csv and json\.$/],
    ];
    for (const [query, field, message] of cases) {
      const answer = await admin.rest(`/books${query}`);
      assert.equal(answer.status, 400, `${query}: ${answer.text}`);
      const body = JSON.parse(answer.text) as { code: string; message: string; data: { params: Record<string, string> } };
      assert.equal(body.code, 'rest_invalid_param');
      assert.deepEqual(Object.keys(body.data.params), [field], query);
      assert.match(body.data.params[field]!, message, query);
    }
  });

  test('tables the database cannot read: 500 saying so, never an empty file', async () => {
    assert.equal(await step('tables', { away: true }), true);
    try {
      const rest = await admin.rest('/books');
      assert.equal(rest.status, 500, rest.text);
      const body = JSON.parse(rest.text) as { code: string; message: string };
      assert.equal(body.code, 'card2crypto_books_unreadable');
      assert.match(body.message, /The card payments cannot be read from the database right now/);
      const page = await admin.request('/wp-admin/admin.php?page=wc-orders');
      const nonce = /<form id="card2crypto-books-export"[\s\S]*?name="_wpnonce" value="([0-9a-f]+)"/.exec(page.text)?.[1];
      const download = await admin.request(`/wp-admin/admin-post.php?action=card2crypto_checkout_books&_wpnonce=${nonce}`);
      assert.equal(download.status, 500);
      assert.doesNotMatch(download.headers.get('content-type') ?? '', /csv/);
      assert.match(download.text, /The card payments cannot be read from the database right now/);
    } finally {
      assert.equal(await step('tables', { away: false }), true);
    }
  });

  test('REST: for those who may see the reports: 403 without view_woocommerce_reports, 401 for a visitor', async () => {
    const as = async (who: string) => {
      const session = new Session(s.storeUrl);
      await session.login(`books-${who}`, PASSWORD);
      return session.rest('/books');
    };
    const limited = await as('limited');
    assert.equal(limited.status, 403, limited.text);
    assert.equal((JSON.parse(limited.text) as { code: string }).code, 'rest_forbidden');
    const manager = await as('manager');
    assert.equal(manager.status, 200);
    assert.equal(lines(manager.text).length, 9);
    const accountant = await as('accountant');
    assert.equal(accountant.status, 200, 'the reports capability alone is enough');
    assert.equal(accountant.text, manager.text);
    const visitor = await fetch(`${s.storeUrl}/wp-json/card2crypto/v1/books`);
    assert.equal(visitor.status, 401);
    assert.equal(((await visitor.json()) as { code: string }).code, 'rest_forbidden');
    // A logged-in cookie without the REST nonce is a visitor too (WordPress's protection against forged requests).
    const noNonce = await admin.request('/wp-json/card2crypto/v1/books');
    assert.equal(noNonce.status, 401);
  });

  test("the orders screen: the export's fields, its form with a nonce; the download, refused without the nonce or the capability", async () => {
    assert.equal((s.woocommerce as { hpos: boolean }).hpos, true, "WooCommerce's order tables");
    const page = await admin.request('/wp-admin/admin.php?page=wc-orders');
    assert.equal(page.status, 200);
    const fields = /<div class="alignleft actions card2crypto-books-export"[\s\S]*?<\/div>/.exec(page.text)?.[0] ?? '';
    assert.match(
      fields,
      /<label for="card2crypto-books-from">Card payments from<\/label> <input type="date" id="card2crypto-books-from" name="from" form="card2crypto-books-export"/,
    );
    assert.match(fields, /<input type="date" id="card2crypto-books-to" name="to" form="card2crypto-books-export"/);
    assert.match(fields, /<button type="submit" class="button" form="card2crypto-books-export"[^>]*>Export card payments \(CSV\)<\/button>/);
    // Its form stands outside the list's form (forms do not nest), at the foot of the page.
    const form = /<form id="card2crypto-books-export" method="get" action="([^"]+)">([\s\S]*?)<\/form>/.exec(page.text);
    assert.ok(form, 'the form');
    assert.equal(form[1], `${s.storeUrl}/wp-admin/admin-post.php`);
    const nonce = /name="_wpnonce" value="([0-9a-f]+)"/.exec(form[2]!)?.[1];
    assert.ok(nonce);
    assert.match(form[2]!, /name="action" value="card2crypto_checkout_books"/);
    const listForm = page.text.indexOf('id="wc-orders-filter"');
    assert.ok(listForm === -1 || page.text.indexOf('<form id="card2crypto-books-export"') > page.text.indexOf('</form>', listForm));

    // The download as the browser sends the form: the same CSV as the REST API's.
    const csv = (query: string) => admin.request(`/wp-admin/admin-post.php?action=card2crypto_checkout_books${query}`);
    const all = await csv(`&_wpnonce=${nonce}&from=&to=`);
    assert.equal(all.status, 200, all.text.slice(0, 300));
    assert.equal(all.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(all.headers.get('content-disposition'), 'attachment; filename="card2crypto-payments.csv"');
    assert.match(all.headers.get('cache-control') ?? '', /no-store/);
    assert.deepEqual(lines(all.text), [COLUMNS, ...(await allRows())]);
    const day = lines(all.text)
      .find((l) => l.includes('op-books-declined'))!
      .slice(0, 10);
    const range = await csv(`&_wpnonce=${nonce}&from=${day}&to=${day}`);
    assert.equal(range.status, 200);
    assert.deepEqual(
      lines(range.text).map((l) => l.split(',')[3]),
      ['operation_id', 'op-books-declined'],
    );

    const bad = await csv(`&_wpnonce=${nonce}&from=2025-13-01`);
    assert.equal(bad.status, 400);
    assert.match(bad.text, /from must be a date written YYYY-MM-DD, for example 2025-01-31\./);
    const missing = await csv('&from=');
    assert.equal(missing.status, 403, 'no nonce');
    assert.doesNotMatch(missing.text, /op-books/);
    const forged = await csv('&_wpnonce=0123456789');
    assert.equal(forged.status, 403, 'a wrong nonce');

    // A shop manager without the reports capability: no fields on the screen, and refused even with a nonce of their own.
    const limited = new Session(s.storeUrl);
    await limited.login('books-limited', PASSWORD);
    const theirs = await limited.request('/wp-admin/admin.php?page=wc-orders');
    assert.equal(theirs.status, 200);
    assert.doesNotMatch(theirs.text, /card2crypto-books-export/);
    const ownNonce = await step<string>('nonce', { cookie: limited.loggedIn(), action: 'card2crypto_checkout_books' });
    const refused = await limited.request(`/wp-admin/admin-post.php?action=card2crypto_checkout_books&_wpnonce=${ownNonce}`);
    assert.equal(refused.status, 403);
    assert.match(refused.text, /You are not allowed to export the card payments\./);
  });

  test('the settings page: the last 30 days of test payments beside the status box, from the page alone', async () => {
    const before_ = Date.now();
    const page = await admin.request('/wp-admin/admin.php?page=wc-settings&tab=checkout&section=card2crypto');
    assert.equal(page.status, 200);
    const data = /window\.card2cryptoBooksChart=(\{[\s\S]*?\});\n/.exec(page.text)?.[1];
    assert.ok(data, 'the chart has its numbers in the page');
    const chart = JSON.parse(data) as Chart;
    assert.match(page.text, /<script[^>]+src="[^"]*\/build\/books-chart\.js\?ver=[0-9a-f]+"/);
    // Beside the status box, in one row.
    const overview = /<div class="card2crypto-overview"[^>]*>([\s\S]*?)<div id="card2crypto-books-chart-root"><\/div>/.exec(page.text)?.[1] ?? '';
    assert.match(overview, /card2crypto-status-box/);
    assert.match(overview, /data-card2crypto="books-chart"/);
    assert.match(overview, /Test card payments, last 30 days \(sandbox\)/);

    // The sandbox: test payments only (the real paid order is not among them), by the site's days.
    assert.equal(chart.test, true);
    assert.equal(chart.days.length, 30);
    assert.equal(chart.days.at(-1)!.date, tokyoDay(before_), 'ending today, in Tokyo');
    assert.equal(chart.days[0]!.date, tokyoDay(before_ - 29 * 86_400_000));
    const stored = await step<Stored>('stored', { orders: Object.values(orders).map((o) => o.order) });
    const dayOf = (utc: string) => tokyoDay(Date.parse(`${utc.replace(' ', 'T')}Z`));
    const want = new Map<string, { paid: number; declined: number; abandoned: number; sats: number }>();
    const add = (utc: string, outcome: 'paid' | 'declined' | 'abandoned', sats = 0) => {
      const day = want.get(dayOf(utc)) ?? { paid: 0, declined: 0, abandoned: 0, sats: 0 };
      day[outcome]++;
      day.sats += sats;
      want.set(dayOf(utc), day);
    };
    const op = (id: string) => stored.operations.find((o) => o.operation_id === id)!.created_at;
    add(op('op-books-paid'), 'paid', 131579);
    add(op('op-books-retry-2'), 'paid', 130400);
    add(op('op-books-declined'), 'declined');
    add(op('op-books-retry-1'), 'declined');
    add(stored.attempts.find((a) => a.partner_operation_id === orders.abandoned!.pid)!.created_at, 'abandoned');
    const got = chart.days.filter((d) => d.paid + d.declined + d.abandoned > 0);
    assert.deepEqual(
      got.map((d) => [d.date, d.paid, d.declined, d.abandoned, d.sats]),
      [...want].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, d]) => [date, d.paid, d.declined, d.abandoned, String(d.sats)]),
    );
    for (const day of chart.days) {
      assert.equal(day.btc, `0.${day.sats.padStart(8, '0')}`, 'satoshis as BTC, 8 decimals');
      assert.match(day.label, /^[A-Z][a-z]{2} \d{1,2}$/);
    }
    assert.deepEqual(chart.totals, { paid: 2, declined: 2, abandoned: 1, sats: '261979', btc: '0.00261979' });
    assert.equal(chart.summary, 'Last 30 days: 2 paid, 2 declined, 1 abandoned; 0.00261979 BTC received.');
    assert.match(page.text, /<p data-card2crypto="books-summary">Last 30 days: 2 paid, 2 declined, 1 abandoned; 0\.00261979 BTC received\.<\/p>/);
    assert.ok(!page.text.includes(secret), 'never the partner secret');
  });

  test('a large store: 20,000 operations streamed in constant memory', async (t) => {
    assert.equal(await step<number>('bulk', { count: 20_000 }), 20_000);
    try {
      const streamed = await step<{ lines: number; bytes: number; peak: number }>('stream');
      assert.equal(streamed.lines, 1 + 8 + 20_000, 'the header, the payments above and the bulk');
      assert.ok(streamed.bytes > 20_000 * 100, `${streamed.bytes} bytes written`);
      // The file is over 2 MB; holding its rows would take tens of megabytes. Pages of 500 take a few.
      t.diagnostic(`${streamed.lines} lines, ${streamed.bytes} bytes, peak memory ${streamed.peak} bytes`);
      assert.ok(streamed.peak < 8 * 1024 * 1024, `peak memory ${streamed.peak} bytes`);
    } finally {
      assert.equal(await step<number>('bulk', { count: 0 }), 0);
    }
  });
});

/**
 * Privacy and Site Health in a real store (issue 36, points 2 and 3):
 * WordPress, WooCommerce, both plugins and the sandbox on the native runtime
 * (PHP-FPM, nginx, MariaDB).
 *
 * - The privacy policy guide (Settings → Privacy) holds both plugins'
 *   suggested text.
 * - WooCommerce's personal-data export of an order paid through the service
 *   carries the plugin's payment records; the erasure removes what is the
 *   buyer's (the card's type, masked number and country, the status page)
 *   and keeps what the store's accounts need (amounts, references,
 *   operation ids, the bitcoin transaction, the store's wallet address),
 *   saying so; it follows WooCommerce's "remove personal data from orders"
 *   choice, and WooCommerce's own removal (bulk action, old-order clean-up)
 *   removes the same.
 * - Tools → Site Health: each check of both plugins says good, recommended
 *   or critical for the states that call for it, from what the store last
 *   found (no service call on the page); WooCommerce's system status report
 *   has the checkout's section.
 *
 * Run alone (it starts a store): `node --test dist/test/wordpress/privacy-health.test.js`.
 * Skipped where the native runtime is missing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HEALTH_STEPS, partnerSecret, serviceKnows, serviceRate, storeStep, type Seeded } from '../support/reconcile-store.js';
import { Session } from '../support/wp-session.js';
import { needsNative, sandboxAction, startTestStore, type TestStore } from '../support/test-store.js';

interface HealthResult {
  label: string;
  status: 'good' | 'recommended' | 'critical';
  badge: { label: string; color: string };
  description: string;
  actions: string;
  test: string;
  test_label: string;
}
type Health = Record<string, HealthResult>;
interface ExportItem {
  group_id: string;
  item_id: string;
  data: Array<{ name: string; value: string }>;
}
interface EraserAnswer {
  items_removed: boolean;
  items_retained: boolean;
  messages: string[];
  done: boolean;
}
interface Erasure {
  order: string[];
  answers: Record<string, EraserAnswer[]>;
}
interface OrderState {
  status: string;
  billing_email: string;
  transaction_id: string;
  operation: Record<string, unknown>;
  attempts: Array<Record<string, unknown>>;
  operations: Array<Record<string, unknown>>;
  anonymized: string;
}

/** BIP32 test vector account key on testnet (core's vectors): a new address for each order in the sandbox. */
const WALLET_VPUB = 'vpub5a4dEdDnep63MvxDLiqv26g1p6LS4uq2KhUq6gmaJhgzVLuVB19FJ8Deb4UbNg3Pv4UXq2AxawQgg6mRCeSWX7Eor8SG3omJPhuVgtwya1o';
const BUYER = 'stale@example.com';
const PAID = ['processing', 'completed'];

/** HTML with the entities WordPress writes decoded. */
function decode(html: string): string {
  return html
    .replace(/&#0?39;|&#8217;|&rsquo;/g, "'")
    .replace(/&quot;|&#8220;|&#8221;/g, '"')
    .replace(/&#0?38;|&amp;/g, '&')
    .replace(/&rarr;|&#8594;/g, '→');
}

/** HTML as text: tags dropped, entities decoded, spaces collapsed. */
function plain(html: string): string {
  return decode(html.replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

describe('privacy and Site Health in a real store', { skip: needsNative, timeout: 15 * 60_000 }, () => {
  let s: TestStore;
  let secret: string;
  let admin: Session;
  const step = <T>(action: string, input: Record<string, unknown> = {}) => storeStep<T>(s, action, input, HEALTH_STEPS);
  // Each test's result as Site Health shows it: its description as text, its actions' links decoded.
  const health = async () =>
    Object.fromEntries(
      Object.entries(await step<Health>('health')).map(([id, r]) => [
        id,
        { ...r, label: decode(r.label), description: plain(r.description), actions: decode(r.actions) },
      ]),
    ) as Health;
  const checkout = async (id: string) => (await health())[`card2crypto_checkout_${id}`];
  const dashboard = (route: string, body: unknown) => sandboxAction(s, route, body);

  before(async () => {
    s = await startTestStore({ name: 'test-privacy-health', port: 9751, sandboxPort: 9791, noCron: true });
    secret = partnerSecret(s.dirs.harnessDir);
    admin = new Session(s.storeUrl);
    await admin.login(s.admin.username, s.admin.password);
  });
  after(() => s?.stop());

  test("the privacy policy guide holds both plugins' suggested text", async () => {
    const page = await admin.request('/wp-admin/options-privacy.php?tab=policyguide');
    assert.equal(page.status, 200);
    const text = plain(page.text);
    assert.match(text, /Card2Crypto Checkout/);
    assert.match(text, /Card2Crypto Widget/);
    // What reaches the service, what the buyer types there (never here), and what the store keeps.
    assert.match(text, /the order's amount and currency, our bitcoin wallet address, a payment reference made for your order, your e-mail address/);
    assert.match(text, /You enter your card details on the service's own payment page .* they go to the service and never reach us/);
    assert.match(text, /identity documents/);
    assert.match(text, /the type, country and masked number \(the last digits only\) of the card used/);
    assert.match(text, /When we remove your personal data from an order, we remove the card details and the status page address with it\./);
    assert.match(text, /the amount, the currencies and the language shown, and our partner reference/);
    assert.match(text, /\(your card details, e-mail address, wallet address, verification codes and identity documents\) goes to the service, never to us/);
    assert.match(text, /We keep no record of your purchase\./);
  });

  test('Site Health: the credentials, from the last answer of the service (never asked on the page)', async () => {
    // Nothing asked yet with these credentials: said so, and where to check.
    await step('option', { name: 'card2crypto_checkout_service_health' });
    await step('option', { name: 'card2crypto_widget_connection' });
    let results = await health();
    assert.equal(results.card2crypto_checkout_credentials?.status, 'recommended');
    assert.match(results.card2crypto_checkout_credentials!.label, /has not been asked about the current Card2Crypto credentials yet/);
    assert.match(results.card2crypto_checkout_credentials!.actions, /page=wc-settings&tab=checkout&section=card2crypto/);
    assert.equal(results.card2crypto_widget_credentials?.status, 'recommended');
    assert.match(results.card2crypto_widget_credentials!.actions, /options-general\.php\?page=card2crypto-widget/);
    const calls = async () => (await serviceRate(s)).calls.params ?? 0;
    const before_ = await calls();
    await health();
    assert.equal(await calls(), before_, "Site Health's tests ask the service nothing");

    // The service accepts both plugins' credentials.
    assert.equal((await step<{ error: string | null }>('service_check')).error, null);
    assert.equal((await step<{ ok: boolean }>('widget_check')).ok, true);
    results = await health();
    assert.equal(results.card2crypto_checkout_credentials?.status, 'good');
    assert.match(results.card2crypto_checkout_credentials!.label, /The service accepts the store's Card2Crypto credentials/);
    assert.match(results.card2crypto_checkout_credentials!.description, /last accepted a signed request .* \(\d+ (seconds?|secs?|minutes?|mins?) ago\)/);
    assert.equal(results.card2crypto_checkout_credentials!.actions, '');
    assert.equal(results.card2crypto_widget_credentials?.status, 'good');

    // The service blocks the partner: refused, with the service's reason.
    assert.equal((await dashboard(`partners/${s.partner.token}/block`, { blocked: true })).status, 200);
    try {
      assert.notEqual((await step<{ error: string | null }>('service_check')).error, null);
      assert.equal((await step<{ ok: boolean }>('widget_check')).ok, false);
      results = await health();
      assert.equal(results.card2crypto_checkout_credentials?.status, 'critical');
      assert.match(
        results.card2crypto_checkout_credentials!.description,
        /Card payment is withdrawn from the checkout: the service has refused this store since/,
      );
      assert.equal(results.card2crypto_widget_credentials?.status, 'critical');
      assert.match(results.card2crypto_widget_credentials!.description, /the service refuses this site's credentials \(.+\)\. Last answer: /);
    } finally {
      await dashboard(`partners/${s.partner.token}/block`, { blocked: false });
    }
    await step('service_check');
    await step('widget_check');
    assert.equal((await checkout('credentials'))?.status, 'good');
  });

  test("Site Health: the store's clock, critical while the service refuses its requests for their time, saying by how much", async () => {
    // The option Clock_Offset keeps after a timestamp refusal: the service's clock minus the store's (positive: the store is behind).
    const option = 'card2crypto_checkout_clock_offset';
    await step('option', { name: option });
    let clock = await checkout('clock');
    assert.equal(clock?.status, 'good');
    assert.match(clock!.description, /No request of the store has been refused for its time/);
    const at = Math.floor(Date.now() / 1000) - 300;
    const cases: Array<[number | null, RegExp]> = [
      [10_000, /this server's clock is 10 seconds behind the service's/],
      [-40_000, /this server's clock is 40 seconds ahead of the service's/],
      [null, /this server's clock is off/],
    ];
    for (const [offset, words] of cases) {
      await step('option', { name: option, value: { offset_ms: offset, at } });
      clock = await checkout('clock');
      assert.equal(clock?.status, 'critical', `${offset} ms: ${clock?.label}`);
      assert.match(clock!.label, /outside the Card2Crypto service's window/);
      assert.match(clock!.description.replace(/&#0?39;/g, "'"), words);
      assert.match(clock!.description, /\(5 min(ute)?s ago\)/, 'when it was refused');
    }
    await step('option', { name: option });
  });

  test('Site Health: background jobs past due (10 minutes: recommended; an hour: critical), WP-Cron named', async () => {
    assert.equal((await checkout('scheduler'))?.status, 'good');
    assert.equal(await step('late_action', { age: 20 * 60 }), 1);
    let jobs = await checkout('scheduler');
    assert.equal(jobs?.status, 'recommended');
    assert.match(jobs!.description, /1 of them is past due, by 20 min(ute)?s\..*WP-Cron runs them when the site has visits/);
    assert.match(jobs!.actions, /tab=action-scheduler&status=past-due&s=card2crypto_checkout/);
    await step('late_action', { age: 2 * 3600 });
    jobs = await checkout('scheduler');
    assert.equal(jobs?.status, 'critical');
    assert.match(jobs!.label, /background jobs are late/);
    await step('late_action', { clear: true });
    assert.equal((await checkout('scheduler'))?.status, 'good');
  });

  test('Site Health: HTTPS for live payments (production over http: critical); the status report says the same', async () => {
    let https = await checkout('https');
    assert.equal(https?.status, 'good', 'the sandbox works over http');
    await step('settings', { environment: 'production' });
    try {
      https = await checkout('https');
      assert.equal(https?.status, 'critical');
      assert.equal(https!.badge.label, 'Security');
      assert.match(https!.description, /The payment method is in production, but the site's address \(http:\/\/127\.0\.0\.1:\d+\/\) is not HTTPS/);
      assert.match(https!.actions, /options-general\.php/);

      // The real Site Health page runs the same tests, and WooCommerce's status report has the section.
      const page = await admin.request('/wp-admin/site-health.php');
      const json = /var SiteHealth = (\{[\s\S]*?\});\n/.exec(page.text)?.[1];
      assert.ok(json, 'the page hands its direct results to its script');
      const direct = (JSON.parse(json) as { site_status: { direct: Array<{ test: string; status: string }> } }).site_status.direct;
      const ours = Object.fromEntries(direct.filter((t) => t.test.startsWith('card2crypto_')).map((t) => [t.test, t.status]));
      assert.equal(ours.card2crypto_checkout_https, 'critical');
      assert.deepEqual(Object.keys(ours).sort(), [
        'card2crypto_checkout_callbacks',
        'card2crypto_checkout_clock',
        'card2crypto_checkout_credentials',
        'card2crypto_checkout_https',
        'card2crypto_checkout_proxy',
        'card2crypto_checkout_scheduler',
        'card2crypto_widget_credentials',
      ]);
      const status = await admin.request('/wp-admin/admin.php?page=wc-status');
      assert.equal(status.status, 200);
      const section =
        /<table class="wc_status_table widefat" cellspacing="0" id="card2crypto-checkout-status">([\s\S]*?)<\/table>/.exec(status.text)?.[1] ?? '';
      assert.match(section, /data-export-label="Card2Crypto Checkout"/);
      const rows = [...section.matchAll(/<td data-export-label="([^"]+)">[\s\S]*?<\/td><td class="help">[\s\S]*?<\/td><td>([\s\S]*?)<\/td><\/tr>/g)].map(
        (m) => [m[1], plain(m[2]!).trim()] as const,
      );
      const report = Object.fromEntries(rows);
      assert.equal(report.Environment, 'production');
      assert.equal(report.Wallet, 'One address for every order');
      assert.match(report.https!, /^Production over HTTP The payment method is in production/);
      assert.match(report.credentials!, /^Accepted \(last answer: /);
      assert.match(report.clock!, /^No refusal$/);
      assert.match(section, /<mark class="error"><span class="dashicons dashicons-warning"><\/span> Production over HTTP<\/mark>/);
    } finally {
      await step('settings', { environment: 'sandbox' });
    }
  });

  test('Site Health and the status box: forwarding headers arriving while no client address header is set', async () => {
    // Issue 33: behind a proxy whose header is not set, every buyer counts as the proxy's address.
    assert.equal((await checkout('proxy'))?.status, 'good', 'nothing seen yet');
    const seen = await step<{ client: string; seen: { header: string } | null; box: string }>('forwarded', { header: 'X-Forwarded-For' });
    assert.equal(seen.client, '10.0.0.5', "the connection's address counts: no header is trusted");
    assert.equal(seen.seen?.header, 'X-Forwarded-For');
    assert.match(seen.box, /data-card2crypto="proxy-header-unset"/);
    assert.match(decode(seen.box), /Requests reach this store with a X-Forwarded-For header.*Set "Client address header"/);
    const proxy = await checkout('proxy');
    assert.equal(proxy?.status, 'recommended');
    assert.match(proxy!.label, /may count every buyer as your proxy's address/);
    assert.match(proxy!.description, /Last seen: .*ago\)/);
    // The owner names the header: no warning, and the buyer's own address counts.
    await step('settings', { trust_proxy_header: 'X-Forwarded-For' });
    try {
      assert.equal((await checkout('proxy'))?.status, 'good');
      const trusted = await step<{ client: string; box: string }>('forwarded', { header: 'X-Forwarded-For' });
      assert.equal(trusted.client, '203.0.113.9');
      assert.doesNotMatch(trusted.box, /proxy-header-unset/);
    } finally {
      await step('settings', { trust_proxy_header: '' });
      await step('forwarded', { clear: true });
    }
    assert.equal((await checkout('proxy'))?.status, 'good', 'forgotten');
  });

  test('Site Health: a new address for each order: GMP or BCMath, and the gap limit', async () => {
    const settings = await step<Record<string, string>>('settings', {});
    await step('option', { name: 'card2crypto_checkout_wallet_key_secret', value: { value: WALLET_VPUB } });
    await step('settings', { wallet_mode: 'xpub', gap_limit: '20' });
    try {
      let results = await health();
      const math = await step<{ host: { available: boolean; backend: string }; none: HealthResult; off: HealthResult }>('math');
      assert.equal(results.card2crypto_checkout_math?.status, math.host.available ? 'good' : 'critical');
      assert.match(results.card2crypto_checkout_math!.label, math.host.backend === 'gmp' ? /with PHP's GMP extension/ : /BCMath|cannot derive/);
      // A host without both cannot be made here: the check's verdict for one, from the same code.
      assert.equal(math.none.status, 'critical');
      assert.match(math.none.description, /neither the GMP nor the BCMath extension/);
      assert.equal(math.off.status, 'good', 'one address for every order needs neither');

      assert.equal(results.card2crypto_checkout_gap?.status, 'good');
      assert.match(results.card2crypto_checkout_gap!.description, /0 addresses past the last paid one are in use; your wallet looks 20 addresses ahead/);
      for (let i = 1; i <= 14; i++) {
        assert.equal((await step<{ gap: number }>('new_address')).gap, i);
      }
      assert.equal((await checkout('gap'))?.status, 'good', '14 of 20');
      assert.equal((await step<{ gap: number }>('new_address')).gap, 15);
      let gap = await checkout('gap');
      assert.equal(gap?.status, 'recommended', 'within 5 of the gap limit: told before it happens');
      assert.match(gap!.description, /raise your wallet's gap limit|raise your wallet&#039;s gap limit/);
      assert.match(gap!.actions, /section=card2crypto/);
      for (let i = 16; i <= 20; i++) {
        assert.equal((await step<{ gap: number }>('new_address')).gap, i);
      }
      gap = await checkout('gap');
      assert.equal(gap?.status, 'critical', 'every address the wallet sees is in use');
      assert.match(gap!.label, /every address your wallet sees is in use/);
      results = await health();
      assert.ok(results.card2crypto_checkout_math && results.card2crypto_checkout_gap);
    } finally {
      await step('settings', { wallet_mode: settings.wallet_mode ?? 'address', gap_limit: settings.gap_limit ?? '20' });
      await step('option', { name: 'card2crypto_checkout_wallet_key_secret' });
    }
    const results = await health();
    assert.equal(results.card2crypto_checkout_math, undefined, 'only with a new address for each order');
    assert.equal(results.card2crypto_checkout_gap, undefined);
  });

  test('export and erasure of an order paid through the service; Site Health sees its callbacks', async () => {
    // No payment yet: no callback expected.
    await step('callbacks', {});
    let callbacks = await checkout('callbacks');
    assert.equal(callbacks?.status, 'good');
    assert.match(callbacks!.label, /No Card2Crypto callback expected yet/);

    // Two orders of the buyer, paid at the service and found paid by the store's background check.
    const seed = await storeStep<Seeded>(s, 'seed', { count: 2, age: 7200, tag: 'priv' });
    const [first, second] = [seed.first, seed.last];
    await serviceKnows(s, secret, seed, [
      [first, 'paid'],
      [second, 'paid'],
    ]);
    await storeStep(s, 'run', { seconds: 30, batch_seconds: 5 });
    const paid = await step<OrderState>('order', { id: first });
    assert.ok(PAID.includes(paid.status), paid.status);
    const op = paid.operation;
    for (const key of ['card_number', 'card_type', 'card_country', 'status_url', 'tx_id', 'id']) {
      assert.ok(typeof op[key] === 'string' && op[key] !== '', `the order keeps ${key}: ${JSON.stringify(op)}`);
    }
    assert.equal(paid.transaction_id, op.tx_id, "the order's transaction id is the bitcoin transaction");

    // Paid through the service with no callback from it: said so.
    await step('callbacks', {});
    callbacks = await checkout('callbacks');
    assert.equal(callbacks?.status, 'recommended');
    assert.match(callbacks!.description, /Ask the service's support to send callbacks to http:\/\/127\.0\.0\.1:\d+\/wp-json\/card2crypto\/v1\/callback/);
    await step('callbacks', {
      verified: 7200,
      refused: [
        ['signature', 3600],
        ['signature', 3000],
        ['allowlist', 600],
      ],
    });
    callbacks = await checkout('callbacks');
    assert.equal(callbacks?.status, 'critical');
    assert.match(
      callbacks!.description,
      /3 callbacks from the service were refused in the last 24 hours \(wrong signature \(the partner secret does not match\): 2; sender not in the callback IP allowlist: 1\), and none has been accepted since/,
    );
    assert.match(callbacks!.actions, /section=card2crypto.*tab=logs/);
    await step('callbacks', { verified: 600, refused: [['signature', 3600]] });
    assert.equal((await checkout('callbacks'))?.status, 'recommended');
    await step('callbacks', { verified: 300 });
    callbacks = await checkout('callbacks');
    assert.equal(callbacks?.status, 'good');
    assert.match(callbacks!.description, /Last verified callback: .*\(5 min(ute)?s ago\)\. None was refused/);

    // The export: each order's payment records beside WooCommerce's own data of the order.
    const items = await step<ExportItem[]>('export', { email: BUYER });
    const item = items.find((i) => i.item_id === `order-${first}`);
    assert.ok(item, JSON.stringify(items.map((i) => i.item_id)));
    const data = Object.fromEntries(item.data.map((d) => [d.name, d.value]));
    assert.equal(data['Email Address'], BUYER, "WooCommerce's own data of the order");
    assert.match(data['Card payment attempts']!, new RegExp(`^wc-${first}-priv: €25\\.00, started \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC$`));
    assert.match(data['Card payment operations']!, new RegExp(`^op-wc-${first}-priv \\(`));
    assert.equal(data['Bitcoin transaction'], op.tx_id);
    assert.equal(data["Bitcoin address paid (the store's wallet)"], seed.wallet);
    assert.equal(data['Card used'], `${op.card_type} ${op.card_number}`);
    assert.equal(data['Card country'], op.card_country);
    assert.equal(data['Payment status page at the service'], op.status_url);
    assert.match(data['Card payment amount paid']!, /25\.00/);
    assert.ok(items.find((i) => i.item_id === `order-${second}`)?.data.some((d) => d.name === 'Bitcoin transaction'));

    // WooCommerce's own removal of one order's personal data (its bulk action, its clean-up of old orders).
    await step('wc_remove', { id: second });
    const removed = await step<OrderState>('order', { id: second });
    assert.equal(removed.anonymized, 'yes');
    for (const key of ['card_number', 'card_type', 'card_country', 'status_url']) {
      assert.equal(key in removed.operation, false, `${key} removed`);
    }
    for (const key of ['id', 'tx_id', 'from_amount', 'from_currency', 'wallet']) {
      assert.ok(key in removed.operation, `${key} kept`);
    }
    assert.ok(removed.transaction_id.length > 0, "the bitcoin transaction stays the order's transaction id");

    // An erasure request while WooCommerce keeps orders' personal data: nothing removed, and said so.
    let erasure = await step<Erasure>('erase', { email: BUYER, remove: false });
    assert.ok(erasure.order.indexOf('card2crypto-checkout') < erasure.order.indexOf('woocommerce-customer-orders'), "before WooCommerce's order eraser");
    let ours = erasure.answers['card2crypto-checkout']!;
    assert.equal(ours.at(-1)!.done, true);
    assert.equal(
      ours.some((a) => a.items_removed),
      false,
    );
    let messages = ours.flatMap((a) => a.messages).join('\n');
    assert.match(
      messages,
      new RegExp(`the card details of order ${first} were retained, as WooCommerce keeps the personal data of orders on erasure requests`),
    );
    assert.deepEqual((await step<OrderState>('order', { id: first })).operation, op);

    // And when it removes them: the buyer's card and status page go, the store's accounts keep the rest.
    erasure = await step<Erasure>('erase', { email: BUYER, remove: true });
    ours = erasure.answers['card2crypto-checkout']!;
    assert.equal(
      ours.some((a) => a.items_removed),
      true,
    );
    assert.equal(
      ours.some((a) => a.items_retained),
      true,
    );
    messages = ours.flatMap((a) => a.messages).join('\n');
    assert.match(
      messages,
      new RegExp(
        `Card2Crypto: removed from order ${first}: the card's type, the card's masked number, the card's country, the payment's status page at the service\\.`,
      ),
    );
    assert.match(
      messages,
      new RegExp(
        `Card2Crypto: kept for the store's accounts in order ${first}: the payment's amounts and currencies, its references and operation ids, the bitcoin transaction and the wallet address it paid \\(the store's own address\\)\\.`,
      ),
    );
    assert.doesNotMatch(messages, new RegExp(`order ${second}\\b`), "the other order's e-mail was removed already");
    const erased = await step<OrderState>('order', { id: first });
    assert.notEqual(erased.billing_email, BUYER, "WooCommerce's eraser followed");
    const kept = { ...op };
    for (const key of ['card_number', 'card_type', 'card_country', 'status_url']) {
      delete kept[key];
    }
    assert.deepEqual(erased.operation, kept, 'everything else of the payment kept');
    assert.equal(erased.transaction_id, op.tx_id, 'the transaction id kept');
    assert.deepEqual(erased.attempts, paid.attempts, 'the payment records kept');
    assert.deepEqual(erased.operations, paid.operations);
  });
});

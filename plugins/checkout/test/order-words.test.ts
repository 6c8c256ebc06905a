/**
 * How the owner reads a payment (Order_Words): money from exact minor units
 * in the store's price format, states in words with the service's status in
 * brackets, and which states mean money was received or crypto bought.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

const STORE = { symbols: { EUR: '&euro;', KRW: '&#8361;', BHD: '.&#x62f;.&#x628;' }, thousand: ',', decimal: '.', format: '%1$s%2$s' };
const GERMAN = { ...STORE, thousand: '.', decimal: ',', format: '%2$s&nbsp;%1$s' };

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Order_Words`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    const money = async (store: object | null, ...cases: Array<[number, string]>) => {
      const results = await php.runJson<Array<{ value?: string; error?: string }>>('words.php', {
        'store.json': JSON.stringify(store), // "null": no WooCommerce (the work directory outlives a call)
        'calls.json': JSON.stringify(cases.map(([minor, code]) => ['money', minor, code])),
      });
      return results.map((r) => r.value ?? r.error);
    };

    test('money in the store format, exact to the currency decimals', async () => {
      assert.deepEqual(await money(STORE, [5000, 'EUR'], [500000, 'EUR'], [7, 'EUR'], [123456789012, 'EUR'], [100000, 'KRW'], [1005, 'BHD'], [-2500, 'EUR']), [
        '€50.00',
        '€5,000.00',
        '€0.07',
        '€1,234,567,890.12',
        '₩100,000',
        '.د.ب1.005',
        '-€25.00',
      ]);
      // A German store: separators swapped, symbol after a (plain) space.
      assert.deepEqual(await money(GERMAN, [500000, 'EUR'], [7900, 'EUR']), ['5.000,00 €', '79,00 €']);
    });

    test('without WooCommerce (or for a currency the service does not take) the amount and the code', async () => {
      assert.deepEqual(await money(null, [23700, 'EUR'], [5000, 'XYZ']), ['237.00 EUR', '5000 XYZ (minor units)']);
      // Beyond float precision (2^53 + 1, written as JSON text since a JS number cannot hold it): still every digit.
      const [exact] = await php.runJson<Array<{ value?: string }>>('words.php', { 'store.json': 'null', 'calls.json': '[["money", 9007199254740993, "EUR"]]' });
      assert.equal(exact!.value, '90,071,992,547,409.93 EUR');
    });

    test('states in words with the service status in brackets; unknown pairs say so', async () => {
      const results = await php.runJson<Array<{ value?: unknown }>>('words.php', {
        'store.json': 'null',
        'calls.json': JSON.stringify([
          ['status', 'pending', 2],
          ['status', 'awaiting confirm', 8],
          ['status', 'success', 0],
          ['status', 'declined', 101],
          ['status', 'declined', 105],
          ['status', 'pending', '2'],
          ['status', 'success', 2],
          ['status', 'pending', 'x'],
        ]),
      });
      assert.deepEqual(
        results.map((r) => r.value),
        [
          'Card payment received (pending)',
          'Waiting for your confirmation (awaiting confirm)',
          'Payment complete (success)',
          'The card payment was refused (declined)',
          'The exchange rate expired before payment (declined)',
          'Card payment received (pending)',
          'Unknown state (success, code 2)',
          'Unknown state (pending, code x)',
        ],
      );
    });

    test('each decision the order only notes is worded with the state, the source and, where the owner must act, a mail subject', async () => {
      const via = 'callback';
      const cases: Array<[Record<string, unknown>, RegExp, string]> = [
        [
          { reason: 'conflict' },
          /reported "Card payment received \(pending\)" after "Payment complete \(success\)" — callback\. Contradicting/,
          'A card payment needs your review',
        ],
        [{ reason: 'unknown_pair' }, /a state this plugin does not know, Card payment received \(pending\) — callback;/, 'A card payment needs your review'],
        [{ reason: 'declined_other_live' }, /one card payment of this order ended: .* — callback\. The buyer started another one/, ''],
        [{ reason: 'retried' }, /the buyer tried again after the declined payment: .* — callback\. The order waits for payment again\./, ''],
        [{ reason: 'earlier_attempt_declined' }, /an earlier payment attempt ended: .* — callback\. The newer attempt is not affected\./, ''],
        [{ reason: 'declined' }, /the card payment did not go through: .* — callback\. The buyer can pay again/, ''],
        [{ reason: 'declined_after_paid' }, /the card payment did not go through/, ''],
        [
          { reason: 'mismatch', problems: ['amount 7800 is not 7900'] },
          /does NOT match this order: amount 7800 is not 7900 — callback\./,
          'A card payment does not match its order',
        ],
        [
          { reason: 'mismatch', problems: [] },
          /does NOT match this order: an earlier event of this payment did not match the order — callback/,
          'A card payment does not match its order',
        ],
        [
          { reason: 'paid_twice' },
          /for operation op-9, but this order was already paid by another payment — callback\. The buyer paid twice/,
          'An order was paid twice',
        ],
        [
          { reason: 'incomplete', missing: ['from.amount', 'to.currency'] },
          /does not say from\.amount, to\.currency, so it cannot be checked/,
          'A card payment needs your review',
        ],
        [
          { reason: 'await_confirmation', why: 'auto_confirm_off' },
          /waits for your confirmation \(automatic confirmation is off\)/,
          'A card payment waits for your confirmation',
        ],
        [
          { reason: 'await_confirmation', why: 'incomplete' },
          /waits for your confirmation \(it cannot be checked against the order\)/,
          'A card payment waits for your confirmation',
        ],
        [{ reason: 'progress' }, /^Card2Crypto: Card payment received \(pending\) — callback\.$/, ''],
      ];
      const results = await php.runJson<Array<{ value?: { note: string; subject: string }; error?: string }>>('words.php', {
        'store.json': 'null',
        'calls.json': JSON.stringify(
          cases.map(([action]) => ['decision', action, 'Card payment received (pending)', { status: 'success', status_code: 0 }, via, 'op-9']),
        ),
      });
      results.forEach((result, i) => {
        const [action, note, subject] = cases[i]!;
        assert.ok(result.value, `${JSON.stringify(action)}: ${result.error}`);
        assert.match(result.value.note, note, JSON.stringify(action));
        assert.match(result.value.note, /^Card2Crypto: /);
        assert.equal(result.value.subject, subject, JSON.stringify(action));
      });
    });

    test('money counts as received from code 2 on, never for a decline; crypto as bought from code 4 on', async () => {
      const pairs: Array<[string, number]> = [
        ['pending', 1],
        ['pending', 2],
        ['awaiting confirm', 8],
        ['pending', 4],
        ['success', 6],
        ['success', 0],
        ['declined', 101],
        ['declined', 106],
        ['success', 2],
      ];
      const results = await php.runJson<Array<{ value?: boolean }>>('words.php', {
        'store.json': 'null',
        'calls.json': JSON.stringify(
          pairs.flatMap(([s, c]) => [
            ['received', s, c],
            ['bought', s, c],
          ]),
        ),
      });
      const got = results.map((r) => r.value);
      assert.deepEqual(got, [false, false, true, false, true, false, true, true, true, true, true, true, false, false, false, false, false, false]);
    });
  });
}

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Manual_Refunds`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    test('a refund recorded on one of our orders is noted as money, with its reason and what the owner must do', async () => {
      const results = await php.runJson<Array<{ value?: string[]; error?: string }>>('words.php', {
        'store.json': JSON.stringify({ symbols: { EUR: '&euro;' }, thousand: ',', decimal: '.', format: '%1$s%2$s' }),
        'calls.json': JSON.stringify([
          ['record', { method: 'card2crypto', currency: 'EUR' }, { amount: '50.00', reason: 'Damaged' }],
          ['record', { method: 'card2crypto', currency: 'EUR' }, { amount: '1234.5', reason: ' ' }],
          ['record', { method: 'bacs', currency: 'EUR' }, { amount: '50.00', reason: '' }],
          ['record', { method: 'card2crypto', currency: 'EUR' }, { amount: '0.005', reason: '' }],
        ]),
      });
      assert.deepEqual(
        results.map((r) => r.value ?? r.error),
        [
          [
            'Card2Crypto: refunded €50.00 manually (reason: Damaged). The card2crypto service cannot refund: return the money to the buyer yourself if you have not already.',
          ],
          ['Card2Crypto: refunded €1,234.50 manually. The card2crypto service cannot refund: return the money to the buyer yourself if you have not already.'],
          [], // another gateway's order: not ours to explain
          ['Card2Crypto: refunded 0.005 EUR manually. The card2crypto service cannot refund: return the money to the buyer yourself if you have not already.'],
        ],
      );
    });
  });
}

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Test_Mode`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    test('the sandbox marks the buyer title and the payments list name; production leaves them alone', async () => {
      const results = await php.runJson<Array<{ value?: string; error?: string }>>('words.php', {
        'store.json': 'null',
        'calls.json': JSON.stringify([
          ['buyer_title', 'Card payment', 'sandbox'],
          ['buyer_title', 'Card payment', 'production'],
          ['admin_title', 'Card2Crypto', 'sandbox'],
          ['admin_title', 'Card2Crypto', 'production'],
        ]),
      });
      assert.deepEqual(
        results.map((r) => r.value ?? r.error),
        ['Card payment (test mode)', 'Card payment', 'Card2Crypto – Test mode', 'Card2Crypto'],
      );
    });

    test("an order keeps one title: the buyer's test-mode mark is taken off what is saved on the order", async () => {
      const results = await php.runJson<Array<{ value?: string; error?: string }>>('words.php', {
        'store.json': 'null',
        'calls.json': JSON.stringify([
          ['plain_title', 'Credit or debit card (test mode)'],
          ['plain_title', 'Credit or debit card'],
          ['plain_title', ' (test mode)'],
          ['plain_title', 'Pay (test mode) by card'],
        ]),
      });
      assert.deepEqual(
        results.map((r) => r.value ?? r.error),
        ['Credit or debit card', 'Credit or debit card', ' (test mode)', 'Pay (test mode) by card'],
      );
    });
  });
}

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Range_Notice`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    test('outside the range the buyer reads the range as money and what to do; inside or unknown, nothing', async () => {
      const results = await php.runJson<Array<{ value?: unknown; error?: string }>>('words.php', {
        'store.json': JSON.stringify({ symbols: { EUR: '&euro;' }, thousand: ',', decimal: '.', format: '%1$s%2$s' }),
        'calls.json': JSON.stringify([
          ['range', 'EUR', 4999],
          ['range', 'EUR', 500001],
          ['range', 'EUR', 5000],
          ['range', 'EUR', 500000],
          ['range', 'EUR', null],
          ['range', 'XYZ', 1],
          ['ranges', 'EUR'],
          ['ranges', 'XYZ'],
          ['range', 'EUR', 4999, false],
          ['range', 'EUR', 500001, false],
        ]),
      });
      assert.deepEqual(
        results.map((r) => (r.error !== undefined ? r.error : r.value)),
        [
          'Card payment is available for orders from €50.00 to €5,000.00. Add to your order to pay by card, or choose another payment method.',
          'Card payment is available for orders from €50.00 to €5,000.00. Split your order to pay by card, or choose another payment method.',
          null,
          null,
          null,
          null,
          // Both, for the block checkout's script, which knows the total as the buyer changes the cart: by its
          // outside() value, within (nothing to say), below, above.
          [
            '',
            'Card payment is available for orders from €50.00 to €5,000.00. Add to your order to pay by card, or choose another payment method.',
            'Card payment is available for orders from €50.00 to €5,000.00. Split your order to pay by card, or choose another payment method.',
          ],
          // A currency the service does not take: nothing to say, whatever the total.
          ['', '', ''],
          // A store with no other payment method offers none.
          'Card payment is available for orders from €50.00 to €5,000.00. Add to your order to pay by card.',
          'Card payment is available for orders from €50.00 to €5,000.00. Split your order to pay by card.',
        ],
      );
    });
  });
  describe(`PHP ${version}: Plain_Text`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    test('the block checkout gets the words of a saved title or description: entities decoded, markup and scripts dropped', async () => {
      const results = await php.runJson<Array<{ value?: unknown; error?: string }>>('words.php', {
        'store.json': 'null',
        'calls.json': JSON.stringify([
          ['plain', 'Card &amp; crypto'],
          ['plain', 'Pay <strong>now</strong>: 50&nbsp;&euro; &mdash; &#8220;fast&#8221;, &apos;sure&apos;'],
          ['plain', 'Before<script>alert(1)</script> after<style>p{}</style>'],
          ['plain', 'Already plain: 5 < 6 & "quoted"'],
          ['plain', '  padded  '],
        ]),
      });
      assert.deepEqual(
        results.map((r) => (r.error !== undefined ? r.error : r.value)),
        [
          'Card & crypto',
          "Pay now: 50\u00a0€ — “fast”, 'sure'",
          'Before after',
          // A "<" before a space starts no tag (PHP's strip_tags, as WordPress applies it).
          'Already plain: 5 < 6 & "quoted"',
          'padded',
        ],
      );
    });
  });
}

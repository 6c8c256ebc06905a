/**
 * The owner's books row by row (Admin\Books and Rules\Books_Numbers, without WordPress; the site in
 * Tokyo's time zone): CSV cells a spreadsheet cannot run as formulas, exact
 * amounts from minor units by string arithmetic (beyond PHP_INT_MAX too),
 * the service's rate as plain decimal text, the outcome of every kind of row,
 * and the owner's dates read as days of the site. The same rows in a real
 * store: test/wordpress/books.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

const STORED = {
  kind: 'operation',
  recorded_at: '2025-03-01 15:30:00',
  order_id: 42,
  partner_operation_id: 'wc-42-abc',
  operation_id: 'op-1',
  status: 'success',
  status_code: 0,
  expected_amount: 7900,
  expected_currency: 'EUR',
  expected_wallet: 'bc1qexpected',
};
const OPERATION = {
  id: 'op-1',
  status: 'success',
  status_code: 0,
  from_amount: 7900,
  from_currency: 'EUR',
  to_amount: 131579,
  to_currency: 'BTC',
  currency_rate: 60185.5,
  wallet: 'bc1qpaid',
  tx_id: 'f00d',
  card_number: '424242******4242',
};

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: the owner's books`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    const call = async (...calls: unknown[][]) => {
      const results = await php.runJson<Array<{ value?: unknown; error?: string }>>('books.php', { 'calls.json': JSON.stringify(calls) });
      return results.map((r) => {
        assert.equal(r.error, undefined, r.error);
        return r.value;
      });
    };

    test('CSV cells: formulas defused with an apostrophe, quotes, commas and line breaks quoted (RFC 4180, CRLF)', async () => {
      const [line] = await call([
        'csv_line',
        ['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)', '\tx', '\rx', 'a,b', 'say "hi"', 'one\ntwo', 'plain', '', '0.00131579'],
      ]);
      assert.equal(line, `"'=HYPERLINK(""x"")",'+1,'-2,'@SUM(A1),'\tx,"'\rx","a,b","say ""hi""","one\ntwo",plain,,0.00131579\r\n`);
    });

    test('satoshis to BTC and sums, by string arithmetic, exact beyond PHP_INT_MAX', async () => {
      assert.deepEqual(await call(['btc', '131579'], ['btc', '0'], ['btc', '2100000000000000'], ['btc', '123456789012345678901234']), [
        '0.00131579',
        '0.00000000',
        '21000000.00000000',
        '1234567890123456.78901234',
      ]);
      assert.deepEqual(await call(['add_digits', '9223372036854775807', '1'], ['add_digits', '0', '0'], ['add_digits', '131579', '130400']), [
        '9223372036854775808',
        '0',
        '261979',
      ]);
    });

    test("the service's rate as plain decimal text, whatever the host's float printing", async () => {
      assert.deepEqual(
        await call(
          ['number_text', 60000],
          ['number_text', '60185.18518518'],
          ['number_float', '60185.18518518'],
          ['number_float', '65432.1'],
          ['number_float', '0.1'],
          ['number_float', '0.00001'],
          ['number_float', '1e21'],
          ['number_float', '100'],
          ['number_text', 'abc'],
          ['number_text', null],
        ),
        ['60000', '60185.18518518', '60185.18518518', '65432.1', '0.1', '0.00001', '1000000000000000000000', '100', '', ''],
      );
    });

    test("the owner's dates: days of the site's time zone, the last one included; anything else names its field", async () => {
      const tokyoMidnight = (day: string) => Date.parse(`${day}T00:00:00+09:00`) / 1000;
      const [both, open, feb29, slash, reversed, notText, leap] = await call(
        ['range', '2025-02-28', '2025-02-28'],
        ['range', '', null],
        ['range', '2025-02-29', ''],
        ['range', '', '2025/01/01'],
        ['range', '2025-03-02', '2025-03-01'],
        ['range', ['2025-01-01'], ''],
        ['range', '2024-02-29', '2024-03-01'],
      );
      assert.deepEqual(both, { from: tokyoMidnight('2025-02-28'), to: tokyoMidnight('2025-03-01') });
      assert.deepEqual(open, { from: null, to: null });
      assert.deepEqual(leap, { from: tokyoMidnight('2024-02-29'), to: tokyoMidnight('2024-03-02') });
      const refused = (field: string, message: string) => ({
        error: 'card2crypto_books_' + (message.startsWith('to must be the same') ? 'range' : 'date'),
        message,
        data: { status: 400, field },
      });
      assert.deepEqual(feb29, refused('from', 'from must be a date written YYYY-MM-DD, for example 2025-01-31.'));
      assert.deepEqual(slash, refused('to', 'to must be a date written YYYY-MM-DD, for example 2025-01-31.'));
      assert.deepEqual(reversed, refused('to', 'to must be the same day as from or a later one.'));
      assert.deepEqual(notText, refused('from', 'from must be a date written YYYY-MM-DD, for example 2025-01-31.'));
    });

    test('a paid operation: what the service reported (amounts, rate, wallet, transaction), dated in the site time zone; never a card detail', async () => {
      const [row] = await call(['row', STORED, OPERATION, true]);
      assert.deepEqual(row, {
        date: '2025-03-02T00:30:00+09:00',
        order_id: '42',
        partner_operation_id: 'wc-42-abc',
        operation_id: 'op-1',
        outcome: 'paid',
        status: 'success',
        status_code: '0',
        fiat_amount: '79.00',
        fiat_currency: 'EUR',
        btc_amount: '0.00131579',
        rate: '60185.5',
        wallet_address: 'bc1qpaid',
        transaction_hash: 'f00d',
        test: 'yes',
        _at: Date.parse('2025-03-01T15:30:00Z') / 1000,
        _sats: '131579',
      });
    });

    test("outcomes and what is known of each row: another operation's details never borrowed", async () => {
      const rows = (await call(
        // The order's details are another operation's: only what the payment asked.
        ['row', { ...STORED, operation_id: 'op-0', status: 'declined', status_code: 101 }, OPERATION, false],
        ['row', { ...STORED, status: 'pending', status_code: 2 }, { ...OPERATION, tx_id: undefined }, false],
        ['row', { ...STORED, status: 'awaiting confirm', status_code: 8 }, OPERATION, false],
        ['row', { ...STORED, kind: 'abandoned', operation_id: '', status: '', status_code: -1 }, null, true],
        // Recorded, never applied (a pair outside the status model), and a pair that is not one.
        ['row', { ...STORED, status: '', status_code: -1 }, null, false],
        ['row', { ...STORED, status: 'success', status_code: 2 }, null, false],
        // Amounts beyond PHP_INT_MAX; a currency without decimals; one the service does not take.
        ['row', STORED, { ...OPERATION, to_amount: '123456789012345678901234' }, false],
        ['row', { ...STORED, expected_amount: 100000, expected_currency: 'KRW', operation_id: 'op-9' }, OPERATION, false],
        ['row', { ...STORED, expected_currency: 'XYZ', operation_id: 'op-9' }, OPERATION, false],
      )) as Array<Record<string, unknown>>;
      const pick = (r: Record<string, unknown>) => [
        r.outcome,
        r.status,
        r.status_code,
        r.fiat_amount,
        r.fiat_currency,
        r.btc_amount,
        r.rate,
        r.wallet_address,
        r.transaction_hash,
        r.test,
        r._sats,
      ];
      assert.deepEqual(rows.map(pick), [
        ['declined', 'declined', '101', '79.00', 'EUR', '', '', 'bc1qexpected', '', 'no', null],
        ['pending', 'pending', '2', '79.00', 'EUR', '0.00131579', '60185.5', 'bc1qpaid', '', 'no', null],
        ['pending', 'awaiting confirm', '8', '79.00', 'EUR', '0.00131579', '60185.5', 'bc1qpaid', 'f00d', 'no', null],
        ['abandoned', '', '', '79.00', 'EUR', '', '', 'bc1qexpected', '', 'yes', null],
        ['unknown', '', '', '79.00', 'EUR', '', '', 'bc1qexpected', '', 'no', null],
        ['unknown', 'success', '2', '79.00', 'EUR', '', '', 'bc1qexpected', '', 'no', null],
        ['paid', 'success', '0', '79.00', 'EUR', '1234567890123456.78901234', '60185.5', 'bc1qpaid', 'f00d', 'no', '123456789012345678901234'],
        ['paid', 'success', '0', '100000', 'KRW', '', '', 'bc1qexpected', '', 'no', null],
        ['paid', 'success', '0', '', 'XYZ', '', '', 'bc1qexpected', '', 'no', null],
      ]);
      for (const row of rows) {
        assert.ok(!JSON.stringify(row).includes('424242'), 'never the card');
      }
    });
  });
}

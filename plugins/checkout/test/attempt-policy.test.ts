/**
 * Attempt_Policy on the oldest and newest supported PHP: an attempt is
 * signed again only while it has no news and still asks for what the order
 * asks now (the 79.00 EUR attempt of an order edited to 237.00 EUR is never
 * re-signed), and an order starts at most 10 attempts an hour.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

const WALLET = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
const ATTEMPT = {
  id: 3,
  order_id: 7,
  partner_operation_id: 'wc-7-aaaa',
  expected_amount: 7900,
  expected_currency: 'EUR',
  expected_wallet: WALLET,
  status: '',
  status_code: -1,
};

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Attempt_Policy`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    test('an attempt is reused only without news and for the same total, currency and wallet', async () => {
      const cases: Array<[unknown, number | null, string, string, boolean, string]> = [
        [ATTEMPT, 7900, 'EUR', WALLET, true, 'unchanged order'],
        [ATTEMPT, 23700, 'EUR', WALLET, false, 'order total grew after the attempt started'],
        [ATTEMPT, 7800, 'EUR', WALLET, false, 'order total shrank'],
        [ATTEMPT, 7900, 'USD', WALLET, false, 'order currency changed'],
        [ATTEMPT, 7900, 'EUR', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', false, 'store wallet changed'],
        [ATTEMPT, null, 'EUR', WALLET, false, 'order total not expressible'],
        [{ ...ATTEMPT, status: 'pending', status_code: 1 }, 7900, 'EUR', WALLET, false, 'the attempt already has news'],
        [null, 7900, 'EUR', WALLET, false, 'no attempt'],
        [{ ...ATTEMPT, retired_at: '2026-11-28 08:00:00' }, 7900, 'EUR', WALLET, false, "a retired (dead) attempt: its address may be another order's"],
        [{ ...ATTEMPT, retired_at: null }, 7900, 'EUR', WALLET, true, 'not retired'],
      ];
      const got = await php.call(cases.map(([attempt, amount, currency, wallet]) => ['reusable', attempt, amount, currency, wallet]));
      got.forEach((r, i) => assert.equal(r.value, cases[i]![4], cases[i]![5]));
    });

    test('the tenth attempt in an hour is the last one', async () => {
      const got = await php.call([0, 9, 10, 500].map((n) => ['over_cap', n]));
      assert.deepEqual(
        got.map((r) => r.value),
        [false, false, true, true],
      );
    });
  });
}

/**
 * Amount, currency and wallet checks (Payment_Match) on PHP 7.4 and 8.5:
 * nothing that contradicts the order passes, and a payment can only be
 * completed when every member needed to check it is present.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

const ORDER = { amount: 12345, currency: 'EUR', wallet: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx' };
interface Match {
  ok: boolean;
  complete: boolean;
  problems: string[];
  missing: string[];
}

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Payment_Match`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());
    const match = (received: Record<string, unknown>) => php.one<Match>('match', ORDER, received);

    test('an exact payment to the store wallet matches and is complete', async () => {
      const m = await match({ amount: 12345, currency: 'EUR', wallet: ORDER.wallet, to_currency: 'BTC' });
      assert.deepEqual(m, { ok: true, complete: true, problems: [], missing: [] });
    });

    test('bech32 compares case-insensitively; base58 does not', async () => {
      assert.equal((await match({ amount: 12345, currency: 'EUR', wallet: ORDER.wallet.toUpperCase(), to_currency: 'BTC' })).complete, true);
      assert.equal(await php.one('same_address', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '1bvbmseystwetqtfn5au4m4gfg7xjanvn2'), false);
      assert.equal(await php.one('same_address', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'), true);
    });

    test('one minor unit less, another currency, another wallet or another asset is a mismatch naming the member', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ amount: 12344, currency: 'EUR', wallet: ORDER.wallet }, 'amount'],
        [{ amount: 12346, currency: 'EUR', wallet: ORDER.wallet }, 'amount'],
        [{ amount: 12345, currency: 'USD', wallet: ORDER.wallet }, 'currency'],
        [{ amount: 12345, currency: 'EUR', wallet: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7' }, 'wallet'],
        [{ amount: 12345, currency: 'EUR', wallet: ORDER.wallet, to_currency: 'ETH' }, 'to_currency'],
        [{ amount: 123.45, currency: 'EUR', wallet: ORDER.wallet }, 'amount'],
        [{ amount: '12345', currency: 'EUR', wallet: ORDER.wallet }, 'amount'],
      ];
      for (const [received, member] of cases) {
        const m = await match(received);
        assert.equal(m.ok, false, JSON.stringify(received));
        assert.equal(m.complete, false);
        assert.equal(m.problems.length, 1);
        assert.match(m.problems[0]!, new RegExp(`^${member}:`));
      }
    });

    test('missing members never contradict, but the payment is not complete', async () => {
      const m = await match({ currency: 'EUR' });
      assert.equal(m.ok, true);
      assert.equal(m.complete, false);
      assert.deepEqual(m.missing, ['amount', 'to_currency', 'wallet']);
    });

    test('a payment that does not say which asset it bought is not complete (to.currency is required)', async () => {
      const m = await match({ amount: 12345, currency: 'EUR', wallet: ORDER.wallet });
      assert.deepEqual(m, { ok: true, complete: false, problems: [], missing: ['to_currency'] });
    });
  });
}

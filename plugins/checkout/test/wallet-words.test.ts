/**
 * Rules/Wallet_Words (issue 34: moved from Availability and Order_Address as
 * pure functions): an amount in BTC, a block explorer's page of an address
 * (the testnet's for a testnet address), and the wallet's gap limit in the
 * owner's words by how close the addresses in use come to it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginPhp, TEST_PHP_VERSIONS } from './support/php.js';

for (const version of TEST_PHP_VERSIONS) {
  describe(`PHP ${version}: Wallet_Words`, () => {
    let php: PluginPhp;
    before(async () => {
      php = await PluginPhp.start(version);
    });
    after(() => php?.exit());

    const call = async (calls: unknown[][]) =>
      (
        await php.runJson<Array<{ value?: unknown; error?: string }>>('words.php', {
          'store.json': 'null',
          'calls.json': JSON.stringify(calls),
        })
      ).map((r) => r.value ?? r.error);

    test('satoshis as BTC with eight decimals', async () => {
      const cases: Array<[number, string]> = [
        [0, '0.00000000'],
        [1, '0.00000001'],
        [123456, '0.00123456'],
        [100000000, '1.00000000'],
        [2100000000000000, '21000000.00000000'],
      ];
      assert.deepEqual(
        await call(cases.map(([sats]) => ['btc', sats])),
        cases.map(([, text]) => text),
      );
    });

    test("an address's explorer page: mainnet, testnet and regtest prefixes", async () => {
      const cases: Array<[string, string]> = [
        ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'https://mempool.space/address/bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
        ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'https://mempool.space/testnet/address/tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'],
        ['bcrt1qxyz', 'https://mempool.space/testnet/address/bcrt1qxyz'],
        ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'https://mempool.space/testnet/address/mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn'],
        ['1BoatSLRHtKNngkdXEeobR76b53LETtpyT', 'https://mempool.space/address/1BoatSLRHtKNngkdXEeobR76b53LETtpyT'],
        ['a b', 'https://mempool.space/address/a%20b'],
      ];
      assert.deepEqual(
        await call(cases.map(([address]) => ['explorer', address])),
        cases.map(([, url]) => url),
      );
    });

    test('the gap in words: how many are in use against the limit, and what happens next', async () => {
      const [ok, one, near, full, past] = (await call([
        ['gap_text', { gap: 3, limit: 20, standing: 'ok', cap: 20, highest: 3 }],
        ['gap_text', { gap: 1, limit: 20, standing: 'ok', cap: 20, highest: 1 }],
        ['gap_text', { gap: 17, limit: 20, standing: 'near', cap: 20, highest: 17 }],
        ['gap_text', { gap: 20, limit: 20, standing: 'full', cap: 20, highest: 20 }],
        ['gap_text', { gap: 20, limit: 20, standing: 'past', cap: 24, highest: 30 }],
      ])) as string[];
      assert.equal(ok, '3 addresses past the last paid one are in use; your wallet looks 20 addresses ahead (its gap limit).');
      assert.equal(one, '1 address past the last paid one is in use; your wallet looks 20 addresses ahead (its gap limit).');
      assert.match(near!, /^17 addresses .*When every address your wallet sees is held by an unpaid order.*raise your wallet's gap limit/);
      assert.match(full!, /^20 addresses .*Every address your wallet sees is held by an order that may still be paid.*raise your wallet's gap limit/);
      // Up to index 30, with the cap at 24 and a limit of 20: the wallet needs a gap limit of at least 30 - 24 + 20 = 26.
      assert.match(past!, /Some addresses are already past it \(up to index 30\).*at least 26\./);
    });
  });
}

/**
 * PHP's BTC address validation against core's validateBtcAddress on the
 * BIP173/BIP350 test vectors, known mainnet/testnet addresses and thousands
 * of mutations of them (one character changed, case flipped, truncated...).
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validateBtcAddress, type BtcNetwork } from '@card2crypto/core';
import { PhpSandbox } from '../support/php.js';

const VALID = [
  // BIP173 / BIP350
  'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
  'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
  'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
  'BC1SW50QGDZ25J',
  'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs',
  'tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy',
  'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c',
  'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
  'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  'bcrt1qqqqsyqcyq5rqwzqfpg9scrgwpugpzysnard0ew',
  // base58check
  '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
  '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
  'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn',
  '2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc',
  '1111111111111111111114oLvT2',
];

const INVALID = [
  'tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut',
  'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd',
  'tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf',
  'BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL',
  'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh',
  'tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47',
  'bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4',
  'BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R',
  'bc1pw5dgrnzv',
  'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav',
  'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P',
  'tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq',
  'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf',
  'tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j',
  'bc1gmk9yu',
  'ltc1qg82tmfx0z8zdrldqpgmh4xzqx3l8x0dwk4a5vq',
  '',
  ' 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa\u00a0',
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0',
  '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNé',
  'LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9',
  'bc1',
  '0x52908400098527886E0F7030069857D2E4169EE7',
  // Checksummed base58 of the wrong length that also looks like bech32: the base58 reason stands.
  'B1r5htrEPZnYfpJhrLGZMkYLcML6WrP58jz',
  'BC1gNASoP3MHuHVKgLny9MzcbKPapKBic7N',
];

/** Deterministic pseudo-random numbers, so a failure can be reproduced. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function mutations(): string[] {
  const random = rng(20240501);
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0OIl';
  const out: string[] = [];
  for (const address of VALID) {
    for (let n = 0; n < 60; n++) {
      const i = Math.floor(random() * address.length);
      const c = alphabet[Math.floor(random() * alphabet.length)]!;
      out.push(address.slice(0, i) + c + address.slice(i + 1));
    }
    out.push(address.toUpperCase(), address.toLowerCase(), address.slice(0, -1), `${address}q`, address.slice(1));
    out.push(address.slice(0, 5) + address.slice(5, 6).toUpperCase() + address.slice(6));
  }
  return out;
}

const CORPUS = [...new Set([...VALID, ...INVALID, ...mutations()])];
const NETWORK_SETS: (BtcNetwork[] | null)[] = [null, ['mainnet'], ['mainnet', 'testnet', 'regtest'], ['regtest'], ['testnet']];

export function btcAddressSuite(version: string): void {
  describe(`PHP ${version}: BTC addresses`, () => {
    let php: PhpSandbox;
    before(async () => {
      php = await PhpSandbox.start(version);
    });

    test(`${CORPUS.length} addresses × ${NETWORK_SETS.length} network sets agree with core`, async () => {
      const calls = NETWORK_SETS.flatMap((networks) => CORPUS.map((a) => ['btc_validate', a, networks]));
      const results = await php.call(calls);
      const failures: string[] = [];
      let valid = 0;
      calls.forEach((call, i) => {
        const [, address, networks] = call as [string, string, BtcNetwork[] | null];
        const core = validateBtcAddress(address, networks ? { networks } : {});
        const r = results[i]!;
        const got = r.value as Record<string, unknown>;
        const expected: Record<string, unknown> = core.valid
          ? {
              valid: true,
              network: core.network,
              type: core.type,
              encoding: core.encoding,
              ...(core.witnessVersion !== undefined ? { witness_version: core.witnessVersion } : {}),
            }
          : { valid: false, reason: core.reason };
        if (core.valid) {
          valid++;
        }
        if (r.error !== undefined || JSON.stringify(got) !== JSON.stringify(expected)) {
          failures.push(
            `${JSON.stringify(address)} ${JSON.stringify(networks)}\n  core: ${JSON.stringify(expected)}\n  php:  ${r.error ?? JSON.stringify(got)}`,
          );
        }
      });
      assert.ok(valid > 50, 'the corpus has valid addresses');
      assert.deepEqual(failures.slice(0, 20), [], `${failures.length} differences:\n${failures.slice(0, 20).join('\n')}`);
    });

    test('the known-valid addresses are valid and the known-invalid ones are not', async () => {
      const results = await php.call([...VALID, ...INVALID].map((a) => ['btc_validate', a]));
      VALID.forEach((a, i) => assert.equal((results[i]!.value as { valid: boolean }).valid, true, a));
      INVALID.forEach((a, i) => assert.equal((results[VALID.length + i]!.value as { valid: boolean }).valid, false, a));
    });
  });
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { type BtcAddressResult, isValidBtcAddress, validateBtcAddress } from '../src/btc-address.js';

function valid(address: string, network: string, type: string, encoding?: string): void {
  const r = validateBtcAddress(address);
  assert.ok(r.valid, `${address}: ${(r as { reason?: string }).reason}`);
  assert.equal(r.network, network, address);
  assert.equal(r.type, type, address);
  if (encoding) {
    assert.equal(r.encoding, encoding, address);
  }
}

function invalid(address: string, reason?: RegExp, options = {}): void {
  const r: BtcAddressResult = validateBtcAddress(address, options);
  assert.equal(r.valid, false, `${address} should be invalid`);
  if (reason && !r.valid) {
    assert.match(r.reason, reason, address);
  }
}

/** Independent base58check encoder (node:crypto sha256) to craft addresses with chosen version and length. */
function base58check(payload: Uint8Array): string {
  const checksum = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest().subarray(0, 4);
  const bytes = Buffer.concat([payload, checksum]);
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = alphabet[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) {
      break;
    }
    out = `1${out}`;
  }
  return out;
}

test('known real base58check addresses', () => {
  valid('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'mainnet', 'p2pkh', 'base58check');
  valid('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'mainnet', 'p2pkh');
  valid('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'mainnet', 'p2sh');
  valid('mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'testnet', 'p2pkh');
  valid('2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc', 'testnet', 'p2sh');
});

test('base58check failures say why', () => {
  invalid('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', /Checksum/);
  invalid('1A1zP1eP5QGefi2DMPTfTL5SLmv7Divf0a', /Character "0" at position 33/);
  invalid('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivflA', /Character "l"/);
  invalid('1A1z', /26 to 35/);
  invalid(' 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', /spaces/);
  invalid('', /empty/);
  // Valid checksum, but Litecoin's version byte 0x30.
  const ltc = base58check(Uint8Array.from([0x30, ...randomBytes(20)]));
  invalid(ltc, /Version byte 0x30/);
  // Valid checksum and Bitcoin version, wrong hash length.
  invalid(base58check(Uint8Array.from([0x00, ...randomBytes(19)])), /20-byte/);
  invalid(base58check(Uint8Array.from([0x05, ...randomBytes(21)])), /20-byte/);
  // A checksummed base58 string of the wrong length that also looks like bech32 ("B1" + bech32
  // characters) keeps its base58 reason (CI once drew this one at random).
  invalid('B1r5htrEPZnYfpJhrLGZMkYLcML6WrP58jz', /20-byte/);
  invalid('BC1gNASoP3MHuHVKgLny9MzcbKPapKBic7N', /20-byte/);
  for (let i = 0; i < 2000; i++) {
    invalid(base58check(Uint8Array.from([0x05, ...randomBytes(21)])), /20-byte/);
    invalid(base58check(Uint8Array.from([0x30, ...randomBytes(20)])), /Version byte 0x30/);
  }
  // Crafted valid ones round-trip through our decoder.
  for (const [version, network, type] of [
    [0x00, 'mainnet', 'p2pkh'],
    [0x05, 'mainnet', 'p2sh'],
    [0x6f, 'testnet', 'p2pkh'],
    [0xc4, 'testnet', 'p2sh'],
  ] as const) {
    for (let i = 0; i < 20; i++) {
      valid(base58check(Uint8Array.from([version, ...randomBytes(20)])), network, type);
    }
  }
  // Leading zero hash bytes give leading '1's.
  valid(base58check(new Uint8Array(21)), 'mainnet', 'p2pkh');
});

test('BIP173/BIP350 valid segwit addresses', () => {
  valid('BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'mainnet', 'p2wpkh', 'bech32');
  valid('tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'testnet', 'p2wsh', 'bech32');
  valid('bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y', 'mainnet', 'witness_unknown', 'bech32m');
  valid('BC1SW50QGDZ25J', 'mainnet', 'witness_unknown', 'bech32m');
  valid('bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', 'mainnet', 'witness_unknown', 'bech32m');
  valid('tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy', 'testnet', 'p2wsh', 'bech32');
  valid('tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c', 'testnet', 'p2tr', 'bech32m');
  valid('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'mainnet', 'p2tr', 'bech32m');
  valid('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'mainnet', 'p2wpkh');
  valid('bcrt1qqqqsyqcyq5rqwzqfpg9scrgwpugpzysnard0ew', 'regtest', 'p2wpkh');
  const v16 = validateBtcAddress('BC1SW50QGDZ25J');
  assert.ok(v16.valid && v16.witnessVersion === 16);
});

test('BIP350 invalid addresses, with reasons', () => {
  invalid('tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut', /prefix "tc"/);
  invalid('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', /v1 address must use the bech32m/);
  invalid('tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf', /v2 address must use the bech32m/);
  invalid('BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL', /v16 address must use the bech32m/);
  invalid('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', /v0 address must use the bech32 checksum/);
  invalid('tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47', /v0 address must use the bech32 checksum/);
  invalid('bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4', /Character "o"/);
  invalid('BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R', /Witness version 17/);
  invalid('bc1pw5dgrnzv', /2 to 40 bytes; this one has 1/);
  invalid('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav', /2 to 40 bytes; this one has 41/);
  invalid('BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', /v0 program has 20 or 32 bytes; this one has 16/);
  invalid('tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq', /mixed/);
  invalid('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf', /padding/);
  invalid('tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j', /padding/);
  invalid('bc1gmk9yu', /no witness version/);
});

test('BIP173 invalid addresses', () => {
  invalid('tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty', /prefix/);
  invalid('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', /Checksum/);
  invalid('BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2', /Witness version 17/);
  invalid('bc1rw5uspcuh');
  invalid('bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90');
  invalid('BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', /16/);
  invalid('tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7', /mixed/);
  invalid('bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du', /padding|bech32m/);
  invalid('tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3pjxtptv', /padding/);
  invalid(`bc1q${'q'.repeat(90)}`, /at most 90/);
});

test('single-character typos are always caught in bech32 addresses', () => {
  const address = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
  const charset = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
  for (let i = 4; i < address.length; i++) {
    for (const c of charset) {
      if (c === address[i]) {
        continue;
      }
      const typo = address.slice(0, i) + c + address.slice(i + 1);
      assert.equal(isValidBtcAddress(typo), false, typo);
    }
  }
});

test('network restriction', () => {
  assert.equal(isValidBtcAddress('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', { networks: ['mainnet'] }), true);
  invalid('tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', /testnet address; expected mainnet/, { networks: ['mainnet'] });
  invalid('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', /mainnet address; expected testnet or regtest/, { networks: ['testnet', 'regtest'] });
  invalid('bcrt1qqqqsyqcyq5rqwzqfpg9scrgwpugpzysnard0ew', /regtest/, { networks: ['mainnet', 'testnet'] });
  // Base58 testnet prefixes are shared with regtest.
  assert.equal(isValidBtcAddress('mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', { networks: ['regtest'] }), true);
  assert.equal(isValidBtcAddress('ltc1qg82tmfx0z8zdrldqpgmh4xzqx3l8x0dwk4a5vq'), false);
  invalid('ltc1qg82tmfx0z8zdrldqpgmh4xzqx3l8x0dwk4a5vq', /prefix "ltc"/);
});

/**
 * Wallet keys and per-order addresses (src/bip32): the hashes against
 * node:crypto, child derivation against node:crypto's secp256k1 ECDH, the official
 * vectors of BIP32 (public derivation and test vector 5), BIP84, BIP49,
 * BIP173/BIP350 (encoder), BIP380-382 (descriptors), and the shared vector
 * file vectors/bip32-addresses.json, which PHP checks too.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createECDH, createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import {
  deriveAddresses,
  deriveChild,
  descriptorChecksum,
  encodeSegwitAddress,
  hash160,
  hmacSha512,
  parseExtendedKey,
  parseWalletKey,
  ripemd160,
  serializeExtendedKey,
  sha512,
  validateBtcAddress,
  WalletKeyError,
  type ExtendedPublicKey,
  type WalletKeyErrorCode,
} from '../src/index.js';
import {
  BIP32_VECTORS_URL,
  BIP49_UPUB,
  BIP84_ZPUB,
  buildBip32VectorFile,
  serialiseBip32VectorFile,
  type Bip32VectorFile,
} from '../scripts/generate-bip32-vectors.js';

const hex = (data: Uint8Array): string => Buffer.from(data).toString('hex');
const fromHex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'hex'));

/** Deterministic bytes, so a failure can be reproduced. */
function bytes(seed: number, length: number): Uint8Array {
  let s = seed >>> 0;
  return Uint8Array.from({ length }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s >>> 24;
  });
}

function refused(code: WalletKeyErrorCode, run: () => unknown): WalletKeyError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof WalletKeyError, `expected WalletKeyError ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  return caught;
}

describe('hashes', () => {
  test('SHA-512, HMAC-SHA512 and RIPEMD-160 equal node:crypto for every length 0 to 300 (block boundaries included)', () => {
    for (let n = 0; n <= 300; n++) {
      const data = bytes(n, n);
      const key = bytes(1000 + n, (n * 7) % 260);
      assert.equal(hex(sha512(data)), createHash('sha512').update(data).digest('hex'), `sha512 length ${n}`);
      assert.equal(hex(ripemd160(data)), createHash('ripemd160').update(data).digest('hex'), `ripemd160 length ${n}`);
      assert.equal(hex(hmacSha512(key, data)), createHmac('sha512', key).update(data).digest('hex'), `hmac length ${n} key ${key.length}`);
    }
  });

  test('RIPEMD-160 and HASH160 of the published examples', () => {
    // The RIPEMD-160 authors' test vectors.
    assert.equal(hex(ripemd160(new Uint8Array())), '9c1185a5c5e9fc54612808977ee8f548b2258d31');
    assert.equal(hex(ripemd160(new TextEncoder().encode('abc'))), '8eb208f7e05d987a9b044a8e98c6b087f15a0bfc');
    assert.equal(hex(ripemd160(new TextEncoder().encode('message digest'))), '5d0689ef49d2fae572b881b123a85ffa21595f36');
    // BIP49's test vector: keyhash = HASH160(first receiving public key).
    assert.equal(hex(hash160(fromHex('03a1af804ac108a8a51782198c2d034b28bf90c8803f5a53f76276fa69a4eae77f'))), '38971f73930f6c141d977ac4fd4a727c854935b3');
    assert.equal(hex(hash160(fromHex('001438971f73930f6c141d977ac4fd4a727c854935b3'))), '336caa13e08b96080a32b5d818d59b4ab3b36742');
  });
});

describe('secp256k1 (through @scure/bip32 and @noble/curves) against node:crypto (OpenSSL)', () => {
  /** secp256k1's group order. */
  const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  /** k·G, compressed, by OpenSSL. */
  const reference = (k: bigint): string => {
    const ecdh = createECDH('secp256k1');
    ecdh.setPrivateKey(Buffer.from(k.toString(16).padStart(64, '0'), 'hex'));
    return ecdh.getPublicKey('hex', 'compressed');
  };
  const keyOf = (publicKey: Uint8Array, chainCode: Uint8Array): ExtendedPublicKey => ({
    prefix: 'xpub',
    version: 0x0488b21e,
    network: 'mainnet',
    depth: 3,
    parentFingerprint: 0x01020304,
    childNumber: 7,
    chainCode,
    publicKey,
  });

  test('CKDpub equals (k + IL)·G by OpenSSL, with IL, the chain code and the fingerprint by node:crypto, for edge and 200 more keys', () => {
    const scalars = [1n, 2n, 3n, 15n, 16n, 17n, 255n, 256n, 2n ** 128n, 2n ** 255n, N - 2n, N - 1n, (N - 1n) / 2n];
    for (let i = 0; i < 200; i++) {
      scalars.push((BigInt(`0x${hex(bytes(i, 32))}`) % (N - 1n)) + 1n);
    }
    for (const [n, k] of scalars.entries()) {
      const key = keyOf(fromHex(reference(k)), bytes(700 + n, 32));
      const index = n === 0 ? 0x7fffffff : Number(BigInt(`0x${hex(bytes(900 + n, 4))}`) & 0x7fffffffn);
      const data = Buffer.alloc(37);
      data.set(key.publicKey);
      data.writeUInt32BE(index, 33);
      const i = createHmac('sha512', key.chainCode).update(data).digest();
      const child = deriveChild(key, index);
      assert.equal(hex(child.publicKey), reference((k + BigInt(`0x${i.subarray(0, 32).toString('hex')}`)) % N), `k = ${k.toString(16)}, index ${index}`);
      assert.equal(hex(child.chainCode), i.subarray(32).toString('hex'));
      const id = createHash('ripemd160').update(createHash('sha256').update(key.publicKey).digest()).digest();
      assert.deepEqual([child.depth, child.parentFingerprint, child.childNumber], [4, id.readUInt32BE(0), index]);
    }
  });

  test("a key's point is read with both parities, and what is no point is refused in PHP's words", () => {
    for (let i = 0; i < 20; i++) {
      const publicKey = fromHex(reference(BigInt(`0x${hex(bytes(500 + i, 32))}`)));
      assert.equal(hex(parseExtendedKey(serializeExtendedKey(keyOf(publicKey, bytes(600 + i, 32)))).publicKey), hex(publicKey));
    }
    const damaged = (publicKey: string): string =>
      refused('invalid_key', () => parseExtendedKey(serializeExtendedKey(keyOf(fromHex(publicKey), bytes(1, 32))))).message;
    assert.equal(damaged(`04${'11'.repeat(32)}`), 'The key is damaged: a compressed public key starts with 02 or 03, not 04.');
    // x = 7 is not on the curve (BIP32 test vector 5's invalid key).
    assert.equal(damaged(`02${'00'.repeat(31)}07`), 'The key is damaged: it is not a point of the secp256k1 curve.');
    assert.equal(damaged(`03${'ff'.repeat(32)}`), 'The key is damaged: its x coordinate is not below the field prime.');
    // P - 1 is below the prime but no point's x.
    assert.equal(damaged(`02${'ff'.repeat(27)}fefffffc2e`), 'The key is damaged: it is not a point of the secp256k1 curve.');
  });
});

/** vectors/bips.json: the official vectors, copied from the BIP texts, which the PHP tests read too. */
interface BipVectors {
  bip32: { public_steps: { parent: string; index: number; child: string }[]; ext_pubs: string[]; invalid: { key: string; code: WalletKeyErrorCode }[] };
  bip84: { account_zpub: string; account_zprv: string; addresses: { change: boolean; index: number; public_key: string; address: string }[] };
  bip49: {
    account_upub: string;
    account_uprv: string;
    addresses: { change: boolean; index: number; public_key: string; address: string }[];
    keyhash: string;
    script_sig: string;
    address_bytes: string;
  };
  segwit: { valid: { address: string; script_pubkey: string }[]; invalid: { address: string; reason: string }[] };
  descriptors: {
    checksums: { descriptor: string; checksum: string }[];
    invalid_checksums: string[];
    invalid_characters: string[];
    ranged: { descriptor: string; script_pubkeys: string[] }[];
    single: { descriptor: string; script_pubkey: string }[];
    private: string[];
    hardened_children: string[];
    unsupported: string[];
    invalid_origins: string[];
    invalid_origin_key: string;
  };
}
const BIPS = JSON.parse(readFileSync(fileURLToPath(new URL('../../vectors/bips.json', import.meta.url)), 'utf8')) as BipVectors;

describe('BIP32 test vectors (vectors/bips.json, from bip-0032.mediawiki)', () => {
  test('every non-hardened child of test vectors 1 and 2, derived from its parent ext pub', () => {
    assert.equal(BIPS.bip32.public_steps.length, 6);
    for (const { parent, index, child } of BIPS.bip32.public_steps) {
      assert.equal(serializeExtendedKey(deriveChild(parseExtendedKey(parent), index)), child, `${parent.slice(0, 16)}…/${index}`);
    }
  });

  test('every ext pub of test vectors 1 to 4 parses and serialises back (leading zeros kept)', () => {
    assert.equal(BIPS.bip32.ext_pubs.length, 17);
    for (const text of BIPS.bip32.ext_pubs) {
      const key = parseExtendedKey(text);
      assert.equal(key.prefix, 'xpub');
      assert.equal(serializeExtendedKey(key), text);
    }
    assert.equal(parseExtendedKey(BIPS.bip32.ext_pubs[0]!).depth, 0);
    assert.equal(parseExtendedKey(BIPS.bip32.ext_pubs[5]!).depth, 5);
    assert.equal(parseExtendedKey(BIPS.bip32.ext_pubs[5]!).childNumber, 1000000000);
  });

  test('test vector 5: every invalid extended key is refused, naming why', () => {
    assert.equal(BIPS.bip32.invalid.length, 16);
    for (const { key, code } of BIPS.bip32.invalid) {
      refused(code, () => parseExtendedKey(key));
    }
  });

  test('a hardened child cannot be asked of a public key', () => {
    const key = parseExtendedKey(BIPS.bip32.ext_pubs[0]!);
    assert.throws(() => deriveChild(key, 0x80000000), RangeError);
    assert.throws(() => deriveChild(key, -1), RangeError);
    assert.throws(() => deriveChild(key, 1.5), RangeError);
  });
});

describe('BIP84 and BIP49 test vectors', () => {
  test('BIP84: the account zpub gives the first two receive addresses and the first change address; its zprv is refused', () => {
    assert.equal(BIPS.bip84.account_zpub, BIP84_ZPUB);
    for (const expected of BIPS.bip84.addresses) {
      const [got] = deriveAddresses(BIP84_ZPUB, { from: expected.index, change: expected.change, environment: 'production' });
      assert.deepEqual([got?.publicKey, got?.address], [expected.public_key, expected.address]);
    }
    assert.equal(parseWalletKey(BIP84_ZPUB).addressType, 'p2wpkh');
    refused('private_key', () => parseWalletKey(BIPS.bip84.account_zprv));
  });

  test('BIP49: the testnet account upub gives the first receive address (nested segwit, 2…) by way of its keyhash', () => {
    assert.equal(BIPS.bip49.account_upub, BIP49_UPUB);
    const wallet = parseWalletKey(BIP49_UPUB, { environment: 'sandbox' });
    assert.equal(wallet.addressType, 'p2sh-p2wpkh');
    assert.equal(wallet.network, 'testnet');
    const [expected] = BIPS.bip49.addresses;
    const [first] = deriveAddresses(wallet);
    assert.deepEqual([first?.publicKey, first?.address], [expected?.public_key, expected?.address]);
    assert.equal(hex(hash160(fromHex(expected!.public_key))), BIPS.bip49.keyhash);
    assert.equal(hex(hash160(fromHex(BIPS.bip49.script_sig))), BIPS.bip49.address_bytes);
    refused('private_key', () => parseWalletKey(BIPS.bip49.account_uprv));
  });
});

/** Base58check written here, independently of core, to turn a vector's script hash into its address. */
function base58check(payload: Uint8Array): string {
  const sha = (b: Uint8Array): Uint8Array => createHash('sha256').update(b).digest();
  const all = Uint8Array.from([...payload, ...sha(sha(payload)).subarray(0, 4)]);
  let value = BigInt(`0x${hex(all)}`);
  let text = '';
  while (value > 0n) {
    text = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'[Number(value % 58n)] + text;
    value /= 58n;
  }
  return '1'.repeat(all.findIndex((b) => b !== 0)) + text;
}

describe('bech32 / bech32m encoder (BIP173, BIP350 valid address vectors)', () => {
  test('each scriptPubKey encodes to its address, and the decoder reads it back', () => {
    assert.equal(BIPS.segwit.valid.length, 8);
    for (const { address, script_pubkey: script } of BIPS.segwit.valid) {
      const scriptBytes = fromHex(script);
      const version = scriptBytes[0] === 0 ? 0 : scriptBytes[0]! - 0x50;
      const hrp = address.toLowerCase().slice(0, 2);
      const encoded = encodeSegwitAddress(hrp, version, scriptBytes.subarray(2));
      assert.equal(encoded, address.toLowerCase());
      const decoded = validateBtcAddress(encoded);
      assert.ok(decoded.valid && decoded.witnessVersion === version, encoded);
    }
  });

  test('the decoder refuses every invalid segwit address of BIP173 and BIP350', () => {
    assert.equal(BIPS.segwit.invalid.length, 25);
    for (const { address, reason } of BIPS.segwit.invalid) {
      assert.equal(validateBtcAddress(address).valid, false, `${address} (${reason})`);
    }
  });

  test('what no address can hold is refused', () => {
    assert.throws(() => encodeSegwitAddress('bc', 17, new Uint8Array(20)), RangeError);
    assert.throws(() => encodeSegwitAddress('bc', 0, new Uint8Array(21)), RangeError);
    assert.throws(() => encodeSegwitAddress('bc', 1, new Uint8Array(1)), RangeError);
    assert.throws(() => encodeSegwitAddress('bc', 1, new Uint8Array(41)), RangeError);
  });
});

describe('descriptors (BIP380, BIP381, BIP382, BIP389)', () => {
  const d = BIPS.descriptors;

  test('BIP380 checksum vectors', () => {
    for (const { descriptor, checksum } of d.checksums) {
      assert.equal(descriptorChecksum(descriptor), checksum);
    }
    for (const text of d.invalid_checksums) {
      refused('descriptor_checksum', () => parseWalletKey(text));
    }
    for (const text of d.invalid_characters) {
      refused('descriptor', () => parseWalletKey(text));
    }
  });

  test("BIP382: wpkh([ffffffff/13']xpub…/1/2/*) gives the three scripts of the BIP; it has no change chain", () => {
    const [{ descriptor, script_pubkeys: scripts }] = d.ranged as [BipVectors['descriptors']['ranged'][number]];
    const wallet = parseWalletKey(descriptor);
    assert.deepEqual(wallet.origin, { fingerprint: 'ffffffff', path: '13h' });
    assert.deepEqual(wallet.receivePath, [1, 2]);
    assert.equal(wallet.changePath, null);
    assert.deepEqual(
      deriveAddresses(wallet, { count: 3 }).map((a) => a.address),
      scripts.map((s) => encodeSegwitAddress('bc', 0, fromHex(s).subarray(2))),
    );
    refused('no_change_chain', () => deriveAddresses(wallet, { change: true }));
  });

  test('BIP381: pkh([bd16bee5/2147483647h]xpub…/0) is refused (one address) and is index 0 of the ranged pkh(…/*)', () => {
    const [{ descriptor, script_pubkey: script }] = d.single as [BipVectors['descriptors']['single'][number]];
    refused('not_ranged', () => parseWalletKey(descriptor));
    const [first] = deriveAddresses(descriptor.replace(/\/0\)$/, '/*)'));
    assert.equal(first?.address, base58check(Uint8Array.from([0x00, ...fromHex(script).subarray(3, 23)])));
  });

  test('BIP380-382 descriptors holding private keys, hardened children, unsupported scripts or bad origins are refused', () => {
    for (const text of d.private) {
      refused('private_key', () => parseWalletKey(text));
    }
    for (const text of d.hardened_children) {
      refused('hardened_after_key', () => parseWalletKey(text));
    }
    for (const text of d.unsupported) {
      refused('descriptor_unsupported', () => parseWalletKey(text));
    }
    for (const origin of d.invalid_origins) {
      refused('descriptor', () => parseWalletKey(`wpkh(${origin}${d.invalid_origin_key}/*)`));
    }
  });

  test('a bare key gets the equivalent descriptor (xpub form, <0;1>, checksum) and it derives the same addresses', () => {
    const wallet = parseWalletKey(BIP84_ZPUB);
    assert.match(wallet.descriptor, /^wpkh\(xpub[1-9A-HJ-NP-Za-km-z]{107}\/<0;1>\/\*\)#[a-z0-9]{8}$/);
    const again = parseWalletKey(wallet.descriptor);
    for (const change of [false, true]) {
      assert.deepEqual(deriveAddresses(again, { count: 3, change }), deriveAddresses(wallet, { count: 3, change }));
    }
  });
});

describe('deriveAddresses arguments', () => {
  test('from, count and the last index are checked', () => {
    assert.throws(() => deriveAddresses(BIP84_ZPUB, { from: -1 }), /from must be a whole number/);
    assert.throws(() => deriveAddresses(BIP84_ZPUB, { from: 0.5 }), /from must be a whole number/);
    assert.throws(() => deriveAddresses(BIP84_ZPUB, { count: 0 }), /count must be a whole number from 1 to 1000/);
    assert.throws(() => deriveAddresses(BIP84_ZPUB, { count: 1001 }), /count must be a whole number/);
    assert.throws(() => deriveAddresses(BIP84_ZPUB, { from: 2147483647, count: 2 }), /The last index 2147483648 is past 2147483647/);
    assert.equal(deriveAddresses(BIP84_ZPUB, { from: 2147483647 })[0]?.index, 2147483647);
  });

  test('the environment refuses the other network, by name', () => {
    assert.match(
      refused('wrong_network', () => deriveAddresses(BIP84_ZPUB, { environment: 'sandbox' })).message,
      /mainnet key \(zpub\); the sandbox takes testnet keys/,
    );
    assert.match(
      refused('wrong_network', () => deriveAddresses(BIP49_UPUB, { environment: 'production' })).message,
      /testnet key \(upub\); production takes mainnet keys/,
    );
  });
});

describe('a maximum length (issue 31, point 4)', () => {
  test('a 200,000-character key or descriptor is refused by its length before it is decoded, in milliseconds', () => {
    const huge = `xpub${'6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs'.repeat(1900)}`.slice(
      0,
      200_000,
    );
    for (const text of [huge, `wpkh(${huge}/0/*)`, `sh(wpkh([d34db33f/49h/0h/0h]${huge}/<0;1>/*))#abcdefgh`]) {
      const started = performance.now();
      const error = refused('too_long', () => parseWalletKey(text));
      assert.equal(error.message, `A wallet key or descriptor has at most 512 characters (an extended public key has 111); this one has ${text.length}.`);
      assert.ok(performance.now() - started < 2000, `${performance.now() - started} ms`);
    }
    assert.match(refused('too_long', () => parseExtendedKey(huge)).message, /this one has 200000\.$/);
  });

  test('spaces around the text do not count, and a long run of them inside is read in linear time', () => {
    assert.equal(parseWalletKey(`${' '.repeat(100_000)}${BIP84_ZPUB}\r\n`).addressType, 'p2wpkh');
    const started = performance.now();
    refused('too_long', () => parseWalletKey(`x${' '.repeat(200_000)}y`));
    assert.ok(performance.now() - started < 2000, `${performance.now() - started} ms`);
  });
});

describe('vectors/bip32-addresses.json', () => {
  const committedText = readFileSync(fileURLToPath(BIP32_VECTORS_URL), 'utf8');
  const committed = JSON.parse(committedText) as Bip32VectorFile;

  test('is exactly what the generator produces now (run npm run vectors after changing src/bip32)', () => {
    assert.equal(committedText, serialiseBip32VectorFile(buildBip32VectorFile()));
  });

  test('covers every address type on both networks, descriptors, and a refusal for every code', () => {
    const kinds = new Set(committed.valid.map((c) => `${c.wallet.address_type}/${c.wallet.network}`));
    for (const type of ['p2wpkh', 'p2sh-p2wpkh', 'p2pkh']) {
      for (const network of ['mainnet', 'testnet']) {
        assert.ok(kinds.has(`${type}/${network}`), `${type}/${network}`);
      }
    }
    assert.ok(committed.valid.some((c) => c.wallet.source === 'descriptor' && c.wallet.change_path === null));
    const codes = new Set(committed.refusals.map((c) => c.code));
    for (const code of [
      'empty',
      'too_long',
      'address_not_key',
      'characters',
      'checksum',
      'private_key',
      'multisig',
      'unknown_prefix',
      'invalid_key',
      'wrong_network',
      'descriptor',
      'descriptor_checksum',
      'descriptor_unsupported',
      'mismatch',
      'hardened_after_key',
      'not_ranged',
    ]) {
      assert.ok(codes.has(code), code);
    }
  });

  test('no refusal repeats the key it refuses (messages reach settings notices and logs)', () => {
    for (const r of committed.refusals) {
      const keys = r.input.match(/[1-9A-HJ-NP-Za-km-z]{30,}/g) ?? [];
      for (const key of keys) {
        assert.ok(!r.message.includes(key.slice(4, 24)), `${r.name}: ${r.message}`);
      }
    }
  });

  test('every derived address is a valid address of its type and network', () => {
    const TYPES = { p2wpkh: 'p2wpkh', 'p2sh-p2wpkh': 'p2sh', p2pkh: 'p2pkh' } as const;
    for (const c of committed.valid) {
      for (const address of [...c.receive, ...(c.change ?? [])]) {
        const result = validateBtcAddress(address);
        assert.ok(result.valid && result.type === TYPES[c.wallet.address_type] && result.network === c.wallet.network, `${c.name}: ${address}`);
      }
    }
  });
});

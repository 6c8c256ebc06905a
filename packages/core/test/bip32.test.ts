/**
 * Wallet keys and per-order addresses (src/bip32): the hashes against
 * node:crypto, the curve against node:crypto's secp256k1 ECDH, the official
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
  type WalletKeyErrorCode,
} from '../src/index.js';
import { compress, decompress, multiplyG, N } from '../src/bip32/secp256k1.js';
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

describe('secp256k1', () => {
  const reference = (k: bigint): string => {
    const ecdh = createECDH('secp256k1');
    ecdh.setPrivateKey(Buffer.from(k.toString(16).padStart(64, '0'), 'hex'));
    return ecdh.getPublicKey('hex', 'compressed');
  };

  test('k·G equals node:crypto (OpenSSL) for edge scalars and 300 more', () => {
    const scalars = [1n, 2n, 3n, 15n, 16n, 17n, 255n, 256n, 2n ** 128n, 2n ** 255n, N - 2n, N - 1n, (N - 1n) / 2n];
    for (let i = 0; i < 300; i++) {
      scalars.push((BigInt(`0x${hex(bytes(i, 32))}`) % (N - 1n)) + 1n);
    }
    for (const k of scalars) {
      assert.equal(hex(compress(multiplyG(k) as { x: bigint; y: bigint })), reference(k), `k = ${k.toString(16)}`);
    }
  });

  test('decompress gives back the point (both parities) and refuses what is no point', () => {
    for (let i = 0; i < 20; i++) {
      const key = fromHex(reference(BigInt(`0x${hex(bytes(500 + i, 32))}`)));
      const point = decompress(key);
      assert.ok(typeof point === 'object' && point !== null);
      assert.equal(hex(compress(point)), hex(key));
    }
    assert.match(String(decompress(fromHex(`04${'11'.repeat(32)}`))), /starts with 02 or 03, not 04/);
    // x = 7 is not on the curve (BIP32 test vector 5's invalid key).
    assert.equal(decompress(fromHex(`02${'00'.repeat(31)}07`)), 'it is not a point of the secp256k1 curve');
    assert.equal(decompress(fromHex(`02${'ff'.repeat(32)}`)), 'its x coordinate is not below the field prime');
  });
});

describe('BIP32 test vectors (bitcoin/bips bip-0032.mediawiki)', () => {
  // [parent ext pub, child index, child ext pub]: every non-hardened step of test vectors 1 and 2.
  const STEPS: [string, number, string][] = [
    [
      'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw',
      1,
      'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ',
    ],
    [
      'xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trkrX7x7DogT5Uv6fcLW5',
      2,
      'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV',
    ],
    [
      'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV',
      1000000000,
      'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy',
    ],
    [
      'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB',
      0,
      'xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH',
    ],
    [
      'xpub6ASAVgeehLbnwdqV6UKMHVzgqAG8Gr6riv3Fxxpj8ksbH9ebxaEyBLZ85ySDhKiLDBrQSARLq1uNRts8RuJiHjaDMBU4Zn9h8LZNnBC5y4a',
      1,
      'xpub6DF8uhdarytz3FWdA8TvFSvvAh8dP3283MY7p2V4SeE2wyWmG5mg5EwVvmdMVCQcoNJxGoWaU9DCWh89LojfZ537wTfunKau47EL2dhHKon',
    ],
    [
      'xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL',
      2,
      'xpub6FnCn6nSzZAw5Tw7cgR9bi15UV96gLZhjDstkXXxvCLsUXBGXPdSnLFbdpq8p9HmGsApME5hQTZ3emM2rnY5agb9rXpVGyy3bdW6EEgAtqt',
    ],
  ];
  // Every "ext pub" of test vectors 1 to 4, hardened steps included: they parse and serialise back.
  const ALL_PUBLIC = [
    'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8',
    'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw',
    'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ',
    'xpub6D4BDPcP2GT577Vvch3R8wDkScZWzQzMMUm3PWbmWvVJrZwQY4VUNgqFJPMM3No2dFDFGTsxxpG5uJh7n7epu4trkrX7x7DogT5Uv6fcLW5',
    'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV',
    'xpub6H1LXWLaKsWFhvm6RVpEL9P4KfRZSW7abD2ttkWP3SSQvnyA8FSVqNTEcYFgJS2UaFcxupHiYkro49S8yGasTvXEYBVPamhGW6cFJodrTHy',
    'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB',
    'xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH',
    'xpub6ASAVgeehLbnwdqV6UKMHVzgqAG8Gr6riv3Fxxpj8ksbH9ebxaEyBLZ85ySDhKiLDBrQSARLq1uNRts8RuJiHjaDMBU4Zn9h8LZNnBC5y4a',
    'xpub6DF8uhdarytz3FWdA8TvFSvvAh8dP3283MY7p2V4SeE2wyWmG5mg5EwVvmdMVCQcoNJxGoWaU9DCWh89LojfZ537wTfunKau47EL2dhHKon',
    'xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL',
    'xpub6FnCn6nSzZAw5Tw7cgR9bi15UV96gLZhjDstkXXxvCLsUXBGXPdSnLFbdpq8p9HmGsApME5hQTZ3emM2rnY5agb9rXpVGyy3bdW6EEgAtqt',
    'xpub661MyMwAqRbcEZVB4dScxMAdx6d4nFc9nvyvH3v4gJL378CSRZiYmhRoP7mBy6gSPSCYk6SzXPTf3ND1cZAceL7SfJ1Z3GC8vBgp2epUt13',
    'xpub68NZiKmJWnxxS6aaHmn81bvJeTESw724CRDs6HbuccFQN9Ku14VQrADWgqbhhTHBaohPX4CjNLf9fq9MYo6oDaPPLPxSb7gwQN3ih19Zm4Y',
    'xpub661MyMwAqRbcGczjuMoRm6dXaLDEhW1u34gKenbeYqAix21mdUKJyuyu5F1rzYGVxyL6tmgBUAEPrEz92mBXjByMRiJdba9wpnN37RLLAXa',
    'xpub69AUMk3qDBi3uW1sXgjCmVjJ2G6WQoYSnNHyzkmdCHEhSZ4tBok37xfFEqHd2AddP56Tqp4o56AePAgCjYdvpW2PU2jbUPFKsav5ut6Ch1m',
    'xpub6BJA1jSqiukeaesWfxe6sNK9CCGaujFFSJLomWHprUL9DePQ4JDkM5d88n49sMGJxrhpjazuXYWdMf17C9T5XnxkopaeS7jGk1GyyVziaMt',
  ];

  test('every non-hardened child of test vectors 1 and 2, derived from its parent ext pub', () => {
    for (const [parent, index, child] of STEPS) {
      assert.equal(serializeExtendedKey(deriveChild(parseExtendedKey(parent), index)), child, `${parent.slice(0, 16)}…/${index}`);
    }
  });

  test('every ext pub of test vectors 1 to 4 parses and serialises back (leading zeros kept)', () => {
    for (const text of ALL_PUBLIC) {
      const key = parseExtendedKey(text);
      assert.equal(key.prefix, 'xpub');
      assert.equal(serializeExtendedKey(key), text);
    }
    assert.equal(parseExtendedKey(ALL_PUBLIC[0]!).depth, 0);
    assert.equal(parseExtendedKey(ALL_PUBLIC[5]!).depth, 5);
    assert.equal(parseExtendedKey(ALL_PUBLIC[5]!).childNumber, 1000000000);
  });

  test('test vector 5: every invalid extended key is refused, naming why', () => {
    const cases: [string, WalletKeyErrorCode][] = [
      ['xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6LBpB85b3D2yc8sfvZU521AAwdZafEz7mnzBBsz4wKY5fTtTQBm', 'invalid_key'],
      ['xprv9s21ZrQH143K24Mfq5zL5MhWK9hUhhGbd45hLXo2Pq2oqzMMo63oStZzFGTQQD3dC4H2D5GBj7vWvSQaaBv5cxi9gafk7NF3pnBju6dwKvH', 'private_key'],
      ['xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6Txnt3siSujt9RCVYsx4qHZGc62TG4McvMGcAUjeuwZdduYEvFn', 'invalid_key'],
      ['xprv9s21ZrQH143K24Mfq5zL5MhWK9hUhhGbd45hLXo2Pq2oqzMMo63oStZzFGpWnsj83BHtEy5Zt8CcDr1UiRXuWCmTQLxEK9vbz5gPstX92JQ', 'private_key'],
      ['xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6N8ZMMXctdiCjxTNq964yKkwrkBJJwpzZS4HS2fxvyYUA4q2Xe4', 'invalid_key'],
      ['xprv9s21ZrQH143K24Mfq5zL5MhWK9hUhhGbd45hLXo2Pq2oqzMMo63oStZzFAzHGBP2UuGCqWLTAPLcMtD9y5gkZ6Eq3Rjuahrv17fEQ3Qen6J', 'private_key'],
      ['xprv9s2SPatNQ9Vc6GTbVMFPFo7jsaZySyzk7L8n2uqKXJen3KUmvQNTuLh3fhZMBoG3G4ZW1N2kZuHEPY53qmbZzCHshoQnNf4GvELZfqTUrcv', 'private_key'],
      ['xpub661no6RGEX3uJkY4bNnPcw4URcQTrSibUZ4NqJEw5eBkv7ovTwgiT91XX27VbEXGENhYRCf7hyEbWrR3FewATdCEebj6znwMfQkhRYHRLpJ', 'invalid_key'],
      ['xprv9s21ZrQH4r4TsiLvyLXqM9P7k1K3EYhA1kkD6xuquB5i39AU8KF42acDyL3qsDbU9NmZn6MsGSUYZEsuoePmjzsB3eFKSUEh3Gu1N3cqVUN', 'private_key'],
      ['xpub661MyMwAuDcm6CRQ5N4qiHKrJ39Xe1R1NyfouMKTTWcguwVcfrZJaNvhpebzGerh7gucBvzEQWRugZDuDXjNDRmXzSZe4c7mnTK97pTvGS8', 'invalid_key'],
      ['DMwo58pR1QLEFihHiXPVykYB6fJmsTeHvyTp7hRThAtCX8CvYzgPcn8XnmdfHGMQzT7ayAmfo4z3gY5KfbrZWZ6St24UVf2Qgo6oujFktLHdHY4', 'unknown_prefix'],
      ['DMwo58pR1QLEFihHiXPVykYB6fJmsTeHvyTp7hRThAtCX8CvYzgPcn8XnmdfHPmHJiEDXkTiJTVV9rHEBUem2mwVbbNfvT2MTcAqj3nesx8uBf9', 'unknown_prefix'],
      ['xprv9s21ZrQH143K24Mfq5zL5MhWK9hUhhGbd45hLXo2Pq2oqzMMo63oStZzF93Y5wvzdUayhgkkFoicQZcP3y52uPPxFnfoLZB21Teqt1VvEHx', 'private_key'],
      ['xprv9s21ZrQH143K24Mfq5zL5MhWK9hUhhGbd45hLXo2Pq2oqzMMo63oStZzFAzHGBP2UuGCqWLTAPLcMtD5SDKr24z3aiUvKr9bJpdrcLg1y3G', 'private_key'],
      ['xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6Q5JXayek4PRsn35jii4veMimro1xefsM58PgBMrvdYre8QyULY', 'invalid_key'],
      ['xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHL', 'checksum'],
    ];
    for (const [text, code] of cases) {
      refused(code, () => parseExtendedKey(text));
    }
  });

  test('a hardened child cannot be asked of a public key', () => {
    const key = parseExtendedKey(ALL_PUBLIC[0]!);
    assert.throws(() => deriveChild(key, 0x80000000), RangeError);
    assert.throws(() => deriveChild(key, -1), RangeError);
    assert.throws(() => deriveChild(key, 1.5), RangeError);
  });
});

describe('BIP84 and BIP49 test vectors', () => {
  test('BIP84: the account zpub gives the first two receive addresses and the first change address', () => {
    const receive = deriveAddresses(BIP84_ZPUB, { count: 2, environment: 'production' });
    assert.deepEqual(
      receive.map((a) => [a.path, a.publicKey, a.address]),
      [
        ['0/0', '0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
        ['0/1', '03e775fd51f0dfb8cd865d9ff1cca2a158cf651fe997fdc9fee9c1d3b5e995ea77', 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g'],
      ],
    );
    const [change] = deriveAddresses(BIP84_ZPUB, { change: true });
    assert.equal(change?.publicKey, '03025324888e429ab8e3dbaf1f7802648b9cd01e9b418485c5fa4c1b9b5700e1a6');
    assert.equal(change?.address, 'bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el');
    assert.equal(parseWalletKey(BIP84_ZPUB).addressType, 'p2wpkh');
  });

  test('BIP49: the testnet account upub gives the first receive address (nested segwit, 2…)', () => {
    const wallet = parseWalletKey(BIP49_UPUB, { environment: 'sandbox' });
    assert.equal(wallet.addressType, 'p2sh-p2wpkh');
    assert.equal(wallet.network, 'testnet');
    const [first] = deriveAddresses(wallet);
    assert.equal(first?.publicKey, '03a1af804ac108a8a51782198c2d034b28bf90c8803f5a53f76276fa69a4eae77f');
    assert.equal(first?.address, '2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2');
  });
});

describe('bech32 / bech32m encoder (BIP173, BIP350 valid address vectors)', () => {
  const VALID: [string, string][] = [
    ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', '0014751e76e8199196d454941c45d1b3a323f1433bd6'],
    ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', '00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262'],
    [
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
      '5128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6',
    ],
    ['BC1SW50QGDZ25J', '6002751e'],
    ['bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', '5210751e76e8199196d454941c45d1b3a323'],
    ['tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy', '0020000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433'],
    ['tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c', '5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', '512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798'],
  ];

  test('each scriptPubKey encodes to its address, and the decoder reads it back', () => {
    for (const [address, script] of VALID) {
      const scriptBytes = fromHex(script);
      const version = scriptBytes[0] === 0 ? 0 : scriptBytes[0]! - 0x50;
      const hrp = address.toLowerCase().slice(0, 2);
      const encoded = encodeSegwitAddress(hrp, version, scriptBytes.subarray(2));
      assert.equal(encoded, address.toLowerCase());
      const decoded = validateBtcAddress(encoded);
      assert.ok(decoded.valid && decoded.witnessVersion === version, encoded);
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
  test('BIP380 checksum vectors', () => {
    assert.equal(descriptorChecksum('raw(deadbeef)'), '89f8spxm');
    assert.equal(descriptorChecksum('raw(Ü)'), null);
  });

  test("BIP382: wpkh([ffffffff/13']xpub…/1/2/*) gives the three scripts of the BIP", () => {
    const descriptor =
      "wpkh([ffffffff/13']xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH/1/2/*)";
    const scripts = [
      '0014326b2249e3a25d5dc60935f044ee835d090ba859',
      '0014af0bd98abc2f2cae66e36896a39ffe2d32984fb7',
      '00141fa798efd1cbf95cebf912c031b8a4a6e9fb9f27',
    ];
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

  test('BIP381: pkh([bd16bee5/2147483647h]xpub…/0) is index 0 of the ranged pkh(…/*), script 76a914ebdc…88ac', () => {
    const key = 'xpub69H7F5dQzmVd3vPuLKtcXJziMEQByuDidnX3YdwgtNsecY5HRGtAAQC5mXTt4dsv9RzyjgDjAQs9VGVV6ydYCHnprc9vvaA5YtqWyL6hyds';
    refused('not_ranged', () => parseWalletKey(`pkh([bd16bee5/2147483647h]${key}/0)`));
    const [first] = deriveAddresses(`pkh([bd16bee5/2147483647h]${key}/*)`);
    // The address of that script, base58check-encoded here independently of core.
    const payload = Uint8Array.from([0x00, ...fromHex('ebdc90806a9c4356c1c88e42216611e1cb4c1c17')]);
    const sha = (b: Uint8Array): Uint8Array => createHash('sha256').update(b).digest();
    const withCheck = Uint8Array.from([...payload, ...sha(sha(payload)).subarray(0, 4)]);
    let value = BigInt(`0x${hex(withCheck)}`);
    let text = '';
    while (value > 0n) {
      text = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'[Number(value % 58n)] + text;
      value /= 58n;
    }
    assert.equal(first?.address, `1${text}`);
  });

  test('BIP380 and BIP382 descriptors holding private keys, hardened children or unsupported scripts are refused', () => {
    refused('private_key', () =>
      parseWalletKey(
        "sh(wpkh(xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi/10/20/30/40/*'))",
      ),
    );
    refused('private_key', () =>
      parseWalletKey(
        "wpkh([ffffffff/13']xprv9vHkqa6EV4sPZHYqZznhT2NPtPCjKuDKGY38FBWLvgaDx45zo9WQRUT3dKYnjwih2yJD9mkrocEZXo1ex8G81dwSM1fwqWpWkeS3v86pgKt/1/2/0)",
      ),
    );
    refused('private_key', () => parseWalletKey('pkh(L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1)'));
    refused('private_key', () => parseWalletKey('pkh(5KYZdUEo39z3FPrtuX2QbbwGnNP5zTd7yyr2SC1j299sBCnWjss)'));
    refused('hardened_after_key', () =>
      parseWalletKey('pkh(xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL/3h/4h/5h/*h)'),
    );
    refused('descriptor_unsupported', () => parseWalletKey('wsh(pkh(03a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd))'));
    refused('descriptor_checksum', () => parseWalletKey('raw(deedbeef)#89f8spxm'));
    refused('descriptor_checksum', () => parseWalletKey('raw(deedbeef)##9f8spxm'));
    refused('descriptor_checksum', () => parseWalletKey('raw(deadbeef)#89f8spx'));
    refused('descriptor_checksum', () => parseWalletKey('raw(deadbeef)#89f8spxmx'));
    refused('descriptor', () => parseWalletKey('raw(Ü)#00000000'));
    for (const origin of [
      '[deadbeef/0h/0h/0h/*]',
      '[deadbeef/0h/0h/0h/]',
      '[deadbef/0h/0h/0h]',
      '[deadbeeef/0h/0h/0h]',
      '[deadbeef/0f/0f/0f]',
      '[deadbeef/-0/-0/-0]',
      '[deadbeef/0H/0H/0H]',
    ]) {
      refused('descriptor', () =>
        parseWalletKey(`wpkh(${origin}xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL/*)`),
      );
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

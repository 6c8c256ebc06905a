/**
 * Generates vectors/bip32-addresses.json: wallet keys and descriptors with
 * what parsing them gives and the addresses derived from them, and refusals
 * with their code and message, checked by core's tests and by the PHP
 * library's (packages/php/test/suites/bip32.ts) on GMP and BCMath alike.
 *
 *   node dist/scripts/generate-bip32-vectors.js           # (re)write the file
 *   node dist/scripts/generate-bip32-vectors.js --check   # exit 1 when the file is not current
 *
 * Deterministic: the official BIPs' keys plus keys made from a seeded PRNG
 * (random chain code, public key k·G, depth, parent fingerprint, child
 * number); no clock.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

import {
  deriveAddresses,
  descriptorChecksum,
  parseWalletKey,
  serializeExtendedKey,
  WalletKeyError,
  type ExtendedPublicKey,
  type WalletKey,
} from '../src/bip32/index.js';
import { WALLET_KEY_MAX_LENGTH, type Environment } from '../src/settings-schema.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';

export const BIP32_VECTORS_URL = new URL('../../vectors/bip32-addresses.json', import.meta.url);

export interface Bip32ValidCase {
  name: string;
  input: string;
  environment: Environment | null;
  wallet: {
    source: WalletKey['source'];
    prefix: string;
    network: WalletKey['network'];
    address_type: WalletKey['addressType'];
    depth: number;
    parent_fingerprint: number;
    child_number: number;
    chain_code: string;
    public_key: string;
    receive_path: number[];
    change_path: number[] | null;
    origin: WalletKey['origin'];
    descriptor: string;
  };
  /** Receive addresses from index `from`. */
  from: number;
  receive: string[];
  /** Change addresses from index `from`; null when the descriptor has no change chain. */
  change: string[] | null;
}

export interface Bip32RefusalCase {
  name: string;
  input: string;
  environment: Environment | null;
  code: string;
  message: string;
}

export interface Bip32VectorFile {
  version: 1;
  description: string;
  valid: Bip32ValidCase[];
  refusals: Bip32RefusalCase[];
}

/** Deterministic 32-bit PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (bytes: Uint8Array): string => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');

// Official keys (bitcoin/bips): BIP84's and BIP49's account keys, BIP32 test vectors 1 and 2.
export const BIP84_ZPUB = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
export const BIP49_UPUB = 'upub5EFU65HtV5TeiSHmZZm7FUffBGy8UKeqp7vw43jYbvZPpoVsgU93oac7Wk3u6moKegAEWtGNF8DehrnHtv21XXEMYRUocHqguyjknFHYfgY';
const BIP32_TV1_M0H = 'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw';
const BIP32_TV2_M = 'xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB';
const BIP32_TV1_XPRV = 'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi';
const BIP84_ZPRV = 'zprvAdG4iTXWBoARxkkzNpNh8r6Qag3irQB8PzEMkAFeTRXxHpbF9z4QgEvBRmfvqWvGp42t42nvgGpNgYSJA9iefm1yYNZKEm7z6qUWCroSQnE';
const BIP49_UPRV = 'uprv91G7gZkzehuMVxDJTYE6tLivdF8e4rvzSu1LFfKw3b2Qx1Aj8vpoFnHdfUZ3hmi9jsvPifmZ24RTN2KhwB8BfMLTVqaBReibyaFFcTP1s9n';

/** secp256k1's group order (SEC 2): a private key is 1 … N - 1. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const VERSION = { xpub: 0x0488b21e, ypub: 0x049d7cb2, zpub: 0x04b24746, tpub: 0x043587cf, upub: 0x044a5262, vpub: 0x045f1cf6, Zpub: 0x02aa7ed3 } as const;

/** A made-up (valid) extended public key of a given version from the PRNG. */
function randomKey(random: () => number, version: number, network: 'mainnet' | 'testnet'): string {
  const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
  let k = 0n;
  for (const b of bytes(32)) {
    k = (k << 8n) | BigInt(b);
  }
  k = (k % (N - 1n)) + 1n;
  const depth = 1 + Math.floor(random() * 5);
  const key: ExtendedPublicKey = {
    prefix: '',
    version,
    network,
    depth,
    parentFingerprint: Math.floor(random() * 2 ** 32),
    childNumber: (Math.floor(random() * 2 ** 31) | (random() < 0.5 ? 0x80000000 : 0)) >>> 0,
    chainCode: bytes(32),
    // k·G, compressed: the public key of private key k (@scure/bip32 over @noble/curves).
    publicKey: new HDKey({ chainCode: new Uint8Array(32), privateKey: hexToBytes(k.toString(16).padStart(64, '0')) }).publicKey!,
  };
  return serializeExtendedKey(key);
}

function xpubOf(text: string): string {
  const wallet = parseWalletKey(text);
  return serializeExtendedKey(wallet.key, wallet.network === 'mainnet' ? VERSION.xpub : VERSION.tpub);
}

function withChecksum(body: string): string {
  return `${body}#${descriptorChecksum(body)}`;
}

/** A valid descriptor of `key` of exactly `length` characters: a long key origin path, and its checksum. */
function descriptorOfLength(key: string, length: number): string {
  const shell = (path: string) => `wpkh([d34db33f${path}]${key}/<0;1>/*)`;
  const bodyLength = length - 9; // "#" and 8 checksum characters
  let path = '';
  while (shell(path).length + 2 <= bodyLength) {
    path += '/1';
  }
  if (shell(path).length < bodyLength) {
    path = `${path.slice(0, -2)}/10`;
  }
  if (shell(path).length !== bodyLength) {
    throw new Error(`no descriptor of ${length} characters`);
  }
  return withChecksum(shell(path));
}

export function buildBip32VectorFile(): Bip32VectorFile {
  const random = prng(0x0b1932);
  const valid: Bip32ValidCase[] = [];
  const refusals: Bip32RefusalCase[] = [];
  const names = new Set<string>();
  const unique = (name: string): string => {
    if (names.has(name)) {
      throw new Error(`duplicate vector name ${name}`);
    }
    names.add(name);
    return name;
  };

  const addValid = (name: string, input: string, environment: Environment | null = null, from = 0, count = 4): void => {
    const wallet = parseWalletKey(input, environment ? { environment } : {});
    const key = wallet.key;
    valid.push({
      name: unique(name),
      input,
      environment,
      wallet: {
        source: wallet.source,
        prefix: key.prefix,
        network: wallet.network,
        address_type: wallet.addressType,
        depth: key.depth,
        parent_fingerprint: key.parentFingerprint,
        child_number: key.childNumber,
        chain_code: hex(key.chainCode),
        public_key: hex(key.publicKey),
        receive_path: wallet.receivePath,
        change_path: wallet.changePath,
        origin: wallet.origin,
        descriptor: wallet.descriptor,
      },
      from,
      receive: deriveAddresses(wallet, { from, count }).map((a) => a.address),
      change: wallet.changePath === null ? null : deriveAddresses(wallet, { from, count: Math.min(count, 2), change: true }).map((a) => a.address),
    });
  };

  const addRefusal = (name: string, input: string, environment: Environment | null = null): void => {
    try {
      parseWalletKey(input, environment ? { environment } : {});
    } catch (error) {
      if (error instanceof WalletKeyError) {
        refusals.push({ name: unique(name), input, environment, code: error.code, message: error.message });
        return;
      }
      throw error;
    }
    throw new Error(`refusal ${name} was accepted`);
  };

  // --- Official keys, bare and in descriptors.
  addValid('bip84-account-zpub', BIP84_ZPUB, 'production');
  addValid('bip49-account-upub', BIP49_UPUB, 'sandbox');
  addValid('bip32-tv1-m-0h-xpub-legacy', BIP32_TV1_M0H);
  addValid('bip32-tv2-master-xpub', BIP32_TV2_M);
  const bip84Xpub = xpubOf(BIP84_ZPUB);
  const bip49Tpub = xpubOf(BIP49_UPUB);
  addValid('bip84-descriptor-origin-h', withChecksum(`wpkh([73c5da0a/84h/0h/0h]${bip84Xpub}/0/*)`), 'production');
  addValid('bip84-descriptor-origin-apostrophe-no-checksum', `wpkh([73C5DA0A/84'/0'/0']${bip84Xpub}/<0;1>/*)`);
  addValid('bip84-descriptor-zpub-inside', `wpkh(${BIP84_ZPUB}/<0;1>/*)`);
  addValid('bip49-descriptor-sh-wpkh', withChecksum(`sh(wpkh([73c5da0a/49h/1h/0h]${bip49Tpub}/<0;1>/*))`), 'sandbox');
  addValid('bip84-key-as-pkh', withChecksum(`pkh(${bip84Xpub}/<0;1>/*)`));
  addValid('bip84-key-as-sh-wpkh-change-chain-only', `sh(wpkh(${bip84Xpub}/1/*))`);
  addValid('bip84-key-deeper-path', withChecksum(`wpkh(${bip84Xpub}/7/<2;3>/*)`));
  addValid('bip84-key-swapped-chains', `wpkh(${bip84Xpub}/<1;0>/*)`);
  addValid('bip84-key-pasted-with-spaces-and-newline', ` \t${BIP84_ZPUB}\r\n`);
  addValid('bip84-last-indexes', BIP84_ZPUB, null, 0x7fffffff - 3, 4);
  addValid('bip84-index-1000', BIP84_ZPUB, null, 1000, 3);
  // The longest text read (WALLET_KEY_MAX_LENGTH characters, trimmed): a descriptor with a long key origin path.
  const longest = descriptorOfLength(bip84Xpub, WALLET_KEY_MAX_LENGTH);
  addValid(`descriptor-of-${WALLET_KEY_MAX_LENGTH}-characters`, `  ${longest}\n`, 'production');

  // --- Made-up keys of every prefix and depth.
  const kinds = [
    ['xpub', 'mainnet'],
    ['ypub', 'mainnet'],
    ['zpub', 'mainnet'],
    ['tpub', 'testnet'],
    ['upub', 'testnet'],
    ['vpub', 'testnet'],
  ] as const;
  for (const [prefix, network] of kinds) {
    for (let n = 0; n < 3; n++) {
      const key = randomKey(random, VERSION[prefix], network);
      addValid(`random-${prefix}-${n}`, key, network === 'mainnet' ? 'production' : 'sandbox', n === 2 ? 1 + Math.floor(random() * 100000) : 0, 3);
    }
  }
  for (const [fn, close, prefix, network] of [
    ['wpkh(', ')', 'xpub', 'mainnet'],
    ['sh(wpkh(', '))', 'tpub', 'testnet'],
    ['pkh(', ')', 'tpub', 'testnet'],
  ] as const) {
    const key = randomKey(random, VERSION[prefix], network);
    addValid(
      `random-descriptor-${fn.replace(/\W/g, '')}-${prefix}`,
      withChecksum(
        `${fn}[${Math.floor(random() * 2 ** 32)
          .toString(16)
          .padStart(8, '0')}/1h/2'/3]${key}/<0;1>/*${close}`,
      ),
    );
  }

  // --- Refusals, one per reason (and the BIP32 test vector 5 keys).
  const zpub = BIP84_ZPUB;
  addRefusal('empty', '');
  // Longer than WALLET_KEY_MAX_LENGTH characters: refused before anything is decoded (counted in code points).
  addRefusal(`descriptor-of-${WALLET_KEY_MAX_LENGTH + 1}-characters`, descriptorOfLength(bip84Xpub, WALLET_KEY_MAX_LENGTH + 1), 'production');
  addRefusal('key-pasted-five-times', BIP84_ZPUB.repeat(5));
  addRefusal(`${WALLET_KEY_MAX_LENGTH + 1}-non-ascii-characters`, '\u00e9'.repeat(WALLET_KEY_MAX_LENGTH + 1));
  addRefusal('300-emoji-are-not-too-long', '\u{1F511}'.repeat(300));
  addRefusal('only-spaces', ' \n ');
  addRefusal('bip32-tv1-xprv', BIP32_TV1_XPRV);
  addRefusal('bip84-zprv', BIP84_ZPRV);
  addRefusal('bip49-uprv', BIP49_UPRV);
  addRefusal('descriptor-with-xprv', `wpkh(${BIP32_TV1_XPRV}/0/*)`);
  addRefusal('descriptor-with-wif', 'wpkh(L4rK1yDtCWekvXuE6oXD9jCYfFNV2cWRpVuPLBcCU2z8TrisoyY1)');
  addRefusal('descriptor-with-single-pubkey', 'wpkh(03a34b99f22c790c4e36b2b3c2c35a36db06226e41c692fc82b8b56ac1c540c5bd)');
  addRefusal('typo-in-key', `${zpub.slice(0, 50)}${zpub[50] === 'a' ? 'b' : 'a'}${zpub.slice(51)}`);
  addRefusal('key-cut-short', zpub.slice(0, 100));
  addRefusal('character-outside-base58', `${zpub.slice(0, 20)}0${zpub.slice(21)}`);
  addRefusal('non-ascii-character', `${zpub.slice(0, 20)}é${zpub.slice(21)}`);
  addRefusal('mainnet-key-in-sandbox', zpub, 'sandbox');
  addRefusal('testnet-key-in-production', BIP49_UPUB, 'production');
  addRefusal('testnet-descriptor-in-production', withChecksum(`sh(wpkh(${bip49Tpub}/<0;1>/*))`), 'production');
  addRefusal('multisig-Zpub', randomKey(random, VERSION.Zpub, 'mainnet'));
  addRefusal('bitcoin-address-not-key', 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
  addRefusal('path-without-descriptor', `${zpub}/0/*`);
  addRefusal('hardened-step-after-key', `wpkh(${bip84Xpub}/0h/*)`);
  addRefusal('hardened-apostrophe-after-key', `wpkh(${bip84Xpub}/1'/*)`);
  addRefusal('hardened-index', `wpkh(${bip84Xpub}/0/*h)`);
  addRefusal('hardened-last-step-not-ranged', `wpkh(${bip84Xpub}/0/5h)`);
  addRefusal('hardened-multipath', `wpkh(${bip84Xpub}/<0h;1h>/*)`);
  addRefusal(
    'bip380-hardened-derivation-and-children',
    'pkh(xpub6ERApfZwUNrhLCkDtcHTcxd75RbzS1ed54G1LkBUHQVHQKqhMkhgbmJbZRkrgZw4koxb5JaHWkY4ALHY2grBGRjaDMzQLcgJvLJuZZvRcEL/3h/4h/5h/*)',
  );
  addRefusal('not-ranged', `wpkh(${bip84Xpub}/0/5)`);
  addRefusal('not-ranged-bare-key', `wpkh(${bip84Xpub})`);
  addRefusal('star-not-last', `wpkh(${bip84Xpub}/*/0)`);
  addRefusal('bad-descriptor-checksum', `wpkh(${bip84Xpub}/0/*)#${descriptorChecksum(`wpkh(${bip84Xpub}/1/*)`)}`);
  addRefusal('short-descriptor-checksum', `wpkh(${bip84Xpub}/0/*)#abc`);
  addRefusal('descriptor-character-outside-set', `wpkh(${bip84Xpub}/0/*)\u00dc`);
  addRefusal('taproot-descriptor', `tr(${bip84Xpub}/0/*)`);
  addRefusal('multisig-descriptor', `wsh(multi(1,${bip84Xpub}/0/*))`);
  addRefusal('zpub-in-pkh', `pkh(${zpub}/0/*)`);
  addRefusal('ypub-in-wpkh', `wpkh(${serializeExtendedKey(parseWalletKey(zpub).key, VERSION.ypub)}/0/*)`);
  addRefusal('uppercase-H-hardened-origin', `wpkh([73c5da0a/84H/0H/0H]${bip84Xpub}/0/*)`);
  addRefusal('short-fingerprint', `wpkh([73c5da0/84h]${bip84Xpub}/0/*)`);
  addRefusal('unclosed-origin', `wpkh([73c5da0a/84h${bip84Xpub}/0/*)`);
  addRefusal('two-origins', `wpkh([73c5da0a][73c5da0a]${bip84Xpub}/0/*)`);
  addRefusal('step-out-of-range', `wpkh(${bip84Xpub}/2147483648/*)`);
  addRefusal('three-way-multipath', `wpkh(${bip84Xpub}/<0;1;2>/*)`);
  addRefusal('same-chain-twice', `wpkh(${bip84Xpub}/<1;1>/*)`);
  // BIP32 test vector 5.
  for (const [name, text] of [
    ['bip32-tv5-pubkey-version-prvkey', 'xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6LBpB85b3D2yc8sfvZU521AAwdZafEz7mnzBBsz4wKY5fTtTQBm'],
    ['bip32-tv5-prvkey-version-pubkey', 'xprv9s21ZrQH143K24Mfq5zL5MhWK9hUhhGbd45hLXo2Pq2oqzMMo63oStZzFGTQQD3dC4H2D5GBj7vWvSQaaBv5cxi9gafk7NF3pnBju6dwKvH'],
    ['bip32-tv5-pubkey-prefix-04', 'xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6Txnt3siSujt9RCVYsx4qHZGc62TG4McvMGcAUjeuwZdduYEvFn'],
    ['bip32-tv5-pubkey-prefix-01', 'xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6N8ZMMXctdiCjxTNq964yKkwrkBJJwpzZS4HS2fxvyYUA4q2Xe4'],
    [
      'bip32-tv5-zero-depth-parent-fingerprint',
      'xpub661no6RGEX3uJkY4bNnPcw4URcQTrSibUZ4NqJEw5eBkv7ovTwgiT91XX27VbEXGENhYRCf7hyEbWrR3FewATdCEebj6znwMfQkhRYHRLpJ',
    ],
    ['bip32-tv5-zero-depth-index', 'xpub661MyMwAuDcm6CRQ5N4qiHKrJ39Xe1R1NyfouMKTTWcguwVcfrZJaNvhpebzGerh7gucBvzEQWRugZDuDXjNDRmXzSZe4c7mnTK97pTvGS8'],
    ['bip32-tv5-unknown-version-1', 'DMwo58pR1QLEFihHiXPVykYB6fJmsTeHvyTp7hRThAtCX8CvYzgPcn8XnmdfHGMQzT7ayAmfo4z3gY5KfbrZWZ6St24UVf2Qgo6oujFktLHdHY4'],
    ['bip32-tv5-unknown-version-2', 'DMwo58pR1QLEFihHiXPVykYB6fJmsTeHvyTp7hRThAtCX8CvYzgPcn8XnmdfHPmHJiEDXkTiJTVV9rHEBUem2mwVbbNfvT2MTcAqj3nesx8uBf9'],
    ['bip32-tv5-invalid-pubkey', 'xpub661MyMwAqRbcEYS8w7XLSVeEsBXy79zSzH1J8vCdxAZningWLdN3zgtU6Q5JXayek4PRsn35jii4veMimro1xefsM58PgBMrvdYre8QyULY'],
    ['bip32-tv5-invalid-checksum', 'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHL'],
  ] as const) {
    addRefusal(name, text);
  }
  // A key whose x coordinate is not below the field prime.
  const bigX = parseWalletKey(BIP84_ZPUB).key;
  addRefusal('x-not-below-field-prime', serializeExtendedKey({ ...bigX, publicKey: Uint8Array.from([2, ...new Uint8Array(32).fill(0xff)]) }));

  return {
    version: 1,
    description:
      'Wallet keys and descriptors: what parsing gives and the addresses derived from index `from` (receive: count given, change: up to 2), and refusals with their code and exact message. Generated by packages/core/scripts/generate-bip32-vectors.ts; checked by core and by the PHP library on GMP and BCMath.',
    valid,
    refusals,
  };
}

export function serialiseBip32VectorFile(file: Bip32VectorFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}

function main(argv: string[]): number {
  const text = serialiseBip32VectorFile(buildBip32VectorFile());
  const path = fileURLToPath(BIP32_VECTORS_URL);
  if (argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      // missing file: reported below
    }
    if (current !== text) {
      console.error(`${path} is not current: run npm run vectors in packages/core`);
      return 1;
    }
    console.log(`${path} is current`);
    return 0;
  }
  writeFileSync(path, text);
  const file = JSON.parse(text) as Bip32VectorFile;
  console.log(`wrote ${file.valid.length} keys and ${file.refusals.length} refusals to ${path}`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}

/**
 * A store's wallet, given as an extended public key (xpub/ypub/zpub,
 * tpub/upub/vpub) or an output descriptor of one such key (wpkh(…),
 * sh(wpkh(…)), pkh(…), BIP380-382 with the BIP389 <0;1> step), and the
 * addresses derived from it (BIP32 public derivation, BIP44/49/84 address
 * types). Nothing here can spend: a private key is refused, by name.
 *
 * The hashes are those of `@noble/hashes`, the curve and the child key
 * derivation those of `@scure/bip32` (over `@noble/curves`), the encodings
 * those of `@scure/base`: audited libraries (README, "Dependency policy"). What is this module's own is the
 * reading of what a person pastes, with a refusal that names the problem.
 * No node: imports, so this runs in any JavaScript runtime; it is exported
 * from the Node entry only, since the key never goes to a browser
 * (docs/decisions.md). PHP's Btc\Bip32 is the same, message for message
 * (vectors/bip32-addresses.json).
 */
import { hmac } from '@noble/hashes/hmac.js';
import { ripemd160 as nobleRipemd160 } from '@noble/hashes/legacy.js';
import { sha256, sha512 as nobleSha512 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';

import { decodeBase58Check, encodeBase58Check, encodeSegwitAddress, validateBtcAddress, type BtcNetwork } from '../btc-address.js';
import { WALLET_KEY_MAX_LENGTH, type Environment } from '../settings-schema.js';

/** SHA-512 (@noble/hashes). */
export function sha512(data: Uint8Array): Uint8Array {
  return nobleSha512(data);
}

/** HMAC-SHA512 of `data` keyed with `key` (@noble/hashes). */
export function hmacSha512(key: Uint8Array, data: Uint8Array): Uint8Array {
  return hmac(nobleSha512, key, data);
}

/** RIPEMD-160 (@noble/hashes). */
export function ripemd160(data: Uint8Array): Uint8Array {
  return nobleRipemd160(data);
}

/** HASH160: RIPEMD-160 of SHA-256, the hash of a key in an address and a key's fingerprint. */
export function hash160(data: Uint8Array): Uint8Array {
  return nobleRipemd160(sha256(data));
}

/** The output (and address) a key pays to: BIP84 native segwit, BIP49 nested segwit, BIP44 legacy. */
export type WalletAddressType = 'p2wpkh' | 'p2sh-p2wpkh' | 'p2pkh';
export type WalletNetwork = Extract<BtcNetwork, 'mainnet' | 'testnet'>;

export type WalletKeyErrorCode =
  | 'empty'
  | 'too_long'
  | 'address_not_key'
  | 'characters'
  | 'length'
  | 'checksum'
  | 'private_key'
  | 'multisig'
  | 'unknown_prefix'
  | 'invalid_key'
  | 'wrong_network'
  | 'descriptor'
  | 'descriptor_checksum'
  | 'descriptor_unsupported'
  | 'mismatch'
  | 'hardened_after_key'
  | 'not_ranged'
  | 'no_change_chain'
  | 'underivable';

/** Why a key or descriptor was refused: `code` for programs, `message` for the person who pasted it. */
export class WalletKeyError extends Error {
  override readonly name = 'WalletKeyError';
  constructor(
    readonly code: WalletKeyErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The 78 bytes of a BIP32 extended public key, decoded. */
export interface ExtendedPublicKey {
  /** xpub, ypub, zpub, tpub, upub or vpub. */
  prefix: string;
  version: number;
  network: WalletNetwork;
  depth: number;
  /** The first 4 bytes of HASH160 of the parent's public key, as a number (0 for a master key). */
  parentFingerprint: number;
  childNumber: number;
  chainCode: Uint8Array;
  /** 33-byte compressed public key. */
  publicKey: Uint8Array;
}

/** A wallet ready to derive from: the key, the address type, the two chains below the key. */
export interface WalletKey {
  source: 'extended-key' | 'descriptor';
  key: ExtendedPublicKey;
  network: WalletNetwork;
  addressType: WalletAddressType;
  /** Non-hardened steps from the key to the receive addresses' parent (the address index comes last). */
  receivePath: number[];
  /** The same for change addresses; null when a descriptor names one chain only. */
  changePath: number[] | null;
  /** The descriptor's key origin ([fingerprint/path]), lower-case hex and "h" steps; null without one. */
  origin: { fingerprint: string; path: string } | null;
  /** An equivalent descriptor with its checksum: the one pasted (checksum added), or one written for a bare key. */
  descriptor: string;
}

export interface DerivedAddress {
  index: number;
  change: boolean;
  /** The steps below the key, e.g. "0/5". */
  path: string;
  address: string;
  /** Hex of the 33-byte compressed public key. */
  publicKey: string;
}

interface VersionInfo {
  prefix: string;
  network: WalletNetwork;
  /** Public: the address type its prefix stands for (SLIP-132). Private or multisig: the public prefix to ask for. */
  kind: 'public' | 'private' | 'multisig';
  addressType: WalletAddressType;
  publicPrefix: string;
}

const VERSIONS: Record<number, VersionInfo> = {};
for (const [pub, prv, prefix, privatePrefix, network, addressType] of [
  [0x0488b21e, 0x0488ade4, 'xpub', 'xprv', 'mainnet', 'p2pkh'],
  [0x049d7cb2, 0x049d7878, 'ypub', 'yprv', 'mainnet', 'p2sh-p2wpkh'],
  [0x04b24746, 0x04b2430c, 'zpub', 'zprv', 'mainnet', 'p2wpkh'],
  [0x043587cf, 0x04358394, 'tpub', 'tprv', 'testnet', 'p2pkh'],
  [0x044a5262, 0x044a4e28, 'upub', 'uprv', 'testnet', 'p2sh-p2wpkh'],
  [0x045f1cf6, 0x045f18bc, 'vpub', 'vprv', 'testnet', 'p2wpkh'],
  // SLIP-132 multisig keys: refused, by name.
  [0x0295b43f, 0x0295b005, 'Ypub', 'Yprv', 'mainnet', 'p2sh-p2wpkh'],
  [0x02aa7ed3, 0x02aa7a99, 'Zpub', 'Zprv', 'mainnet', 'p2wpkh'],
  [0x024289ef, 0x024285b5, 'Upub', 'Uprv', 'testnet', 'p2sh-p2wpkh'],
  [0x02575483, 0x02575048, 'Vpub', 'Vprv', 'testnet', 'p2wpkh'],
] as const) {
  const multisig = prefix[0] === prefix[0]!.toUpperCase();
  VERSIONS[pub] = { prefix, network, kind: multisig ? 'multisig' : 'public', addressType, publicPrefix: prefix };
  VERSIONS[prv] = { prefix: privatePrefix, network, kind: multisig ? 'multisig' : 'private', addressType, publicPrefix: prefix };
}

const PREFIXES: Record<WalletNetwork, string> = { mainnet: 'xpub, ypub or zpub', testnet: 'tpub, upub or vpub' };
const ADDRESS_TYPE_NAMES: Record<WalletAddressType, string> = {
  p2wpkh: 'native segwit (wpkh)',
  'p2sh-p2wpkh': 'nested segwit (sh(wpkh))',
  p2pkh: 'legacy (pkh)',
};
const HARDENED = 0x80000000;
/** secp256k1's field prime (SEC 2): an x coordinate must be below it. */
const FIELD_PRIME = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Surrounding spaces, tabs and line breaks are dropped (as pasted); PHP trims the same four. */
function trimPasted(text: string): string {
  // Index scans, not a regular expression: /[ \t\r\n]+$/ retries every run of spaces inside the text (quadratic).
  const blank = (code: number) => code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
  let start = 0;
  let end = text.length;
  while (start < end && blank(text.charCodeAt(start))) {
    start++;
  }
  while (end > start && blank(text.charCodeAt(end - 1))) {
    end--;
  }
  return text.slice(start, end);
}

/** Unicode characters (code points) of a text, as PHP's Bip32 counts them in valid UTF-8. */
function characterCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
      }
    }
    count++;
  }
  return count;
}

/**
 * Refuses a text longer than any wallet key or descriptor (WALLET_KEY_MAX_LENGTH
 * characters, trimmed) before anything decodes it: base58 decoding takes time
 * that grows with the square of the length (a 200,000-character paste held a
 * PHP worker for minutes).
 */
function refuseTooLong(text: string): void {
  if (text.length > WALLET_KEY_MAX_LENGTH && characterCount(text) > WALLET_KEY_MAX_LENGTH) {
    throw new WalletKeyError(
      'too_long',
      `A wallet key or descriptor has at most ${WALLET_KEY_MAX_LENGTH} characters (an extended public key has 111); this one has ${characterCount(text)}.`,
    );
  }
}

/**
 * Decodes one base58check extended key. Refuses, naming the problem: private
 * keys (xprv, zprv, tprv…), multisig keys (Zpub…), unknown versions, bad
 * checksums, and key data that is not a valid compressed public key.
 */
export function parseExtendedKey(text: string): ExtendedPublicKey {
  text = trimPasted(String(text));
  if (text === '') {
    throw new WalletKeyError('empty', 'The key is empty.');
  }
  refuseTooLong(text);
  let position = 0;
  for (const char of text) {
    position++;
    if (!BASE58.includes(char)) {
      throw new WalletKeyError('characters', `Character "${char}" at position ${position} is not valid in an extended key.`);
    }
  }
  const decoded = decodeBase58Check(text);
  if (decoded === 'short') {
    throw new WalletKeyError('length', `An extended key has 111 characters; this one has ${text.length}.`);
  }
  if (decoded === 'checksum') {
    throw new WalletKeyError('checksum', 'Checksum mismatch: the key has a typo or is incomplete.');
  }
  if (!(decoded instanceof Uint8Array)) {
    throw new WalletKeyError('characters', `Character "${decoded.badChar}" at position ${decoded.index + 1} is not valid in an extended key.`);
  }
  if (decoded.length !== 78) {
    throw new WalletKeyError('length', `An extended key holds 78 bytes; this one holds ${decoded.length}.`);
  }
  const view = new DataView(decoded.buffer, decoded.byteOffset, decoded.byteLength);
  const version = view.getUint32(0);
  const info = VERSIONS[version];
  if (info === undefined) {
    const hex = version.toString(16).padStart(8, '0');
    throw new WalletKeyError('unknown_prefix', `Unknown extended key version 0x${hex}: expected ${PREFIXES.mainnet} (${PREFIXES.testnet} on testnet).`);
  }
  if (info.kind === 'private') {
    throw new WalletKeyError(
      'private_key',
      `This is an extended private key (${info.prefix}): it can spend the wallet's funds. Paste its extended public key (${info.publicPrefix}) instead, and keep the private key out of any website.`,
    );
  }
  if (info.kind === 'multisig') {
    throw new WalletKeyError(
      'multisig',
      `This is a multisig key (${info.prefix}): one key alone does not give the wallet's addresses. Use a single-signature wallet's key (${PREFIXES[info.network]}).`,
    );
  }
  const depth = decoded[4]!;
  const parentFingerprint = view.getUint32(5);
  const childNumber = view.getUint32(9);
  const chainCode = decoded.slice(13, 45);
  const publicKey = decoded.slice(45, 78);
  if (publicKey[0] === 0) {
    throw new WalletKeyError('invalid_key', `The key data is a private key under public key version bytes (${info.prefix}).`);
  }
  const damage = pointProblem(publicKey, chainCode);
  if (damage !== null) {
    throw new WalletKeyError('invalid_key', `The key is damaged: ${damage}.`);
  }
  if (depth === 0 && parentFingerprint !== 0) {
    throw new WalletKeyError('invalid_key', 'The key is damaged: a master key (depth 0) has no parent fingerprint.');
  }
  if (depth === 0 && childNumber !== 0) {
    throw new WalletKeyError('invalid_key', 'The key is damaged: a master key (depth 0) has no child number.');
  }
  return { prefix: info.prefix, version, network: info.network, depth, parentFingerprint, childNumber, chainCode, publicKey };
}

/**
 * Why 33 bytes are no compressed secp256k1 public key (in the words PHP's
 * Secp256k1 uses), or null when they are one: the curve itself is that of
 * `@noble/curves`, by way of the HDKey of `@scure/bip32`, which refuses any other.
 */
function pointProblem(publicKey: Uint8Array, chainCode: Uint8Array): string | null {
  if (publicKey[0] !== 2 && publicKey[0] !== 3) {
    return `a compressed public key starts with 02 or 03, not ${(publicKey[0] ?? 0).toString(16).padStart(2, '0')}`;
  }
  if (BigInt(`0x${bytesToHex(publicKey.subarray(1))}`) >= FIELD_PRIME) {
    return 'its x coordinate is not below the field prime';
  }
  try {
    new HDKey({ chainCode, publicKey });
  } catch {
    return 'it is not a point of the secp256k1 curve';
  }
  return null;
}

/** The key as @scure/bip32 holds it: only its chain code and point take part in a child's derivation. */
function hdKeyOf(key: ExtendedPublicKey): HDKey {
  return new HDKey({ chainCode: key.chainCode, publicKey: key.publicKey });
}

/** The 111-character base58check text of an extended public key (`version` overrides its own). */
export function serializeExtendedKey(key: ExtendedPublicKey, version: number = key.version): string {
  const bytes = new Uint8Array(78);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, version);
  bytes[4] = key.depth;
  view.setUint32(5, key.parentFingerprint);
  view.setUint32(9, key.childNumber);
  bytes.set(key.chainCode, 13);
  bytes.set(key.publicKey, 45);
  return encodeBase58Check(bytes);
}

/**
 * CKDpub (BIP32): the child key at non-hardened `index` of an extended public
 * key, with depth, parent fingerprint and child number set as BIP32 says.
 */
export function deriveChild(key: ExtendedPublicKey, index: number): ExtendedPublicKey {
  return childOf(key, hdKeyOf(key), index).key;
}

/** CKDpub of `key` (held by @scure/bip32 as `node`), checked as deriveChild() says; the child both ways. */
function childOf(key: ExtendedPublicKey, node: HDKey, index: number): { key: ExtendedPublicKey; node: HDKey } {
  if (!Number.isInteger(index) || index < 0 || index >= HARDENED) {
    throw new RangeError(`Child index ${index} is not a non-hardened index (0 to ${HARDENED - 1}).`);
  }
  if (key.depth >= 255) {
    throw new RangeError('The key is at depth 255, the deepest BIP32 allows.');
  }
  let child: HDKey | null;
  try {
    child = node.deriveChild(index);
  } catch (error) {
    // Only at the last non-hardened index: HDKey found no key there and has no next index to try.
    if (error instanceof Error && error.message.startsWith('HDKey: cannot retry')) {
      child = null;
    } else {
      throw error;
    }
  }
  // HDKey moves on to the next index when this one has no key (probability below 2^-127); here the caller is
  // told, by name, and skips it (BIP32 says to).
  if (child === null || child.index !== index) {
    throw new WalletKeyError('underivable', `Index ${index} below this key has no valid child key (BIP32 says to skip it).`);
  }
  return {
    node: child,
    key: {
      prefix: key.prefix,
      version: key.version,
      network: key.network,
      depth: key.depth + 1,
      parentFingerprint: node.fingerprint,
      childNumber: index,
      chainCode: child.chainCode!,
      publicKey: child.publicKey!,
    },
  };
}

/** The address of a compressed public key, for an address type and network. */
export function addressOf(publicKey: Uint8Array, addressType: WalletAddressType, network: WalletNetwork): string {
  const keyHash = hash160(publicKey);
  if (addressType === 'p2wpkh') {
    return encodeSegwitAddress(network === 'mainnet' ? 'bc' : 'tb', 0, keyHash);
  }
  if (addressType === 'p2sh-p2wpkh') {
    const redeemScript = new Uint8Array([0x00, 0x14, ...keyHash]);
    return encodeBase58Check(new Uint8Array([network === 'mainnet' ? 0x05 : 0xc4, ...hash160(redeemScript)]));
  }
  return encodeBase58Check(new Uint8Array([network === 'mainnet' ? 0x00 : 0x6f, ...keyHash]));
}

// -------------------------------------------------------------- descriptors

const INPUT_CHARSET = '0123456789()[],\'/*abcdefgh@:$%{}IJKLMNOPQRSTUVWXYZ&+-.;<=>?!^_|~ijklmnopqrstuvwxyzABCDEFGH`#"\\ ';
const CHECKSUM_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATOR = [0xf5dee51989n, 0xa9fdca3312n, 0x1bab10e32dn, 0x3706b1677an, 0x644d626ffdn];

/** The BIP380 checksum (8 characters) of a descriptor written without one; null when a character is outside its set. */
export function descriptorChecksum(descriptor: string): string | null {
  const symbols: number[] = [];
  const groups: number[] = [];
  for (const char of descriptor) {
    const v = INPUT_CHARSET.indexOf(char);
    if (v < 0) {
      return null;
    }
    symbols.push(v & 31);
    groups.push(v >> 5);
    if (groups.length === 3) {
      symbols.push(groups[0]! * 9 + groups[1]! * 3 + groups[2]!);
      groups.length = 0;
    }
  }
  if (groups.length === 1) {
    symbols.push(groups[0]!);
  } else if (groups.length === 2) {
    symbols.push(groups[0]! * 3 + groups[1]!);
  }
  let chk = 1n;
  for (const value of [...symbols, 0, 0, 0, 0, 0, 0, 0, 0]) {
    const top = chk >> 35n;
    chk = ((chk & 0x7ffffffffn) << 5n) ^ BigInt(value);
    for (let i = 0; i < 5; i++) {
      if ((top >> BigInt(i)) & 1n) {
        chk ^= GENERATOR[i]!;
      }
    }
  }
  chk ^= 1n;
  let out = '';
  for (let i = 0; i < 8; i++) {
    out += CHECKSUM_CHARSET[Number((chk >> BigInt(5 * (7 - i))) & 31n)];
  }
  return out;
}

const FUNCTIONS: [open: string, close: string, type: WalletAddressType][] = [
  ['sh(wpkh(', '))', 'p2sh-p2wpkh'],
  ['wpkh(', ')', 'p2wpkh'],
  ['pkh(', ')', 'p2pkh'],
];

/** One path step: "12", "12h" or "12'" (BIP380: "H" is not a hardened marker). */
function parseStep(step: string, where: string): { index: number; hardened: boolean } {
  const match = /^(\d+)(h|')?$/.exec(step);
  if (match === null) {
    throw new WalletKeyError('descriptor', `"${step}" in the ${where} is not a path step (a number, with h or ' when hardened).`);
  }
  const index = Number(match[1]);
  if (index >= HARDENED) {
    throw new WalletKeyError('descriptor', `Step ${step} in the ${where} is out of range (0 to ${HARDENED - 1}).`);
  }
  return { index, hardened: match[2] !== undefined };
}

function parseDescriptor(text: string): Omit<WalletKey, 'network'> {
  let body = text;
  const hash = text.indexOf('#');
  if (hash >= 0) {
    body = text.slice(0, hash);
    const checksum = text.slice(hash + 1);
    const expected = descriptorChecksum(body);
    if (expected === null) {
      throw new WalletKeyError('descriptor', 'The descriptor has a character no descriptor may contain.');
    }
    if (!/^[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{8}$/.test(checksum)) {
      throw new WalletKeyError('descriptor_checksum', `The descriptor's checksum "#${checksum}" is not 8 checksum characters.`);
    }
    if (checksum !== expected) {
      throw new WalletKeyError('descriptor_checksum', "The descriptor's checksum does not match: it has a typo or was edited after it was copied.");
    }
  } else if (descriptorChecksum(body) === null) {
    throw new WalletKeyError('descriptor', 'The descriptor has a character no descriptor may contain.');
  }
  const fn = FUNCTIONS.find(([open, close]) => body.startsWith(open) && body.endsWith(close));
  if (fn === undefined) {
    const name = /^([a-z_]+)\(/.exec(body)?.[1];
    throw new WalletKeyError(
      'descriptor_unsupported',
      `Only wpkh(…), sh(wpkh(…)) and pkh(…) descriptors of one extended key are supported${name === undefined ? '' : `, not ${name}(…)`}.`,
    );
  }
  const [open, close, addressType] = fn;
  let expression = body.slice(open.length, body.length - close.length);
  if (/[(),]/.test(expression)) {
    throw new WalletKeyError('descriptor_unsupported', 'Only wpkh(…), sh(wpkh(…)) and pkh(…) descriptors of one extended key are supported.');
  }
  // Key origin: [fingerprint/step/step…]
  let origin: WalletKey['origin'] = null;
  if (expression.startsWith('[')) {
    const end = expression.indexOf(']');
    if (end < 0) {
      throw new WalletKeyError('descriptor', 'The key origin opened with "[" is not closed with "]".');
    }
    const [fingerprint = '', ...steps] = expression.slice(1, end).split('/');
    if (!/^[0-9a-fA-F]{8}$/.test(fingerprint)) {
      throw new WalletKeyError('descriptor', `The key origin's fingerprint "${fingerprint}" is not 8 hex digits.`);
    }
    const path = steps.map((step) => parseStep(step, 'key origin')).map((s) => `${s.index}${s.hardened ? 'h' : ''}`);
    origin = { fingerprint: fingerprint.toLowerCase(), path: path.join('/') };
    expression = expression.slice(end + 1);
  }
  if (/[[\]]/.test(expression)) {
    throw new WalletKeyError('descriptor', 'A key has one key origin, at its start.');
  }
  const [keyText = '', ...steps] = expression.split('/');
  if (/^(02|03)[0-9a-fA-F]{64}$|^04[0-9a-fA-F]{128}$/.test(keyText)) {
    throw new WalletKeyError('not_ranged', 'The descriptor holds a single public key, not an extended key: it gives one address, not one per order.');
  }
  if (/^[5KLc9][1-9A-HJ-NP-Za-km-z]{50,51}$/.test(keyText)) {
    const payload = decodeBase58Check(keyText);
    if (payload instanceof Uint8Array && (payload[0] === 0x80 || payload[0] === 0xef)) {
      throw new WalletKeyError('private_key', "The descriptor holds a private key (WIF): it can spend the wallet's funds. Use the wallet's public descriptor.");
    }
  }
  const key = parseExtendedKey(keyText);
  const info = VERSIONS[key.version]!;
  if (info.addressType !== 'p2pkh' && info.addressType !== addressType) {
    throw new WalletKeyError(
      'mismatch',
      `A ${key.prefix} is a ${ADDRESS_TYPE_NAMES[info.addressType]} key, but the descriptor asks for ${ADDRESS_TYPE_NAMES[addressType]} addresses.`,
    );
  }
  if (steps.length === 0 || steps[steps.length - 1] === '') {
    throw new WalletKeyError('not_ranged', 'The descriptor ends without /*: it gives one address, not one per order. End it with /0/* or /<0;1>/*.');
  }
  const last = steps.pop()!;
  if (last === '*h' || last === "*'") {
    throw new WalletKeyError(
      'hardened_after_key',
      `The last step ${last} is hardened: hardened addresses can only be derived from the private key. End the descriptor with /*.`,
    );
  }
  if (last !== '*') {
    if (/^\d+(h|')$/.test(last)) {
      throw new WalletKeyError('hardened_after_key', `The step ${last} after the key is hardened: it can only be derived from the private key.`);
    }
    if (steps.includes('*')) {
      throw new WalletKeyError('descriptor', 'The * (the address index) must be the last step.');
    }
    parseStep(last, 'path after the key');
    throw new WalletKeyError('not_ranged', 'The descriptor ends without /*: it gives one address, not one per order. End it with /0/* or /<0;1>/*.');
  }
  const receivePath: number[] = [];
  let changePath: number[] | null = [];
  let multipath = false;
  for (const step of steps) {
    const choice = /^<(.*)>$/.exec(step);
    if (choice !== null) {
      const values = choice[1]!.split(';');
      if (multipath || values.length !== 2) {
        throw new WalletKeyError('descriptor', `The step ${step} is not the one <receive;change> pair this supports (such as <0;1>).`);
      }
      multipath = true;
      const [receive, change] = values.map((value) => parseStep(value, 'path after the key'));
      for (const s of [receive!, change!]) {
        if (s.hardened) {
          throw new WalletKeyError('hardened_after_key', `The step ${step} after the key is hardened: it can only be derived from the private key.`);
        }
      }
      if (receive!.index === change!.index) {
        throw new WalletKeyError('descriptor', `The step ${step} names the same chain twice.`);
      }
      receivePath.push(receive!.index);
      changePath.push(change!.index);
      continue;
    }
    if (step === '*' || step === '*h' || step === "*'") {
      throw new WalletKeyError('descriptor', 'The * (the address index) must be the last step.');
    }
    const s = parseStep(step, 'path after the key');
    if (s.hardened) {
      throw new WalletKeyError('hardened_after_key', `The step ${step} after the key is hardened: it can only be derived from the private key.`);
    }
    receivePath.push(s.index);
    changePath.push(s.index);
  }
  if (!multipath) {
    changePath = null;
  }
  return { source: 'descriptor', key, addressType, receivePath, changePath, origin, descriptor: `${body}#${descriptorChecksum(body)}` };
}

/**
 * Reads what a store owner pastes as "a new address for each order": a bare
 * extended public key (its prefix decides the address type: xpub/tpub legacy,
 * ypub/upub nested segwit, zpub/vpub native segwit; addresses at 0/i and
 * change at 1/i below it) or a ranged descriptor of one key. With
 * `environment`, a key of the other network is refused (production takes
 * mainnet keys, the sandbox testnet keys).
 */
export function parseWalletKey(text: string, options: { environment?: Environment } = {}): WalletKey {
  text = trimPasted(String(text));
  if (text === '') {
    throw new WalletKeyError('empty', 'The key is empty.');
  }
  refuseTooLong(text);
  let wallet: Omit<WalletKey, 'network'>;
  if (/[([#]/.test(text)) {
    wallet = parseDescriptor(text);
  } else if (text.includes('/')) {
    throw new WalletKeyError('descriptor', 'A path after the key needs a descriptor such as wpkh(KEY/0/*); or paste the key alone.');
  } else {
    if (validateBtcAddress(text).valid) {
      throw new WalletKeyError(
        'address_not_key',
        `This is a bitcoin address, not an extended public key: a new address for each order needs the wallet's ${PREFIXES.mainnet} (${PREFIXES.testnet} on testnet).`,
      );
    }
    const key = parseExtendedKey(text);
    const addressType = VERSIONS[key.version]!.addressType;
    const xpub = serializeExtendedKey(key, key.network === 'mainnet' ? 0x0488b21e : 0x043587cf);
    const body = addressType === 'p2wpkh' ? `wpkh(${xpub}/<0;1>/*)` : addressType === 'p2sh-p2wpkh' ? `sh(wpkh(${xpub}/<0;1>/*))` : `pkh(${xpub}/<0;1>/*)`;
    wallet = { source: 'extended-key', key, addressType, receivePath: [0], changePath: [1], origin: null, descriptor: `${body}#${descriptorChecksum(body)}` };
  }
  const network = wallet.key.network;
  if (options.environment === 'production' && network !== 'mainnet') {
    throw new WalletKeyError('wrong_network', `This is a testnet key (${wallet.key.prefix}); production takes mainnet keys (${PREFIXES.mainnet}).`);
  }
  if (options.environment === 'sandbox' && network !== 'testnet') {
    throw new WalletKeyError(
      'wrong_network',
      `This is a mainnet key (${wallet.key.prefix}); the sandbox takes testnet keys (${PREFIXES.testnet}), so that no real bitcoin is sent to it.`,
    );
  }
  return { ...wallet, network };
}

export interface DeriveOptions {
  /** First address index (default 0). */
  from?: number;
  /** How many consecutive addresses (default 1, at most 1000). */
  count?: number;
  /** Change addresses instead of receive addresses (default false). */
  change?: boolean;
  /** When `key` is text: refuse a key of the other network (see parseWalletKey). */
  environment?: Environment;
}

export const MAX_DERIVE_COUNT = 1000;

/** Addresses `from` … `from + count - 1` of a wallet's receive (or change) chain. */
export function deriveAddresses(key: string | WalletKey, options: DeriveOptions = {}): DerivedAddress[] {
  const wallet = typeof key === 'string' ? parseWalletKey(key, options.environment ? { environment: options.environment } : {}) : key;
  const from = options.from ?? 0;
  const count = options.count ?? 1;
  const change = options.change ?? false;
  if (!Number.isInteger(from) || from < 0 || from >= HARDENED) {
    throw new RangeError(`from must be a whole number from 0 to ${HARDENED - 1}, not ${from}.`);
  }
  if (!Number.isInteger(count) || count < 1 || count > MAX_DERIVE_COUNT) {
    throw new RangeError(`count must be a whole number from 1 to ${MAX_DERIVE_COUNT}, not ${count}.`);
  }
  if (from + count > HARDENED) {
    throw new RangeError(`The last index ${from + count - 1} is past ${HARDENED - 1}, the last non-hardened index.`);
  }
  const path = change ? wallet.changePath : wallet.receivePath;
  if (path === null) {
    throw new WalletKeyError('no_change_chain', 'The descriptor names one chain, with no change chain; a descriptor ending in /<0;1>/* has both.');
  }
  let parent = { key: wallet.key, node: hdKeyOf(wallet.key) };
  for (const step of path) {
    parent = childOf(parent.key, parent.node, step);
  }
  const out: DerivedAddress[] = [];
  for (let index = from; index < from + count; index++) {
    const child = childOf(parent.key, parent.node, index).key;
    out.push({
      index,
      change,
      path: [...path, index].join('/'),
      address: addressOf(child.publicKey, wallet.addressType, wallet.network),
      publicKey: bytesToHex(child.publicKey),
    });
  }
  return out;
}

/**
 * The settings rule `wallet_key` (validateSettings' `walletKey` option):
 * null when the text is a wallet key the environment takes, else why not,
 * as PHP's Settings_Validator says it (WalletKeyError's words).
 */
export function checkWalletKey(text: string, environment: unknown): string | null {
  try {
    parseWalletKey(text, environment === 'production' || environment === 'sandbox' ? { environment } : {});
    return null;
  } catch (error) {
    if (error instanceof WalletKeyError) {
      return error.message;
    }
    throw error;
  }
}

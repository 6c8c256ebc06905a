/**
 * Bitcoin address validation: base58check (P2PKH, P2SH) and segwit bech32
 * (witness v0, BIP173) / bech32m (v1+, BIP350), for mainnet, testnet (signet
 * shares its prefixes) and regtest. Runs in browsers (no node: import).
 *
 * The encodings and their checksums are @scure/base's (base58, bech32,
 * bech32m) over @noble/hashes' SHA-256: audited libraries (README,
 * "Dependency policy"). This module reads the address's characters first,
 * so that a refusal names the character, the length or the prefix at fault
 * in the same words as PHP's Btc_Address.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { base58, bech32, bech32m, createBase58check } from '@scure/base';

export type BtcNetwork = 'mainnet' | 'testnet' | 'regtest';
export type BtcAddressType = 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr' | 'witness_unknown';

export type BtcAddressResult =
  | {
      valid: true;
      network: BtcNetwork;
      type: BtcAddressType;
      encoding: 'base58check' | 'bech32' | 'bech32m';
      /** Witness version for segwit addresses. */
      witnessVersion?: number;
    }
  | { valid: false; reason: string };

export interface BtcAddressOptions {
  /** Networks accepted; default all. An address of another network is invalid with a reason naming both. */
  networks?: readonly BtcNetwork[];
}

/**
 * Validate a Bitcoin address. Base58 testnet prefixes are shared by testnet,
 * signet and regtest and are reported as 'testnet' (accepted when either
 * testnet or regtest is allowed).
 */
export function validateBtcAddress(address: string, options: BtcAddressOptions = {}): BtcAddressResult {
  if (typeof address !== 'string' || address === '') {
    return { valid: false, reason: 'The address is empty.' };
  }
  if (address.trim() !== address) {
    return { valid: false, reason: 'The address has leading or trailing spaces.' };
  }
  // A string whose base58check checksum holds was meant as base58, even when it also looks like bech32
  // ("bc1…" or "B1…" happen among random base58 strings): its own answer stands, length and version
  // included. Otherwise a bech32-shaped string gets the segwit reason (a wrong prefix such as Litecoin's
  // "ltc1…" is the useful one), and anything else the base58 reason.
  const legacy = decodeBase58Address(address);
  const lower = address.toLowerCase();
  const result =
    legacy.result.valid || legacy.checksummed || !(/^(bc|tb|bcrt)1/.test(lower) || /^[a-z]{1,83}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/.test(lower))
      ? legacy.result
      : decodeSegwit(address);
  if (!result.valid) {
    return result;
  }
  const allowed = options.networks;
  if (allowed && !allowed.includes(result.network)) {
    const sharedTestPrefix = result.encoding === 'base58check' && result.network === 'testnet' && allowed.includes('regtest');
    if (!sharedTestPrefix) {
      return { valid: false, reason: `This is a ${result.network} address; expected ${allowed.join(' or ')}.` };
    }
  }
  return result;
}

export function isValidBtcAddress(address: string, options: BtcAddressOptions = {}): boolean {
  return validateBtcAddress(address, options).valid;
}

// ---------------------------------------------------------------- base58check

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const BASE58_VERSIONS: Record<number, { network: BtcNetwork; type: BtcAddressType }> = {
  0x00: { network: 'mainnet', type: 'p2pkh' },
  0x05: { network: 'mainnet', type: 'p2sh' },
  0x6f: { network: 'testnet', type: 'p2pkh' },
  0xc4: { network: 'testnet', type: 'p2sh' },
};

/** Base58check: the payload, then the first 4 bytes of its double SHA-256. */
const base58check = /* @__PURE__ */ createBase58check(sha256);

/** Decode base58 (leading '1's are zero bytes), or say which character is outside the alphabet. */
function base58Decode(text: string): Uint8Array | { badChar: string; index: number } {
  for (let i = 0; i < text.length; i++) {
    if (!BASE58_ALPHABET.includes(text[i]!)) {
      return { badChar: text[i]!, index: i };
    }
  }
  return base58.decode(text);
}

/** Whether the last 4 bytes of base58 text (of valid characters, decoding to `length` bytes) are the checksum of the rest. */
function checksumHolds(text: string, length: number): boolean {
  if (length <= 4) {
    return false;
  }
  try {
    base58check.decode(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Decode a base58check address. `checksummed` says the last four bytes are the
 * checksum of the rest, whatever the length: the writer meant base58check.
 */
function decodeBase58Address(address: string): { result: BtcAddressResult; checksummed: boolean } {
  const invalid = (reason: string, checksummed = false) => ({ result: { valid: false, reason } as const, checksummed });
  if (address.length < 26 || address.length > 35) {
    return invalid(`A legacy (base58) address has 26 to 35 characters; this one has ${address.length}.`);
  }
  const decoded = base58Decode(address);
  if (!(decoded instanceof Uint8Array)) {
    return invalid(`Character "${decoded.badChar}" at position ${decoded.index + 1} is not valid in a base58 address.`);
  }
  const checksummed = checksumHolds(address, decoded.length);
  if (decoded.length !== 25) {
    return invalid('The address does not decode to a 20-byte hash with version and checksum.', checksummed);
  }
  if (!checksummed) {
    return invalid('Checksum mismatch: the address has a typo.');
  }
  const version = BASE58_VERSIONS[decoded[0]!];
  if (!version) {
    return invalid(`Version byte 0x${decoded[0]!.toString(16).padStart(2, '0')} is not a Bitcoin address type.`, true);
  }
  return { result: { valid: true, network: version.network, type: version.type, encoding: 'base58check' }, checksummed };
}

// ------------------------------------------------------------ bech32 / bech32m

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const HRP_NETWORK: Record<string, BtcNetwork> = { bc: 'mainnet', tb: 'testnet', bcrt: 'regtest' };

/**
 * Encodes a segwit output as an address (BIP173 bech32 for witness v0,
 * BIP350 bech32m for v1 to v16), in lower case. Checks what an address can
 * hold: a version 0 to 16 and a program of 2 to 40 bytes (20 or 32 for v0).
 */
export function encodeSegwitAddress(hrp: string, version: number, program: Uint8Array): string {
  if (!Number.isInteger(version) || version < 0 || version > 16) {
    throw new RangeError(`Witness version ${version} does not exist (0 to 16).`);
  }
  if (program.length < 2 || program.length > 40 || (version === 0 && program.length !== 20 && program.length !== 32)) {
    throw new RangeError(`A witness v${version} program cannot have ${program.length} bytes.`);
  }
  // No length limit: the program's bounds above already keep a bc/tb/bcrt address within BIP173's 90 characters.
  return (version === 0 ? bech32 : bech32m).encode(hrp, [version, ...bech32.toWords(program)], false);
}

/** Base58check (version byte(s) and payload, then the first 4 bytes of their double SHA-256). */
export function encodeBase58Check(payload: Uint8Array): string {
  return base58check.encode(payload);
}

/** Decodes base58check text to its payload (checksum removed), or says why not. */
export function decodeBase58Check(text: string): Uint8Array | { badChar: string; index: number } | 'checksum' | 'short' {
  const decoded = base58Decode(text);
  if (!(decoded instanceof Uint8Array)) {
    return decoded;
  }
  if (decoded.length < 5) {
    return 'short';
  }
  return checksumHolds(text, decoded.length) ? decoded.slice(0, -4) : 'checksum';
}

function decodeSegwit(address: string): BtcAddressResult {
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) {
    return { valid: false, reason: 'A bech32 address must be all lower case or all upper case, not mixed.' };
  }
  if (address.length > 90) {
    return { valid: false, reason: 'A bech32 address has at most 90 characters.' };
  }
  const text = address.toLowerCase();
  const sep = text.lastIndexOf('1');
  const hrp = text.slice(0, sep);
  const network = HRP_NETWORK[hrp];
  if (!network) {
    return { valid: false, reason: `Unknown address prefix "${hrp}"; expected bc, tb or bcrt.` };
  }
  const dataPart = text.slice(sep + 1);
  if (dataPart.length < 6) {
    return { valid: false, reason: 'The address is too short to hold a checksum.' };
  }
  for (let i = 0; i < dataPart.length; i++) {
    if (!BECH32_CHARSET.includes(dataPart[i]!)) {
      return { valid: false, reason: `Character "${address[sep + 1 + i]}" at position ${sep + 2 + i} is not valid in a bech32 address.` };
    }
  }
  // Every character is in the charset, the prefix known and the length within 90: only the checksum can fail now.
  const asBech32 = bech32.decodeUnsafe(text);
  const decoded = asBech32 ?? bech32m.decodeUnsafe(text);
  if (!decoded) {
    return { valid: false, reason: 'Checksum mismatch: the address has a typo.' };
  }
  const variant = asBech32 ? 'bech32' : 'bech32m';
  const words = decoded.words;
  if (words.length === 0) {
    return { valid: false, reason: 'The address has no witness version or program.' };
  }
  const version = words[0]!;
  if (version > 16) {
    return { valid: false, reason: `Witness version ${version} does not exist (0 to 16).` };
  }
  if (version === 0 && variant !== 'bech32') {
    return { valid: false, reason: 'A witness v0 address must use the bech32 checksum (BIP173), not bech32m.' };
  }
  if (version !== 0 && variant !== 'bech32m') {
    return { valid: false, reason: `A witness v${version} address must use the bech32m checksum (BIP350), not bech32.` };
  }
  const program = bech32.fromWordsUnsafe(words.slice(1));
  if (!program) {
    return { valid: false, reason: 'The witness program has invalid padding.' };
  }
  if (program.length < 2 || program.length > 40) {
    return { valid: false, reason: `A witness program has 2 to 40 bytes; this one has ${program.length}.` };
  }
  let type: BtcAddressType = 'witness_unknown';
  if (version === 0) {
    if (program.length === 20) {
      type = 'p2wpkh';
    } else if (program.length === 32) {
      type = 'p2wsh';
    } else {
      return { valid: false, reason: `A witness v0 program has 20 or 32 bytes; this one has ${program.length}.` };
    }
  } else if (version === 1 && program.length === 32) {
    type = 'p2tr';
  }
  return { valid: true, network, type, encoding: variant, witnessVersion: version };
}

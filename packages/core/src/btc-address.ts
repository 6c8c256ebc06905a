/**
 * Bitcoin address validation: base58check (P2PKH, P2SH) and segwit bech32
 * (witness v0, BIP173) / bech32m (v1+, BIP350), for mainnet, testnet (signet
 * shares its prefixes) and regtest. Runs in browsers: pure TS, no node:crypto.
 */
import { sha256 } from './sha256.js';

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
  const base58 = decodeBase58Address(address);
  const lower = address.toLowerCase();
  const result =
    base58.result.valid || base58.checksummed || !(/^(bc|tb|bcrt)1/.test(lower) || /^[a-z]{1,83}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/.test(lower))
      ? base58.result
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

/** Decode base58 (leading '1's are zero bytes), or say which character is outside the alphabet. */
function base58Decode(text: string): Uint8Array | { badChar: string; index: number } {
  let value = 0n;
  for (let i = 0; i < text.length; i++) {
    const digit = BASE58_ALPHABET.indexOf(text[i]!);
    if (digit < 0) {
      return { badChar: text[i]!, index: i };
    }
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') {
    zeros++;
  }
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...bytes]);
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
  const end = decoded.length - 4;
  const checksum = sha256(sha256(decoded.subarray(0, Math.max(end, 0)))).subarray(0, 4);
  const checksummed = end > 0 && checksum.every((byte, i) => byte === decoded[end + i]);
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
const BECH32_CONST = 1;
const BECH32M_CONST = 0x2bc830a3;
const HRP_NETWORK: Record<string, BtcNetwork> = { bc: 'mainnet', tb: 'testnet', bcrt: 'regtest' };

function polymod(values: readonly number[]): number {
  const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) {
      if ((top >>> i) & 1) {
        chk ^= generators[i]!;
      }
    }
  }
  return chk >>> 0;
}

function hrpExpand(hrp: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < hrp.length; i++) {
    out.push(hrp.charCodeAt(i) >> 5);
  }
  out.push(0);
  for (let i = 0; i < hrp.length; i++) {
    out.push(hrp.charCodeAt(i) & 31);
  }
  return out;
}

/** Convert between bit groups (5-bit words to 8-bit bytes); null on invalid padding. */
function convertBits(data: readonly number[], from: number, to: number, pad: boolean): number[] | null {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const maxv = (1 << to) - 1;
  for (const value of data) {
    acc = (acc << from) | value;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >> bits) & maxv);
    }
  }
  if (pad) {
    if (bits > 0) {
      out.push((acc << (to - bits)) & maxv);
    }
  } else if (bits >= from || ((acc << (to - bits)) & maxv) !== 0) {
    return null;
  }
  return out;
}

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
  const data = [version, ...(convertBits([...program], 8, 5, true) as number[])];
  const check = polymod([...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0]) ^ (version === 0 ? BECH32_CONST : BECH32M_CONST);
  const checksum = Array.from({ length: 6 }, (_, i) => (check >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...checksum].map((v) => BECH32_CHARSET[v]).join('')}`;
}

/** Base58check (version byte(s) and payload, then the first 4 bytes of their double SHA-256). */
export function encodeBase58Check(payload: Uint8Array): string {
  const bytes = new Uint8Array(payload.length + 4);
  bytes.set(payload);
  bytes.set(sha256(sha256(payload)).subarray(0, 4), payload.length);
  let value = 0n;
  for (const byte of bytes) {
    value = (value << 8n) | BigInt(byte);
  }
  let text = '';
  while (value > 0n) {
    text = BASE58_ALPHABET[Number(value % 58n)]! + text;
    value /= 58n;
  }
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) {
    text = `1${text}`;
  }
  return text;
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
  const end = decoded.length - 4;
  const checksum = sha256(sha256(decoded.subarray(0, end))).subarray(0, 4);
  return checksum.every((byte, i) => byte === decoded[end + i]) ? decoded.slice(0, end) : 'checksum';
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
  const data: number[] = [];
  for (let i = 0; i < dataPart.length; i++) {
    const v = BECH32_CHARSET.indexOf(dataPart[i]!);
    if (v < 0) {
      return { valid: false, reason: `Character "${address[sep + 1 + i]}" at position ${sep + 2 + i} is not valid in a bech32 address.` };
    }
    data.push(v);
  }
  const check = polymod([...hrpExpand(hrp), ...data]);
  const variant = check === BECH32_CONST ? 'bech32' : check === BECH32M_CONST ? 'bech32m' : null;
  if (!variant) {
    return { valid: false, reason: 'Checksum mismatch: the address has a typo.' };
  }
  const words = data.slice(0, -6);
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
  const program = convertBits(words.slice(1), 5, 8, false);
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

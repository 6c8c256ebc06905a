/**
 * SHA-512, HMAC-SHA512 and RIPEMD-160 (with HASH160 = RIPEMD-160 of SHA-256)
 * in plain TypeScript, for BIP32 public derivation. Like sha256.ts, these
 * import nothing from node: so the derivation runs in any JavaScript runtime
 * (the signing module keeps node:crypto's HMAC, which it has always used).
 * Inputs are a few dozen bytes: clarity over speed; the tests compare each
 * with node:crypto on thousands of inputs of every length around the block
 * boundaries.
 */
import { sha256 } from '../sha256.js';

// ------------------------------------------------------------------ SHA-512

// The 80 round constants (FIPS 180-4, 4.2.3) as high and low 32-bit halves.
const K512 = [
  0x428a2f98, 0xd728ae22, 0x71374491, 0x23ef65cd, 0xb5c0fbcf, 0xec4d3b2f, 0xe9b5dba5, 0x8189dbbc, 0x3956c25b, 0xf348b538, 0x59f111f1, 0xb605d019, 0x923f82a4,
  0xaf194f9b, 0xab1c5ed5, 0xda6d8118, 0xd807aa98, 0xa3030242, 0x12835b01, 0x45706fbe, 0x243185be, 0x4ee4b28c, 0x550c7dc3, 0xd5ffb4e2, 0x72be5d74, 0xf27b896f,
  0x80deb1fe, 0x3b1696b1, 0x9bdc06a7, 0x25c71235, 0xc19bf174, 0xcf692694, 0xe49b69c1, 0x9ef14ad2, 0xefbe4786, 0x384f25e3, 0x0fc19dc6, 0x8b8cd5b5, 0x240ca1cc,
  0x77ac9c65, 0x2de92c6f, 0x592b0275, 0x4a7484aa, 0x6ea6e483, 0x5cb0a9dc, 0xbd41fbd4, 0x76f988da, 0x831153b5, 0x983e5152, 0xee66dfab, 0xa831c66d, 0x2db43210,
  0xb00327c8, 0x98fb213f, 0xbf597fc7, 0xbeef0ee4, 0xc6e00bf3, 0x3da88fc2, 0xd5a79147, 0x930aa725, 0x06ca6351, 0xe003826f, 0x14292967, 0x0a0e6e70, 0x27b70a85,
  0x46d22ffc, 0x2e1b2138, 0x5c26c926, 0x4d2c6dfc, 0x5ac42aed, 0x53380d13, 0x9d95b3df, 0x650a7354, 0x8baf63de, 0x766a0abb, 0x3c77b2a8, 0x81c2c92e, 0x47edaee6,
  0x92722c85, 0x1482353b, 0xa2bfe8a1, 0x4cf10364, 0xa81a664b, 0xbc423001, 0xc24b8b70, 0xd0f89791, 0xc76c51a3, 0x0654be30, 0xd192e819, 0xd6ef5218, 0xd6990624,
  0x5565a910, 0xf40e3585, 0x5771202a, 0x106aa070, 0x32bbd1b8, 0x19a4c116, 0xb8d2d0c8, 0x1e376c08, 0x5141ab53, 0x2748774c, 0xdf8eeb99, 0x34b0bcb5, 0xe19b48a8,
  0x391c0cb3, 0xc5c95a63, 0x4ed8aa4a, 0xe3418acb, 0x5b9cca4f, 0x7763e373, 0x682e6ff3, 0xd6b2b8a3, 0x748f82ee, 0x5defb2fc, 0x78a5636f, 0x43172f60, 0x84c87814,
  0xa1f0ab72, 0x8cc70208, 0x1a6439ec, 0x90befffa, 0x23631e28, 0xa4506ceb, 0xde82bde9, 0xbef9a3f7, 0xb2c67915, 0xc67178f2, 0xe372532b, 0xca273ece, 0xea26619c,
  0xd186b8c7, 0x21c0c207, 0xeada7dd6, 0xcde0eb1e, 0xf57d4f7f, 0xee6ed178, 0x06f067aa, 0x72176fba, 0x0a637dc5, 0xa2c898a6, 0x113f9804, 0xbef90dae, 0x1b710b35,
  0x131c471b, 0x28db77f5, 0x23047d84, 0x32caab7b, 0x40c72493, 0x3c9ebe0a, 0x15c9bebc, 0x431d67c4, 0x9c100d4c, 0x4cc5d4be, 0xcb3e42b6, 0x597f299c, 0xfc657e2a,
  0x5fcb6fab, 0x3ad6faec, 0x6c44198c, 0x4a475817,
];

const IV512 = [
  0x6a09e667, 0xf3bcc908, 0xbb67ae85, 0x84caa73b, 0x3c6ef372, 0xfe94f82b, 0xa54ff53a, 0x5f1d36f1, 0x510e527f, 0xade682d1, 0x9b05688c, 0x2b3e6c1f, 0x1f83d9ab,
  0xfb41bd6b, 0x5be0cd19, 0x137e2179,
];

export function sha512(data: Uint8Array): Uint8Array {
  const bitLength = data.length * 8;
  // Message + 0x80 + zero padding + 128-bit big-endian length, to a multiple of 128 bytes.
  const padded = new Uint8Array(((data.length + 17 + 127) >> 7) << 7);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(padded.length - 4, bitLength >>> 0);

  const h = Int32Array.from(IV512);
  const w = new Int32Array(160); // 80 words as [high, low] pairs
  for (let offset = 0; offset < padded.length; offset += 128) {
    for (let i = 0; i < 32; i++) {
      w[i] = view.getInt32(offset + i * 4);
    }
    for (let i = 16; i < 80; i++) {
      // σ0(w[i-15]) = rotr1 ^ rotr8 ^ shr7; σ1(w[i-2]) = rotr19 ^ rotr61 ^ shr6
      const xh = w[(i - 15) * 2]!;
      const xl = w[(i - 15) * 2 + 1]!;
      const s0h = ((xh >>> 1) | (xl << 31)) ^ ((xh >>> 8) | (xl << 24)) ^ (xh >>> 7);
      const s0l = ((xl >>> 1) | (xh << 31)) ^ ((xl >>> 8) | (xh << 24)) ^ ((xl >>> 7) | (xh << 25));
      const yh = w[(i - 2) * 2]!;
      const yl = w[(i - 2) * 2 + 1]!;
      const s1h = ((yh >>> 19) | (yl << 13)) ^ ((yl >>> 29) | (yh << 3)) ^ (yh >>> 6);
      const s1l = ((yl >>> 19) | (yh << 13)) ^ ((yh >>> 29) | (yl << 3)) ^ ((yl >>> 6) | (yh << 26));
      // w[i] = s1 + w[i-7] + s0 + w[i-16], 64-bit with carries between the halves
      let lo = (s1l >>> 0) + (w[(i - 7) * 2 + 1]! >>> 0) + (s0l >>> 0) + (w[(i - 16) * 2 + 1]! >>> 0);
      const hi = s1h + w[(i - 7) * 2]! + s0h + w[(i - 16) * 2]! + Math.floor(lo / 0x100000000);
      lo >>>= 0;
      w[i * 2] = hi;
      w[i * 2 + 1] = lo;
    }
    let ah = h[0]!,
      al = h[1]!,
      bh = h[2]!,
      bl = h[3]!,
      ch = h[4]!,
      cl = h[5]!,
      dh = h[6]!,
      dl = h[7]!;
    let eh = h[8]!,
      el = h[9]!,
      fh = h[10]!,
      fl = h[11]!,
      gh = h[12]!,
      gl = h[13]!,
      hh = h[14]!,
      hl = h[15]!;
    for (let i = 0; i < 80; i++) {
      // Σ1(e) = rotr14 ^ rotr18 ^ rotr41
      const S1h = ((eh >>> 14) | (el << 18)) ^ ((eh >>> 18) | (el << 14)) ^ ((el >>> 9) | (eh << 23));
      const S1l = ((el >>> 14) | (eh << 18)) ^ ((el >>> 18) | (eh << 14)) ^ ((eh >>> 9) | (el << 23));
      const chh = (eh & fh) ^ (~eh & gh);
      const chl = (el & fl) ^ (~el & gl);
      let t1l = (hl >>> 0) + (S1l >>> 0) + (chl >>> 0) + (K512[i * 2 + 1]! >>> 0) + (w[i * 2 + 1]! >>> 0);
      const t1h = hh + S1h + chh + K512[i * 2]! + w[i * 2]! + Math.floor(t1l / 0x100000000);
      t1l >>>= 0;
      // Σ0(a) = rotr28 ^ rotr34 ^ rotr39
      const S0h = ((ah >>> 28) | (al << 4)) ^ ((al >>> 2) | (ah << 30)) ^ ((al >>> 7) | (ah << 25));
      const S0l = ((al >>> 28) | (ah << 4)) ^ ((ah >>> 2) | (al << 30)) ^ ((ah >>> 7) | (al << 25));
      const majh = (ah & bh) ^ (ah & ch) ^ (bh & ch);
      const majl = (al & bl) ^ (al & cl) ^ (bl & cl);
      let t2l = (S0l >>> 0) + (majl >>> 0);
      const t2h = S0h + majh + Math.floor(t2l / 0x100000000);
      t2l >>>= 0;
      hh = gh;
      hl = gl;
      gh = fh;
      gl = fl;
      fh = eh;
      fl = el;
      let sum = (dl >>> 0) + t1l;
      eh = (dh + t1h + Math.floor(sum / 0x100000000)) | 0;
      el = sum | 0;
      dh = ch;
      dl = cl;
      ch = bh;
      cl = bl;
      bh = ah;
      bl = al;
      sum = t1l + t2l;
      ah = (t1h + t2h + Math.floor(sum / 0x100000000)) | 0;
      al = sum | 0;
    }
    const add = (i: number, xh: number, xl: number): void => {
      const lo = (h[i + 1]! >>> 0) + (xl >>> 0);
      h[i] = h[i]! + xh + Math.floor(lo / 0x100000000);
      h[i + 1] = lo;
    };
    add(0, ah, al);
    add(2, bh, bl);
    add(4, ch, cl);
    add(6, dh, dl);
    add(8, eh, el);
    add(10, fh, fl);
    add(12, gh, gl);
    add(14, hh, hl);
  }
  const out = new Uint8Array(64);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 16; i++) {
    outView.setInt32(i * 4, h[i]!);
  }
  return out;
}

/** HMAC-SHA512 (RFC 2104) of `data` keyed with `key`, as bytes. */
export function hmacSha512(key: Uint8Array, data: Uint8Array): Uint8Array {
  const block = new Uint8Array(128);
  block.set(key.length > 128 ? sha512(key) : key);
  const inner = new Uint8Array(128 + data.length);
  const outer = new Uint8Array(128 + 64);
  for (let i = 0; i < 128; i++) {
    inner[i] = block[i]! ^ 0x36;
    outer[i] = block[i]! ^ 0x5c;
  }
  inner.set(data, 128);
  outer.set(sha512(inner), 128);
  return sha512(outer);
}

// --------------------------------------------------------------- RIPEMD-160

// Message word order, rotations and constants of the left and right lines.
const RL = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 7, 4, 13, 1, 10, 6, 15, 3, 12, 0, 9, 5, 2, 14, 11, 8, 3, 10, 14, 4, 9, 15, 8, 1, 2, 7, 0, 6, 13, 11, 5,
  12, 1, 9, 11, 10, 0, 8, 12, 4, 13, 3, 7, 15, 14, 5, 6, 2, 4, 0, 5, 9, 7, 12, 2, 10, 14, 1, 3, 8, 11, 6, 15, 13,
];
const RR = [
  5, 14, 7, 0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12, 6, 11, 3, 7, 0, 13, 5, 10, 14, 15, 8, 12, 4, 9, 1, 2, 15, 5, 1, 3, 7, 14, 6, 9, 11, 8, 12, 2, 10, 0, 4,
  13, 8, 6, 4, 1, 3, 11, 15, 0, 5, 12, 2, 13, 9, 7, 10, 14, 12, 15, 10, 4, 1, 5, 8, 7, 6, 2, 13, 14, 0, 3, 9, 11,
];
const SL = [
  11, 14, 15, 12, 5, 8, 7, 9, 11, 13, 14, 15, 6, 7, 9, 8, 7, 6, 8, 13, 11, 9, 7, 15, 7, 12, 15, 9, 11, 7, 13, 12, 11, 13, 6, 7, 14, 9, 13, 15, 14, 8, 13, 6, 5,
  12, 7, 5, 11, 12, 14, 15, 14, 15, 9, 8, 9, 14, 5, 6, 8, 6, 5, 12, 9, 15, 5, 11, 6, 8, 13, 12, 5, 12, 13, 14, 11, 8, 5, 6,
];
const SR = [
  8, 9, 9, 11, 13, 15, 15, 5, 7, 7, 8, 11, 14, 14, 12, 6, 9, 13, 15, 7, 12, 8, 9, 11, 7, 7, 12, 7, 6, 15, 13, 11, 9, 7, 15, 11, 8, 6, 6, 14, 12, 13, 5, 14, 13,
  13, 7, 5, 15, 5, 8, 11, 14, 14, 6, 14, 6, 9, 12, 9, 12, 5, 15, 8, 8, 5, 12, 9, 12, 5, 14, 6, 8, 13, 6, 5, 15, 13, 11, 11,
];
const KL = [0x00000000, 0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xa953fd4e];
const KR = [0x50a28be6, 0x5c4dd124, 0x6d703ef3, 0x7a6d76e9, 0x00000000];

function f(j: number, x: number, y: number, z: number): number {
  switch (j >> 4) {
    case 0:
      return x ^ y ^ z;
    case 1:
      return (x & y) | (~x & z);
    case 2:
      return (x | ~y) ^ z;
    case 3:
      return (x & z) | (y & ~z);
    default:
      return x ^ (y | ~z);
  }
}

const rotl = (x: number, n: number): number => (x << n) | (x >>> (32 - n));

export function ripemd160(data: Uint8Array): Uint8Array {
  const bitLength = data.length * 8;
  // Like MD4/MD5: little-endian words and a little-endian 64-bit length.
  const padded = new Uint8Array(((data.length + 9 + 63) >> 6) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, bitLength >>> 0, true);
  view.setUint32(padded.length - 4, Math.floor(bitLength / 0x100000000), true);

  const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
  const x = new Int32Array(16);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) {
      x[i] = view.getInt32(offset + i * 4, true);
    }
    let al = h[0]!,
      bl = h[1]!,
      cl = h[2]!,
      dl = h[3]!,
      el = h[4]!;
    let ar = al,
      br = bl,
      cr = cl,
      dr = dl,
      er = el;
    for (let j = 0; j < 80; j++) {
      let t = (rotl((al + f(j, bl, cl, dl) + x[RL[j]!]! + KL[j >> 4]!) | 0, SL[j]!) + el) | 0;
      al = el;
      el = dl;
      dl = rotl(cl, 10);
      cl = bl;
      bl = t;
      t = (rotl((ar + f(79 - j, br, cr, dr) + x[RR[j]!]! + KR[j >> 4]!) | 0, SR[j]!) + er) | 0;
      ar = er;
      er = dr;
      dr = rotl(cr, 10);
      cr = br;
      br = t;
    }
    const t = (h[1]! + cl + dr) | 0;
    h[1] = (h[2]! + dl + er) | 0;
    h[2] = (h[3]! + el + ar) | 0;
    h[3] = (h[4]! + al + br) | 0;
    h[4] = (h[0]! + bl + cr) | 0;
    h[0] = t;
  }
  const out = new Uint8Array(20);
  const outView = new DataView(out.buffer);
  h.forEach((word, i) => outView.setInt32(i * 4, word, true));
  return out;
}

/** HASH160: RIPEMD-160 of SHA-256, the hash in P2PKH and P2WPKH outputs and in key fingerprints. */
export function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(sha256(data));
}

/**
 * The secp256k1 curve (y² = x³ + 7 over the prime field P) with bigint, just
 * what BIP32 public derivation needs: decompress a public key, check it lies
 * on the curve, compute k·G + K, compress the result.
 *
 * Points are handled in Jacobian coordinates (X, Y, Z) ↔ (X/Z², Y/Z³), so a
 * scalar multiplication takes one field inversion at the very end. k·G + K
 * is one mixed addition per non-zero hex digit of k, from a fixed-base comb
 * (j·16^i·G, 960 points) built on first use: no doubling at all. Points of
 * keys met lately are kept, so a chain's key is decompressed once.
 * Nothing here is secret: every input is public (keys that are on the
 * blockchain once used), so no constant-time care is taken.
 */

export const P = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;
export const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const GX = 0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n;
const GY = 0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n;

/** An affine point; null is the point at infinity. */
export type Point = { x: bigint; y: bigint } | null;
type Jacobian = [x: bigint, y: bigint, z: bigint];

const mod = (a: bigint, m: bigint = P): bigint => {
  const r = a % m;
  return r < 0n ? r + m : r;
};

/** b^e mod m by square-and-multiply. */
function power(b: bigint, e: bigint, m: bigint): bigint {
  let result = 1n;
  let base = mod(b, m);
  while (e > 0n) {
    if (e & 1n) {
      result = (result * base) % m;
    }
    base = (base * base) % m;
    e >>= 1n;
  }
  return result;
}

/** Modular inverse by the extended Euclidean algorithm (a ≠ 0 mod P). */
function invert(a: bigint): bigint {
  let [r0, r1] = [P, mod(a)];
  let [t0, t1] = [0n, 1n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  return mod(t0);
}

/** (X, Y, Z) doubled (a = 0 formulas, "dbl-2009-l"). */
function double([x, y, z]: Jacobian): Jacobian {
  if (y === 0n || z === 0n) {
    return [0n, 1n, 0n];
  }
  const a = (x * x) % P;
  const b = (y * y) % P;
  const c = (b * b) % P;
  const d = mod(2n * (((x + b) * (x + b) - a - c) % P));
  const e = (3n * a) % P;
  const f = (e * e) % P;
  const x3 = mod(f - 2n * d);
  const y3 = mod(e * (d - x3) - 8n * c);
  const z3 = mod(2n * y * z);
  return [x3, y3, z3];
}

/** (X1, Y1, Z1) + (X2, Y2, Z2) ("add-2007-bl", falling back to doubling for equal points). */
function add(p: Jacobian, q: Jacobian): Jacobian {
  const [x1, y1, z1] = p;
  const [x2, y2, z2] = q;
  if (z1 === 0n) {
    return q;
  }
  if (z2 === 0n) {
    return p;
  }
  const z1z1 = (z1 * z1) % P;
  const z2z2 = (z2 * z2) % P;
  const u1 = (x1 * z2z2) % P;
  const u2 = (x2 * z1z1) % P;
  const s1 = (((y1 * z2) % P) * z2z2) % P;
  const s2 = (((y2 * z1) % P) * z1z1) % P;
  if (u1 === u2) {
    return s1 === s2 ? double(p) : [0n, 1n, 0n];
  }
  const h = mod(u2 - u1);
  const i = (4n * h * h) % P;
  const j = (h * i) % P;
  const r = mod(2n * (s2 - s1));
  const v = (u1 * i) % P;
  const x3 = mod(r * r - j - 2n * v);
  const y3 = mod(r * (v - x3) - 2n * s1 * j);
  const z3 = mod(((z1 + z2) * (z1 + z2) - z1z1 - z2z2) * h);
  return [x3, y3, z3];
}

function toAffine([x, y, z]: Jacobian): Point {
  if (z === 0n) {
    return null;
  }
  const zi = invert(z);
  const zi2 = (zi * zi) % P;
  return { x: (x * zi2) % P, y: (((y * zi2) % P) * zi) % P };
}

/** Mixed addition: Jacobian (X1, Y1, Z1) + affine (x2, y2) ("madd-2007-bl"). */
function addAffine(p: Jacobian, x2: bigint, y2: bigint): Jacobian {
  const [x1, y1, z1] = p;
  if (z1 === 0n) {
    return [x2, y2, 1n];
  }
  const z1z1 = (z1 * z1) % P;
  const u2 = (x2 * z1z1) % P;
  const s2 = (((y2 * z1) % P) * z1z1) % P;
  const h = mod(u2 - x1);
  const r = mod(2n * (s2 - y1));
  if (h === 0n) {
    return r === 0n ? double(p) : [0n, 1n, 0n];
  }
  const hh = (h * h) % P;
  const i = (4n * hh) % P;
  const j = (h * i) % P;
  const v = (x1 * i) % P;
  const x3 = mod(r * r - j - 2n * v);
  const y3 = mod(r * (v - x3) - 2n * y1 * j);
  const z3 = mod((z1 + h) * (z1 + h) - z1z1 - hh);
  return [x3, y3, z3];
}

let combTable: { x: bigint; y: bigint }[][] | null = null;

/**
 * The fixed-base comb: row i holds j·16^i·G for j = 1 … 15, affine, so k·G
 * is one mixed addition per non-zero hex digit of k and no doubling. Built on
 * first use here; PHP ships the same table as Secp256k1_Table.php, written by
 * packages/php/scripts/secp256k1-table.mjs from this function.
 */
export function gCombTable(): { x: bigint; y: bigint }[][] {
  if (combTable === null) {
    const rows: { x: bigint; y: bigint }[][] = [];
    let base: Jacobian = [GX, GY, 1n];
    for (let i = 0; i < 64; i++) {
      const row: Jacobian[] = [base];
      for (let j = 2; j <= 15; j++) {
        row.push(add(row[j - 2]!, base));
      }
      rows.push(row.map((point) => toAffine(point) as { x: bigint; y: bigint }));
      base = add(row[14]!, base); // 16^(i+1)·G = 15·16^i·G + 16^i·G
    }
    combTable = rows;
  }
  return combTable;
}

/** k·G + point for 0 < k < N (point null: k·G). */
export function multiplyGAdd(k: bigint, point: Point): Point {
  const table = gCombTable();
  let acc: Jacobian = point === null ? [0n, 1n, 0n] : [point.x, point.y, 1n];
  for (let i = 0; i < 64; i++) {
    const digit = Number((k >> BigInt(4 * i)) & 15n);
    if (digit !== 0) {
      const entry = table[i]![digit - 1]!;
      acc = addAffine(acc, entry.x, entry.y);
    }
  }
  return toAffine(acc);
}

/** k·G for 0 < k < N. */
export function multiplyG(k: bigint): Point {
  return multiplyGAdd(k, null);
}

/**
 * Points of keys met lately (parsed, or derived here), by their hex: a chain's
 * parent key is decompressed once, not once per address. Bounded: cleared
 * when full.
 */
const known = new Map<string, { x: bigint; y: bigint }>();

function hexOf(key: Uint8Array): string {
  let hex = '';
  for (const byte of key) {
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

function remember(key: Uint8Array, point: { x: bigint; y: bigint }): void {
  if (known.size >= 256) {
    known.clear();
  }
  known.set(hexOf(key), point);
}

/**
 * The point of a 33-byte compressed key (0x02/0x03 then x), or a reason it is
 * none: a bad prefix, x not below P, or x not on the curve.
 */
export function decompress(key: Uint8Array): Point | string {
  const cached = key.length === 33 ? known.get(hexOf(key)) : undefined;
  if (cached !== undefined) {
    return cached;
  }
  if (key.length !== 33 || (key[0] !== 2 && key[0] !== 3)) {
    return `a compressed public key starts with 02 or 03, not ${(key[0] ?? 0).toString(16).padStart(2, '0')}`;
  }
  const x = bytesToBigint(key.subarray(1));
  if (x >= P) {
    return 'its x coordinate is not below the field prime';
  }
  const y2 = (x * x * x + 7n) % P;
  // P ≡ 3 (mod 4): a square root of y2, if one exists, is y2^((P+1)/4).
  let y = power(y2, (P + 1n) / 4n, P);
  if ((y * y) % P !== y2) {
    return 'it is not a point of the secp256k1 curve';
  }
  if ((y & 1n) !== BigInt(key[0]! & 1)) {
    y = P - y;
  }
  remember(key, { x, y });
  return { x, y };
}

/** 33-byte compressed encoding of a finite point. */
export function compress(point: { x: bigint; y: bigint }): Uint8Array {
  const out = new Uint8Array(33);
  out[0] = point.y & 1n ? 3 : 2;
  out.set(bigintToBytes(point.x, 32), 1);
  remember(out, point);
  return out;
}

export function bytesToBigint(bytes: Uint8Array): bigint {
  let hex = '';
  for (const byte of bytes) {
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex === '' ? 0n : BigInt(`0x${hex}`);
}

export function bigintToBytes(value: bigint, length: number): Uint8Array {
  const hex = value.toString(16).padStart(length * 2, '0');
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  }
  return out;
}

/**
 * A small declarative checker for the JSON shapes the service sends (API
 * responses and callback bodies). It validates known members, names the first
 * offending member by its dotted path, and returns a copy of plain values in
 * which:
 * - `amount` members (integers in minimum units) are exact MinorUnits: a
 *   number when safe, a bigint beyond 2^53−1 (read from the number's text when
 *   the input comes from parseJsonLossless);
 * - other numbers are JS numbers;
 * - unknown members are kept as JSON.parse would give them (they are signed too);
 * - optional known members that are null are dropped (null handling is "not
 *   shown" in the spec; an absent value and null mean the same to us);
 * - `minor_unit`-style members labelled string but numeric in practice are
 *   normalised to numbers.
 * Input may be parseJsonLossless output (numbers as LosslessNumber) or plain
 * JSON.parse output; with the latter, an amount beyond 2^53−1 has already
 * been rounded and is refused.
 */
import { minorUnits } from '../money.js';
import { defineMember, LosslessNumber, losslessToPlain, type LosslessJsonValue } from '../signing/lossless-json.js';

export type Shape =
  | { kind: 'string'; nonEmpty?: boolean; pattern?: RegExp; describe?: string }
  | { kind: 'number' }
  /** An integer >= 0 in minimum units, exact at any size; given as MinorUnits. */
  | { kind: 'amount' }
  /** A number, or a string of decimal digits that is turned into a number. */
  | { kind: 'numberish' }
  | { kind: 'object'; members: Record<string, Member> }
  | { kind: 'array'; of: Shape };

export interface Member {
  shape: Shape;
  required?: boolean;
}

export type ShapeResult<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

class ShapeError {
  constructor(
    readonly field: string,
    readonly message: string,
  ) {}
}

function describeValue(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (value instanceof LosslessNumber) {
    return `the number ${value.text}`;
  }
  if (typeof value === 'bigint') {
    return `the number ${value}`;
  }
  if (Array.isArray(value)) {
    return 'an array';
  }
  if (typeof value === 'string') {
    return 'a string';
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? `the number ${value}` : 'a non-finite number';
  }
  return `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof LosslessNumber);
}

function walk(value: unknown, shape: Shape, path: string): unknown {
  const where = path === '' ? 'body' : path;
  switch (shape.kind) {
    case 'string': {
      if (typeof value !== 'string') {
        throw new ShapeError(where, `${where} must be a string, got ${describeValue(value)}`);
      }
      if (shape.nonEmpty && value === '') {
        throw new ShapeError(where, `${where} must not be empty`);
      }
      if (shape.pattern && !shape.pattern.test(value)) {
        throw new ShapeError(where, `${where} must be ${shape.describe ?? `a string matching ${shape.pattern}`}`);
      }
      return value;
    }
    case 'number': {
      const n = value instanceof LosslessNumber ? value.value : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) {
        throw new ShapeError(where, `${where} must be a number, got ${describeValue(value)}`);
      }
      return n;
    }
    case 'amount': {
      const exact = amountOf(value);
      if (exact === undefined) {
        throw new ShapeError(where, `${where} must be a whole number of minimum units (an integer >= 0), got ${describeValue(value)}`);
      }
      return minorUnits(exact);
    }
    case 'numberish': {
      const n = value instanceof LosslessNumber ? value.value : value;
      if (typeof n === 'number' && Number.isFinite(n)) {
        return n;
      }
      if (typeof value === 'string' && /^\d{1,15}$/.test(value)) {
        return Number(value);
      }
      throw new ShapeError(where, `${where} must be a number, got ${describeValue(value)}`);
    }
    case 'array': {
      if (!Array.isArray(value)) {
        throw new ShapeError(where, `${where} must be an array, got ${describeValue(value)}`);
      }
      return value.map((item, i) => walk(item, shape.of, `${path}[${i}]`));
    }
    case 'object': {
      if (!isPlainObject(value)) {
        throw new ShapeError(where, `${where} must be an object, got ${describeValue(value)}`);
      }
      // Known members are checked in the shape's order (the first problem is reported)...
      const checked = new Map<string, unknown>();
      for (const [name, member] of Object.entries(shape.members)) {
        const childPath = path === '' ? name : `${path}.${name}`;
        const present = Object.prototype.hasOwnProperty.call(value, name);
        const child = present ? value[name] : undefined;
        if (!present || child === null) {
          if (member.required) {
            throw new ShapeError(childPath, `${childPath} is required`);
          }
          continue;
        }
        // Some objects "may be an empty object"; a PHP-encoded empty object
        // arrives as [] (and signs the same: empty arrays are dropped). Accept it as {}.
        if (member.shape.kind === 'object' && Array.isArray(child) && child.length === 0) {
          checked.set(name, {});
          continue;
        }
        checked.set(name, walk(child, member.shape, childPath));
      }
      // ...and the copy keeps the received order, unknown members as plain JSON values.
      const out: Record<string, unknown> = {};
      for (const name of Object.keys(value)) {
        if (checked.has(name)) {
          defineMember(out, name, checked.get(name));
        } else if (!Object.prototype.hasOwnProperty.call(shape.members, name)) {
          defineMember(out, name, losslessToPlain(value[name] as LosslessJsonValue));
        }
      }
      return out;
    }
  }
}

/** Beyond any real amount (NEAR's 24 decimals leave room for 10^36 whole units); bounds the work an exponent can ask for. */
const MAX_AMOUNT_DIGITS = 60;
const NUMBER_PARTS = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * The exact integer >= 0 a JSON number stands for, or undefined. A
 * LosslessNumber is read from its text, so "1500000000000000000", "1.5e18" and
 * "100.0" are exact; a plain JS number must be a safe integer (beyond that it
 * was already rounded); a bigint is taken as it is.
 */
function amountOf(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') {
    return value >= 0n ? value : undefined;
  }
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  }
  if (!(value instanceof LosslessNumber)) {
    return undefined;
  }
  const m = NUMBER_PARTS.exec(value.text);
  if (!m) {
    return undefined;
  }
  const [, sign, whole, fraction = '', exponent = '0'] = m as unknown as [string, string, string, string | undefined, string | undefined];
  const digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') {
    return 0n;
  } // 0, -0, 0.00, 0e5
  if (sign === '-') {
    return undefined;
  }
  // value = digits × 10^shift
  const shift = Number(exponent) - fraction.length;
  if (shift >= 0) {
    if (digits.length + shift > MAX_AMOUNT_DIGITS) {
      return undefined;
    }
    return BigInt(digits) * 10n ** BigInt(shift);
  }
  const kept = digits.length + shift; // digits before the decimal point
  if (kept <= 0 || !/^0*$/.test(digits.slice(kept))) {
    return undefined;
  }
  return kept > MAX_AMOUNT_DIGITS ? undefined : BigInt(digits.slice(0, kept));
}

/**
 * Checks `value` against `shape`; never throws. `root` prefixes the member paths
 * in errors (e.g. "operation_data" gives "operation_data.operation_info.id").
 */
export function checkShape<T>(value: unknown, shape: Shape, root = ''): ShapeResult<T> {
  try {
    return { ok: true, value: walk(value, shape, root) as T };
  } catch (e) {
    if (e instanceof ShapeError) {
      return { ok: false, field: e.field, message: e.message };
    }
    throw e;
  }
}

export const str = (extra: Omit<Extract<Shape, { kind: 'string' }>, 'kind'> = {}): Shape => ({ kind: 'string', ...extra });
export const num: Shape = { kind: 'number' };
export const amount: Shape = { kind: 'amount' };
export const numberish: Shape = { kind: 'numberish' };
export const obj = (members: Record<string, Member>): Shape => ({ kind: 'object', members });
export const arr = (of: Shape): Shape => ({ kind: 'array', of });
export const req = (shape: Shape): Member => ({ shape, required: true });
export const opt = (shape: Shape): Member => ({ shape });

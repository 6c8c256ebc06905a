/**
 * A small declarative checker for the JSON shapes the service sends (API
 * responses and callback bodies). It validates known members, names the first
 * offending member by its dotted path, and returns a copy in which:
 * - unknown members are kept as received (they are signed too);
 * - optional known members that are null are dropped (null handling is "not
 *   shown" in the spec; an absent value and null mean the same to us);
 * - `minor_unit`-style members labelled string but numeric in practice are
 *   normalised to numbers.
 */

export type Shape =
  | { kind: 'string'; nonEmpty?: boolean; pattern?: RegExp; describe?: string }
  | { kind: 'number' }
  /** A safe integer >= 0 (amounts in minimum units, ids). */
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
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isFinite(value) ? `the number ${value}` : 'a non-finite number';
  return `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function walk(value: unknown, shape: Shape, path: string): unknown {
  const where = path === '' ? 'body' : path;
  switch (shape.kind) {
    case 'string': {
      if (typeof value !== 'string') throw new ShapeError(where, `${where} must be a string, got ${describeValue(value)}`);
      if (shape.nonEmpty && value === '') throw new ShapeError(where, `${where} must not be empty`);
      if (shape.pattern && !shape.pattern.test(value)) {
        throw new ShapeError(where, `${where} must be ${shape.describe ?? `a string matching ${shape.pattern}`}`);
      }
      return value;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new ShapeError(where, `${where} must be a number, got ${describeValue(value)}`);
      }
      return value;
    }
    case 'amount': {
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
        throw new ShapeError(where, `${where} must be a whole number of minimum units (safe integer >= 0), got ${describeValue(value)}`);
      }
      return value;
    }
    case 'numberish': {
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
      throw new ShapeError(where, `${where} must be a number, got ${describeValue(value)}`);
    }
    case 'array': {
      if (!Array.isArray(value)) throw new ShapeError(where, `${where} must be an array, got ${describeValue(value)}`);
      return value.map((item, i) => walk(item, shape.of, `${path}[${i}]`));
    }
    case 'object': {
      if (!isPlainObject(value)) throw new ShapeError(where, `${where} must be an object, got ${describeValue(value)}`);
      const out: Record<string, unknown> = { ...value };
      for (const [name, member] of Object.entries(shape.members)) {
        const childPath = path === '' ? name : `${path}.${name}`;
        const present = Object.prototype.hasOwnProperty.call(value, name);
        const child = present ? value[name] : undefined;
        if (!present || child === null) {
          if (member.required) throw new ShapeError(childPath, `${childPath} is required`);
          delete out[name];
          continue;
        }
        // Some objects "may be an empty object"; a PHP-encoded empty object
        // arrives as [] (and signs the same: empty arrays are dropped). Accept it as {}.
        if (member.shape.kind === 'object' && Array.isArray(child) && child.length === 0) {
          out[name] = {};
          continue;
        }
        out[name] = walk(child, member.shape, childPath);
      }
      return out;
    }
  }
}

/**
 * Checks `value` against `shape`; never throws. `root` prefixes the member paths
 * in errors (e.g. "operation_data" gives "operation_data.operation_info.id").
 */
export function checkShape<T>(value: unknown, shape: Shape, root = ''): ShapeResult<T> {
  try {
    return { ok: true, value: walk(value, shape, root) as T };
  } catch (e) {
    if (e instanceof ShapeError) return { ok: false, field: e.field, message: e.message };
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

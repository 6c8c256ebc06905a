/**
 * How one member value is written in the canonical string. Shared by the
 * layout-cached fast path and the collect-then-sort slow path so both write
 * values identically.
 */
import { SigningInputError } from './errors.js';
import { LosslessNumber } from './lossless-json.js';

/** The member every signed object carries and that is never signed itself (top level only). */
export const SIGNATURE_MEMBER = 'signature';

/** The options of one canonicalisation, resolved to flags. */
export interface Reading {
  readonly simple: boolean;
  readonly rawNumbers: boolean;
  readonly omitNulls: boolean;
}

/** The member writes nothing (undefined, function, omitted null, empty array or object). */
export const SKIP = 0;
/** The member is a plain object or non-empty array whose members are flattened under it. */
export const CONTAINER = 1;

/**
 * The text of a leaf value, SKIP, or CONTAINER. Object members JSON.stringify
 * would drop (undefined, functions, symbols) are skipped; as array elements
 * they are null, as in JSON. `head` is the member's ";name:" (its name is
 * only needed for error messages).
 */
export function memberText(value: unknown, inArray: boolean, reading: Reading, head: string): string | typeof SKIP | typeof CONTAINER {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      if (Number.isFinite(value)) return String(value);
      throw new SigningInputError(nameOf(head), `${String(value)} cannot be signed (JSON has no such number)`);
    case 'boolean':
      return value ? '1' : '0';
    case 'bigint':
      return value.toString();
    case 'object':
      return objectText(value, reading, head);
    default: // undefined, function, symbol
      if (!inArray) return SKIP;
      return reading.omitNulls ? SKIP : '';
  }
}

function objectText(value: object | null, reading: Reading, head: string): string | typeof SKIP | typeof CONTAINER {
  if (value === null) return reading.omitNulls ? SKIP : '';
  if (value instanceof LosslessNumber) {
    if (reading.rawNumbers) return value.text;
    const n = value.value;
    if (Number.isFinite(n)) return String(n);
    throw new SigningInputError(nameOf(head), `${value.text} is out of the range of a JS number`);
  }
  if (Array.isArray(value)) {
    if (reading.simple) throw nestedInSimpleForm(nameOf(head));
    return value.length === 0 ? SKIP : CONTAINER;
  }
  if (isPlainObject(value)) {
    if (reading.simple) throw nestedInSimpleForm(nameOf(head));
    return CONTAINER; // an empty object simply yields no member
  }
  throw new SigningInputError(
    nameOf(head),
    `${describe(value)} cannot be signed (plain objects, arrays, strings, numbers, booleans and null only)`,
  );
}

/** True for values flattened as containers (plain objects and arrays), false for leaves. */
export function isContainer(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !(value instanceof LosslessNumber) && (Array.isArray(value) || isPlainObject(value));
}

export function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object';
  }
  return `a ${typeof value}`;
}

/** ";a:b:" → "a:b" */
export function nameOf(head: string): string {
  return head.slice(1, -1);
}

function nestedInSimpleForm(name: string): SigningInputError {
  return new SigningInputError(name, 'the simple form signs flat settings only; nested objects and arrays need the general form');
}

/** Guards against cyclic objects and absurd nesting (a clear error, not a stack overflow). */
export const MAX_DEPTH = 256;

export function tooDeep(head: string): SigningInputError {
  return new SigningInputError(nameOf(head), `nesting deeper than ${MAX_DEPTH} levels (is the object cyclic?)`);
}

/**
 * The canonical string the service signs (spec, "Authentication"): the spec's
 * steps, with the sort folded into the flattening (docs/decisions.md,
 * "Signing: how the canonical string is assembled"):
 *
 * 1. Flatten, in name order: every leaf becomes a member named by its
 *    ":"-joined path (array indices from 0), each object's keys visited in
 *    UTF-16 code-unit order (JS's own `<`), so the members come out sorted by
 *    name. Empty arrays and empty objects give no member.
 * 2. Write each value: booleans 1/0, strings verbatim, numbers as their text,
 *    null as "" (or no member, for verification's second reading).
 * 3. Sort the members only where that visit cannot give their order: a key
 *    holding ":" (names can then be equal: those by value), or a container's
 *    key followed by one that extends it with a character below ":" ("a"
 *    holding "a:x", then "a-b", which sorts first). collect() marks such
 *    bodies.
 * 4. Join the `name:value` lines with ";". The top-level `signature` member
 *    is left out.
 *
 * The simple form (widget settings) is the same on a flat object; nested
 * values are an error there. Functions (event handlers) are never settings
 * and are skipped. See docs/decisions.md, "Signing: …", for null, empty
 * objects, quotes, number text and ordering.
 */
import { SigningInputError } from './errors.js';
import { LosslessNumber } from './lossless-json.js';

/** The member every signed object carries and that is never signed itself (top level only). */
export const SIGNATURE_MEMBER = 'signature';

export type SigningForm = 'general' | 'simple';

/**
 * How a LosslessNumber (a number parsed with its text) is written:
 * `raw` = the text as received ("1.50"), `js` = the value as JS writes it ("1.5").
 * Plain JS numbers are always written as JS writes them.
 */
export type NumberReading = 'raw' | 'js';

/** How null is written: `empty` = "name:" like an empty string; `omit` = no member. */
export type NullReading = 'empty' | 'omit';

export interface CanonicalOptions {
  /** Default `general`. */
  form?: SigningForm;
  /** Default `raw`. */
  numbers?: NumberReading;
  /** Default `empty` (the project's signing policy; verification also accepts `omit`). */
  nulls?: NullReading;
}

/** Guards against cyclic objects and absurd nesting (a clear error, not a stack overflow). */
const MAX_DEPTH = 256;

/** One flattened member: its name (`prefix` + `key`) and its value's text. */
interface Member {
  /** The name of the object or array holding the member, and ":" ("" at the top level). */
  readonly prefix: string;
  readonly key: string;
  readonly name: string;
  readonly text: string;
}

/**
 * Returns the exact string that is HMAC'd for `value`. Public for debugging:
 * when a signature is refused, compare this string with the other side's.
 * Throws SigningInputError (naming the member) when a value cannot be signed:
 * non-finite numbers, non-plain objects (Date, Map, class instances), cycles,
 * lone UTF-16 surrogates, nested values in the simple form.
 */
export function canonicalString(value: object, options: CanonicalOptions = {}): string {
  const reading = resolve(options);
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !isPlainObject(value)) {
    throw new SigningInputError('', `the signed value must be a plain JSON object, not ${describe(value)}`);
  }
  const members: Member[] = [];
  const order = { sorted: true };
  collect(value, false, '', 0, reading, members, order);
  if (!order.sorted) {
    members.sort(byNameThenText);
  }
  const lines = new Array<string>(members.length);
  for (let i = 0; i < members.length; i++) {
    const { name, text } = members[i] as Member;
    lines[i] = name + ':' + text;
  }
  const out = lines.join(';');
  // UTF-8 cannot encode a lone surrogate: checked once on the result, then the culprit is looked for.
  if (!isWellFormed(out)) {
    const bad = members.find(({ name, text }) => !isWellFormed(name) || !isWellFormed(text)) as Member;
    throw new SigningInputError(bad.name, 'contains a lone UTF-16 surrogate, which has no UTF-8 form');
  }
  return out;
}

function byNameThenText(x: Member, y: Member): number {
  // Members of one object share its prefix string: their keys order them as their names would.
  const siblings = x.prefix === y.prefix;
  const a = siblings ? x.key : x.name;
  const b = siblings ? y.key : y.name;
  if (a !== b) {
    return a < b ? -1 : 1;
  }
  return x.text < y.text ? -1 : x.text > y.text ? 1 : 0;
}

interface Reading {
  readonly simple: boolean;
  readonly rawNumbers: boolean;
  readonly omitNulls: boolean;
}

function resolve(options: CanonicalOptions): Reading {
  const { form = 'general', numbers = 'raw', nulls = 'empty' } = options;
  if (form !== 'general' && form !== 'simple') {
    throw new SigningInputError('', `unknown signing form ${JSON.stringify(form)} (general or simple)`);
  }
  if (numbers !== 'raw' && numbers !== 'js') {
    throw new SigningInputError('', `unknown number reading ${JSON.stringify(numbers)} (raw or js)`);
  }
  if (nulls !== 'empty' && nulls !== 'omit') {
    throw new SigningInputError('', `unknown null reading ${JSON.stringify(nulls)} (empty or omit)`);
  }
  return { simple: form === 'simple', rawNumbers: numbers === 'raw', omitNulls: nulls === 'omit' };
}

/**
 * Appends the members of `node` (an object or array named `path`, "" at
 * the root) to `members`. Arrays give every index (holes are null, as in
 * JSON) and nothing else; objects give their own enumerable keys.
 */
function collect(node: object, isArray: boolean, path: string, depth: number, reading: Reading, members: Member[], order: { sorted: boolean }): void {
  if (depth > MAX_DEPTH) {
    throw new SigningInputError(path, `nesting deeper than ${MAX_DEPTH} levels (is the object cyclic?)`);
  }
  const prefix = depth === 0 ? '' : path + ':';
  // Each level's keys in code-unit order (array indices too: "10" before "2").
  const keys = isArray ? arrayKeys((node as unknown[]).length) : sortedKeys(node);
  // Visited in that order, the members come out sorted by name, except where a
  // container's key is followed by a key that extends it with a character below
  // ":" ("a" holding "a:x", then "a-b", which sorts first), or a key holds ":"
  // itself. Such bodies are marked, and canonicalString sorts their members.
  let container: string | null = null;
  for (const key of keys) {
    if ((container !== null && key.startsWith(container) && key.charCodeAt(container.length) < COLON) || key.includes(':')) {
      order.sorted = false;
    }
    container = null;
    if (depth === 0 && key === SIGNATURE_MEMBER) {
      continue;
    }
    const child: unknown = (node as Record<string, unknown>)[key];
    const name = prefix + key;
    const text = leafText(child, isArray, reading, name);
    if (text === SKIP) {
      continue;
    }
    if (text === CONTAINER) {
      container = key;
      collect(child as object, Array.isArray(child), name, depth + 1, reading, members, order);
    } else {
      members.push({ prefix, key, name, text });
    }
  }
}

const COLON = 0x3a;

/** An array's indices as keys in code-unit order: index order up to ten elements, sorted as text beyond. */
function arrayKeys(length: number): string[] {
  const keys = Array.from({ length }, (_, i) => String(i));
  return length > 10 ? keys.sort() : keys;
}

/**
 * Own enumerable keys in code-unit order: an insertion sort for the handful
 * of keys a level usually has (cheaper than Array#sort there), Array#sort
 * beyond, where insertion sort's quadratic time would let a large body
 * (anyone can post one to a callback URL) cost seconds.
 */
function sortedKeys(node: object): string[] {
  const keys = Object.keys(node);
  if (keys.length > 32) {
    return keys.sort();
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    for (; j >= 0 && (keys[j] as string) > key; j--) {
      keys[j + 1] = keys[j] as string;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/** The member writes nothing (undefined, function, omitted null, empty array or object). */
const SKIP = 0;
/** The member is a plain object or non-empty array whose members are flattened under it. */
const CONTAINER = 1;

/**
 * The text of a leaf value, SKIP, or CONTAINER. Object members
 * JSON.stringify would drop (undefined, functions, symbols) are skipped; as
 * array elements they are null, as in JSON.
 */
function leafText(value: unknown, inArray: boolean, reading: Reading, name: string): string | typeof SKIP | typeof CONTAINER {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      if (Number.isFinite(value)) {
        return String(value);
      }
      throw new SigningInputError(name, `${String(value)} cannot be signed (JSON has no such number)`);
    case 'boolean':
      return value ? '1' : '0';
    case 'bigint':
      return value.toString();
    case 'object':
      return objectText(value, reading, name);
    default: // undefined, function, symbol
      if (!inArray) {
        return SKIP;
      }
      return reading.omitNulls ? SKIP : '';
  }
}

function objectText(value: object | null, reading: Reading, name: string): string | typeof SKIP | typeof CONTAINER {
  if (value === null) {
    return reading.omitNulls ? SKIP : '';
  }
  if (value instanceof LosslessNumber) {
    if (reading.rawNumbers) {
      return value.text;
    }
    const n = value.value;
    if (Number.isFinite(n)) {
      return String(n);
    }
    throw new SigningInputError(name, `${value.text} is out of the range of a JS number`);
  }
  if (Array.isArray(value) || isPlainObject(value)) {
    if (reading.simple) {
      throw new SigningInputError(name, 'the simple form signs flat settings only; nested objects and arrays need the general form');
    }
    // An empty object simply yields no member; an empty array is skipped outright.
    return Array.isArray(value) && value.length === 0 ? SKIP : CONTAINER;
  }
  throw new SigningInputError(name, `${describe(value)} cannot be signed (plain objects, arrays, strings, numbers, booleans and null only)`);
}

/** False when `text` holds a lone UTF-16 surrogate. (Node 20's String#isWellFormed; ES2022 typings lack it.) */
function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed: () => boolean }).isWellFormed();
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'an array';
  }
  if (typeof value === 'object') {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object';
  }
  return `a ${typeof value}`;
}

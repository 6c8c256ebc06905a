/**
 * The canonical string the service signs (spec, "Authentication").
 *
 * General form: nested members are flattened to root members named by their
 * ":"-joined path (array indices from 0), empty arrays and empty objects give
 * no member, booleans are written 1/0, everything else as its text; members
 * are sorted ordinally by name (UTF-16 code units, JS's own `<`), written
 * `name:value` and joined with ";". The top-level `signature` member is left out.
 *
 * Simple form (widget settings): the same on a flat object; nested values are
 * an error, functions (event handlers) are not settings and are skipped.
 *
 * See docs/decisions.md for null, empty objects, quotes and number text.
 */
import { SigningInputError } from './errors.js';
import { LosslessNumber } from './lossless-json.js';

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

/** The member every signed object carries and that is never signed itself. */
export const SIGNATURE_MEMBER = 'signature';

/** Guards against cyclic objects and absurd nesting (a clear error, not a stack overflow). */
const MAX_DEPTH = 256;

interface Reading {
  readonly simple: boolean;
  readonly rawNumbers: boolean;
  readonly omitNulls: boolean;
}

/**
 * Returns the exact string that is HMAC'd for `value`. Public for debugging:
 * when a signature is refused, compare this string with the other side's.
 * Throws SigningInputError (naming the member) when a value cannot be signed:
 * non-finite numbers, non-plain objects (Date, Map, class instances), cycles,
 * lone UTF-16 surrogates, nested values in the simple form.
 */
export function canonicalString(value: object, options: CanonicalOptions = {}): string {
  const form = options.form ?? 'general';
  if (form !== 'general' && form !== 'simple') {
    throw new SigningInputError('', `unknown signing form ${JSON.stringify(form)} (general or simple)`);
  }
  const numbers = options.numbers ?? 'raw';
  if (numbers !== 'raw' && numbers !== 'js') {
    throw new SigningInputError('', `unknown number reading ${JSON.stringify(numbers)} (raw or js)`);
  }
  const nulls = options.nulls ?? 'empty';
  if (nulls !== 'empty' && nulls !== 'omit') {
    throw new SigningInputError('', `unknown null reading ${JSON.stringify(nulls)} (empty or omit)`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !isPlainObject(value)) {
    throw new SigningInputError('', `the signed value must be a plain JSON object, not ${describe(value)}`);
  }
  const reading: Reading = { simple: form === 'simple', rawNumbers: numbers === 'raw', omitNulls: nulls === 'omit' };

  const fast = new FastWriter(reading);
  let out: string;
  if (fast.writeLevel(value, false, '', 0)) {
    out = fast.out;
  } else {
    out = collectAndSort(value, reading);
  }
  if (!isWellFormed(out)) {
    throw new SigningInputError(findIllFormedMember(value, reading), 'contains a lone UTF-16 surrogate, which has no UTF-8 form');
  }
  return out;
}

/**
 * The fast path: one depth-first walk writing members straight into the
 * output. Sorting each level's keys by (key + ":" when the child is a
 * container, else key) yields the global ordinal order of the flattened names
 * provided no key contains ":" (proof: a sibling's names all start with its
 * sort key, and a sort key can only be a prefix of another's when it belongs
 * to a leaf, whose single name is then the smaller). When a key contains ":",
 * writeLevel returns false and the caller falls back to collect-then-sort.
 */
class FastWriter {
  out = '';
  private first = true;

  constructor(private readonly reading: Reading) {}

  writeLevel(node: object, isArray: boolean, prefix: string, depth: number): boolean {
    if (depth > MAX_DEPTH) {
      throw new SigningInputError(prefix.slice(0, -1), `nesting deeper than ${MAX_DEPTH} levels (is the object cyclic?)`);
    }
    const keys: string[] = isArray ? arrayIndexKeys((node as unknown[]).length) : Object.keys(node);
    const count = keys.length;
    // Per member: the sort key, the leaf text (undefined for a container) and the value.
    const sortKeys: string[] = new Array<string>(count);
    const texts: (string | undefined)[] = new Array<string | undefined>(count);
    const children: object[] = new Array<object>(count);
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const key = keys[i] as string;
      if (depth === 0 && key === SIGNATURE_MEMBER) continue;
      if (!isArray && key.indexOf(':') !== -1) return false;
      const child: unknown = (node as Record<string, unknown>)[key];
      const text = leafText(child, isArray, prefix, key, this.reading);
      if (text === SKIP) continue;
      if (text === CONTAINER) {
        sortKeys[kept] = key + ':';
        texts[kept] = undefined;
        children[kept] = child as object;
      } else {
        sortKeys[kept] = key;
        texts[kept] = text;
      }
      kept++;
    }
    // Insertion sort of an index permutation: levels are small and often already sorted.
    const order: number[] = new Array<number>(kept);
    for (let i = 0; i < kept; i++) {
      const sk = sortKeys[i] as string;
      let j = i - 1;
      while (j >= 0 && (sortKeys[order[j] as number] as string) > sk) {
        order[j + 1] = order[j] as number;
        j--;
      }
      order[j + 1] = i;
    }
    for (let n = 0; n < kept; n++) {
      const i = order[n] as number;
      const text = texts[i];
      if (text === undefined) {
        const child = children[i] as object;
        // A container's sort key is `key + ":"`, exactly its children's prefix.
        if (!this.writeLevel(child, Array.isArray(child), prefix + (sortKeys[i] as string), depth + 1)) return false;
      } else {
        if (this.first) {
          this.out = prefix + (sortKeys[i] as string) + ':' + text;
          this.first = false;
        } else {
          this.out += ';' + prefix + (sortKeys[i] as string) + ':' + text;
        }
      }
    }
    return true;
  }
}

/** The slow path for keys containing ":": collect every member, then sort by name (then value). */
function collectAndSort(root: object, reading: Reading): string {
  const members: [name: string, text: string][] = [];
  collect(root, false, '', 0, reading, members);
  // Names can collide only through literal ":" in keys ({"a:b":1} and {"a":{"b":2}});
  // the value then breaks the tie so the result never depends on member order.
  members.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
  let out = '';
  for (let i = 0; i < members.length; i++) {
    const [name, text] = members[i] as [string, string];
    out += (i === 0 ? '' : ';') + name + ':' + text;
  }
  return out;
}

function collect(
  node: object,
  isArray: boolean,
  prefix: string,
  depth: number,
  reading: Reading,
  members: [string, string][],
): void {
  if (depth > MAX_DEPTH) {
    throw new SigningInputError(prefix.slice(0, -1), `nesting deeper than ${MAX_DEPTH} levels (is the object cyclic?)`);
  }
  const keys: string[] = isArray ? arrayIndexKeys((node as unknown[]).length) : Object.keys(node);
  for (const key of keys) {
    if (depth === 0 && key === SIGNATURE_MEMBER) continue;
    const child: unknown = (node as Record<string, unknown>)[key];
    const text = leafText(child, isArray, prefix, key, reading);
    if (text === SKIP) continue;
    if (text === CONTAINER) {
      collect(child as object, Array.isArray(child), prefix + key + ':', depth + 1, reading, members);
    } else {
      members.push([prefix + key, text]);
    }
  }
}

const SKIP = 0;
const CONTAINER = 1;

/**
 * The text of a leaf value, SKIP when the member produces nothing, or
 * CONTAINER for a non-empty array or plain object to descend into.
 * Object members that JSON.stringify would drop (undefined, functions,
 * symbols) are skipped; as array elements they become null, as in JSON.
 */
function leafText(
  value: unknown,
  inArray: boolean,
  prefix: string,
  key: string,
  reading: Reading,
): string | typeof SKIP | typeof CONTAINER {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      if (Number.isFinite(value)) return String(value);
      throw new SigningInputError(prefix + key, `${String(value)} cannot be signed (JSON has no such number)`);
    case 'boolean':
      return value ? '1' : '0';
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      if (!inArray) return SKIP;
      return reading.omitNulls ? SKIP : '';
    case 'object':
      break;
  }
  if (value === null) return reading.omitNulls ? SKIP : '';
  if (value instanceof LosslessNumber) {
    if (reading.rawNumbers) return value.text;
    const n = value.value;
    if (Number.isFinite(n)) return String(n);
    throw new SigningInputError(prefix + key, `${value.text} is out of the range of a JS number`);
  }
  if (Array.isArray(value)) {
    if (reading.simple) throw nestedInSimpleForm(prefix + key);
    return value.length === 0 ? SKIP : CONTAINER;
  }
  if (isPlainObject(value as object)) {
    if (reading.simple) throw nestedInSimpleForm(prefix + key);
    for (const _ in value as object) return CONTAINER;
    return SKIP;
  }
  throw new SigningInputError(prefix + key, `${describe(value)} cannot be signed (plain objects, arrays, strings, numbers, booleans and null only)`);
}

function nestedInSimpleForm(name: string): SigningInputError {
  return new SigningInputError(name, 'the simple form signs flat settings only; nested objects and arrays need the general form');
}

const indexKeyCache: string[] = [];

/** "0", "1", … reused across calls so long arrays do not allocate their index strings each time. */
function arrayIndexKeys(length: number): string[] {
  for (let i = indexKeyCache.length; i < length && i < 4096; i++) indexKeyCache.push(String(i));
  if (length <= indexKeyCache.length) return indexKeyCache.slice(0, length);
  const keys = indexKeyCache.slice();
  for (let i = keys.length; i < length; i++) keys.push(String(i));
  return keys;
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object';
  }
  return `a ${typeof value}`;
}

const hasIsWellFormed = typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isWellFormed(text: string): boolean {
  return hasIsWellFormed
    ? (text as unknown as { isWellFormed(): boolean }).isWellFormed()
    : !LONE_SURROGATE.test(text);
}

function findIllFormedMember(root: object, reading: Reading): string {
  const members: [string, string][] = [];
  collect(root, false, '', 0, reading, members);
  for (const [name, text] of members) {
    if (!isWellFormed(name) || !isWellFormed(text)) return name;
  }
  return '';
}

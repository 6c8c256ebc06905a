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
import { bytesInLayoutOrder, writeInLayoutOrder } from './layouts.js';
import { isWellFormed } from './well-formed.js';
import { CONTAINER, describe, isPlainObject, MAX_DEPTH, memberText, nameOf, SIGNATURE_MEMBER, SKIP, tooDeep, type Reading } from './values.js';

export { SIGNATURE_MEMBER };

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

/**
 * Returns the exact string that is HMAC'd for `value`. Public for debugging:
 * when a signature is refused, compare this string with the other side's.
 * Throws SigningInputError (naming the member) when a value cannot be signed:
 * non-finite numbers, non-plain objects (Date, Map, class instances), cycles,
 * lone UTF-16 surrogates, nested values in the simple form.
 */
export function canonicalString(value: object, options: CanonicalOptions = {}): string {
  const reading = resolve(options);
  assertSignable(value);
  return canonicalText(value, reading);
}

/**
 * What sign() HMACs: the UTF-8 bytes of the canonical string where the
 * payload's layout is compiled (a view of a buffer reused by the next call:
 * hash it at once), otherwise the string itself. Same errors as
 * canonicalString().
 */
export function canonicalUtf8(value: object, options: CanonicalOptions = {}): Uint8Array | string {
  const reading = resolve(options);
  assertSignable(value);
  const out = bytesInLayoutOrder(value, reading);
  return typeof out === 'object' ? out : wellFormed(value, reading, out ?? collectAndSort(value, reading));
}

function assertSignable(value: object): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !isPlainObject(value)) {
    throw new SigningInputError('', `the signed value must be a plain JSON object, not ${describe(value)}`);
  }
}

function canonicalText(value: object, reading: Reading): string {
  return wellFormed(value, reading, writeInLayoutOrder(value, reading) ?? collectAndSort(value, reading));
}

/** `out`, the canonical string of `value`, once it is known to have a UTF-8 form. */
function wellFormed(value: object, reading: Reading, out: string): string {
  if (!isWellFormed(out)) {
    throw new SigningInputError(findIllFormedMember(value, reading), 'contains a lone UTF-16 surrogate, which has no UTF-8 form');
  }
  return out;
}

/** The eight readings, made once: resolving options must cost next to nothing per call. */
const READINGS: readonly Reading[] = [false, true].flatMap((simple) =>
  [false, true].flatMap((rawNumbers) => [false, true].map((omitNulls) => ({ simple, rawNumbers, omitNulls }))),
);

function resolve(options: CanonicalOptions): Reading {
  const form = options.form ?? 'general';
  const numbers = options.numbers ?? 'raw';
  const nulls = options.nulls ?? 'empty';
  if (form !== 'general' && form !== 'simple') {
    throw new SigningInputError('', `unknown signing form ${JSON.stringify(form)} (general or simple)`);
  }
  if (numbers !== 'raw' && numbers !== 'js') {
    throw new SigningInputError('', `unknown number reading ${JSON.stringify(numbers)} (raw or js)`);
  }
  if (nulls !== 'empty' && nulls !== 'omit') {
    throw new SigningInputError('', `unknown null reading ${JSON.stringify(nulls)} (empty or omit)`);
  }
  return READINGS[(form === 'simple' ? 4 : 0) + (numbers === 'raw' ? 2 : 0) + (nulls === 'omit' ? 1 : 0)] as Reading;
}

/**
 * The slow path, taken when a key contains ":" (or the fast path cannot be
 * used): collect every member, then sort by name, then by value.
 */
function collectAndSort(root: object, reading: Reading): string {
  const members: [name: string, text: string][] = [];
  collect(root, false, ';', 0, reading, members);
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

/** `head` is ";path:" of `node` (";" at the root). */
function collect(node: object, isArray: boolean, head: string, depth: number, reading: Reading, members: [string, string][]): void {
  if (depth > MAX_DEPTH) throw tooDeep(head);
  // Arrays: every index (holes are null in JSON) and nothing else; objects: own enumerable keys.
  const keys = isArray ? Array.from({ length: (node as unknown[]).length }, (_, i) => String(i)) : Object.keys(node);
  for (const key of keys) {
    if (depth === 0 && key === SIGNATURE_MEMBER) continue;
    const child: unknown = (node as Record<string, unknown>)[key];
    const childHead = head + key + ':';
    const text = memberText(child, isArray, reading, childHead);
    if (text === SKIP) continue;
    if (text === CONTAINER) {
      collect(child as object, Array.isArray(child), childHead, depth + 1, reading, members);
    } else {
      members.push([nameOf(childHead), text]);
    }
  }
}

function findIllFormedMember(root: object, reading: Reading): string {
  const members: [string, string][] = [];
  collect(root, false, ';', 0, reading, members);
  for (const [name, text] of members) {
    if (!isWellFormed(name) || !isWellFormed(text)) return name;
  }
  return '';
}

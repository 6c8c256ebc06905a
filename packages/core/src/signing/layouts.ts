/**
 * The fast path of canonicalString(): a depth-first walk that writes each
 * member straight into the output, in order, with no global sort.
 *
 * Order: sorting each level's keys by (key + ":" for a container, key for a
 * leaf) yields the global ordinal order of the flattened names, provided no
 * key contains ":". Proof: every name a member produces starts with its sort
 * key; two sort keys of one level can only be prefixes of one another when
 * the shorter belongs to a leaf (a container's key ends in ":", which no
 * sibling key can continue), and that leaf's single name is then the smaller.
 * Keys containing ":" make the walk give up (the caller collects and sorts).
 *
 * Speed: what this sorting and the member heads (";path:key:") depend on is
 * the *layout* of a level (its keys in order and which members are
 * containers), never its values. Layouts are cached and re-validated on
 * every call against the object actually given, so a payload with a familiar
 * layout (every callback, every API request of one kind) skips sorting and
 * name building, and its output is made of few, already flat pieces. Values
 * are always read afresh; nothing is cached per object or per value.
 *
 * Output: the pieces (head, text, head, text, ...) go into one reused array
 * and are joined once at the end. join() copies each piece once into a flat
 * string, which the HMAC reads as it is; a rope built with += costs a node
 * per piece and is copied again when the HMAC flattens it.
 */
import { CONTAINER, isContainer, isPlainObject, MAX_DEPTH, memberText, SIGNATURE_MEMBER, tooDeep, type Reading } from './values.js';

interface Layout {
  readonly isArray: boolean;
  /** Member count: the array length, or the number of own enumerable keys. */
  readonly length: number;
  /** The keys in enumeration order (empty for arrays). */
  readonly keys: readonly string[];
  /** ";path:" of this level (";" at the root). */
  readonly head: string;
  /** Member indexes (into keys, or array indexes) in output order; the root's signature is left out. */
  readonly order: readonly number[];
  /** Per output position: the flat ";path:key:" written before the value. */
  readonly heads: readonly string[];
  /** Per output position: whether the member was sorted as a container. */
  readonly sortedAsContainer: readonly boolean[];
  /** Per output position: the layout of a container member, built on first use. */
  readonly children: (Layout | undefined)[];
}

/** emit() result: the members were appended to the pieces. */
const DONE = 0;
/** emit() result: the layout does not fit the object (rebuild it). */
const STALE = 1;
/** emit() result (and buildLayout()'s): a key contains ":" (use the slow path). */
const GIVE_UP = 2;
type Emitted = typeof DONE | typeof STALE | typeof GIVE_UP;

/** Root layouts remembered (round robin); a service has few payload kinds. */
const MAX_ROOTS = 16;
/** Cached heads across all layouts; past this, the cache starts over (bounded memory for hostile input). */
const MAX_CACHED_HEADS = 20_000;

const roots: Layout[] = [];
let nextRoot = 0;
let cachedHeads = 0;
/** Scratch arrays for the values of one object level, one per depth. */
const valuesAtDepth: unknown[][] = [];
/** The scratch arrays make the walk non-reentrant (a getter could sign): nested calls take the slow path. */
let busy = false;
/** The output of the walk under way: pieces[0..count). */
const pieces: string[] = [];
let count = 0;
/** Past this many pieces, the array is emptied after the join rather than kept (bounded memory). */
const MAX_KEPT_PIECES = 4096;

/** The canonical string of `root`, or undefined when the caller must collect and sort. */
export function writeInLayoutOrder(root: object, reading: Reading): string | undefined {
  if (busy) return undefined;
  busy = true;
  try {
    for (const layout of roots) {
      count = 0;
      const result = emit(layout, root, reading, 0);
      if (result === GIVE_UP) return undefined;
      if (result === DONE) return joinPieces();
    }
    const layout = buildLayout(root, false, ';', true);
    if (layout === GIVE_UP) return undefined;
    remember(layout);
    count = 0;
    // STALE right after building means the object changed while read (getters): no fast path.
    return emit(layout, root, reading, 0) === DONE ? joinPieces() : undefined;
  } finally {
    busy = false;
    count = 0;
  }
}

/** The canonical string: the pieces joined, less the ";" the first head starts with. */
function joinPieces(): string {
  // One payload kind gives the same count each time: the array is then reused as it is.
  if (pieces.length !== count) pieces.length = count;
  // join() makes a flat string, so slice() shares it instead of copying.
  const text = pieces.join('').slice(1);
  // The pieces of the last payload stay until the next walk overwrites them
  // (clearing them would be one more pass over every piece); a large one is let go.
  if (count > MAX_KEPT_PIECES) pieces.length = 0;
  return text;
}

function remember(layout: Layout): void {
  if (cachedHeads > MAX_CACHED_HEADS) {
    roots.length = 0;
    nextRoot = 0;
    cachedHeads = 0;
  }
  cachedHeads += layout.heads.length;
  if (roots.length < MAX_ROOTS) {
    roots.push(layout);
  } else {
    roots[nextRoot] = layout;
    nextRoot = (nextRoot + 1) % MAX_ROOTS;
  }
}

function buildLayout(node: object, isArray: boolean, head: string, isRoot: boolean): Layout | typeof GIVE_UP {
  const keys = isArray ? [] : Object.keys(node);
  const length = isArray ? (node as unknown[]).length : keys.length;
  const members: { index: number; key: string; sortKey: string; container: boolean }[] = [];
  for (let index = 0; index < length; index++) {
    const key = isArray ? String(index) : (keys[index] as string);
    if (isRoot && key === SIGNATURE_MEMBER) continue;
    if (!isArray && key.includes(':')) return GIVE_UP;
    const container = isContainer(isArray ? (node as unknown[])[index] : (node as Record<string, unknown>)[key]);
    members.push({ index, key, sortKey: container ? key + ':' : key, container });
  }
  members.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
  return {
    isArray,
    length,
    keys,
    head,
    order: members.map((m) => m.index),
    // join() returns a flat string: writing it later costs one piece, not a rope of three.
    heads: members.map((m) => [head, m.key, ':'].join('')),
    sortedAsContainer: members.map((m) => m.container),
    children: members.map(() => undefined),
  };
}

/**
 * Appends the members of `node` to the pieces following `layout`, or says
 * why it cannot. `node` is any value when a container of a familiar layout
 * is written without first asking what it is (see below): this checks that
 * it is a plain object, or an array, of that layout.
 */
function emit(layout: Layout, node: unknown, reading: Reading, depth: number): Emitted {
  if (depth > MAX_DEPTH) throw tooDeep(layout.head);
  const isArray = layout.isArray;
  let values: unknown[];
  if (isArray) {
    if (!Array.isArray(node) || node.length !== layout.length) return STALE;
    values = node;
  } else {
    // A class instance or a LosslessNumber can have the very keys of a layout.
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !isPlainObject(node)) return STALE;
    // for-in walks the enumeration cache and loads values by cached index: the
    // cheapest way to both check the keys and read the values.
    values = valuesAtDepth[depth] ??= [];
    const keys = layout.keys;
    let read = 0;
    for (const key in node) {
      if (key !== keys[read]) return STALE;
      values[read++] = (node as Record<string, unknown>)[key];
    }
    if (read !== layout.length) return STALE;
  }
  const { order, heads, sortedAsContainer, children } = layout;
  for (let p = 0; p < order.length; p++) {
    const value = values[order[p] as number];
    const head = heads[p] as string;
    if (sortedAsContainer[p]) {
      const child = children[p];
      // A container of a familiar layout: emit() itself checks what it is,
      // sparing the questions memberText() asks. The simple form refuses containers there.
      const result = child !== undefined && !reading.simple ? emitFamiliar(layout, p, child, value, reading, depth) : emitChild(layout, p, value, reading, depth);
      if (result !== DONE) return result;
      continue;
    }
    // Strings are most members: write them before anything else is looked at.
    const text = typeof value === 'string' ? value : memberText(value, isArray, reading, head);
    if (typeof text === 'string') {
      pieces[count++] = head;
      pieces[count++] = text;
    } else if (text === CONTAINER) {
      return STALE;
    }
  }
  // Do not keep the caller's data alive in the scratch array once a level is done.
  if (!isArray) for (let i = 0; i < layout.length; i++) values[i] = undefined;
  return DONE;
}

/** Emits `value` at position `p` with its cached layout; if it does not fit, takes back what it wrote and asks what `value` is. */
function emitFamiliar(layout: Layout, p: number, child: Layout, value: unknown, reading: Reading, depth: number): Emitted {
  const mark = count;
  const result = emit(child, value, reading, depth + 1);
  if (result !== STALE) return result;
  count = mark;
  return emitChild(layout, p, value, reading, depth);
}

/** Emits the container member at position `p` of `layout` with a new layout (SKIP: an empty array writes nothing). */
function emitChild(layout: Layout, p: number, value: unknown, reading: Reading, depth: number): Emitted {
  const head = layout.heads[p] as string;
  const text = memberText(value, layout.isArray, reading, head);
  if (text !== CONTAINER) return typeof text === 'string' ? STALE : DONE;
  const child = value as object;
  const built = buildLayout(child, Array.isArray(child), head, false);
  if (built === GIVE_UP) return GIVE_UP;
  if (cachedHeads <= MAX_CACHED_HEADS) {
    layout.children[p] = built;
    cachedHeads += built.heads.length;
  }
  const result = emit(built, child, reading, depth + 1);
  return result === STALE ? GIVE_UP : result; // STALE: changed while read (getters)
}

/**
 * The fast path of canonicalString() and sign() for payloads of a familiar
 * layout.
 *
 * A layout is what the canonical order depends on: the keys of every level
 * in order and which members are containers, never the values. Every
 * callback, and every API request or response of one kind, has the same
 * layout. Once a layout has been seen often enough to be worth it, it is
 * built: each level's keys are sorted, the ";path:key:" heads written, and
 * an extractor compiled (layout-compiler.ts). From then on a payload of that
 * layout is checked and read by its extractor and written by its output
 * (layout-output.ts), as a string or as UTF-8 bytes: no sorting, no name
 * building, few pieces.
 *
 * Why wait: compiling costs 0.5-2 ms, the price of 50-100 signatures on the
 * slow path. Compiling every new layout at once would let anyone who can
 * send a payload (a callback endpoint) make each request cost that much by
 * varying its keys; counting sightings first makes such a stream cost no
 * more than the slow path it takes anyway, while a partner's real payload
 * kinds, which repeat endlessly, are compiled after their first few dozen.
 *
 * Order: sorting each level's keys by (key + ":" for a container, key for a
 * leaf) yields the global ordinal order of the flattened names, provided no
 * key contains ":". Proof: every name a member produces starts with its sort
 * key; two sort keys of one level can only be prefixes of one another when
 * the shorter belongs to a leaf (a container's key ends in ":", which no
 * sibling key can continue), and that leaf's single name is then the smaller.
 * Keys containing ":" make the walk give up (the caller collects and sorts).
 *
 * Values are always read afresh from the payload; nothing is cached per
 * object. Where code generation is disallowed (--disallow-code-generation-
 * from-strings), every payload takes the caller's collect-and-sort path.
 */
import { compileExtractor, type Extractor, type LeafText, type LevelLayout, type MemberLayout } from './layout-compiler.js';
import { createOutput, writeOutput, writeOutputBytes, type LayoutOutput } from './layout-output.js';
import { isContainer, MAX_DEPTH, SIGNATURE_MEMBER, tooDeep, type Reading } from './values.js';

interface CompiledLayout {
  readonly extract: Extractor;
  /** Scratch for the leaf texts of the payload being written (they stay until the next one overwrites them). */
  readonly texts: LeafText[];
  /** Made from the payload the layout was compiled from. */
  readonly output: LayoutOutput;
}

/** buildLevel() result: a key contains ":", or the payload is too large to compile (use the slow path). */
const GIVE_UP = 0;

/** Root layouts remembered (round robin); a service has few payload kinds. */
const MAX_ROOTS = 16;
/** Larger payloads take the slow path rather than generate a function of this size. */
const MAX_LEAVES = 1024;
/** A layout is compiled on this sighting; the ones before take the slow path. */
export const COMPILE_ON_SIGHTING = 32;
/** Bounds the sightings kept (by the total length of their fingerprints); past it they start over. */
const MAX_SIGHTINGS_SIZE = 1 << 20;

/** Layouts seen but not compiled yet: fingerprint → times seen. */
const sightings = new Map<string, number>();
let sightingsSize = 0;

const roots: CompiledLayout[] = [];
let nextRoot = 0;
let compilations = 0;
/** Set when `new Function` is refused: the fast path is then off for the process. */
let codeGenerationDisallowed = false;
/** The scratch texts make the fast path non-reentrant (a getter could sign): nested calls take the slow path. */
let busy = false;

/** The canonical string of `root` (a plain object), or undefined when the caller must collect and sort. */
export function writeInLayoutOrder(root: object, reading: Reading): string | undefined {
  const layout = layoutOf(root, reading);
  return layout === undefined ? undefined : writeOutput(layout.output, layout.texts);
}

/**
 * The UTF-8 bytes of the canonical string of `root` (a plain object), valid
 * until the next call, or the string where they cannot be written; undefined
 * when the caller must collect and sort.
 */
export function bytesInLayoutOrder(root: object, reading: Reading): Uint8Array | string | undefined {
  const layout = layoutOf(root, reading);
  return layout === undefined ? undefined : writeOutputBytes(layout.output, layout.texts);
}

/** The compiled layout `root` has, its texts read into layout.texts; undefined for the slow path. */
function layoutOf(root: object, reading: Reading): CompiledLayout | undefined {
  if (busy || codeGenerationDisallowed) return undefined;
  busy = true;
  try {
    for (let r = 0; r < roots.length; r++) {
      const layout = roots[r] as CompiledLayout;
      if (layout.extract(root, reading, layout.texts)) return layout;
    }
    if (!sightedOften(root)) return undefined;
    const layout = compile(root, reading);
    if (layout !== undefined) remember(layout);
    return layout;
  } finally {
    busy = false;
  }
}

/** How many layouts this process has compiled (for tests: proves the fast path was taken). */
export function layoutCompilations(): number {
  return compilations;
}

/** Counts a sighting of the layout of `root`; true on the one that makes it worth compiling. */
function sightedOften(root: object): boolean {
  const parts: string[] = [];
  if (!fingerprint(root, false, 0, parts)) return false;
  const key = parts.join('');
  const seen = (sightings.get(key) ?? 0) + 1;
  if (seen >= COMPILE_ON_SIGHTING) {
    sightings.delete(key);
    sightingsSize -= key.length;
    return true;
  }
  if (seen === 1) {
    if (sightingsSize + key.length > MAX_SIGHTINGS_SIZE) {
      sightings.clear();
      sightingsSize = 0;
    }
    sightingsSize += key.length;
  }
  sightings.set(key, seen);
  return false;
}

/**
 * Appends what makes the layout of `node`, unambiguously: each level's keys
 * in order (length-prefixed) or its array length, and the layout of each
 * container in place. False when the payload cannot take the fast path
 * (a key with ":", too deep, too many members).
 */
function fingerprint(node: object, isArray: boolean, depth: number, parts: string[]): boolean {
  if (depth > MAX_DEPTH || parts.length > 4 * MAX_LEAVES) return false;
  if (isArray) {
    const list = node as unknown[];
    parts.push(`[${list.length}`);
    for (let i = 0; i < list.length; i++) {
      const value = list[i];
      if (isContainer(value)) {
        parts.push(`@${i}`);
        if (!fingerprint(value as object, Array.isArray(value), depth + 1, parts)) return false;
      }
    }
  } else {
    parts.push('{');
    for (const key of Object.keys(node)) {
      if (key.includes(':')) return false;
      const value = (node as Record<string, unknown>)[key];
      parts.push(`${key.length}.${key}`);
      if (isContainer(value) && !fingerprint(value as object, Array.isArray(value), depth + 1, parts)) return false;
    }
  }
  parts.push(isArray ? ']' : '}');
  return true;
}

function remember(layout: CompiledLayout): void {
  if (roots.length < MAX_ROOTS) {
    roots.push(layout);
  } else {
    roots[nextRoot] = layout;
    nextRoot = (nextRoot + 1) % MAX_ROOTS;
  }
}

/** The compiled layout of `root`, its texts read; undefined when `root` must take the slow path. */
function compile(root: object, reading: Reading): CompiledLayout | undefined {
  const heads: string[] = [];
  const level = buildLevel(root, false, ';', 0, heads);
  if (level === GIVE_UP) return undefined;
  let extract: Extractor;
  try {
    extract = compileExtractor(level, heads.length);
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    codeGenerationDisallowed = true;
    return undefined;
  }
  const texts = new Array<LeafText>(heads.length).fill('');
  // False right after building means the object changed while read (getters): no fast path.
  if (!extract(root, reading, texts)) return undefined;
  compilations++;
  return { extract, texts, output: createOutput(heads, texts) };
}

/**
 * The layout of `node` (";path:" in `head`), appending the heads of its
 * leaves to `heads` in canonical order.
 */
function buildLevel(node: object, isArray: boolean, head: string, depth: number, heads: string[]): LevelLayout | typeof GIVE_UP {
  if (depth > MAX_DEPTH) throw tooDeep(head);
  const keys = isArray ? [] : Object.keys(node);
  const length = isArray ? (node as unknown[]).length : keys.length;
  const sorted: { index: number; key: string; sortKey: string; value: unknown; container: boolean }[] = [];
  for (let index = 0; index < length; index++) {
    const key = isArray ? String(index) : (keys[index] as string);
    if (depth === 0 && key === SIGNATURE_MEMBER) continue;
    if (!isArray && key.includes(':')) return GIVE_UP;
    const value = isArray ? (node as unknown[])[index] : (node as Record<string, unknown>)[key];
    const container = isContainer(value);
    sorted.push({ index, key, sortKey: container ? key + ':' : key, value, container });
  }
  sorted.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
  const members: MemberLayout[] = [];
  for (const { index, key, value, container } of sorted) {
    const memberHead = head + key + ':';
    if (!container) {
      if (heads.length === MAX_LEAVES) return GIVE_UP;
      heads.push(memberHead);
      members.push({ index, head: memberHead });
      continue;
    }
    const level = buildLevel(value as object, Array.isArray(value), memberHead, depth + 1, heads);
    if (level === GIVE_UP) return GIVE_UP;
    members.push({ index, head: memberHead, level });
  }
  return { isArray, length, keys, members };
}

/**
 * Writes the canonical string of one layout from its leaf texts, in as few
 * pieces as the payloads allow.
 *
 * The string is head, text, head, text, ... and joining costs about one
 * piece copy each (14 ns on Node 20), as much as reading and checking the
 * member. But payloads of one layout share most of their values: a store's
 * callbacks carry the same token, currencies, payment method, country and
 * wallet each time, and only ids, amounts, dates and hashes change. So each
 * leaf is either *stable* (its text is recorded, and merged with the heads
 * around it into constant segments) or *volatile* (written each time). A
 * stable leaf is compared with its recorded text on every call, and the
 * first time it differs it becomes volatile for good and the segments are
 * rebuilt; volatile leaves only ever grow, so a layout is re-segmented at
 * most once per leaf. A callback body of 38 members is then written in 31
 * pieces instead of 76.
 *
 * Nothing here depends on which object is being signed: every text is read
 * afresh from the payload and compared, so the output is always exactly
 * head:text joined by ";" for the values given.
 */
import type { LeafText } from './layout-compiler.js';
import { SKIP } from './values.js';

/** Texts longer than this are never recorded (bounded memory; a long text rarely repeats). */
const MAX_RECORDED_LENGTH = 256;

export interface LayoutOutput {
  /** Per leaf in canonical order: ";path:key:". */
  readonly heads: readonly string[];
  /** Per leaf: its recorded text while stable, undefined once volatile. */
  readonly recorded: (LeafText | undefined)[];
  /** The stable leaves, in order. */
  stable: number[];
  /** The volatile leaves, in order. */
  volatile: number[];
  /** Segment, text of volatile[0], segment, ..., segment: reused for every call. */
  pieces: string[];
}

/** The output of a layout first seen with `texts`: every leaf stable but the long ones. */
export function createOutput(heads: readonly string[], texts: readonly LeafText[]): LayoutOutput {
  const output: LayoutOutput = { heads, recorded: [], stable: [], volatile: [], pieces: [] };
  for (let j = 0; j < heads.length; j++) {
    const text = texts[j] as LeafText;
    output.recorded[j] = typeof text === 'string' && text.length > MAX_RECORDED_LENGTH ? undefined : text;
  }
  segment(output);
  return output;
}

/** The canonical string for `texts` (one text per leaf, in canonical order). */
export function writeOutput(output: LayoutOutput, texts: readonly LeafText[]): string {
  const { stable, recorded } = output;
  for (let s = 0; s < stable.length; s++) {
    const j = stable[s] as number;
    if (texts[j] !== recorded[j]) {
      resegment(output, texts);
      break;
    }
  }
  const { volatile, pieces } = output;
  for (let k = 0; k < volatile.length; k++) {
    const text = texts[volatile[k] as number] as LeafText;
    // A skipped member takes its head with it, which a segment already holds: write this one plainly.
    if (text === SKIP) return writePlainly(output.heads, texts);
    pieces[2 * k + 1] = text;
  }
  return pieces.join('');
}

/** Makes every stable leaf whose text differs from `texts` volatile. */
function resegment(output: LayoutOutput, texts: readonly LeafText[]): void {
  const { stable, recorded } = output;
  for (let s = 0; s < stable.length; s++) {
    const j = stable[s] as number;
    if (texts[j] !== recorded[j]) recorded[j] = undefined;
  }
  segment(output);
}

/** Rebuilds stable, volatile and the constant segments from `recorded`. */
function segment(output: LayoutOutput): void {
  const { heads, recorded } = output;
  const stable: number[] = [];
  const volatile: number[] = [];
  const pieces: string[] = [];
  let parts: string[] = [];
  for (let j = 0; j < heads.length; j++) {
    const text = recorded[j];
    if (text === undefined) {
      volatile.push(j);
      parts.push(heads[j] as string);
      pieces.push(flat(parts, pieces.length === 0), '');
      parts = [];
    } else {
      stable.push(j);
      if (text !== SKIP) parts.push(heads[j] as string, text);
    }
  }
  pieces.push(flat(parts, pieces.length === 0));
  output.stable = stable;
  output.volatile = volatile;
  output.pieces = pieces;
}

/**
 * One flat string of `parts` (join() copies; a rope of += would be copied
 * again on every call that joins it), less the ";" every head starts with
 * when it opens the canonical string.
 */
function flat(parts: string[], opensString: boolean): string {
  if (opensString && parts.length > 0) parts[0] = (parts[0] as string).slice(1);
  return parts.join('');
}

/** The canonical string without segments: for a call where a volatile leaf is skipped. */
function writePlainly(heads: readonly string[], texts: readonly LeafText[]): string {
  const parts: string[] = [];
  for (let j = 0; j < heads.length; j++) {
    const text = texts[j] as LeafText;
    if (text !== SKIP) parts.push(heads[j] as string, text);
  }
  return parts.join('').slice(1);
}

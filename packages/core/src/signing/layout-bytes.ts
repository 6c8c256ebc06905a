/**
 * Writes the canonical string of one segmented layout as UTF-8 bytes, into
 * a buffer kept from one call to the next, for sign() to HMAC directly.
 *
 * Why bytes: a signature needs the UTF-8 bytes, not a string. Making a
 * 2.7 KB string for each callback allocated 3,086 bytes a call against the
 * HMAC's own 407, so the young generation filled seven times as fast (each
 * scavenge has a fixed cost), and the HMAC then encoded the string again.
 * Here the constant segments are written once and stay where they are;
 * each call overwrites the values in place and allocates nothing.
 *
 * In place: an ASCII value as long as the one before it is written over
 * it: up to SHORT_VALUE characters by a loop in JS (2.5-4 ns a character),
 * longer ones by one native utf8Write (about 90 ns a call). Any other value
 * is encoded in the scratch area past the output, the rest of the output is
 * moved by the difference, and the bytes are copied in.
 *
 * Nothing depends on earlier payloads: every value is written on every
 * call, so the bytes are always those of the canonical string for the
 * texts given. It is the caller's to check the texts of stable leaves (they
 * are part of the segments).
 */
import type { LeafText } from './layout-compiler.js';
import { SKIP } from './values.js';
import { isWellFormed } from './well-formed.js';

/**
 * Buffer#utf8Write(text, offset, length) is what Buffer#write calls for
 * UTF-8 once it has checked its arguments: present in every Node release,
 * though not documented. write() costs some 30 ns more per value, about
 * 0.03 of an HMAC on a callback. Where it is absent, sign() writes strings.
 */
type Utf8Buffer = Buffer & { utf8Write(text: string, offset: number, length?: number): number };
const HAS_UTF8_WRITE = typeof (Buffer.prototype as Partial<Utf8Buffer>).utf8Write === 'function';

/** Values up to this length are written by a loop in JS; longer ones by Buffer#write (one native call). */
const SHORT_VALUE = 24;
/**
 * `write` never writes part of a character, so a value of n characters
 * given room for n + 4 bytes writes exactly n bytes only when it is n
 * ASCII characters: anything longer would fill at least one more byte
 * (a character is at most 4 bytes). The 4 bytes after it are kept and put
 * back.
 */
const PROBE = 4;
/** Views kept (one per output length seen). */
const MAX_VIEWS = 64;

export class LayoutBytes {
  private readonly segments: readonly Buffer[];
  private readonly segmentTotal: number;
  /** False when a segment cannot be encoded (a lone surrogate): the string path says why. */
  private readonly usable: boolean;
  private buffer = Buffer.alloc(0) as Utf8Buffer;
  private data = new DataView(this.buffer.buffer);
  /** Start of the scratch area; the output never reaches it. */
  private scratch = 0;
  /** Bytes of output; -1 until a full write has laid the segments out. */
  private total = -1;
  private view: Buffer = this.buffer;
  private readonly views = new Map<number, Buffer>();
  /** Per volatile leaf: where its bytes start, and how many there are. */
  private readonly starts: number[] = [];
  private readonly lengths: number[] = [];

  /** `segments`: the constant text before the first volatile leaf, between each two, and after the last. */
  constructor(segments: readonly string[]) {
    this.usable = HAS_UTF8_WRITE && segments.every(isWellFormed);
    this.segments = segments.map((segment) => Buffer.from(segment, 'utf8'));
    this.segmentTotal = this.segments.reduce((sum, bytes) => sum + bytes.length, 0);
  }

  /**
   * The UTF-8 bytes of segment, texts[volatile[0]], segment, ...: a view of
   * the buffer, valid until the next call. Undefined when a text is SKIP or
   * cannot be encoded (the caller writes the string, which says why).
   */
  write(texts: readonly LeafText[], volatile: readonly number[]): Buffer | undefined {
    if (this.total < 0) return this.writeAll(texts, volatile);
    const { buffer, data, starts, lengths } = this;
    let total = this.total;
    for (let k = 0; k < volatile.length; k++) {
      const text = texts[volatile[k] as number] as LeafText;
      if (text === SKIP) return this.invalidate();
      const length = lengths[k] as number;
      if (text.length === length) {
        const at = starts[k] as number;
        if (length <= SHORT_VALUE) {
          let i = 0;
          for (; i < length; i++) {
            const code = text.charCodeAt(i);
            if (code > 0x7f) break;
            buffer[at + i] = code;
          }
          if (i === length) continue;
        } else {
          const after = data.getUint32(at + length);
          const written = buffer.utf8Write(text, at, length + PROBE);
          data.setUint32(at + length, after);
          if (written === length) continue;
        }
      }
      total = this.place(text, k, volatile, total);
      if (total < 0) return this.writeAll(texts, volatile);
    }
    if (total !== this.total) {
      this.total = total;
      this.view = this.viewOf(total);
    }
    return this.view;
  }

  /**
   * Writes volatile value k whatever its length and characters: encoded in
   * the scratch area, the output after it moved by the difference in length,
   * then copied in. The new total, or -1 when the buffer is too small or the
   * text cannot be encoded (the caller then lays everything out again).
   */
  private place(text: string, k: number, volatile: readonly number[], total: number): number {
    const { buffer, scratch, starts, lengths } = this;
    if (!isWellFormed(text) || scratch + 3 * text.length > buffer.length) return -1;
    const at = starts[k] as number;
    const length = lengths[k] as number;
    const size = buffer.utf8Write(text, scratch);
    const delta = size - length;
    if (delta !== 0) {
      if (total + delta + PROBE > scratch) return -1;
      buffer.copyWithin(at + size, at + length, total);
      total += delta;
      lengths[k] = size;
      for (let m = k + 1; m < volatile.length; m++) starts[m] = (starts[m] as number) + delta;
    }
    buffer.copyWithin(at, scratch, scratch + size);
    return total;
  }

  /** Lays out every segment and value afresh (first call, or a value outgrew the buffer). */
  private writeAll(texts: readonly LeafText[], volatile: readonly number[]): Buffer | undefined {
    if (!this.usable) return this.invalidate();
    let room = this.segmentTotal + PROBE;
    for (let k = 0; k < volatile.length; k++) {
      const text = texts[volatile[k] as number] as LeafText;
      if (text === SKIP || !isWellFormed(text)) return this.invalidate();
      room += 3 * text.length;
    }
    if (this.buffer.length < 2 * room) {
      // Twice the room: the output can grow into the first half, values are encoded apart in the second.
      this.buffer = Buffer.allocUnsafeSlow(4 * room) as Utf8Buffer;
      this.views.clear();
      this.data = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.length);
      this.scratch = 2 * room;
    }
    const { buffer, segments, starts, lengths } = this;
    let at = 0;
    for (let k = 0; k < volatile.length; k++) {
      const segment = segments[k] as Buffer;
      buffer.set(segment, at);
      at += segment.length;
      const size = buffer.utf8Write(texts[volatile[k] as number] as string, at);
      starts[k] = at;
      lengths[k] = size;
      at += size;
    }
    const last = segments[volatile.length] as Buffer;
    buffer.set(last, at);
    at += last.length;
    this.total = at;
    this.view = this.viewOf(at);
    return this.view;
  }

  /** The first `total` bytes of the buffer. Views are kept by length: lengths recur (amounts, dates), a new view each time is garbage. */
  private viewOf(total: number): Buffer {
    let view = this.views.get(total);
    if (view === undefined) {
      if (this.views.size === MAX_VIEWS) this.views.clear();
      view = this.buffer.subarray(0, total);
      this.views.set(total, view);
    }
    return view;
  }

  /** The buffer may hold part of a write: the next call lays everything out again. */
  private invalidate(): undefined {
    this.total = -1;
    return undefined;
  }
}

/**
 * Base64 over bytes (RFC 4648) in browsers and Node alike, without Buffer:
 * the codec of `@scure/base` (audited; README, "Dependency policy"). Encoding uses
 * the standard alphabet with padding; decoding accepts the standard and the
 * URL-safe alphabet and missing padding, and says what is wrong in words.
 */
import { base64 } from '@scure/base';

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const DECODE = new Map<string, number>();
for (let i = 0; i < 64; i++) {
  DECODE.set(STANDARD[i]!, i);
}
DECODE.set('-', 62);
DECODE.set('_', 63);

export function base64Encode(bytes: Uint8Array): string {
  return base64.encode(bytes);
}

export type Base64DecodeResult = { ok: true; bytes: Uint8Array } | { ok: false; message: string };

/** Decode standard or URL-safe base64, padding optional; says exactly what is wrong otherwise. */
export function base64Decode(text: string): Base64DecodeResult {
  let end = text.length;
  while (end > 0 && text[end - 1] === '=') {
    end--;
  }
  const padding = text.length - end;
  if (padding > 2) {
    return { ok: false, message: `it ends with ${padding} "=" characters; base64 has at most 2.` };
  }
  for (let i = 0; i < end; i++) {
    if (!DECODE.has(text[i]!)) {
      const ch = text[i]!;
      const shown = ch === ' ' ? 'a space' : ch === '=' ? '"=" (padding is only allowed at the end)' : `"${ch}"`;
      return { ok: false, message: `character ${i + 1} is ${shown}, which is not a base64 character.` };
    }
  }
  if (end % 4 === 1) {
    return { ok: false, message: `its length (${end} characters without padding) cannot be base64: one character too many or missing.` };
  }
  if (padding > 0 && (end + padding) % 4 !== 0) {
    return { ok: false, message: 'its "=" padding does not fit its length.' };
  }
  // The codec reads the standard alphabet, padded. It also refuses bits set past the last whole byte, which this
  // decoder has always ignored (RFC 4648, 3.5 leaves that to the decoder): they are cleared first.
  let standard = text.slice(0, end).replace(/-/g, '+').replace(/_/g, '/');
  const rest = end % 4;
  if (rest !== 0) {
    const last = DECODE.get(standard[end - 1]!)! & (rest === 2 ? 0x30 : 0x3c);
    standard = `${standard.slice(0, -1)}${STANDARD[last]!}${'='.repeat(4 - rest)}`;
  }
  return { ok: true, bytes: base64.decode(standard) };
}

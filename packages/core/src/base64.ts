/**
 * Base64 over bytes (RFC 4648), hand-written so the same code runs in browsers
 * and Node without Buffer. Encoding uses the standard alphabet with padding;
 * decoding accepts the standard and the URL-safe alphabet and missing padding.
 */
const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const DECODE = new Map<string, number>();
for (let i = 0; i < 64; i++) {
  DECODE.set(STANDARD[i]!, i);
}
DECODE.set('-', 62);
DECODE.set('_', 63);

export function base64Encode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i]!;
    const b1 = bytes[i + 1];
    const b2 = bytes[i + 2];
    out += STANDARD[b0 >> 2]!;
    out += STANDARD[((b0 & 3) << 4) | ((b1 ?? 0) >> 4)]!;
    out += b1 === undefined ? '=' : STANDARD[((b1 & 15) << 2) | ((b2 ?? 0) >> 6)]!;
    out += b2 === undefined ? '=' : STANDARD[b2 & 63]!;
  }
  return out;
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
  const bytes = new Uint8Array(Math.floor((end * 3) / 4));
  let acc = 0;
  let bits = 0;
  let j = 0;
  for (let i = 0; i < end; i++) {
    acc = (acc << 6) | DECODE.get(text[i]!)!;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[j++] = (acc >> bits) & 0xff;
    }
  }
  return { ok: true, bytes };
}

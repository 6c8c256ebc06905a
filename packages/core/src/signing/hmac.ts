import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA512 of the UTF-8 bytes of `text` keyed with the UTF-8 bytes of `secret`, as lower-case hex. */
export function hmacSha512Hex(text: string, secret: string): string {
  return createHmac('sha512', secret).update(text, 'utf8').digest('hex');
}

/**
 * Compares two hex strings in constant time (for equal lengths), ignoring
 * letter case. Different lengths return false at once: the length of a
 * SHA-512 signature is public anyway.
 */
export function timingSafeEqualHex(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || a.length !== b.length) {
    return false;
  }
  return timingSafeEqual(Buffer.from(a.toLowerCase(), 'utf8'), Buffer.from(b.toLowerCase(), 'utf8'));
}

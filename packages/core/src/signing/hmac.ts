import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HMAC-SHA512 of `message` (a string's UTF-8 bytes, or the bytes given)
 * keyed with the UTF-8 bytes of `secret`, as lower-case hex.
 */
export function hmacSha512Hex(message: string | Uint8Array, secret: string): string {
  const hmac = createHmac('sha512', secret);
  return (typeof message === 'string' ? hmac.update(message, 'utf8') : hmac.update(message)).digest('hex');
}

/**
 * Compares two hex strings in constant time (for equal lengths), ignoring
 * letter case. Different lengths return false at once: the length of a
 * SHA-512 signature is public anyway.
 */
export function timingSafeEqualHex(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a.toLowerCase(), 'utf8'), Buffer.from(b.toLowerCase(), 'utf8'));
}

/** Whether a string can be written as UTF-8: shared by the string and byte writers of the canonical string. */
const hasIsWellFormed = typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** False when `text` holds a lone UTF-16 surrogate (which UTF-8 cannot encode). */
export function isWellFormed(text: string): boolean {
  return hasIsWellFormed ? (text as unknown as { isWellFormed(): boolean }).isWellFormed() : !LONE_SURROGATE.test(text);
}

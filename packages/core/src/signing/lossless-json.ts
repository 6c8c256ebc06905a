/**
 * A JSON parser that keeps every number's text exactly as received.
 *
 * Why: the spec does not say how the service writes numbers in the strings it
 * signs. A body carrying `1.50` or `1e2` may have been signed as "1.50" (the
 * text on the wire) or as "1.5" / "100" (the value re-formatted). JSON.parse
 * loses the text, so verification parses with this instead and can try both.
 * Integers beyond 2^53−1 also survive here untouched.
 */

/** A JSON number as received: its exact text and its value as a JS number. */
export class LosslessNumber {
  /** The number exactly as written in the JSON text, e.g. "1.50", "1e2", "9007199254740993". */
  readonly text: string;

  constructor(text: string) {
    if (!isJsonNumberText(text)) {
      throw new TypeError(`not a JSON number: ${JSON.stringify(text)}`);
    }
    this.text = text;
  }

  /** The value as a JS number (may round, e.g. integers above 2^53−1). */
  get value(): number {
    return Number(this.text);
  }

  valueOf(): number {
    return this.value;
  }

  toString(): string {
    return this.text;
  }

  /** JSON.stringify cannot write raw number text on Node 20, so it writes the JS value. */
  toJSON(): number {
    return this.value;
  }
}

export type LosslessJsonValue = null | boolean | string | LosslessNumber | LosslessJsonValue[] | { [member: string]: LosslessJsonValue };

export type LosslessJsonObject = { [member: string]: LosslessJsonValue };

/** Thrown by parseJsonLossless; `position` is the UTF-16 offset in the text. */
export class JsonParseError extends SyntaxError {
  readonly position: number;

  constructor(message: string, position: number) {
    super(`${message} at position ${position}`);
    this.name = 'JsonParseError';
    this.position = position;
  }
}

const NUMBER_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

export function isJsonNumberText(text: string): boolean {
  return NUMBER_TEXT.test(text);
}

/** Deep enough for any real payload, shallow enough never to overflow the stack. */
const MAX_DEPTH = 256;

/**
 * Parses JSON text (RFC 8259, strict: no comments, no trailing commas, no BOM)
 * into plain objects, arrays, strings, booleans, null and LosslessNumber.
 * Duplicate member names keep the last value, as JSON.parse and PHP do.
 * Throws JsonParseError with the position of the first problem.
 */
export function parseJsonLossless(text: string): LosslessJsonValue {
  if (typeof text !== 'string') {
    throw new TypeError('parseJsonLossless expects a string');
  }
  const parser = new Parser(text);
  parser.skipWhitespace();
  const value = parser.parseValue(0);
  parser.skipWhitespace();
  if (parser.pos < text.length) {
    parser.fail('Unexpected data after the JSON value');
  }
  return value;
}

class Parser {
  pos = 0;

  constructor(private readonly text: string) {}

  fail(message: string, at: number = this.pos): never {
    throw new JsonParseError(message, at);
  }

  skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        pos++;
      } else {
        break;
      }
    }
    this.pos = pos;
  }

  parseValue(depth: number): LosslessJsonValue {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b /* { */:
        return this.parseObject(depth + 1);
      case 0x5b /* [ */:
        return this.parseArray(depth + 1);
      case 0x22 /* " */:
        return this.parseString();
      case 0x74 /* t */:
        return this.parseLiteral('true', true);
      case 0x66 /* f */:
        return this.parseLiteral('false', false);
      case 0x6e /* n */:
        return this.parseLiteral('null', null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
          return this.parseNumber();
        }
        if (Number.isNaN(c)) {
          this.fail('Unexpected end of JSON text');
        }
        this.fail(`Unexpected character ${JSON.stringify(this.text[this.pos])}`);
    }
  }

  private parseLiteral<T>(word: string, value: T): T {
    if (this.text.startsWith(word, this.pos)) {
      this.pos += word.length;
      return value;
    }
    this.fail(`Unexpected character ${JSON.stringify(this.text[this.pos])}`);
  }

  private parseNumber(): LosslessNumber {
    const text = this.text;
    const start = this.pos;
    let pos = start;
    if (text.charCodeAt(pos) === 0x2d) {
      pos++;
    }
    const firstDigit = text.charCodeAt(pos);
    if (firstDigit === 0x30) {
      pos++;
    } else if (firstDigit >= 0x31 && firstDigit <= 0x39) {
      pos = this.skipDigits(pos);
    } else {
      this.fail('Invalid number', pos);
    }
    if (text.charCodeAt(pos) === 0x2e /* . */) {
      const afterDot = this.skipDigits(pos + 1);
      if (afterDot === pos + 1) {
        this.fail('Invalid number: digits expected after "."', afterDot);
      }
      pos = afterDot;
    }
    const e = text.charCodeAt(pos);
    if (e === 0x65 || e === 0x45) {
      pos++;
      const sign = text.charCodeAt(pos);
      if (sign === 0x2b || sign === 0x2d) {
        pos++;
      }
      const afterExp = this.skipDigits(pos);
      if (afterExp === pos) {
        this.fail('Invalid number: digits expected in the exponent', afterExp);
      }
      pos = afterExp;
    }
    this.pos = pos;
    return new LosslessNumber(text.slice(start, pos));
  }

  private skipDigits(pos: number): number {
    const text = this.text;
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c < 0x30 || c > 0x39) {
        break;
      }
      pos++;
    }
    return pos;
  }

  parseString(): string {
    const text = this.text;
    const start = this.pos; // at the opening quote
    let pos = start + 1;
    let escaped = false;
    for (;;) {
      if (pos >= text.length) {
        this.fail('Unterminated string', start);
      }
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        break;
      }
      if (c < 0x20) {
        this.fail('Control character in string', pos);
      }
      if (c === 0x5c /* \ */) {
        escaped = true;
        pos += 2;
        continue;
      }
      pos++;
    }
    this.pos = pos + 1;
    if (!escaped) {
      return text.slice(start + 1, pos);
    }
    // JSON.parse decodes escapes exactly as the standard says and rejects bad ones.
    try {
      return JSON.parse(text.slice(start, pos + 1)) as string;
    } catch {
      return this.fail('Invalid escape sequence in string', start);
    }
  }

  private parseArray(depth: number): LosslessJsonValue[] {
    if (depth > MAX_DEPTH) {
      this.fail(`Nesting deeper than ${MAX_DEPTH} levels`);
    }
    this.pos++; // [
    const items: LosslessJsonValue[] = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d /* ] */) {
      this.pos++;
      return items;
    }
    for (;;) {
      this.skipWhitespace();
      items.push(this.parseValue(depth));
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c /* , */) {
        this.pos++;
      } else if (c === 0x5d) {
        this.pos++;
        return items;
      } else {
        this.fail('Expected "," or "]" in array');
      }
    }
  }

  private parseObject(depth: number): LosslessJsonObject {
    if (depth > MAX_DEPTH) {
      this.fail(`Nesting deeper than ${MAX_DEPTH} levels`);
    }
    this.pos++; // {
    const object: LosslessJsonObject = {};
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d /* } */) {
      this.pos++;
      return object;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x22) {
        this.fail('Expected a member name (a string)');
      }
      const name = this.parseString();
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x3a /* : */) {
        this.fail('Expected ":" after member name');
      }
      this.pos++;
      this.skipWhitespace();
      const value = this.parseValue(depth);
      defineMember(object, name, value);
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
      } else if (c === 0x7d) {
        this.pos++;
        return object;
      } else {
        this.fail('Expected "," or "}" in object');
      }
    }
  }
}

/**
 * The plain JSON value JSON.parse would have given for the same text: every
 * LosslessNumber becomes a JS number (integers beyond 2^53−1 round, exactly
 * as JSON.parse rounds them). For members whose exact value does not matter.
 */
export function losslessToPlain(value: LosslessJsonValue): unknown {
  if (value instanceof LosslessNumber) {
    return value.value;
  }
  if (Array.isArray(value)) {
    return value.map(losslessToPlain);
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(value)) {
      defineMember(out, name, losslessToPlain(value[name] as LosslessJsonValue));
    }
    return out;
  }
  return value;
}

/** Adds a member; a member named "__proto__" stays a member (as in JSON.parse) instead of replacing the prototype. */
export function defineMember(object: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') {
    Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
  } else {
    object[name] = value;
  }
}

/**
 * JSON text in which numbers keep their exact digits: a LosslessNumber is
 * written as its received text and a bigint as its decimal digits (JSON has
 * no integer limit; JSON.stringify refuses bigint and, on Node 20, cannot
 * write raw number text). Everything else is written as JSON.stringify writes
 * it (no indentation; toJSON is honoured; undefined, functions and symbols are
 * left out of objects and written as null in arrays), except that NaN and
 * Infinity are an error instead of a silent null. Used for signed bodies, so
 * the text on the wire carries exactly the digits that were signed.
 */
export function stringifyJsonLossless(value: unknown): string {
  const text = writeJson(value, '', new Set<object>(), 0);
  if (text === undefined) {
    throw new TypeError(`cannot write ${typeof value} as JSON`);
  }
  return text;
}

function writeJson(value: unknown, key: string, open: Set<object>, depth: number): string | undefined {
  if (value instanceof LosslessNumber) {
    return value.text;
  }
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
    if (value instanceof LosslessNumber) {
      return value.text;
    }
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    value = value.valueOf();
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) {
        throw new TypeError(`${String(value)} cannot be written as JSON (member "${key}")`);
      }
      return JSON.stringify(value);
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) {
        return 'null';
      }
      if (open.has(value)) {
        throw new TypeError(`cannot write a cyclic structure as JSON (member "${key}")`);
      }
      if (depth >= MAX_DEPTH) {
        throw new TypeError(`cannot write JSON nested deeper than ${MAX_DEPTH} levels`);
      }
      open.add(value);
      let text: string;
      if (Array.isArray(value)) {
        const items = value.map((item, i) => writeJson(item, String(i), open, depth + 1) ?? 'null');
        text = `[${items.join(',')}]`;
      } else {
        const members: string[] = [];
        for (const name of Object.keys(value)) {
          const item = writeJson((value as Record<string, unknown>)[name], name, open, depth + 1);
          if (item !== undefined) {
            members.push(`${JSON.stringify(name)}:${item}`);
          }
        }
        text = `{${members.join(',')}}`;
      }
      open.delete(value);
      return text;
    }
    default: // undefined, function, symbol
      return undefined;
  }
}

/**
 * The one shape every validator in the domain modules reports with, so callers
 * (plugins, sandbox, CLI) can show all problems at once, each naming the field
 * and the rule it broke.
 */
export interface Problem {
  /** Field name (dotted path for nested values, e.g. `callbacks.success`); '' for the whole input. */
  field: string;
  /** Machine-readable rule id, e.g. `required`, `fiat_currency`, `min`. */
  rule: string;
  /** Plain-English explanation for a human. */
  message: string;
}

/** Thrown by builders that refuse invalid input; carries every problem found. */
export class ValidationError extends Error {
  readonly problems: readonly Problem[];
  constructor(what: string, problems: readonly Problem[]) {
    super(`${what}: ${problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join('; ')}`);
    this.name = 'ValidationError';
    this.problems = problems;
  }
}

export function problem(field: string, rule: string, message: string): Problem {
  return { field, rule, message };
}

/** Prefix the field of every problem, e.g. to report widget settings nested under `params`. */
export function prefixProblems(prefix: string, problems: readonly Problem[]): Problem[] {
  return problems.map((p) => ({ ...p, field: p.field ? `${prefix}.${p.field}` : prefix }));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Absolute http(s) URL, checked the same way in browsers, Node and PHP:
 * starts with `http://` or `https://` (any case), contains no whitespace or
 * backslash, and parses (WHATWG URL) with a non-empty host.
 */
export function isHttpUrl(value: string): boolean {
  if (typeof value !== 'string' || !/^https?:\/\/[^\s\\]+$/i.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/**
 * E-mail address rule shared with PHP (the pattern is exported in the settings
 * schema): the WHATWG `input type=email` grammar, plus at least one dot in the
 * domain (as WordPress' is_email requires) and at most 254 characters.
 */
export const EMAIL_PATTERN =
  "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$";
const EMAIL_RE = new RegExp(EMAIL_PATTERN);

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL_RE.test(value);
}

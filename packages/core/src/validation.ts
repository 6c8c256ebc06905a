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
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false;
  }
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Absolute http(s) URL, checked the same way in browsers, Node and PHP:
 * starts with `http://` or `https://` (any case), contains no whitespace or
 * backslash, and parses (WHATWG URL) with a non-empty host.
 */
export function isHttpUrl(value: string): boolean {
  if (typeof value !== 'string' || !/^https?:\/\/[^\s\\]+$/i.test(value)) {
    return false;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

/**
 * Whether an http(s) address names this machine or a private network:
 * localhost (and *.localhost), IPv4 0/8, 10/8, 127/8, 169.254/16,
 * 172.16/12, 192.168/16, IPv6 ::, ::1, fc00::/7, fe80::/10 and IPv4-mapped
 * forms of those. The host is read from the text as typed (as PHP's
 * Http_Url::has_local_host does), not through WHATWG URL's normalisation, so
 * both sides judge the same characters.
 */
export function hasLocalHost(value: string): boolean {
  const authority = /^https?:\/\/([^/?#]*)/i.exec(value)?.[1];
  if (authority === undefined) {
    return false;
  }
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const host = (/^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)/.exec(hostPort)?.[1] ?? '').toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return true;
  }
  if (host.startsWith('[')) {
    const ip = host.slice(1, -1);
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
    if (mapped) {
      return isLocalIpv4(mapped[1]!);
    }
    return ip === '::' || ip === '::1' || /^f[cd][0-9a-f]{0,2}:/.test(ip) || /^fe[89ab][0-9a-f]?:/.test(ip);
  }
  return isLocalIpv4(host);
}

function isLocalIpv4(host: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host);
  if (!m) {
    return false;
  }
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
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

/**
 * The partners the sandbox knows: configured with --partners-file or
 * --partner (token, secret, optional callback URL; a file may also give the
 * partner's name), kept in SQLite with their block flag, and cached in
 * memory because every API request looks one up. The name is what the service
 * knows of a partner from onboarding, not something a request carries: the
 * pages show it to the buyer as whom they pay (docs/decisions.md, "Sandbox:
 * whom the buyer pays, and for what").
 */
import type { PartnerRecord, Store } from './store.js';

export interface PartnerConfig {
  token: string;
  secret: string;
  callbackUrl?: string | null;
  /** The partner's name as a buyer should read it (a store's name); shown on the landing page and in the widget. */
  name?: string | null;
}

/** Longest partner name accepted. */
export const PARTNER_NAME_MAX = 100;

export class PartnerRegistry {
  private readonly byToken = new Map<string, PartnerRecord>();
  private readonly names = new Map<string, string>();

  constructor(private readonly store: Store) {}

  /** Writes the configured partners (secret and callback URL replaced; the block flag kept) and loads all. */
  load(configured: readonly PartnerConfig[], now: number): void {
    this.store.transaction(() => {
      for (const p of configured) {
        this.store.upsertPartner({ token: p.token, secret: p.secret, callbackUrl: p.callbackUrl ?? null }, now);
      }
    });
    this.byToken.clear();
    this.names.clear();
    for (const p of configured) {
      if (p.name) {
        this.names.set(p.token, p.name);
      }
    }
    for (const p of this.store.listPartners()) {
      this.byToken.set(p.token, p);
    }
  }

  get(token: string): PartnerRecord | undefined {
    return this.byToken.get(token);
  }

  /** The configured name of the partner, or null when none was given. */
  name(token: string): string | null {
    return this.names.get(token) ?? null;
  }

  list(): PartnerRecord[] {
    return [...this.byToken.values()];
  }

  setBlocked(token: string, blocked: boolean): boolean {
    const partner = this.byToken.get(token);
    if (!partner) {
      return false;
    }
    this.store.setPartnerBlocked(token, blocked);
    partner.blocked = blocked;
    return true;
  }
}

/**
 * Parses TOKEN:SECRET[:CALLBACK_URL]. The token and secret cannot contain ':'
 * (the callback URL can: it is everything after the second colon).
 */
export function parsePartnerSpec(spec: string): PartnerConfig {
  const first = spec.indexOf(':');
  // The spec holds a secret: errors name the token at most, never echo the spec.
  if (first <= 0) {
    throw new TypeError('--partner must be TOKEN:SECRET[:CALLBACK_URL] (the value given has no token before a colon)');
  }
  const second = spec.indexOf(':', first + 1);
  const token = spec.slice(0, first);
  const secret = second < 0 ? spec.slice(first + 1) : spec.slice(first + 1, second);
  const callbackUrl = second < 0 ? null : spec.slice(second + 1);
  return checkPartner({ token, secret, callbackUrl }, '--partner');
}

/** Checks one partner's fields; `where` names the source in errors (never the secret). */
function checkPartner(partner: PartnerConfig, where: string): PartnerConfig {
  const { token, secret, callbackUrl, name } = partner;
  if (token === '') {
    throw new TypeError(`${where}: the token is empty`);
  }
  if (/\s/.test(token)) {
    throw new TypeError(`${where} ${JSON.stringify(token)}: the token must not contain spaces`);
  }
  if (secret === '') {
    throw new TypeError(`${where} ${token}: the secret is empty`);
  }
  if (callbackUrl !== null && callbackUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(callbackUrl);
    } catch {
      throw new TypeError(`${where} ${token}: the callback URL ${JSON.stringify(callbackUrl)} is not an absolute URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`${where} ${token}: the callback URL must be http(s)`);
    }
  }
  if (name !== null && name !== undefined) {
    // Control characters excluded: the name is shown on pages as one line.
    if (name.trim() === '' || name.length > PARTNER_NAME_MAX || /[\u0000-\u001f\u007f]/.test(name)) {
      throw new TypeError(`${where} ${token}: the name must be 1 to ${PARTNER_NAME_MAX} characters on one line`);
    }
  }
  return { token, secret, callbackUrl: callbackUrl ?? null, ...(name !== null && name !== undefined ? { name: name.trim() } : {}) };
}

/**
 * Parses the text of a partners file (--partners-file): a JSON array of
 * {"token", "secret", "callback_url"?, "name"?}. A file keeps secrets off the process's
 * command line, which any local user can read (ps, /proc/PID/cmdline) and
 * which launchers copy into their logs.
 */
export function parsePartnersFile(text: string, name: string): PartnerConfig[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new TypeError(`--partners-file ${name}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!Array.isArray(data)) {
    throw new TypeError(`--partners-file ${name}: expected a JSON array of {"token", "secret", "callback_url"?, "name"?}`);
  }
  return data.map((entry: unknown, i) => {
    const where = `--partners-file ${name} [${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new TypeError(`${where}: expected an object {"token", "secret", "callback_url"?, "name"?}`);
    }
    const record = entry as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (key !== 'token' && key !== 'secret' && key !== 'callback_url' && key !== 'name') {
        throw new TypeError(`${where}: unknown member "${key}" (expected token, secret, callback_url, name)`);
      }
    }
    for (const key of ['token', 'secret'] as const) {
      if (typeof record[key] !== 'string') {
        throw new TypeError(`${where}: "${key}" must be a string`);
      }
    }
    const callbackUrl = record.callback_url;
    if (callbackUrl !== undefined && callbackUrl !== null && typeof callbackUrl !== 'string') {
      throw new TypeError(`${where}: "callback_url" must be a string or null`);
    }
    const partnerName = record.name;
    if (partnerName !== undefined && partnerName !== null && typeof partnerName !== 'string') {
      throw new TypeError(`${where}: "name" must be a string or null`);
    }
    return checkPartner(
      {
        token: record.token as string,
        secret: record.secret as string,
        callbackUrl: (callbackUrl as string | null | undefined) ?? null,
        name: (partnerName as string | null | undefined) ?? null,
      },
      where,
    );
  });
}

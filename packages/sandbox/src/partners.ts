/**
 * The partners the sandbox knows: configured with --partner (token, secret,
 * optional callback URL), kept in SQLite with their block flag, and cached in
 * memory because every API request looks one up.
 */
import type { PartnerRecord, Store } from './store.js';

export interface PartnerConfig {
  token: string;
  secret: string;
  callbackUrl?: string | null;
}

export class PartnerRegistry {
  private readonly byToken = new Map<string, PartnerRecord>();

  constructor(private readonly store: Store) {}

  /** Writes the configured partners (secret and callback URL replaced; the block flag kept) and loads all. */
  load(configured: readonly PartnerConfig[], now: number): void {
    this.store.transaction(() => {
      for (const p of configured) this.store.upsertPartner({ token: p.token, secret: p.secret, callbackUrl: p.callbackUrl ?? null }, now);
    });
    this.byToken.clear();
    for (const p of this.store.listPartners()) this.byToken.set(p.token, p);
  }

  get(token: string): PartnerRecord | undefined {
    return this.byToken.get(token);
  }

  list(): PartnerRecord[] {
    return [...this.byToken.values()];
  }

  setBlocked(token: string, blocked: boolean): boolean {
    const partner = this.byToken.get(token);
    if (!partner) return false;
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
  if (first <= 0) throw new TypeError(`--partner must be TOKEN:SECRET[:CALLBACK_URL], got ${JSON.stringify(spec)}`);
  const second = spec.indexOf(':', first + 1);
  const token = spec.slice(0, first);
  const secret = second < 0 ? spec.slice(first + 1) : spec.slice(first + 1, second);
  const callbackUrl = second < 0 ? null : spec.slice(second + 1);
  if (secret === '') throw new TypeError(`--partner ${token}: the secret is empty`);
  if (/\s/.test(token)) throw new TypeError(`--partner ${JSON.stringify(token)}: the token must not contain spaces`);
  if (callbackUrl !== null) {
    let url: URL;
    try {
      url = new URL(callbackUrl);
    } catch {
      throw new TypeError(`--partner ${token}: the callback URL ${JSON.stringify(callbackUrl)} is not an absolute URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`--partner ${token}: the callback URL must be http(s)`);
  }
  return { token, secret, callbackUrl };
}

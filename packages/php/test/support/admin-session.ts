/**
 * A logged-in wp-admin session over plain HTTP (cookies kept by hand), to
 * load and submit settings pages the way a browser form does: with the
 * page's own nonce and field names.
 */
export class AdminSession {
  private cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01[- ]Jan[- ]1970/i.test(line) || value === 'deleted') {
        this.cookies.delete(name);
      } else {
        this.cookies.set(name, value);
      }
    }
  }

  /** The session's cookies as a Cookie header (for REST requests made beside the session). */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(path: string, init: { method?: string; form?: URLSearchParams } = {}): Promise<{ status: number; text: string; location: string | null }> {
    let url = `${this.baseUrl}${path}`;
    let method = init.method ?? (init.form ? 'POST' : 'GET');
    let body: string | undefined = init.form?.toString();
    for (let hop = 0; hop < 5; hop++) {
      const response = await fetch(url, {
        method,
        redirect: 'manual',
        headers: { cookie: this.cookieHeader(), ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        body,
      });
      this.remember(response);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url).href;
        method = 'GET';
        body = undefined;
        continue;
      }
      return { status: response.status, text: await response.text(), location };
    }
    throw new Error(`too many redirects from ${path}`);
  }

  async login(user = 'admin', password = 'password'): Promise<void> {
    await this.request('/wp-login.php');
    const form = new URLSearchParams({ log: user, pwd: password, 'wp-submit': 'Log In', redirect_to: `${this.baseUrl}/wp-admin/`, testcookie: '1' });
    this.cookies.set('wordpress_test_cookie', 'WP%20Cookie%20check');
    const result = await this.request('/wp-login.php', { form });
    if (![...this.cookies.keys()].some((k) => k.startsWith('wordpress_logged_in_'))) {
      throw new Error(`login failed (HTTP ${result.status}): ${result.text.slice(0, 300)}`);
    }
  }
}

/** An attribute's value, in double or single quotes. */
function attr(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}=(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return match ? (match[1] ?? match[2]) : undefined;
}

/** The value of an input/textarea/select of a form in an HTML page, by name. */
export function formFields(html: string, formSelector: RegExp = /<form[^>]*>([\s\S]*?)<\/form>/g): Map<string, string>[] {
  const forms: Map<string, string>[] = [];
  for (const match of html.matchAll(formSelector)) {
    const fields = new Map<string, string>();
    const inner = match[1] ?? '';
    for (const input of inner.matchAll(/<input\b[^>]*>/g)) {
      const tag = input[0];
      const name = attr(tag, 'name');
      if (!name || /\bdisabled\b/.test(tag)) {
        continue;
      }
      const type = attr(tag, 'type') ?? 'text';
      if ((type === 'checkbox' || type === 'radio') && !/\bchecked\b/.test(tag)) {
        continue;
      }
      if (type === 'submit' && fields.has(name)) {
        continue;
      }
      fields.set(decode(name), decode(attr(tag, 'value') ?? ''));
    }
    for (const area of inner.matchAll(/<textarea\b[^>]*\bname="([^"]*)"[^>]*>([\s\S]*?)<\/textarea>/g)) {
      if (/\bdisabled\b/.test(area[0].split('>')[0]!)) {
        continue;
      }
      fields.set(decode(area[1]!), decode(area[2]!));
    }
    for (const select of inner.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
      const name = attr(select[1]!, 'name');
      if (!name || /\bdisabled\b/.test(select[1]!)) {
        continue;
      }
      const selected = /<option\b[^>]*\bvalue="([^"]*)"[^>]*\bselected\b/.exec(select[2]!) ?? /<option\b[^>]*\bvalue="([^"]*)"/.exec(select[2]!);
      fields.set(decode(name), decode(selected?.[1] ?? ''));
    }
    forms.push(fields);
  }
  return forms;
}

export function decode(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}

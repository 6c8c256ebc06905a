/**
 * A wp-admin session over plain HTTP for the WordPress-level tests, cookies
 * kept by hand: log in, follow redirects, post forms, call the REST API as
 * the browser does (the cookie and WordPress's REST nonce).
 */
import assert from 'node:assert/strict';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** A wp-admin session over plain HTTP, cookies kept by hand. */
export class Session {
  readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async request(route: string, options: { form?: URLSearchParams; headers?: Record<string, string>; follow?: boolean } = {}): Promise<Answer> {
    let url = route.startsWith('http') ? route : `${this.base}${route}`;
    let body = options.form?.toString();
    for (let hop = 0; hop < 5; hop++) {
      const response = await fetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        redirect: 'manual',
        headers: {
          cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
          ...options.headers,
        },
        body,
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair!.indexOf('=');
        this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
      }
      const location = response.headers.get('location');
      if (options.follow !== false && response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url).href;
        body = undefined;
        continue;
      }
      return { status: response.status, headers: response.headers, text: await response.text() };
    }
    throw new Error(`too many redirects from ${route}`);
  }

  async login(user: string, password: string): Promise<void> {
    this.cookies.set('wordpress_test_cookie', 'WP%20Cookie%20check');
    await this.request('/wp-login.php', {
      form: new URLSearchParams({ log: user, pwd: password, 'wp-submit': 'Log In', redirect_to: `${this.base}/wp-admin/`, testcookie: '1' }),
    });
    assert.ok(this.loggedIn(), `${user} logged in`);
  }

  loggedIn(): string | undefined {
    return [...this.cookies].find(([k]) => k.startsWith('wordpress_logged_in_'))?.[1];
  }

  /** The REST API as this session's browser calls it: the cookie and WordPress's REST nonce. */
  async rest(route: string): Promise<Answer> {
    const nonce = await this.request('/wp-admin/admin-ajax.php?action=rest-nonce');
    assert.equal(nonce.status, 200, nonce.text);
    return this.request(`/wp-json/card2crypto/v1${route}`, { headers: { 'x-wp-nonce': nonce.text.trim() } });
  }
}

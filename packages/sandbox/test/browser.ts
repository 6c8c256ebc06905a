/** A real Chromium (playwright-core) and a partner web site that embeds the widget. */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSignedWidgetSettings, WIDGET_EVENT_NAMES, type UnsignedWidgetSettings } from '@card2crypto/core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PARTNER } from './helpers.js';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/**
 * CHROMIUM_PATH when set; else Playwright's own Chromium when installed; else
 * Debian's headless shell (what .ci/run installs), else Debian's full Chromium.
 */
function executable(): string | undefined {
  if (process.env.CHROMIUM_PATH) {
    return process.env.CHROMIUM_PATH;
  }
  try {
    const own = chromium.executablePath();
    if (own && existsSync(own)) {
      return own;
    }
  } catch {
    // not installed
  }
  return ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file));
}

export async function launchBrowser(): Promise<Browser> {
  const path = executable();
  return chromium.launch({ headless: true, args: FLAGS, ...(path ? { executablePath: path } : {}) });
}

/** A partner's site: pages registered by path, on its own origin. */
export class PartnerSite {
  private server: Server | undefined;
  private readonly routes = new Map<string, { type: string; body: string; status?: number }>();
  readonly requests: string[] = [];
  origin = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      this.requests.push(path);
      const route = this.routes.get(path);
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        return;
      }
      res.writeHead(route.status ?? 200, { 'content-type': route.type, 'cache-control': 'no-store' });
      res.end(route.body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  set(path: string, body: string, type = 'text/html; charset=utf-8'): string {
    this.routes.set(path, { type, body });
    return this.origin + path;
  }

  async stop(): Promise<void> {
    if (!this.server) {
      return;
    }
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

/** Every documented event handler: the test page records each call. */
export const HANDLERS = WIDGET_EVENT_NAMES;

/**
 * A partner page that runs the widget with `settings` (signed by the partner's
 * server, i.e. here, with core's builder) and records every event with its
 * argument in window.events.
 */
export function widgetPage(
  widgetScriptUrl: string,
  settings: Record<string, unknown>,
  options: { method?: string; extraScript?: string; container?: string } = {},
): string {
  const target = options.container ?? String(settings.target_element ?? 'widget');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Partner shop</title></head>
<body><h1>Partner shop</h1><div id="${target}" style="width:460px"></div>
<script src="${widgetScriptUrl}"></script>
<script>
window.events = [];
var settings = ${JSON.stringify(settings)};
${HANDLERS.map((h) => `settings.${h} = function (arg) { window.events.push({ name: '${h}', arg: arguments.length ? arg : '(none)' }); };`).join('\n')}
window.widget = Card2CryptoWidget.run(settings${options.method === undefined ? ", 'POST'" : options.method === '' ? '' : `, ${JSON.stringify(options.method)}`});
${options.extraScript ?? ''}
</script></body></html>`;
}

export function signedSettings(extra: Partial<UnsignedWidgetSettings> = {}, partner = PARTNER): Record<string, unknown> {
  return buildSignedWidgetSettings({ target_element: 'widget', partner_token: partner.token, ...extra } as UnsignedWidgetSettings, {
    secret: partner.secret,
  }) as unknown as Record<string, unknown>;
}

export interface RecordedEvent {
  name: string;
  arg: any;
}

export async function events(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate(() => (window as unknown as { events: RecordedEvent[] }).events.slice());
}

/** Waits until an event named `name` has been recorded (the `nth` one, 1-based) and returns it. */
export async function waitForEvent(page: Page, name: string, nth = 1, timeoutMs = 10_000): Promise<RecordedEvent> {
  await page.waitForFunction(
    ([n, k]) => (window as unknown as { events: RecordedEvent[] }).events.filter((e) => e.name === n).length >= (k as number),
    [name, nth] as const,
    { timeout: timeoutMs },
  );
  return (await events(page)).filter((e) => e.name === name)[nth - 1]!;
}

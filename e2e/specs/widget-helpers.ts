/**
 * Steps shared by the widget block specs: the running store written by the
 * harness (running.json in the booted site's state directory), admin login, the widget settings
 * page, the sandbox widget's purchase steps, and a watch that fails a test
 * when any response from the site carries the partner secret.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type FrameLocator, type Locator, type Page, type Response } from '@playwright/test';
import { E2E_SITE, runInfo } from '../run-info.ts';
import { fillLogin } from './login';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunningStore {
  storeUrl: string;
  admin: { username: string; password: string };
  sandbox: { url: string; dashboardUrl: string; urls: Record<string, string> } | null;
  partner: { token: string; callbackUrl: string };
  dirs: { harnessDir: string; siteDir: string };
}

/** The store the harness started, or null (e.g. WP_BASE_URL runs: no sandbox partner secret to test with). */
export function runningStore(): RunningStore | null {
  const { stateDir } = runInfo();
  const file = stateDir ? path.join(stateDir, 'running.json') : null;
  return file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunningStore) : null;
}

/** The widget plugin's zip: the one the e2e global setup built, else `npm run zip`'s. */
export function widgetZip(): string | null {
  return (
    [path.join(ROOT, '.card2crypto', `${E2E_SITE}-zips`, 'card2crypto-widget.zip'), path.join(ROOT, 'dist', 'card2crypto-widget.zip')].find((f) =>
      existsSync(f),
    ) ?? null
  );
}

/** The sandbox partner's secret (kept by the harness; only tests and the sandbox read it). */
export function partnerSecret(store: RunningStore): string {
  return (JSON.parse(readFileSync(path.join(store.dirs.harnessDir, 'partner.json'), 'utf8')) as { secret: string }).secret;
}

export const SETTINGS_PAGE = '/wp-admin/options-general.php?page=card2crypto-widget';
export const OPTION = 'card2crypto_widget_settings';
/** A mainnet address the sandbox accepts as the buyer's wallet. */
export const BUYER_WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

export async function loginAsAdmin(page: Page, store: RunningStore): Promise<void> {
  await page.goto(`${store.storeUrl}/wp-login.php`, { waitUntil: 'domcontentloaded' });
  await fillLogin(page, store.admin.username, store.admin.password);
  await Promise.all([page.waitForURL(/wp-admin/), page.locator('#wp-submit').click()]);
}

/** The settings page's input of a schema field. */
export const field = (page: Page, id: string): Locator => page.locator(`#${OPTION}-${id}`);

/** Types a colour into a field that wp-color-picker wraps (its text input shows once the picker is opened). */
export async function setColor(page: Page, id: string, value: string): Promise<void> {
  const input = field(page, id);
  const container = page.locator('.wp-picker-container', { has: input });
  await container.locator('button.wp-color-result').click();
  await input.fill(value);
  await container.locator('button.wp-color-result').click();
}

export async function saveSettings(page: Page): Promise<void> {
  await Promise.all([page.waitForURL(/page=card2crypto-widget/), page.locator('#submit, input[type=submit][name=submit]').first().click()]);
}

/** Records, from the moment it is called, every response of the site whose body contains the secret. */
export function watchForSecret(page: Page, store: RunningStore, secret: string): () => Promise<string[]> {
  const pending: Promise<string | null>[] = [];
  const check = async (response: Response): Promise<string | null> => {
    if (!response.url().startsWith(store.storeUrl)) {
      return null;
    }
    const headers = JSON.stringify(await response.allHeaders().catch(() => ({})));
    const body = await response.body().catch(() => Buffer.alloc(0));
    return headers.includes(secret) || body.includes(secret) ? response.url() : null;
  };
  // A body that never completes (an aborted or streaming response) cannot carry the secret to the page either.
  const bounded = (response: Response) => Promise.race([check(response), new Promise<null>((r) => setTimeout(() => r(null), 15_000))]);
  page.on('response', (response) => pending.push(bounded(response)));
  return async () => (await Promise.all(pending)).filter((url): url is string => url !== null);
}

/** The sandbox widget inside one block container. */
export function widgetFrame(container: Locator): FrameLocator {
  return container.frameLocator('iframe.card2crypto-widget-frame');
}

/** Buys in the sandbox widget with a test card, from its first step to the result. */
export async function buyInWidget(frame: FrameLocator, card: string): Promise<void> {
  await frame.locator('#continue:not([disabled])').click({ timeout: 120_000 });
  await frame.locator('#to_account').fill(BUYER_WALLET);
  await frame.locator('#email').fill('visitor@example.com');
  await frame.locator('#continue').click();
  await frame.locator(`button[data-card="${card}"]`).click({ timeout: 60_000 });
  await frame.locator('#continue').click();
  await frame.locator('#pay').click({ timeout: 60_000 });
}

/** Starts collecting the blocks' DOM events (card2crypto-widget) of the current page into window.c2cEvents. */
export async function collectWidgetEvents(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const events: { event: string; data: unknown; target: string }[] = [];
    (window as unknown as { c2cEvents: typeof events }).c2cEvents = events;
    addEventListener('card2crypto-widget', (e) => {
      const detail = (e as CustomEvent<{ event: string; data: unknown }>).detail;
      events.push({ event: detail.event, data: detail.data, target: (e.target as HTMLElement).id });
    });
  });
}

export async function widgetEvents(page: Page): Promise<{ event: string; data: unknown; target: string }[]> {
  return page.evaluate(() => (window as unknown as { c2cEvents: { event: string; data: unknown; target: string }[] }).c2cEvents);
}

export { expect };

/**
 * Blocks or unblocks the store's partner in the sandbox (its dashboard action, packages/sandbox/README.md), as the
 * service would: every signed request then answers 403 "Partner blocked".
 */
export async function blockPartner(store: { sandbox: { url: string } | null; partner: { token: string } }, blocked: boolean): Promise<void> {
  const response = await fetch(`${store.sandbox!.url}/dashboard/api/partners/${encodeURIComponent(store.partner.token)}/block`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-card2crypto-dashboard': '1' },
    body: JSON.stringify({ blocked }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

/**
 * Waits until the widget in `container` reports `event` (a block's DOM event), keeping the container in
 * view meanwhile: Chromium does not lay out a cross-origin frame out of view, and widgets above it that
 * start and grow (onLoaded/onResize) push it down again, as a visitor would scroll to it.
 */
export async function waitForWidgetEvent(page: Page, container: Locator, event: string, timeout = 180_000): Promise<void> {
  const target = await container.evaluate((el) => (el.matches('.c2c-widget__frame') ? el : el.querySelector('.c2c-widget__frame'))?.id ?? '');
  await expect
    .poll(
      async () => {
        await container.scrollIntoViewIfNeeded().catch(() => {});
        return (await widgetEvents(page)).filter((e) => e.target === target).map((e) => e.event);
      },
      { timeout, message: `${event} from widget ${target}` },
    )
    .toContain(event);
}

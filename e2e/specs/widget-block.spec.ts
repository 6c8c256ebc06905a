/**
 * The widget block end to end, as a site admin and a visitor would use it:
 * a real WordPress (Playground) with the plugin, the sandbox service and
 * Chromium. Serial: each step builds on the previous one's site state.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, type Page } from './fixtures';
import { canonicalString, hmacSha512Hex, parseLandingUrl, validateWidgetSettings } from '@card2crypto/core';
import {
  SETTINGS_PAGE,
  blockPartner,
  buyInWidget,
  collectWidgetEvents,
  expect,
  field,
  loginAsAdmin,
  partnerSecret,
  runningStore,
  saveSettings,
  setColor,
  watchForSecret,
  widgetEvents,
  widgetFrame,
  widgetZip,
} from './widget-helpers.js';

const found = runningStore();
test.skip(!found, 'SKIPPED: no store started by the e2e harness (.card2crypto/e2e/running.json): these specs need its sandbox partner.');
const store = found!;
const secret = found ? partnerSecret(found) : '';
// Unique per run, so a site that kept an earlier run's widgets still has exactly one of ours.
const HEADING = `Crypto from the widgets screen ${Date.now().toString(36)}`;
const SUCCESS_CARD = '4242424242424242';

test.describe.configure({ mode: 'serial' });
test.skip(!found?.sandbox, 'SKIPPED: the sandbox is not running in the test store.');

let leaks: () => Promise<string[]>;
test.beforeEach(({ page }) => {
  leaks = watchForSecret(page, store, secret);
});
test.afterEach(async () => {
  expect(await leaks(), 'responses of the site that contained the partner secret').toEqual([]);
});

test('the plugin zip is uploaded and activated', { tag: '@oldest' }, async ({ page }) => {
  await loginAsAdmin(page, store);
  await page.goto(`${store.storeUrl}/wp-admin/plugins.php`);
  const row = page.locator('tr[data-slug="card2crypto-widget"]');
  // The e2e "install" project uploads the zips first; on a site without the plugin this does it, as an admin would.
  if ((await row.count()) === 0) {
    const zip = widgetZip();
    expect(zip, 'the widget plugin zip (npm run zip, or the e2e global setup)').not.toBeNull();
    await page.goto(`${store.storeUrl}/wp-admin/plugin-install.php?tab=upload`);
    await page.locator('#pluginzip').setInputFiles(zip!);
    await page.locator('#install-plugin-submit').click();
    await expect(page.getByText('Plugin installed successfully.')).toBeVisible({ timeout: 300_000 });
    await page.getByRole('link', { name: 'Activate Plugin' }).click();
    await page.waitForURL(/plugins\.php/);
  } else if ((await row.locator('.activate a').count()) > 0) {
    await row.locator('.activate a').click();
    await page.waitForURL(/plugins\.php/);
  }
  await expect(page.locator('tr[data-slug="card2crypto-widget"].active')).toHaveCount(1);
});

test('the admin configures the settings page; the secret is never shown again', { tag: '@oldest' }, async ({ page }) => {
  await loginAsAdmin(page, store);
  await page.goto(`${store.storeUrl}${SETTINGS_PAGE}`);
  await field(page, 'title').fill('Buy bitcoin with a card');
  await field(page, 'partner_token').fill(store.partner.token);
  await field(page, 'partner_secret').fill(secret);
  await field(page, 'default_fiat_currency').selectOption('EUR');
  await field(page, 'default_amount').fill('50');
  await field(page, 'default_crypto_currency').selectOption('BTC');
  await field(page, 'environment').selectOption('sandbox');
  await field(page, 'base_url').fill(store.sandbox!.url);
  await field(page, 'widget_script_url').fill(`${store.sandbox!.url}/widget.js`);
  await field(page, 'landing_url').fill(`${store.sandbox!.url}/landing`);
  await saveSettings(page);
  await expect(field(page, 'default_amount')).toHaveValue('50.00');
  await expect(field(page, 'partner_secret')).toHaveValue('');
  // Eight colour pickers with the widget's defaults.
  await expect(page.locator('.wp-picker-container')).toHaveCount(8);
  await expect(field(page, 'color_primary_fill')).toHaveValue('#6a42e9');
  await expect(field(page, 'color_box_shadow')).toHaveValue('rgba(40, 51, 78, 0.3)');
  // The service accepts them: the status box above the form says so once asked.
  await checkConnection(page);
  await expect(page.locator('[data-card2crypto="widget-connection"]')).toContainText('Connected: the service accepted a signed request with these credentials');
});

/** Presses "Check the connection now" on the settings page. */
async function checkConnection(page: Page): Promise<void> {
  await Promise.all([
    page.waitForURL(/page=card2crypto-widget/),
    page.locator('[data-card2crypto="widget-connection"] button', { hasText: 'Check the connection now' }).click(),
  ]);
}

test('the admin places the block in the sidebar through the widgets screen', { tag: '@oldest' }, async ({ page }) => {
  test.setTimeout(900_000);
  await loginAsAdmin(page, store);
  // The editor may greet a first visit with its welcome guide, whenever its preferences arrive: close it when it shows.
  const guide = page.getByRole('dialog', { name: /Welcome to block Widgets/ });
  await page.addLocatorHandler(guide, async () => {
    await guide.getByRole('button', { name: 'Close' }).click();
  });
  await page.goto(`${store.storeUrl}/wp-admin/widgets.php`);
  await expect(page.locator('.edit-widgets-header')).toBeVisible({ timeout: 120_000 });
  await page
    .getByRole('button', { name: /Add block|Toggle block inserter|Block Inserter/ })
    .first()
    .click();
  await page.getByPlaceholder('Search').fill('Crypto purchase widget');
  await page.getByRole('option', { name: 'Crypto purchase widget' }).click();

  // The editor's live preview, without the service: the site's default amount and currency.
  const block = page.locator('.wp-block-card2crypto-widget.is-selected');
  await expect(block.locator('[data-testid="c2c-preview-amount"]')).toContainText('50.00 EUR');

  // The block's own settings, in the block inspector.
  const inspector = page.locator('.interface-complementary-area, .block-editor-block-inspector').first();
  if (!(await inspector.isVisible().catch(() => false))) {
    await page.getByRole('button', { name: 'Settings' }).first().click();
  }
  await page.getByLabel('Heading', { exact: true }).fill(HEADING);
  await page.getByLabel('Amount').fill('10');
  await expect(page.getByRole('alert').filter({ hasText: 'between 50.00 and 5000.00 EUR' })).toBeVisible();
  await page.getByLabel('Amount').fill('75');
  await page.getByLabel('Crypto currency').selectOption('ETH');
  await page.getByLabel('Crypto currency').selectOption('BTC');
  await expect(block.locator('[data-testid="c2c-preview-amount"]')).toContainText('75 EUR');
  await expect(block.locator('.c2c-widget__title')).toHaveText(HEADING);

  await page.getByRole('button', { name: 'Update' }).click();
  // Saving re-renders every widget through the REST API: minutes on WordPress in WebAssembly.
  await expect(page.locator('.components-snackbar').filter({ hasText: 'Widgets saved.' })).toBeVisible({ timeout: 600_000 });
});

test('a visitor buys with a sandbox test card and the page sees the success event', { tag: '@oldest' }, async ({ page }) => {
  test.setTimeout(600_000);
  await collectWidgetEvents(page);
  await page.goto(`${store.storeUrl}/`, { waitUntil: 'domcontentloaded' });
  const ours = page.locator('.c2c-widget', { has: page.getByRole('heading', { name: HEADING }) });
  await expect(ours).toHaveCount(1);
  // Every block on the page started, with one widget script for all of them.
  const blocks = page.locator('.c2c-widget__frame');
  // Several on one page: the sidebar block the harness seeds and the one placed above (widget-template.spec.ts has four, two of them equal).
  expect(await blocks.count()).toBeGreaterThanOrEqual(2);
  for (const frame of await blocks.all()) {
    await expect(frame.locator('iframe.card2crypto-widget-frame')).toHaveCount(1, { timeout: 120_000 });
  }
  await expect(page.locator(`script[src="${store.sandbox!.url}/widget.js"]`)).toHaveCount(1);

  // The visitor scrolls to it (Chromium does not lay out cross-origin frames out of view, so the widget starts there).
  await ours.scrollIntoViewIfNeeded();
  const frame = widgetFrame(ours);
  await expect(frame.locator('#from_amount')).toHaveValue(/^75(\.00)?$/, { timeout: 120_000 });
  await buyInWidget(frame, SUCCESS_CARD);
  await expect(frame.locator('#result.ok')).toBeVisible({ timeout: 180_000 });

  const target = await ours.locator('.c2c-widget__frame').getAttribute('id');
  await expect
    .poll(async () => (await widgetEvents(page)).filter((e) => e.target === target).map((e) => e.event), { timeout: 60_000 })
    .toEqual(expect.arrayContaining(['onLoaded', 'onOperationCreated', 'onPaymentSent', 'onOperationSuccess']));
  const success = (await widgetEvents(page)).find((e) => e.target === target && e.event === 'onOperationSuccess');
  expect(success!.data).toMatchObject({ status: 'success', operation_info: { from: { amount: 7500, currency: { code: 'EUR' } } } });
  // The container followed the widget's size.
  expect(await ours.locator('.c2c-widget__frame').evaluate((el) => parseInt((el as HTMLElement).style.height, 10))).toBeGreaterThan(150);
});

test("the service refuses the site: visitors see the block's short words, the site admin a notice with the reason", async ({ page, browser }) => {
  test.setTimeout(600_000);
  await loginAsAdmin(page, store);
  try {
    await blockPartner(store, true);
    await page.goto(`${store.storeUrl}${SETTINGS_PAGE}`);
    await checkConnection(page);
    const box = page.locator('[data-card2crypto="widget-connection"]');
    await expect(box).toContainText('Not connected: the service has blocked this partner; contact the service');
    await expect(box).toContainText('Visitors see "unavailable right now" instead of the widget.');
    // Every other admin screen tells the site admin, with the way to the settings.
    await page.goto(`${store.storeUrl}/wp-admin/index.php`);
    const notice = page.locator('.card2crypto-widget-connection');
    await expect(notice).toContainText("Card2Crypto Widget: visitors cannot use the purchase widget, because the service refuses this site's credentials");
    await expect(notice.getByRole('link', { name: 'Check the credentials in Settings → Card2Crypto Widget' })).toHaveAttribute(
      'href',
      /page=card2crypto-widget/,
    );

    // A visitor: the block's own words, never the service's.
    const visitor = await browser.newPage();
    await visitor.goto(`${store.storeUrl}/`, { waitUntil: 'domcontentloaded' });
    const error = visitor.locator('.c2c-widget__error').first();
    await expect(error).toHaveText('The purchase widget is unavailable right now. Please try again later.', { timeout: 120_000 });
    await expect(visitor.locator('body')).not.toContainText('Partner blocked');
    await visitor.close();
  } finally {
    await blockPartner(store, false);
  }
  // Accepted again: asked anew, the notice goes.
  await page.goto(`${store.storeUrl}${SETTINGS_PAGE}`);
  await checkConnection(page);
  await expect(page.locator('[data-card2crypto="widget-connection"]')).toContainText('Connected:');
  await page.goto(`${store.storeUrl}/wp-admin/index.php`);
  await expect(page.locator('.card2crypto-widget-connection')).toHaveCount(0);
});

test('colours from the settings page show in the widget; an invalid one refuses the save, what was typed is kept', async ({ page, request }) => {
  test.setTimeout(600_000);
  await loginAsAdmin(page, store);
  await page.goto(`${store.storeUrl}${SETTINGS_PAGE}`);
  await setColor(page, 'color_primary_fill', '#FF0000');
  await setColor(page, 'color_primary_text', 'not-a-colour');
  await saveSettings(page);
  await expect(page.locator('#card2crypto_widget_settings-color_primary_text-error')).toContainText('Main text colour');
  await expect(field(page, 'color_primary_fill')).toHaveValue(/^#ff0000$/i);
  await page.goto(`${store.storeUrl}${SETTINGS_PAGE}`);
  await expect(field(page, 'color_primary_fill')).toHaveValue('#6a42e9');
  // Corrected, it saves.
  await setColor(page, 'color_primary_fill', '#FF0000');
  await saveSettings(page);
  await expect(page.getByText('Settings saved.')).toBeVisible();
  await expect(field(page, 'color_primary_fill')).toHaveValue('#ff0000');
  await expect(field(page, 'color_primary_text')).toHaveValue('#28334e');

  await page.goto(`${store.storeUrl}/`, { waitUntil: 'domcontentloaded' });
  await page.locator('.c2c-widget').first().scrollIntoViewIfNeeded();
  const frame = widgetFrame(page.locator('.c2c-widget').first());
  await expect(frame.locator('.widgetColor')).toHaveCount(1, { timeout: 120_000 });
  await expect
    .poll(() => frame.locator('.widgetColor').evaluate((el) => getComputedStyle(el).getPropertyValue('--primaryFill').trim()), { timeout: 60_000 })
    .toBe('#ff0000');
  await expect.poll(() => frame.locator('#continue').evaluate((el) => getComputedStyle(el).backgroundColor), { timeout: 60_000 }).toBe('rgb(255, 0, 0)');

  // The stylesheet at its stable, versioned address.
  const css = await page.evaluate(() => [...document.querySelectorAll('iframe')].length);
  expect(css).toBeGreaterThan(0);
  const cssResponse = await request.get(`${store.storeUrl}/wp-json/card2crypto-widget/v1/partner.css`);
  expect(cssResponse.headers()['content-type']).toContain('text/css');
  expect(await cssResponse.text()).toBe('.widgetColor {\n  --primaryFill: #ff0000;\n}\n');

  // Back to the defaults for the next steps.
  await page.goto(`${store.storeUrl}${SETTINGS_PAGE}`);
  await setColor(page, 'color_primary_fill', '#6a42e9');
  await saveSettings(page);
  await expect(field(page, 'color_primary_fill')).toHaveValue('#6a42e9');
});

test('a cached page older than the timestamp window still starts the widget; stale signed settings would not', async ({ page, request }) => {
  test.setTimeout(600_000);
  // The page as a cache would keep it: it holds no signature and no timestamp.
  const cached = await (await request.get(`${store.storeUrl}/`)).text();
  expect(cached).toContain('data-c2c-ref=');
  expect(cached).not.toMatch(/"signature"|"timestamp"/);
  const ref = /data-c2c-ref="([0-9a-f]{64})"/.exec(cached)![1]!;
  const block = /data-c2c-block="([^"]*)"/
    .exec(cached)![1]!
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'");
  const target = /<div id="(c2c-widget-[0-9a-f]{12}-\d+)"/.exec(cached)![1]!;
  const early = await request.post(`${store.storeUrl}/wp-json/card2crypto-widget/v1/sign`, { data: { blocks: [{ block, ref, target }] } });
  expect(early.status()).toBe(200);
  const stale = ((await early.json()) as { results: { settings: Record<string, unknown> }[] }).results[0]!.settings;

  // Older than the window's 5 seconds behind (by a margin).
  await page.waitForTimeout(12_000);
  // Served from the cache, i.e. the stored copy, not WordPress: written into a document of the site's
  // origin (a response the test fulfils itself would count as a public page to Chromium, which then
  // refuses its requests to 127.0.0.1).
  await collectWidgetEvents(page);
  await page.goto(`${store.storeUrl}/wp-content/plugins/card2crypto-widget/build/view.css`);
  await page.setContent(cached, { waitUntil: 'domcontentloaded', timeout: 180_000 });
  await page.locator(`#${target}`).scrollIntoViewIfNeeded();
  const frame = widgetFrame(page.locator(`#${target}`).locator('..'));
  await expect(frame.locator('#continue:not([disabled])')).toBeVisible({ timeout: 120_000 });
  expect((await widgetEvents(page)).filter((e) => e.event === 'onError')).toEqual([]);

  // Control: the settings signed 12 s before the page was shown, run as they are in the same element, are refused.
  const message = await page.evaluate(
    ([settings, id]) =>
      new Promise<string>((resolve) => {
        const el = document.getElementById(id)!;
        el.replaceChildren();
        el.scrollIntoView();
        setTimeout(() => resolve('no answer from the widget within 90 s'), 90_000);
        (window as unknown as { Card2CryptoWidget: { run: (s: unknown, m: string) => void } }).Card2CryptoWidget.run(
          { ...(settings as object), onError: (e: { message: string }) => resolve(e.message), onStarted: () => resolve('started') },
          'POST',
        );
      }),
    [stale, target] as const,
  );
  expect(message).toMatch(/timestamp/i);
});

test('the buy button sends the visitor to the landing page with settings signed at click time', async ({ page, request }) => {
  test.setTimeout(600_000);
  await loginAsAdmin(page, store);
  // A post holding the button (the block's markup, as the editor saves it).
  const nonce = await page.evaluate(async () => (await fetch('/wp-admin/admin-ajax.php?action=rest-nonce')).text());
  const created = await page.evaluate(
    async ({ nonce: restNonce }) => {
      const response = await fetch('/wp-json/wp/v2/pages', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-WP-Nonce': restNonce },
        body: JSON.stringify({
          title: 'Buy with the landing page',
          status: 'publish',
          content: '<!-- wp:card2crypto/buy-button {"text":"Buy bitcoin now","amount":"60"} /-->',
        }),
      });
      return (await response.json()) as { link: string };
    },
    { nonce },
  );
  await page.context().clearCookies();
  await page.goto(created.link, { waitUntil: 'domcontentloaded' });
  const link = page.getByRole('link', { name: 'Buy bitcoin now' });
  const href = (await link.getAttribute('href'))!;
  expect(href).toContain('/card2crypto-widget/v1/go');
  expect(href).not.toContain('signature');

  const before = Date.now();
  const go = await request.get(href, { maxRedirects: 0 });
  expect(go.status()).toBe(302);
  const location = go.headers().location!;
  expect(location.startsWith(`${store.sandbox!.url}/landing/?i=`)).toBe(true);
  const parsed = parseLandingUrl(location, { validateParams: true });
  expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
  if (!parsed.ok) {
    return;
  }
  const { signature, ...unsigned } = parsed.payload.params;
  expect(unsigned).toMatchObject({ partner_token: store.partner.token, from_currency: 'EUR', from_amount: 6000, to_currency: 'BTC' });
  expect(Number(unsigned.timestamp)).toBeGreaterThanOrEqual(before - 1000);
  expect(signature).toBe(hmacSha512Hex(canonicalString(unsigned, { form: 'simple' }), secret));
  expect(validateWidgetSettings(parsed.payload.params)).toEqual([]);
  // Back to the page the button was on (no Referer here: the home page), with a return only this browser can show.
  for (const outcome of ['success', 'fail'] as const) {
    const back = new URL(parsed.payload.callbacks[outcome]);
    expect(`${back.origin}${back.pathname}`).toBe(`${store.storeUrl}/`);
    expect(back.searchParams.get('card2crypto')).toBe(outcome);
    expect(back.searchParams.get('c2c_ref')).toMatch(/^[0-9a-f]{16}$/);
    expect(back.searchParams.get('c2c_proof')).toMatch(/^[0-9a-f]{32}$/);
  }
  expect(go.headers()['set-cookie']).toMatch(/card2crypto_return=[A-Za-z0-9]{32};.*HttpOnly/i);

  // A click in the browser ends on the hosted landing page running the widget.
  await link.click();
  await page.waitForURL(`${store.sandbox!.url}/landing/**`, { timeout: 120_000 });
  await expect(page.frameLocator('iframe.card2crypto-widget-frame').locator('#continue')).toBeVisible({ timeout: 120_000 });
});

test('the signing route refuses forged blocks and element ids, never returns the secret, and rate-limits', async ({ request }) => {
  test.setTimeout(600_000);
  const html = await (await request.get(`${store.storeUrl}/`)).text();
  const ref = /data-c2c-ref="([0-9a-f]{64})"/.exec(html)![1]!;
  const block = /data-c2c-block="([^"]*)"/.exec(html)![1]!.replace(/&quot;/g, '"');
  const target = /<div id="(c2c-widget-[0-9a-f]{12}-\d+)"/.exec(html)![1]!;
  const sign = (blocks: Record<string, string>[]) => request.post(`${store.storeUrl}/wp-json/card2crypto-widget/v1/sign`, { data: { blocks } });
  type Answer = { script: string; results: { settings?: Record<string, unknown>; code?: string }[] };

  // One request for several blocks; each answered on its own.
  const ok = await sign([
    { block, ref, target },
    { block: '{"a":"4999","f":"EUR"}', ref, target },
    { block, ref, target: 'c2c-widget-000000000000-1' },
  ]);
  expect(ok.status()).toBe(200);
  expect(ok.headers()['cache-control']).toContain('no-store');
  const body = await ok.text();
  expect(body).not.toContain(secret);
  const answer = JSON.parse(body) as Answer;
  expect(answer.script).toBe(`${store.sandbox!.url}/widget.js`);
  expect(validateWidgetSettings(answer.results[0]!.settings)).toEqual([]);
  expect(answer.results[1]).toMatchObject({ code: 'card2crypto_unknown_block' });
  expect(answer.results[1]!.settings).toBeUndefined();
  expect(answer.results[2]).toMatchObject({ code: 'card2crypto_bad_target' });
  expect((await sign([])).status()).toBe(400);

  // The limit through its documented filter, lowered so a slow test site reaches it within one window.
  const muPlugins = path.join(store.dirs.siteDir, 'wp-content', 'mu-plugins');
  const filter = path.join(muPlugins, 'card2crypto-widget-e2e-rate-limit.php');
  mkdirSync(muPlugins, { recursive: true });
  writeFileSync(filter, "<?php add_filter( 'card2crypto_widget_rate_limit', static function () { return array( 'limit' => 3, 'window' => 60 ); } );\n");
  try {
    const statuses: number[] = [];
    let limited = null;
    for (let i = 0; i < 6 && !limited; i++) {
      const response = await sign([{ block, ref, target }]);
      statuses.push(response.status());
      if (response.status() === 429) {
        limited = response;
      }
    }
    expect(statuses.slice(-1), statuses.join(',')).toEqual([429]);
    expect(Number(limited!.headers()['retry-after'])).toBeGreaterThan(0);
    expect(((await limited!.json()) as { code: string }).code).toBe('card2crypto_too_many_requests');
  } finally {
    rmSync(filter, { force: true });
  }
});

/**
 * The purchase widget in a block theme's template, with several widgets on
 * one page: the admin switches to a block theme shipped with WordPress,
 * saves the "page" template with two widget blocks through the templates
 * REST endpoint (as the site editor saves it), and a page holding two more
 * (two equal ones among them). A visitor opening the page sees all four
 * start with the sandbox from one copy of the widget script. Afterwards the
 * template is reverted, the page deleted and the previous theme restored.
 */
import { test, type Page } from './fixtures';
import {
  collectWidgetEvents,
  expect,
  loginAsAdmin,
  partnerSecret,
  runningStore,
  waitForWidgetEvent,
  watchForSecret,
  widgetEvents,
  widgetFrame,
} from './widget-helpers.js';

const found = runningStore();
test.skip(!found, 'SKIPPED: no store started by the e2e harness (.card2crypto/<site>/running.json): these specs need its sandbox partner.');
test.skip(!found?.sandbox, 'SKIPPED: the sandbox is not running in the test store.');
const store = found!;
const secret = found ? partnerSecret(found) : '';
const RUN = Date.now().toString(36);
/** Block themes WordPress ships, newest first; the first one installed is used. */
const BLOCK_THEMES = ['twentytwentyfive', 'twentytwentyfour', 'twentytwentythree', 'twentytwentytwo'];

test.describe.configure({ mode: 'serial' });

let leaks: () => Promise<string[]>;
test.beforeEach(({ page }) => {
  leaks = watchForSecret(page, store, secret);
});
test.afterEach(async () => {
  expect(await leaks(), 'responses of the site that contained the partner secret').toEqual([]);
});

/** A REST call with the logged-in admin's cookie and nonce, from the page (as the editors make them). */
async function rest<T>(page: Page, method: string, route: string, body?: unknown): Promise<{ status: number; json: T }> {
  return page.evaluate(
    async (call) => {
      const nonce = await (await fetch('/wp-admin/admin-ajax.php?action=rest-nonce')).text();
      const response = await fetch(`/wp-json${call.route}`, {
        method: call.method,
        headers: { 'Content-Type': 'application/json', 'X-WP-Nonce': nonce },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
      });
      return { status: response.status, json: (await response.json().catch(() => null)) as T };
    },
    { method, route, body },
  );
}

interface Theme {
  stylesheet: string;
  is_block_theme: boolean;
}

async function activeTheme(page: Page): Promise<string> {
  const { json } = await rest<Theme[]>(page, 'GET', '/wp/v2/themes?status=active');
  return json[0]!.stylesheet;
}

/** Activates a theme from Appearance → Themes, as an admin would (its Activate link). */
async function activate(page: Page, slug: string): Promise<void> {
  if ((await activeTheme(page)) === slug) {
    return; // Already active (a retry after a run that could not put the site back): Appearance shows no Activate link for it.
  }
  await page.goto(`${store.storeUrl}/wp-admin/themes.php`);
  const link = page.locator(`.theme[data-slug="${slug}"] a.activate`);
  await expect(link).toHaveCount(1, { timeout: 120_000 });
  await page.goto(new URL((await link.getAttribute('href'))!, `${store.storeUrl}/wp-admin/`).href);
  await expect.poll(() => activeTheme(page), { timeout: 60_000 }).toBe(slug);
}

const block = (attributes: Record<string, string>) => `<!-- wp:card2crypto/widget ${JSON.stringify(attributes)} /-->`;
const IN_TEMPLATE = [block({ title: `Template widget A ${RUN}`, amount: '60' }), block({ title: `Template widget B ${RUN}`, cryptoCurrency: 'ETH' })];
const IN_PAGE = [block({ title: `Page widget ${RUN}`, amount: '90' }), block({ title: `Page widget ${RUN}`, amount: '90' })];

test('in a block theme, widgets in a template and in the page all start on one page', async ({ page }) => {
  test.setTimeout(1_200_000);
  await loginAsAdmin(page, store);
  const previous = await activeTheme(page);
  const { json: themes } = await rest<Theme[]>(page, 'GET', '/wp/v2/themes?per_page=100');
  const theme = BLOCK_THEMES.find((slug) => themes.some((t) => t.stylesheet === slug && t.is_block_theme));
  expect(theme, `a block theme shipped with WordPress (${themes.map((t) => t.stylesheet).join(', ')})`).toBeTruthy();

  let pageId = 0;
  let templateId = '';
  try {
    await activate(page, theme!);

    // The page template, saved with the widgets as the site editor saves a template.
    templateId = `${theme}//page`;
    const { status: got, json: template } = await rest<{ content: { raw: string } }>(page, 'GET', `/wp/v2/templates/${templateId}?context=edit`);
    expect(got).toBe(200);
    const footer = template.content.raw.lastIndexOf('<!-- wp:template-part {"slug":"footer"');
    const widgets = `${IN_TEMPLATE.join('\n')}\n`;
    const content = footer >= 0 ? template.content.raw.slice(0, footer) + widgets + template.content.raw.slice(footer) : template.content.raw + widgets;
    const saved = await rest<{ source: string }>(page, 'POST', `/wp/v2/templates/${templateId}`, { content });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect(saved.json.source).toBe('custom');

    const created = await rest<{ id: number; link: string }>(page, 'POST', '/wp/v2/pages', {
      title: `Several widgets ${RUN}`,
      status: 'publish',
      content: IN_PAGE.join('\n'),
    });
    expect(created.status).toBe(201);
    pageId = created.json.id;

    // A visitor.
    await page.context().clearCookies();
    await collectWidgetEvents(page);
    await page.goto(created.json.link, { waitUntil: 'domcontentloaded' });
    for (const title of [`Template widget A ${RUN}`, `Template widget B ${RUN}`]) {
      await expect(page.locator('.c2c-widget', { has: page.getByRole('heading', { name: title }) })).toHaveCount(1);
    }
    await expect(page.locator('.c2c-widget', { has: page.getByRole('heading', { name: `Page widget ${RUN}` }) })).toHaveCount(2);
    const frames = page.locator('.c2c-widget__frame');
    await expect(frames).toHaveCount(4);
    const ids = await frames.evaluateAll((els) => els.map((el) => el.id));
    expect(new Set(ids).size, 'every widget has its own element').toBe(4);

    for (const i of ids.keys()) {
      await waitForWidgetEvent(page, frames.nth(i), 'onLoaded');
    }
    // Each started with its own block's settings.
    const amounts = page.locator('.c2c-widget', { has: page.getByRole('heading', { name: `Template widget A ${RUN}` }) });
    await expect(widgetFrame(amounts).locator('#from_amount')).toHaveValue(/^60(\.00)?$/, { timeout: 120_000 });
    await expect(page.locator(`script[src="${store.sandbox!.url}/widget.js"]`)).toHaveCount(1);
    expect((await widgetEvents(page)).filter((e) => e.event === 'onError')).toEqual([]);
  } finally {
    // Put the site back as it was, whatever happened above.
    await loginAsAdmin(page, store);
    if (templateId) {
      const reverted = await rest(page, 'DELETE', `/wp/v2/templates/${templateId}?force=true`);
      expect([200, 404]).toContain(reverted.status);
    }
    if (pageId) {
      await rest(page, 'DELETE', `/wp/v2/pages/${pageId}?force=true`);
    }
    if ((await activeTheme(page)) !== previous) {
      await activate(page, previous);
    }
  }
});

test('back on the previous theme, the sidebar block still starts', async ({ page }) => {
  test.setTimeout(600_000);
  await collectWidgetEvents(page);
  await page.goto(`${store.storeUrl}/`, { waitUntil: 'domcontentloaded' });
  const frame = page.locator('.c2c-widget__frame').first();
  await expect(frame).toHaveCount(1);
  await waitForWidgetEvent(page, frame, 'onLoaded');
});

/** The landing page and the status page in a real browser. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildLandingUrl, type WidgetSettings } from '@card2crypto/core';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { launchBrowser, PartnerSite, signedSettings } from './browser.js';
import { startTestSandbox, until, type TestSandbox } from './helpers.js';

const WALLET = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

describe('landing page and status page', () => {
  let sandbox: TestSandbox;
  let site: PartnerSite;
  let browser: Browser;

  before(async () => {
    [sandbox, site, browser] = await Promise.all([startTestSandbox({ clockSpeed: 20, stepDelayMs: 2000 }), new PartnerSite().start(), launchBrowser()]);
    site.set('/thanks', '<!doctype html><title>Thanks</title><h1>Thank you</h1>');
    site.set('/sorry', '<!doctype html><title>Sorry</title><h1>Payment failed</h1>');
  });
  after(async () => {
    await browser?.close();
    await Promise.all([sandbox?.dispose(), site?.stop()]);
  });

  function landingUrl(extra: Record<string, unknown> = {}): string {
    const params = signedSettings({
      from_currency: 'EUR',
      from_amount: 10000,
      to_currency: 'BTC',
      to_account: WALLET,
      user_login: 'buyer@example.com',
      ...extra,
    });
    return buildLandingUrl(sandbox.urls.landing_url, {
      params: params as unknown as WidgetSettings,
      callbacks: { success: `${site.origin}/thanks`, fail: `${site.origin}/sorry` },
    });
  }

  async function buy(page: Page, card: string): Promise<void> {
    const frame: FrameLocator = page.frameLocator('iframe.card2crypto-widget-frame');
    await frame.locator('#continue:not([disabled])').click();
    await frame.locator('#continue').click(); // wallet and e-mail come prefilled
    await frame.locator(`button[data-card="${card}"]`).click();
    await frame.locator('#continue').click();
    await frame.locator('#pay').click();
  }

  it('sends the buyer to callbacks.success when the purchase succeeds', async () => {
    const page = await browser.newPage();
    try {
      const url = landingUrl({ partner_operation_id: 'landing-1' });
      assert.ok(url.startsWith(`${sandbox.urls.landing_url}/?i=`));
      await page.goto(url);
      await buy(page, '4242424242424242');
      await page.waitForURL(`${site.origin}/thanks`);
      const op = sandbox.context.store.findByPartnerOperationId('partner-one', 'landing-1')!;
      assert.equal(op.status, 'success');
    } finally {
      await page.close();
    }
  });

  it("as a buyer sees it: who is paid and the reference, no missing file, the state in words, the rate in the fiat's decimals, the browser's country", async () => {
    const context = await browser.newContext({ locale: 'fr-BE' });
    const page = await context.newPage();
    const missing: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 404) {
        missing.push(r.url());
      }
    });
    try {
      await page.goto(landingUrl({ partner_operation_id: 'wc-42-aabbccddeeff' }));
      // A partner without a name: the site's host; the checkout plugin's id: its order (buyer-view.test.ts has the rest).
      assert.equal(await page.locator('#landing-for').innerText(), `Payment to ${new URL(site.origin).host} · order 42`);
      const frame: FrameLocator = page.frameLocator('iframe.card2crypto-widget-frame');
      await frame.locator('#continue:not([disabled])').waitFor();
      const rate = await frame.locator('#rate').innerText();
      assert.match(rate, /^1 BTC ≈ \d{1,3}(,\d{3})*\.\d{2} EUR · /, rate);
      await frame.locator('#continue').click();
      assert.equal(await frame.locator('#country').inputValue(), 'BE', 'the browser says Belgium (fr-BE), not the first user of the euro');
      await frame.locator('#continue').click();
      await frame.locator('button[data-card="4242424242424242"]').click();
      await frame.locator('#continue').click();
      await frame.locator('#pay').click();
      await page.waitForURL(`${site.origin}/thanks`);
      assert.deepEqual(missing, [], 'nothing the page asked for was missing');
    } finally {
      await context.close();
    }
  });

  it('sends the buyer to callbacks.fail when the purchase fails', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(landingUrl());
      await buy(page, '4000010400000007');
      await page.waitForURL(`${site.origin}/sorry`);
    } finally {
      await page.close();
    }
  });

  it('starts with the required parameters only when opened without i', async () => {
    const page = await browser.newPage();
    try {
      const response = await page.goto(sandbox.urls.landing_url);
      assert.equal(response?.status(), 200);
      const frame = page.frameLocator('iframe.card2crypto-widget-frame');
      await frame.locator('#continue:not([disabled])').waitFor();
      assert.equal(await frame.locator('#from_currency').inputValue(), 'EUR');
      assert.equal(await frame.locator('#to_currency').inputValue(), 'BTC');
      assert.equal(await page.locator('#landing-error').isHidden(), true);
    } finally {
      await page.close();
    }
  });

  it('shows a readable error page for an i that cannot be read', async () => {
    const page = await browser.newPage();
    try {
      for (const i of ['%%%not-base64', Buffer.from('{"params":{}}').toString('base64'), Buffer.from('not json').toString('base64')]) {
        const response = await page.goto(`${sandbox.urls.landing_url}/?i=${i}`);
        assert.equal(response?.status(), 400);
        assert.match(await page.locator('h1').innerText(), /not valid/);
        assert.ok((await page.locator('.problems li').count()) >= 1);
      }
    } finally {
      await page.close();
    }
  });

  it('shows widget refusals (a stale link) on the page', async () => {
    const page = await browser.newPage();
    try {
      const { buildSignedWidgetSettings } = await import('@card2crypto/core');
      const stale = buildSignedWidgetSettings(
        { target_element: 'w', partner_token: 'partner-one' },
        { secret: 'secret-one-0123456789', now: () => Date.now() - 120_000 },
      );
      await page.goto(
        buildLandingUrl(sandbox.urls.landing_url, { params: stale, callbacks: { success: `${site.origin}/thanks`, fail: `${site.origin}/sorry` } }),
      );
      await page
        .locator('#landing-error')
        .filter({ hasText: /timestamp/ })
        .waitFor();
    } finally {
      await page.close();
    }
  });

  it('the status page shows the public status of an operation', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(landingUrl({ partner_operation_id: 'landing-status' }));
      await buy(page, '4242424242424242');
      await page.waitForURL(`${site.origin}/thanks`);
      const op = await until(() => {
        const found = sandbox.context.store.findByPartnerOperationId('partner-one', 'landing-status')!;
        return found.statusCode === 0 ? found : undefined;
      });
      const info = sandbox.context.operations.data(op).operation_info as { status_url: string };
      await page.goto(info.status_url);
      assert.equal(await page.locator('#status').getAttribute('data-status-code'), '0');
      assert.equal(await page.locator('#status').innerText(), 'Complete');
      assert.match((await page.locator('#tx-link').getAttribute('href')) ?? '', /^https:\/\/mempool\.space\/tx\/[0-9a-f]{64}$/);
      assert.ok(!(await page.content()).includes('buyer@example.com'), 'no e-mail on the public page');
      const missing = await page.goto(`${sandbox.urls.status_page_url}/no-such-operation`);
      assert.equal(missing?.status(), 404);
    } finally {
      await page.close();
    }
  });
});

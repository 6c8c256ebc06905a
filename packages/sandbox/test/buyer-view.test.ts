/**
 * The sandbox as a buyer sees it, in a real browser: whom they pay (the
 * partner's name, else the site's host) and for which order, states in words
 * (never a raw status or code), times in the buyer's own locale and time zone,
 * and the frame in the buyer's language when the payment page is offered in it,
 * else in English, declaring the language its words are in.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildLandingUrl, PAYMENT_PAGE_LANGUAGES, type WidgetSettings } from '@card2crypto/core';
import type { Browser, BrowserContext, FrameLocator } from 'playwright-core';
import { REASON_WORDS, STEP_WORDS } from '../src/buyer-words.js';
import { parsePartnersFile } from '../src/partners.js';
import { frameLanguage, frameWords, SANDBOX_LANGUAGES } from '../src/widget/frame-words.js';
import { launchBrowser, PartnerSite, signedSettings, widgetPage } from './browser.js';
import { callApi, OTHER, PARTNER, startTestSandbox, until, type TestSandbox } from './helpers.js';

const WALLET = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const STORE = 'Zur Rösterei & Co';
const LOCALE = 'de-DE';
const ZONE = 'Asia/Tokyo';

/** What the buyer's browser (de-DE, Tokyo) writes for `ms`. */
function local(ms: number, options: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(LOCALE, { ...options, timeZone: ZONE }).format(new Date(ms));
}

describe('partners file: the partner name', () => {
  it('takes an optional one-line name, trimmed, and refuses a long or multi-line one naming the partner', () => {
    const [named, unnamed] = parsePartnersFile(
      JSON.stringify([
        { token: 't1', secret: 's1', name: '  Kaffee & Co ' },
        { token: 't2', secret: 's2' },
      ]),
      'p.json',
    );
    assert.equal(named!.name, 'Kaffee & Co');
    assert.equal(unnamed!.name, undefined);
    for (const name of ['', ' ', 'a\nb', 'x'.repeat(101)]) {
      assert.throws(() => parsePartnersFile(JSON.stringify([{ token: 't1', secret: 's1', name }]), 'p.json'), /p\.json \[0\] t1: the name must be 1 to 100/);
    }
    assert.throws(() => parsePartnersFile(JSON.stringify([{ token: 't1', secret: 's1', name: 5 }]), 'p.json'), /"name" must be a string/);
    assert.throws(() => parsePartnersFile(JSON.stringify([{ token: 't1', secret: 's1', title: 'x' }]), 'p.json'), /unknown member "title"/);
  });
});

describe('frame words', () => {
  it('every language the payment page is offered in has a whole table; any other lang is English', () => {
    assert.deepEqual(
      SANDBOX_LANGUAGES,
      PAYMENT_PAGE_LANGUAGES.map((l) => l.code),
    );
    const en = frameWords('en');
    for (const lang of SANDBOX_LANGUAGES) {
      assert.equal(frameLanguage(lang), lang);
      const words = frameWords(lang);
      assert.deepEqual(Object.keys(words).sort(), Object.keys(en).sort(), lang);
      assert.deepEqual(
        words.steps.map(([code]) => code),
        STEP_WORDS.map(([code]) => code),
        lang,
      );
      assert.deepEqual(Object.keys(words.reasons), Object.keys(REASON_WORDS), lang);
      for (const [key, value] of Object.entries(words)) {
        if (typeof value === 'string') {
          assert.ok(value.length > 0, `${lang}.${key}`);
          // The same {name} parts as English, so the frame fills in every one.
          assert.deepEqual(value.match(/\{\w+\}/g), (en[key as keyof typeof en] as string).match(/\{\w+\}/g), `${lang}.${key}`);
        }
      }
      if (lang !== 'en') {
        assert.notEqual(words.buyCrypto, en.buyCrypto, lang);
      }
    }
    for (const other of ['ja', 'it', 'EN', '', undefined, 7]) {
      assert.equal(frameLanguage(other), 'en', String(other));
    }
  });
});

describe('the sandbox as a buyer sees it', () => {
  let sandbox: TestSandbox;
  let site: PartnerSite;
  let browser: Browser;
  let context: BrowserContext;

  before(async () => {
    [sandbox, site, browser] = await Promise.all([
      startTestSandbox({ clockSpeed: 20, stepDelayMs: 2000, partners: [{ ...PARTNER, name: STORE }, OTHER] }),
      new PartnerSite().start(),
      launchBrowser(),
    ]);
    site.set('/thanks', '<!doctype html><title>Thanks</title><h1>Thank you</h1>');
    site.set('/sorry', '<!doctype html><title>Sorry</title><h1>Payment failed</h1>');
    context = await browser.newContext({ locale: LOCALE, timezoneId: ZONE });
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await Promise.all([sandbox?.dispose(), site?.stop()]);
  });

  function landingUrl(extra: Record<string, unknown>, partner = PARTNER): string {
    const params = signedSettings(
      { from_currency: 'EUR', from_amount: 7900, to_currency: 'BTC', to_account: WALLET, user_login: 'buyer@example.com', ...extra },
      partner,
    );
    return buildLandingUrl(sandbox.urls.landing_url, {
      params: params as unknown as WidgetSettings,
      callbacks: { success: `${site.origin}/thanks`, fail: `${site.origin}/sorry` },
    });
  }

  async function toConfirm(frame: FrameLocator, card: string): Promise<void> {
    await frame.locator('#continue:not([disabled])').click();
    await frame.locator('#continue').click();
    await frame.locator(`button[data-card="${card}"]`).click();
    await frame.locator('#continue').click();
    await frame.locator('#pay').waitFor();
  }

  it("the landing page and the widget name the store and its order, not the host and the payment's id", async () => {
    const page = await context.newPage();
    try {
      await page.goto(landingUrl({ partner_operation_id: 'wc-42-0123456789abcdef01234567' }));
      assert.equal(await page.locator('#landing-for').innerText(), `Payment to ${STORE} · order 42`);
      const frame = page.frameLocator('iframe.card2crypto-widget-frame');
      await toConfirm(frame, '4242424242424242');
      const summary = await frame.locator('table.summary').innerText();
      assert.match(summary, new RegExp(`For\\s+${STORE} · order 42`));
      const all = (await page.locator('body').innerText()) + summary;
      assert.doesNotMatch(all, /wc-42-|127\.0\.0\.1/);
    } finally {
      await page.close();
    }
  });

  it("a partner without a name is the site's host; a reference of another form is shown as it is", async () => {
    const page = await context.newPage();
    try {
      await page.goto(landingUrl({ partner_operation_id: 'invoice-7' }, OTHER));
      assert.equal(await page.locator('#landing-for').innerText(), `Payment to ${new URL(site.origin).host} · reference invoice-7`);
    } finally {
      await page.close();
    }
  });

  it('a declined payment is told in words, without its code', async () => {
    const page = await context.newPage();
    try {
      site.set(
        '/embed',
        widgetPage(
          sandbox.urls.widget_script_url,
          signedSettings({ from_currency: 'EUR', from_amount: 7900, to_account: WALLET, user_login: 'buyer@example.com' }),
        ),
      );
      await page.goto(`${site.origin}/embed`);
      const frame = page.frameLocator('iframe');
      await toConfirm(frame, '4000010400000007');
      await frame.locator('#pay').click();
      await frame.locator('#result.fail').waitFor();
      assert.equal(await frame.locator('#result p').innerText(), 'The purchase did not go through: card verification failed.');
      assert.equal(await frame.locator('#status').innerText(), 'Status: not completed (card verification failed)');
      assert.doesNotMatch(await frame.locator('#app').innerText(), /\b10[1-6]\b|declined/);
    } finally {
      await page.close();
    }
  });

  it("the status page: the store and order, the state in words, times in the buyer's locale and time zone", async () => {
    const page = await context.newPage();
    try {
      await page.goto(landingUrl({ partner_operation_id: 'wc-43-0123456789abcdef01234567' }));
      const frame = page.frameLocator('iframe.card2crypto-widget-frame');
      await toConfirm(frame, '4242424242424242');
      await frame.locator('#pay').click();
      await page.waitForURL(`${site.origin}/thanks`);
      const op = await until(() => {
        const found = sandbox.context.store.findByPartnerOperationId(PARTNER.token, 'wc-43-0123456789abcdef01234567')!;
        return found.statusCode === 0 ? found : undefined;
      });
      const info = sandbox.context.operations.data(op).operation_info as { status_url: string };
      await page.goto(info.status_url);
      assert.equal(await page.locator('#payee').innerText(), `Payment to ${STORE} · order 43`);
      assert.equal(await page.locator('#status').innerText(), 'Complete');
      assert.equal(await page.locator('#status').getAttribute('data-status-code'), '0');
      const history = await page.locator('.history li').allInnerTexts();
      assert.ok(history.length >= 3, history.join('|'));
      for (const line of history) {
        assert.doesNotMatch(line, /success|pending|\(\d+\)|: \d|UTC|T\d\d:/, line);
      }
      const created = await page.locator('tr:has(th:text-is("Created")) time').innerText();
      assert.equal(created, local(op.createdAt, { dateStyle: 'medium', timeStyle: 'medium' }));
      assert.match(created, /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2}$/);
      assert.equal(await page.locator('tr:has(th:text-is("Paid")) time').innerText(), local(op.paidAt!, { dateStyle: 'medium', timeStyle: 'medium' }));
      const last = sandbox.context.store.history(op.id).at(-1)!;
      assert.equal(await page.locator('.history li').last().innerText(), `${local(last.at, { dateStyle: 'medium', timeStyle: 'medium' })} Complete`);
    } finally {
      await page.close();
    }
  });

  it("a fixed rate's end is written in the buyer's locale and time zone", async () => {
    const page = await context.newPage();
    try {
      const fixed = (await callApi(sandbox, '/api/partner/exchange/calculate', { from_currency: 'EUR', to_currency: 'BTC', from_amount: 7900 })).json() as {
        calculation_id: string;
        expired_at: string;
      };
      site.set(
        '/fixed',
        widgetPage(
          sandbox.urls.widget_script_url,
          signedSettings({ from_currency: 'EUR', to_currency: 'BTC', to_account: WALLET, calculation_id: fixed.calculation_id }),
        ),
      );
      await page.goto(`${site.origin}/fixed`);
      const until_ = await page.frameLocator('iframe').locator('#fixed-until').innerText();
      assert.equal(until_, local(Date.parse(fixed.expired_at), { timeStyle: 'medium' }));
    } finally {
      await page.close();
    }
  });

  it('the frame speaks each language the payment page is offered in; any other ISO 639-1 lang gets English, declared (issue 32, point 7)', async () => {
    const page = await context.newPage();
    try {
      for (const [lang, declared, heading, youPay, next, footer] of [
        ['de', 'de', 'Krypto kaufen', 'Sie zahlen', 'Weiter', 'Sandbox: Es wird keine echte Zahlung ausgeführt.'],
        ['es', 'es', 'Comprar criptomonedas', 'Pagas', 'Continuar', 'Sandbox: no se realiza ningún pago real.'],
        ['fr', 'fr', 'Acheter des cryptos', 'Vous payez', 'Continuer', 'Sandbox : aucun paiement réel n’est effectué.'],
        ['en', 'en', 'Buy crypto', 'You pay', 'Continue', 'Sandbox: no real payment is made.'],
        // Accepted (the spec takes every ISO 639-1 code), not offered: English, and the page says so.
        ['ja', 'en', 'Buy crypto', 'You pay', 'Continue', 'Sandbox: no real payment is made.'],
      ] as const) {
        site.set(`/lang-${lang}`, widgetPage(sandbox.urls.widget_script_url, signedSettings({ lang })));
        await page.goto(`${site.origin}/lang-${lang}`);
        const frame = page.frameLocator('iframe');
        await frame.locator('#continue:not([disabled])').waitFor();
        assert.equal(await frame.locator('html').getAttribute('lang'), declared, lang);
        assert.equal(await frame.locator('h1').innerText(), heading, lang);
        assert.equal(await frame.locator('label[for="from_amount"]').innerText(), youPay, lang);
        assert.equal(await frame.locator('#continue').innerText(), next, lang);
        assert.equal(await frame.locator('.foot').innerText(), footer, lang);
      }

      // A whole purchase in German, to a declined end: the summary, the Pay button, the reason, the way back.
      site.set(
        '/lang-de-buy',
        widgetPage(
          sandbox.urls.widget_script_url,
          signedSettings({ lang: 'de', from_currency: 'EUR', from_amount: 7900, to_currency: 'BTC', to_account: WALLET, user_login: 'buyer@example.com' }),
        ),
      );
      await page.goto(`${site.origin}/lang-de-buy`);
      const frame = page.frameLocator('iframe');
      await toConfirm(frame, '4000010400000007');
      assert.equal(await frame.locator('h1').innerText(), 'Bestätigen');
      assert.equal(await frame.locator('#pay').innerText(), '79.00 EUR bezahlen');
      const summary = await frame.locator('table.summary').innerText();
      for (const words of ['Sie zahlen', 'Sie erhalten', 'An Wallet', 'Karte', 'Vorgang']) {
        assert.ok(summary.includes(words), `${words} in ${summary}`);
      }
      await frame.locator('#pay').click();
      await frame.locator('#result').waitFor({ timeout: 30_000 });
      assert.equal(await frame.locator('h1').innerText(), 'Nicht abgeschlossen');
      assert.equal(await frame.locator('#result p').innerText(), 'Der Kauf ist nicht zustande gekommen: Kartenprüfung fehlgeschlagen.');
      assert.equal(await frame.locator('#status').innerText(), 'Status: nicht abgeschlossen (Kartenprüfung fehlgeschlagen)');
      assert.equal(await frame.locator('#again').innerText(), 'Erneut versuchen');
    } finally {
      await page.close();
    }
  });
});

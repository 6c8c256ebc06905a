/** The widget in a real browser: the flow, every event, errors, partner CSS, message checks. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PARTNER_API_PATHS } from '@card2crypto/core';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { events, launchBrowser, PartnerSite, signedSettings, waitForEvent, widgetPage } from './browser.js';
import { callApi, PARTNER, startTestSandbox, type TestSandbox } from './helpers.js';

const WALLET = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

describe('widget in a browser', () => {
  let sandbox: TestSandbox;
  let site: PartnerSite;
  let browser: Browser;
  let context: BrowserContext;

  before(async () => {
    [sandbox, site, browser] = await Promise.all([
      startTestSandbox({ clockSpeed: 20, stepDelayMs: 2000, rateLifetimeSeconds: 600 }),
      new PartnerSite().start(),
      launchBrowser(),
    ]);
  });
  after(async () => {
    await browser?.close();
    await Promise.all([sandbox?.dispose(), site?.stop()]);
  });

  async function open(
    settings: Record<string, unknown>,
    options: { method?: string; extraScript?: string; container?: string } = {},
  ): Promise<{ page: Page; frame: FrameLocator }> {
    context = await browser.newContext();
    const page = await context.newPage();
    const path = `/shop-${Math.random().toString(36).slice(2)}.html`;
    await page.goto(site.set(path, widgetPage(sandbox.urls.widget_script_url, settings, options)));
    return { page, frame: page.frameLocator('iframe.card2crypto-widget-frame') };
  }

  async function toCardStep(frame: FrameLocator, wallet = WALLET, email = 'buyer@example.com'): Promise<void> {
    await frame.locator('#continue:not([disabled])').click();
    await frame.locator('#to_account').fill(wallet);
    await frame.locator('#email').fill(email);
    await frame.locator('#continue').click();
    await frame.locator('#card_number').waitFor();
  }

  async function payWith(frame: FrameLocator, card: string): Promise<void> {
    await frame.locator(`button[data-card="${card}"]`).click();
    await frame.locator('#continue').click();
    await frame.locator('#pay').click();
  }

  it('runs a purchase and fires every event with its documented argument, in order', async () => {
    const { page, frame } = await open(signedSettings({ from_currency: 'EUR', from_amount: 10000, to_currency: 'BTC', partner_operation_id: 'order-77' }));
    try {
      const loaded = await waitForEvent(page, 'onLoaded');
      assert.equal(typeof loaded.arg.width, 'number');
      assert.equal(typeof loaded.arg.height, 'number');
      assert.ok(loaded.arg.width > 200 && loaded.arg.height > 100, JSON.stringify(loaded.arg));
      await waitForEvent(page, 'onStarted');
      assert.equal(await frame.locator('#from_amount').inputValue(), '100.00');
      await frame.locator('#to_amount').filter({ hasText: '0.00164492' }).waitFor();
      assert.doesNotMatch(await frame.locator('#app').innerText(), /null|undefined|NaN/);

      await toCardStep(frame);
      const created = await waitForEvent(page, 'onOperationCreated');
      assert.match(created.arg, /^[0-9a-f-]{36}$/);
      await payWith(frame, '4242424242424242');
      await waitForEvent(page, 'onPaymentSent');
      const success = await waitForEvent(page, 'onOperationSuccess');
      assert.equal(success.arg.status, 'success');
      // Fired once, when the status becomes success: 6, or 0 when the widget first sees it complete.
      assert.ok([6, 0].includes(success.arg.status_code));
      assert.equal(success.arg.operation_info.id, created.arg);
      assert.equal(success.arg.partner_info.operation_id, 'order-77');
      assert.equal(success.arg.operation_info.to.withdrawal_method_info.blockchain_address, WALLET);
      assert.match(success.arg.operation_info.to.withdrawal_method_info.blockchain_tx_id, /^[0-9a-f]{64}$/);
      await frame.locator('#result.ok').waitFor();
      // The state in words: no raw status codes for the buyer.
      assert.match(await frame.locator('#status').innerText(), /^Status: (Complete|Transaction created)$/);

      const all = await events(page);
      const names = all.map((e) => e.name).filter((n) => n !== 'onResize');
      const pending = all.filter((e) => e.name === 'onOperationPending');
      assert.ok(pending.length >= 1);
      for (const e of pending) {
        assert.equal(e.arg.status, 'pending');
      }
      const order = ['onLoaded', 'onStarted', 'onOperationCreated', 'onPaymentSent', 'onOperationPending', 'onOperationSuccess'];
      assert.deepEqual(
        names.filter((n, i) => order.includes(n) && names.indexOf(n) === i),
        order,
      );
      assert.ok(!names.includes('onError') && !names.includes('onOperationFail'), names.join(','));
      assert.equal(all.find((e) => e.name === 'onStarted')!.arg, '(none)');
      assert.equal(all.find((e) => e.name === 'onPaymentSent')!.arg, '(none)');
      // onResize carried real sizes and the iframe followed them.
      const resizes = all.filter((e) => e.name === 'onResize');
      assert.ok(resizes.length >= 1);
      for (const r of resizes) {
        assert.ok(r.arg.width > 0 && r.arg.height > 0);
      }
      const last = resizes.at(-1)!.arg;
      const iframeHeight = await page.locator('iframe').evaluate((el) => (el as HTMLIFrameElement).getBoundingClientRect().height);
      assert.ok(Math.abs(iframeHeight - last.height) <= 1, `iframe ${iframeHeight} vs ${last.height}`);

      // The operation the sandbox holds is the one the widget reported.
      const op = sandbox.context.operations.get(created.arg)!;
      assert.equal(op.partnerOperationId, 'order-77');
      assert.equal(op.email, 'buyer@example.com');
      assert.equal(op.fromAmount, '10000');

      // "Buy again" goes back to the start.
      await frame.locator('#again').click();
      await waitForEvent(page, 'onStarted', 2);
    } finally {
      await context.close();
    }
  });

  it('prefills to_account, user_login and to_amount, and asks for identity above the KYC threshold', async () => {
    const { page, frame } = await open(
      signedSettings({ from_currency: 'EUR', to_currency: 'BTC', to_amount: 5_000_000, to_account: WALLET, user_login: 'kyc@example.com' }),
    );
    try {
      await waitForEvent(page, 'onStarted');
      // 0.05 BTC at 65000 USD / 1.08 = about 3040 EUR: above the EUR 1000 threshold.
      await frame.locator('#to_amount').filter({ hasText: '0.05' }).waitFor();
      assert.match(await frame.locator('#from_amount').inputValue(), /^30\d\d\.\d\d$/);
      await frame.locator('#kyc-note').waitFor();
      await frame.locator('#continue:not([disabled])').click();
      assert.equal(await frame.locator('#to_account').inputValue(), WALLET);
      assert.equal(await frame.locator('#email').inputValue(), 'kyc@example.com');
      await frame.locator('#continue').click();
      await frame.locator('button[data-card="4242424242424242"]').click();
      await frame.locator('#continue').click();
      await frame.locator('#first_name').fill('Ada');
      await frame.locator('#last_name').fill('Lovelace');
      await frame.locator('#birth_date').fill('1990-12-10');
      await frame.locator('#document_number').fill('X1234567');
      await frame.locator('#continue').click();
      await frame.locator('#pay').click();
      const success = await waitForEvent(page, 'onOperationSuccess');
      assert.equal(success.arg.operation_info.to.amount, 5_000_000);
    } finally {
      await context.close();
    }
  });

  it('reports a declined payment through onOperationFail with operation_data', async () => {
    const { page, frame } = await open(signedSettings({ from_currency: 'EUR', from_amount: 10000, to_currency: 'BTC' }));
    try {
      await waitForEvent(page, 'onStarted');
      await toCardStep(frame);
      await payWith(frame, '4000010100000000');
      const fail = await waitForEvent(page, 'onOperationFail');
      assert.equal(fail.arg.status, 'declined');
      assert.equal(fail.arg.status_code, 101);
      await frame.locator('#result.fail').waitFor();
      assert.ok(!(await events(page)).some((e) => e.name === 'onOperationSuccess'));
    } finally {
      await context.close();
    }
  });

  it('refuses an invalid wallet or card in the form without stopping the process', async () => {
    const { page, frame } = await open(signedSettings({ from_currency: 'EUR', from_amount: 10000, to_currency: 'BTC' }));
    try {
      await waitForEvent(page, 'onStarted');
      await frame.locator('#continue:not([disabled])').click();
      await frame.locator('#to_account').fill('not-a-wallet');
      await frame.locator('#email').fill('buyer@example.com');
      await frame.locator('#continue').click();
      await frame
        .locator('[data-error-for="to_account"]')
        .filter({ hasText: /wallet address|Bitcoin/ })
        .waitFor();
      await frame.locator('#to_account').fill(WALLET);
      await frame.locator('#continue').click();
      await frame.locator('#card_number').fill('4242 4242 4242 4241');
      await frame.locator('#card_holder').fill('Test');
      await frame.locator('#expiry_month').fill('12');
      await frame.locator('#expiry_year').fill('39');
      await frame.locator('#cvc').fill('123');
      await frame.locator('#continue').click();
      await frame.locator('#pay').click();
      await frame.locator('[data-error-for="card_number"]').filter({ hasText: 'not valid' }).waitFor();
      assert.ok(!(await events(page)).some((e) => e.name === 'onError'));
    } finally {
      await context.close();
    }
  });

  it('partner confirmation: pending while awaiting confirm, success once the partner confirms', async () => {
    const { page, frame } = await open(signedSettings({ from_currency: 'EUR', from_amount: 10000, to_currency: 'BTC' }));
    try {
      await waitForEvent(page, 'onStarted');
      await toCardStep(frame);
      const id = (await waitForEvent(page, 'onOperationCreated')).arg as string;
      await payWith(frame, '4000000800000004');
      await page.waitForFunction(() => (window as any).events.some((e: any) => e.name === 'onOperationPending' && e.arg.status_code === 8));
      assert.equal((await callApi(sandbox, PARTNER_API_PATHS.confirm, { operation_id: id })).status, 200);
      const success = await waitForEvent(page, 'onOperationSuccess');
      assert.equal(success.arg.status, 'success');
      assert.equal((await events(page)).filter((e) => e.name === 'onOperationSuccess').length, 1);
    } finally {
      await context.close();
    }
  });

  it('buys at a fixed rate (calculation_id); paying after it expired ends in 105', async () => {
    const reply = await callApi(sandbox, PARTNER_API_PATHS.calculate, { from_currency: 'EUR', to_currency: 'ETH', from_amount: 25000 });
    const calc = reply.json();
    const { page, frame } = await open(signedSettings({ calculation_id: calc.calculation_id }));
    try {
      await waitForEvent(page, 'onStarted');
      assert.equal(await frame.locator('#from_amount').inputValue(), '250.00');
      assert.equal(await frame.locator('#from_amount').isDisabled(), true);
      assert.equal(await frame.locator('#to_currency').inputValue(), 'ETH');
      await frame.locator('#fixed-until').waitFor();
      await frame.locator('#continue:not([disabled])').click();
      await frame.locator('#to_account').fill('0x52908400098527886E0F7030069857D2E4169EE7');
      await frame.locator('#email').fill('buyer@example.com');
      await frame.locator('#continue').click();
      const id = (await waitForEvent(page, 'onOperationCreated')).arg as string;
      const op = sandbox.context.operations.get(id)!;
      assert.equal(op.calculationId, calc.calculation_id);
      assert.equal(op.toAmount, String(calc.to_amount));
      // Expire the fixed rate, then pay.
      sandbox.context.store.db.prepare('UPDATE calculations SET expires_at = ? WHERE id = ?').run(Date.now() - 1, calc.calculation_id);
      await payWith(frame, '4242424242424242');
      const fail = await waitForEvent(page, 'onOperationFail');
      assert.equal(fail.arg.status_code, 105);
    } finally {
      await context.close();
    }
  });

  describe('onError', () => {
    const cases: Array<[string, () => Record<string, unknown>, RegExp]> = [
      ['a wrong signature', () => ({ ...signedSettings({ from_currency: 'EUR' }), from_currency: 'USD' }), /Wrong signature/],
      ['a timestamp outside the window', () => signedSettings({}, PARTNER), /timestamp/],
      ['an unknown partner', () => signedSettings({}, { token: 'nobody', secret: 'x' }), /Partner not found/],
      ['invalid settings', () => ({ ...signedSettings({}), from_amount: 100 }), /Invalid widget settings: .*from_amount/],
      ['an unknown calculation_id', () => signedSettings({ calculation_id: 'no-such-rate' }), /calculation_id/],
    ];
    for (const [name, make, message] of cases) {
      it(`stops with onError for ${name}`, async () => {
        let settings = make();
        if (name.startsWith('a timestamp')) {
          const { buildSignedWidgetSettings } = await import('@card2crypto/core');
          settings = buildSignedWidgetSettings(
            { target_element: 'widget', partner_token: PARTNER.token },
            { secret: PARTNER.secret, now: () => Date.now() - 60_000 },
          ) as any;
        }
        const { page, frame } = await open(settings);
        try {
          const error = await waitForEvent(page, 'onError');
          assert.match(error.arg.message, message);
          await frame.locator('.error-message').waitFor();
          assert.ok(!(await events(page)).some((e) => e.name === 'onStarted'));
        } finally {
          await context.close();
        }
      });
    }

    it('for a blocked partner', async () => {
      sandbox.context.partners.setBlocked(PARTNER.token, true);
      try {
        const { page } = await open(signedSettings());
        try {
          assert.match((await waitForEvent(page, 'onError')).arg.message, /blocked/);
        } finally {
          await context.close();
        }
      } finally {
        sandbox.context.partners.setBlocked(PARTNER.token, false);
      }
    });

    it('for a missing target element and an unsupported method, from the script itself', async () => {
      const missing = await open(signedSettings({ target_element: 'nowhere' }), { container: 'widget' });
      try {
        assert.match((await waitForEvent(missing.page, 'onError')).arg.message, /target_element "nowhere"/);
        assert.equal(await missing.page.locator('iframe').count(), 0);
      } finally {
        await context.close();
      }
      const get = await open(signedSettings(), { method: 'GET' });
      try {
        assert.match((await waitForEvent(get.page, 'onError')).arg.message, /Unsupported method/);
      } finally {
        await context.close();
      }
      const absent = await open(signedSettings(), { method: '' });
      try {
        await waitForEvent(absent.page, 'onStarted');
      } finally {
        await context.close();
      }
    });
  });

  it('onExit: the close button ends an unpaid operation (102, onOperationFail) and removes the widget', async () => {
    const { page, frame } = await open(signedSettings({ from_currency: 'EUR', from_amount: 10000, to_currency: 'BTC' }));
    try {
      await waitForEvent(page, 'onStarted');
      await toCardStep(frame);
      const id = (await waitForEvent(page, 'onOperationCreated')).arg as string;
      await frame.locator('button.close').click();
      await waitForEvent(page, 'onExit');
      const fail = (await events(page)).find((e) => e.name === 'onOperationFail');
      assert.equal(fail?.arg.status_code, 102);
      assert.equal(sandbox.context.operations.get(id)!.statusCode, 102);
      assert.equal(await page.locator('iframe').count(), 0);
      assert.equal((await events(page)).find((e) => e.name === 'onExit')!.arg, '(none)');
    } finally {
      await context.close();
    }
  });

  it('going back from the card step abandons the operation (102)', async () => {
    const { page, frame } = await open(signedSettings({ from_currency: 'EUR', from_amount: 10000, to_currency: 'BTC' }));
    try {
      await waitForEvent(page, 'onStarted');
      await toCardStep(frame);
      const id = (await waitForEvent(page, 'onOperationCreated')).arg as string;
      await frame.locator('button.back').click();
      const fail = await waitForEvent(page, 'onOperationFail');
      assert.equal(fail.arg.operation_info.id, id);
      assert.equal(fail.arg.status_code, 102);
      await frame.locator('#to_account').waitFor();
    } finally {
      await context.close();
    }
  });

  it('messages are checked: forged ones from the page, or with another instance, are ignored', async () => {
    const { page, frame } = await open(signedSettings());
    try {
      await waitForEvent(page, 'onStarted');
      // The page itself pretends to be the frame.
      await page.evaluate(() => {
        const w = (window as any).widget;
        window.postMessage({ protocol: 'card2crypto-widget', instance: w.instance, event: 'operationSuccess', data: { forged: true } }, '*');
      });
      // A close command to the frame with the wrong instance is ignored, with the right one obeyed.
      const sandboxOrigin = new URL(sandbox.urls.base_url).origin;
      await page.evaluate((origin) => {
        const iframe = document.querySelector('iframe') as HTMLIFrameElement;
        iframe.contentWindow!.postMessage({ protocol: 'card2crypto-widget', instance: 'someone-else', command: 'close' }, origin);
      }, sandboxOrigin);
      await page.waitForTimeout(300);
      assert.ok(!(await events(page)).some((e) => e.name === 'onOperationSuccess' || e.name === 'onExit'));
      await frame.locator('#continue').waitFor();
      await page.evaluate(() => (window as any).widget.close());
      await waitForEvent(page, 'onExit');
    } finally {
      await context.close();
    }
  });

  describe('partner CSS', () => {
    const background = (frame: FrameLocator) => frame.locator('#continue:not([disabled])').evaluate((el) => getComputedStyle(el).backgroundColor);
    const border = (frame: FrameLocator) => frame.locator('#from_amount').evaluate((el) => getComputedStyle(el).borderTopColor);

    it('applies the .widgetColor custom properties of partner_css, defaults for the rest', async () => {
      const css = site.set('/theme.css', '.widgetColor {\n  --primaryFill: #ff0000;\n  --backgroundColor: rgb(0, 0, 40);\n}\n', 'text/css');
      const { page, frame } = await open(signedSettings({ partner_css: css }));
      try {
        await waitForEvent(page, 'onStarted');
        assert.equal(await background(frame), 'rgb(255, 0, 0)');
        assert.equal(await frame.locator('#app').evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(0, 0, 40)');
        assert.equal(await border(frame), 'rgb(230, 230, 235)'); // --formStrokeColor default #e6e6eb
      } finally {
        await context.close();
      }
    });

    it('uses every default when partner_css is absent or unreachable', async () => {
      for (const extra of [{}, { partner_css: 'http://127.0.0.1:9/missing.css' }, { partner_css: `${site.origin}/no-such.css` }]) {
        const { page, frame } = await open(signedSettings(extra));
        try {
          await waitForEvent(page, 'onStarted');
          assert.equal(await background(frame), 'rgb(106, 66, 233)'); // #6a42e9
          assert.equal(await border(frame), 'rgb(230, 230, 235)');
        } finally {
          await context.close();
        }
      }
    });
  });
});

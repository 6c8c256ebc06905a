/**
 * The settings round trip of both plugins in a real browser against the
 * e2e store: save, reload, invalid values refused with an error naming the
 * field (a refused save, of either plugin, writes nothing, keeps what was
 * typed and shows each error next to its field; new credentials the
 * service refuses are refused too), secrets write-only (never sent
 * back to the browser, kept when the field is left empty).
 *
 * The pages are generated from core's settings schema by the shared PHP
 * library (packages/php). Every change is undone at the end, so the specs
 * that run after this one find the store as seeded.
 */
import { expect, test, type Page } from './fixtures';
import { collectJsErrors, phpProblemsIn } from '../checks.ts';
import { WOOCOMMERCE_MISSING, runInfo } from '../run-info.ts';
import { partnerSecret, runningStore, setColor, watchForSecret } from './widget-helpers.ts';

const info = runInfo();
test.use({ baseURL: info.storeUrl, storageState: info.adminStatePath || undefined });

const WIDGET_PAGE = '/wp-admin/options-general.php?page=card2crypto-widget';
const CHECKOUT_PAGE = '/wp-admin/admin.php?page=wc-settings&tab=checkout&section=card2crypto';
const widgetField = (page: Page, id: string) => page.locator(`#card2crypto_widget_settings-${id}`);
const checkoutField = (page: Page, id: string) => page.locator(`#woocommerce_card2crypto_${id}`);

async function saveWidget(page: Page): Promise<void> {
  await Promise.all([page.waitForURL(/page=card2crypto-widget.*settings-updated/), page.locator('#submit').click()]);
}

async function saveCheckout(page: Page): Promise<void> {
  // Wait for the form's navigation itself (to its DOM, not every image's load event), which can
  // outlast a click's own wait on a busy WebAssembly WordPress.
  const saved = page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: 300_000 });
  await page.locator('#mainform button[name="save"], #mainform [name="save"]').first().click({ noWaitAfter: true });
  await saved;
}

test.describe('widget settings page (Settings → Card2Crypto Widget)', () => {
  test('save, reload, refuse invalid values by name, keep the secret write-only', async ({ page }) => {
    const store = runningStore();
    const seededSecret = partnerSecret(store);
    const rotated = `e2e-rotated-${Date.now()}`;
    const leaks = [watchForSecret(page, store, seededSecret), watchForSecret(page, store, rotated)];
    const jsErrors = collectJsErrors(page, info.storeUrl);

    await page.goto(WIDGET_PAGE);
    const before = {
      title: await widgetField(page, 'title').inputValue(),
      amount: await widgetField(page, 'default_amount').inputValue(),
      currency: await widgetField(page, 'default_fiat_currency').inputValue(),
    };
    try {
      // The secret field is empty even though a secret is saved.
      await expect(widgetField(page, 'partner_secret')).toHaveValue('');
      await expect(widgetField(page, 'partner_secret')).toHaveAttribute('type', 'password');
      await expect(page.locator('#card2crypto_widget_settings-partner_secret-description')).toContainText('A secret is saved');

      // 1. A wrong secret, with other changes beside it: the service refuses it, so nothing is saved; the reason is
      //    next to the field, what was typed is kept (never the secret), and the status box speaks of the saved settings.
      await widgetField(page, 'title').fill('Buy bitcoin here');
      await widgetField(page, 'default_fiat_currency').selectOption('EUR');
      await widgetField(page, 'default_amount').fill('75');
      await widgetField(page, 'partner_secret').fill(rotated);
      await saveWidget(page);
      await expect(page.getByText('Nothing was saved: the service refuses these credentials.')).toBeVisible();
      await expect(page.getByText('Settings saved.')).toHaveCount(0);
      const secretError = page.locator('#card2crypto_widget_settings-partner_secret-error');
      await expect(secretError).toContainText('Partner secret: Not connected: the service refuses the signature: the partner secret is wrong for this token');
      await expect(secretError).toContainText('The secret you entered was not saved: enter it again.');
      await expect(widgetField(page, 'partner_secret')).toHaveAttribute('aria-invalid', 'true');
      await expect(widgetField(page, 'partner_secret')).toHaveValue('');
      await expect(widgetField(page, 'title')).toHaveValue('Buy bitcoin here');
      await expect(widgetField(page, 'default_amount')).toHaveValue('75');
      await expect(widgetField(page, 'default_fiat_currency')).toHaveValue('EUR');
      await page.reload();
      await expect(widgetField(page, 'title')).toHaveValue(before.title);
      await expect(widgetField(page, 'default_amount')).toHaveValue(before.amount);
      await expect(page.locator('#card2crypto_widget_settings-partner_secret-error')).toHaveCount(0);

      // 2. A valid save; the secret left empty keeps the saved one.
      await widgetField(page, 'title').fill('Buy bitcoin here');
      await widgetField(page, 'default_fiat_currency').selectOption('EUR');
      await widgetField(page, 'default_amount').fill('75');
      await saveWidget(page);
      await expect(page.getByText('Settings saved.')).toBeVisible();
      await expect(page.locator('.notice-error, .error').filter({ hasText: /Card2Crypto|required|:/ })).toHaveCount(0);
      await page.reload();
      await expect(widgetField(page, 'title')).toHaveValue('Buy bitcoin here');
      await expect(widgetField(page, 'default_amount')).toHaveValue('75.00'); // normalised to EUR's two decimals
      await expect(widgetField(page, 'partner_secret')).toHaveValue('');
      await expect(page.locator('#card2crypto_widget_settings-partner_secret-description')).toContainText('A secret is saved');

      // 3. Invalid amount and colour: nothing is saved, each error next to its field, what was typed kept.
      await widgetField(page, 'title').fill('Buy crypto with a card');
      await widgetField(page, 'default_amount').fill('1,000');
      await setColor(page, 'color_primary_fill', 'red; } body { color: red');
      await saveWidget(page);
      await expect(page.getByText('Nothing was saved: correct the fields marked below and save again; what you typed is kept in the form.')).toBeVisible();
      await expect(page.locator('#card2crypto_widget_settings-default_amount-error')).toContainText('Default amount: enter a plain amount');
      await expect(page.locator('#card2crypto_widget_settings-color_primary_fill-error')).toContainText('Primary colour: enter a CSS colour');
      await expect(widgetField(page, 'default_amount')).toHaveAttribute('aria-invalid', 'true');
      await expect(widgetField(page, 'default_amount')).toHaveValue('1,000');
      await expect(widgetField(page, 'title')).toHaveValue('Buy crypto with a card');
      await page.reload();
      await expect(widgetField(page, 'title')).toHaveValue('Buy bitcoin here');
      await expect(widgetField(page, 'default_amount')).toHaveValue('75.00');
      await expect(widgetField(page, 'color_primary_fill')).toHaveValue('#6a42e9');
      await expect(page.locator('#card2crypto_widget_settings-partner_secret-description')).toContainText('A secret is saved');

      // 4. Below the currency's minimum.
      await widgetField(page, 'default_amount').fill('10');
      await saveWidget(page);
      await expect(page.locator('#card2crypto_widget_settings-default_amount-error')).toContainText('Default amount: must be between 50.00 and 5000.00 EUR');

      expect(phpProblemsIn(await page.locator('body').innerText())).toEqual([]);
    } finally {
      // Put the seeded values back (the secret too: later specs sign with it).
      await page.goto(WIDGET_PAGE);
      await widgetField(page, 'title').fill(before.title);
      await widgetField(page, 'default_fiat_currency').selectOption(before.currency);
      await widgetField(page, 'default_amount').fill(before.amount);
      await widgetField(page, 'partner_secret').fill(seededSecret);
      await saveWidget(page);
    }
    for (const watch of leaks) {
      expect(await watch()).toEqual([]);
    }
    expect(jsErrors).toEqual([]);
  });
});

test.describe('checkout settings (WooCommerce → Settings → Payments → Card2Crypto)', () => {
  test.skip(!info.hasWooCommerce, WOOCOMMERCE_MISSING);

  test('save (the service accepts the credentials), reload, refuse a mistyped wallet and a bad IP allowlist next to their fields with the typed values kept, nothing saved, keep the secret', async ({
    page,
  }) => {
    const store = runningStore();
    const seededSecret = partnerSecret(store);
    const leak = watchForSecret(page, store, seededSecret);
    const jsErrors = collectJsErrors(page, info.storeUrl);

    await page.goto(CHECKOUT_PAGE);
    const before = {
      title: await checkoutField(page, 'title').inputValue(),
      wallet: await checkoutField(page, 'wallet_address').inputValue(),
      callbackIps: await checkoutField(page, 'callback_ips').inputValue(),
    };
    try {
      await expect(checkoutField(page, 'partner_secret')).toHaveValue('');
      await expect(page.locator('#woocommerce_card2crypto_partner_secret-description')).toContainText('A secret is saved');

      // A valid change is saved and survives a reload.
      await checkoutField(page, 'title').fill('Card (pays in bitcoin)');
      await saveCheckout(page);
      // Saving tested the credentials with a signed request: said plainly.
      await expect(page.getByText('The service accepted the partner token and secret.')).toBeVisible();
      await page.reload();
      await expect(checkoutField(page, 'title')).toHaveValue('Card (pays in bitcoin)');

      // A typo in the wallet and a bad allowlist: a refused save writes nothing (not even the valid title change);
      // the form keeps what was typed and shows each error next to its field; the secret is kept.
      const typo = before.wallet ? `${before.wallet.slice(0, -1)}${before.wallet.endsWith('q') ? 'p' : 'q'}` : 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr';
      await checkoutField(page, 'title').fill('Pay by card');
      await checkoutField(page, 'wallet_address').fill(typo);
      await checkoutField(page, 'callback_ips').fill('203.0.113.10\nnot-an-ip');
      await saveCheckout(page);
      await expect(page.getByText('Nothing was saved: correct the fields marked below')).toBeVisible();
      await expect(page.getByText('Your settings have been saved.')).toHaveCount(0);
      await expect(page.locator('#woocommerce_card2crypto_wallet_address-error')).toContainText(/Bitcoin wallet address: /);
      await expect(page.locator('#woocommerce_card2crypto_callback_ips-error')).toHaveText(
        'Callback IP allowlist: not an IP address or CIDR range: not-an-ip.',
      );
      await expect(checkoutField(page, 'wallet_address')).toHaveAttribute('aria-invalid', 'true');
      await expect(checkoutField(page, 'wallet_address')).toHaveAttribute('aria-describedby', /wallet_address-error/);
      await expect(checkoutField(page, 'title')).toHaveValue('Pay by card');
      await expect(checkoutField(page, 'wallet_address')).toHaveValue(typo);
      await expect(checkoutField(page, 'callback_ips')).toHaveValue('203.0.113.10\nnot-an-ip');
      await page.goto(CHECKOUT_PAGE);
      await expect(checkoutField(page, 'title')).toHaveValue('Card (pays in bitcoin)');
      await expect(checkoutField(page, 'wallet_address')).toHaveValue(before.wallet);
      await expect(checkoutField(page, 'callback_ips')).toHaveValue(before.callbackIps);
      await expect(checkoutField(page, 'partner_secret')).toHaveValue('');
      await expect(page.locator('#woocommerce_card2crypto_partner_secret-description')).toContainText('A secret is saved');
      expect(phpProblemsIn(await page.locator('body').innerText())).toEqual([]);
    } finally {
      await page.goto(CHECKOUT_PAGE);
      await checkoutField(page, 'title').fill(before.title);
      await saveCheckout(page);
    }
    expect(await leak()).toEqual([]);
    expect(jsErrors).toEqual([]);
  });
});

/**
 * A shop manager's script in an administrator's session (issue 22, point 1),
 * seen in a real browser. The embedded flow's order-pay page loads the
 * "Widget script address" as a script, so a shop manager who could set it ran
 * their own code in the session of every administrator who opened an order's
 * payment page. Now the service's addresses are the partner's: the shop
 * manager sees them read-only, a change is refused in the form (even with the
 * read-only attribute taken away) and over WooCommerce's REST API, and an
 * administrator opening the embedded order-pay page afterwards requests and
 * runs nothing from the shop manager's address. The attacker's host answers
 * in this browser (routed here, as it would on the internet), so a page that
 * loaded it would run it.
 */
import { expect, test, type Page } from './fixtures';
import {
  adminRest,
  currentSettings,
  loginAsAdmin,
  placeOrder,
  requireWooCommerce,
  runningStore,
  setSettings,
  submitWooCommerceSettings,
} from './checkout-helpers.js';
import { fillLogin } from './login';

const store = runningStore();

const MANAGER = { username: 'c2c-e2e-manager', password: 'manager-pass-Xq81', email: 'c2c-e2e-manager@example.com' };
const EVIL_SCRIPT = 'https://attacker.example/steal.js';
const EVIL_LANDING = 'https://attacker.example/card-phish';
/** What the attacker's script does when it runs: marks the page (it stands for "create an administrator"). */
const PAYLOAD = 'window.__c2cShopManagerScript = 1; document.documentElement.dataset.c2cEvil = "ran";';

async function loginAsManager(page: Page): Promise<void> {
  await page.goto(`${store.storeUrl}/wp-login.php`, { waitUntil: 'domcontentloaded', timeout: 240_000 });
  await fillLogin(page, MANAGER.username, MANAGER.password);
  await page.locator('#wp-submit').click();
  await page.waitForURL(/wp-admin/, { timeout: 240_000 });
}

test.describe("the service's addresses are the partner's, not the shop's", () => {
  test.beforeEach(() => requireWooCommerce(store));

  test("a shop manager cannot set the widget script or landing address; an administrator's order-pay page runs nothing of theirs", async ({
    browser,
    request,
  }) => {
    test.setTimeout(600_000);
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    const created = await adminRest(admin, 'POST', 'wp/v2/users', {
      username: MANAGER.username,
      password: MANAGER.password,
      email: MANAGER.email,
      roles: ['shop_manager'],
    });
    expect([201, 500, 400]).toContain(created.status); // 201, or the user is there from an earlier run
    const before = await currentSettings(admin);
    const evilRequests: string[] = [];

    try {
      // The shop manager, in their own browser context.
      const managerContext = await browser.newContext();
      const manager = await managerContext.newPage();
      await loginAsManager(manager);
      await manager.goto(`${store.storeUrl}/wp-admin/admin.php?page=wc-settings&tab=checkout&section=card2crypto`, {
        waitUntil: 'domcontentloaded',
        timeout: 240_000,
      });
      const scriptField = manager.locator('#woocommerce_card2crypto_widget_script_url');
      await expect(scriptField).toHaveAttribute('readonly', 'readonly');
      await expect(manager.locator('#woocommerce_card2crypto_landing_url')).toHaveAttribute('readonly', 'readonly');
      await expect(manager.locator('#woocommerce_card2crypto_environment')).toBeDisabled();
      await expect(manager.locator('[data-card2crypto="partner-only"]').first()).toContainText('only a user who may add unfiltered code');

      // The form, with the read-only attribute taken away as an attacker would.
      await scriptField.evaluate((input: HTMLInputElement) => input.removeAttribute('readonly'));
      await scriptField.fill(EVIL_SCRIPT);
      await manager.locator('#woocommerce_card2crypto_title').fill('Card (changed by the shop manager)');
      expect(await submitWooCommerceSettings(manager)).toBe(true);
      await expect(manager.locator('#woocommerce_card2crypto_widget_script_url-error')).toContainText(
        'Widget script address: only a user who may add unfiltered code',
      );
      await expect(manager.getByText('Nothing was saved').first()).toBeVisible();

      // WooCommerce's REST API, with the shop manager's own session.
      for (const [field, value] of [
        ['widget_script_url', EVIL_SCRIPT],
        ['landing_url', EVIL_LANDING],
      ] as const) {
        const put = await adminRest(manager, 'PUT', 'wc/v3/payment_gateways/card2crypto', { settings: { [field]: value } });
        expect(put.status, `${field} over REST`).toBe(403);
        expect((put.json as { code: string }).code).toBe('card2crypto_settings_refused');
      }
      await managerContext.close();

      const after = await currentSettings(admin);
      expect(after.widget_script_url).toBe(before.widget_script_url);
      expect(after.landing_url).toBe(before.landing_url);
      expect(after.title, 'nothing of that save was written').toBe(before.title);

      // The administrator opens an order's embedded payment page.
      // (Placed in the redirect flow, whose link placeOrder follows; its payment page is then the embedded one.)
      const order = await placeOrder(request, store);
      await setSettings(admin, { payment_flow: 'embedded' });
      await admin.context().route('https://attacker.example/**', async (route) => {
        evilRequests.push(route.request().url());
        await route.fulfill({ status: 200, contentType: 'application/javascript', body: PAYLOAD });
      });
      const scripts: string[] = [];
      admin.on('request', (r) => {
        if (r.resourceType() === 'script') {
          scripts.push(r.url());
        }
      });
      await admin.goto(`${store.storeUrl}/checkout/order-pay/${order.id}/?key=${order.key}`, { waitUntil: 'load', timeout: 240_000 });
      // The widget's own script (the partner's address) loads and runs; nothing of the shop manager's does.
      await expect(admin.locator('#card2crypto-widget iframe.card2crypto-widget-frame')).toBeAttached({ timeout: 120_000 });
      expect(scripts.some((url) => url.startsWith(new URL(before.widget_script_url || `${store.sandbox!.url}/widget.js`).origin))).toBe(true);
      expect(evilRequests).toEqual([]);
      expect(await admin.evaluate(() => (window as unknown as { __c2cShopManagerScript?: unknown }).__c2cShopManagerScript)).toBeUndefined();
      expect(await admin.evaluate(() => document.documentElement.dataset.c2cEvil)).toBeUndefined();
    } finally {
      await setSettings(admin, { payment_flow: before.payment_flow || 'redirect', title: before.title || 'Credit or debit card' });
    }
  });
});

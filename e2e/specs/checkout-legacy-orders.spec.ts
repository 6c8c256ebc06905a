/**
 * The order panel on WooCommerce's legacy order screen (post.php), with the
 * store switched to WordPress posts storage for this test only, as an owner
 * does it: WooCommerce → Settings → Advanced → Features, sync the order
 * tables, turn compatibility mode on, choose posts storage. Restored after
 * (high-performance order storage, compatibility mode off).
 */
import { expect, test, type Page, type APIRequestContext } from './fixtures';
import {
  adminRest,
  currentSettings,
  loginAsAdmin,
  operationData,
  partnerSecret,
  placeOrder,
  requireWooCommerce,
  runningStore,
  setSettings,
  sendCallback,
  serviceHas,
  type RunningStore,
} from './checkout-helpers.js';
import { fillLogin } from './login';

const store = runningStore();
const FEATURES = () => `${store.storeUrl}/wp-admin/admin.php?page=wc-settings&tab=advanced&section=features`;
const STORAGE = (value: 'yes' | 'no') => `input[name="woocommerce_custom_orders_table_enabled"][value="${value}"]`;
const SYNC = '#woocommerce_custom_orders_table_data_sync_enabled';

/** Saves the Features screen; switching the order storage can take minutes on WebAssembly WordPress. */
async function saveFeatures(page: Page): Promise<void> {
  await page.waitForTimeout(500);
  const saved = page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: 600_000 });
  await page.locator('button[name="save"]').click({ noWaitAfter: true });
  await saved;
}

/** Syncs the order tables (WooCommerce's "Sync orders now", run by Action Scheduler through WP-Cron). */
async function syncOrderTables(page: Page, request: APIRequestContext): Promise<void> {
  await page.goto(FEATURES(), { waitUntil: 'domcontentloaded', timeout: 240_000 });
  const syncNow = page.getByRole('link', { name: 'Sync orders now' });
  if ((await syncNow.count()) > 0) {
    await page.goto((await syncNow.getAttribute('href'))!, { waitUntil: 'domcontentloaded', timeout: 240_000 });
  }
  const deadline = Date.now() + 8 * 60_000;
  while (await page.locator(STORAGE('no')).isDisabled()) {
    if (Date.now() > deadline) {
      throw new Error(
        `the order tables never got in sync: ${await page.locator('.wc-settings-row-woocommerce_custom_orders_table_data_sync_enabled').innerText()}`,
      );
    }
    await request.get(`${store.storeUrl}/wp-cron.php`, { timeout: 240_000 });
    await page.waitForTimeout(5000);
    await page.goto(FEATURES(), { waitUntil: 'domcontentloaded', timeout: 240_000 });
  }
}

async function useStorage(page: Page, request: APIRequestContext, hpos: boolean): Promise<void> {
  await page.goto(FEATURES(), { waitUntil: 'domcontentloaded', timeout: 240_000 });
  if (await page.locator(STORAGE(hpos ? 'yes' : 'no')).isChecked()) {
    return;
  }
  await syncOrderTables(page, request);
  if (!(await page.locator(SYNC).isChecked())) {
    await page.locator(SYNC).check();
    await saveFeatures(page);
  }
  await page.locator(STORAGE(hpos ? 'yes' : 'no')).check();
  await saveFeatures(page);
  await expect(page.locator(STORAGE(hpos ? 'yes' : 'no'))).toBeChecked();
}

async function compatibilityMode(page: Page, on: boolean): Promise<void> {
  await page.goto(FEATURES(), { waitUntil: 'domcontentloaded', timeout: 240_000 });
  if ((await page.locator(SYNC).isChecked()) === on) {
    return;
  }
  await page.locator(SYNC).setChecked(on);
  await saveFeatures(page);
  await expect(page.locator(SYNC)).toBeChecked({ checked: on });
}

/** The legacy order edit screen; fails if WooCommerce sends the browser elsewhere (order tables on). */
async function legacyOrder(page: Page, s: RunningStore, orderId: number) {
  await page.goto(`${s.storeUrl}/wp-admin/post.php?post=${orderId}&action=edit`, { waitUntil: 'domcontentloaded', timeout: 240_000 });
  expect(new URL(page.url()).pathname).toBe('/wp-admin/post.php');
  const panel: Record<string, string> = {};
  for (const dd of await page.locator('#card2crypto-checkout-payment dd').all()) {
    panel[(await dd.getAttribute('data-card2crypto')) ?? ''] = await dd.innerText();
  }
  const notes = (await page.locator('ul.order_notes li .note_content').allInnerTexts()).map((n) => n.trim());
  return { status: await page.locator('#order_status').inputValue(), panel, notes };
}

test.describe('legacy order screen (posts storage)', () => {
  test.beforeEach(() => requireWooCommerce(store));

  test('the panel shows the payment; its buttons check the nonce and the user, and record their result', async ({ page, browser, request }) => {
    test.setTimeout(1_800_000);
    await loginAsAdmin(page, store);
    await page.goto(FEATURES(), { waitUntil: 'domcontentloaded', timeout: 240_000 });
    const wasHpos = await page.locator(STORAGE('yes')).isChecked();
    const wasSyncing = await page.locator(SYNC).isChecked();
    const wasAutoConfirm = (await currentSettings(page)).auto_confirm === 'yes';
    await useStorage(page, request, false);
    try {
      // The owner confirms each payment on the order screen (automatic confirmation off), which is what shows the buttons.
      await setSettings(page, { auto_confirm: false });
      const order = await placeOrder(request, store);
      const secret = partnerSecret(store);
      // The buyer paid and the service awaits the partner's confirmation: its state and its two callbacks.
      const funds = operationData(order, 'pending', 2);
      await serviceHas(store, secret, funds);
      expect(await sendCallback(store, secret, funds)).toBe('200 OK');
      const awaiting = operationData(order, 'awaiting confirm', 8);
      await serviceHas(store, secret, awaiting);
      expect(await sendCallback(store, secret, awaiting)).toBe('200 OK');

      const view = await legacyOrder(page, store, order.id);
      expect(view.status).toBe('wc-on-hold');
      expect(view.notes.some((n) => n.includes('waits for your confirmation (automatic confirmation is off)'))).toBe(true);
      expect(view.panel['partner-operation-id']).toBe(String(order.params.partner_operation_id));
      expect(view.panel['operation-id']).toBe(`op-${order.id}-a`);
      expect(view.panel['status-code']).toMatch(/^8 /);
      expect(String(order.params.from_currency)).toBe('EUR');
      expect(view.panel.paid).toBe(`€${(Number(order.params.from_amount) / 100).toFixed(2)}`);
      expect(view.panel['card-country']).toBe('Germany');
      for (const action of ['confirm', 'cancel', 'refresh']) {
        await expect(page.locator(`#card2crypto-checkout-payment [data-card2crypto-action="${action}"]`)).toBeVisible();
      }
      const cancelUrl = new URL((await page.locator('[data-card2crypto-action="cancel"]').getAttribute('href'))!, page.url());
      const refreshUrl = new URL((await page.locator('[data-card2crypto-action="refresh"]').getAttribute('href'))!, page.url());
      expect(cancelUrl.pathname).toBe('/wp-admin/admin-post.php');
      expect(cancelUrl.searchParams.get('_wpnonce')).toMatch(/^[0-9a-f]{10}$/);

      // A forged nonce: refused before anything happens.
      const forged = new URL(cancelUrl);
      forged.searchParams.set('_wpnonce', '0123456789');
      const refused = await page.goto(forged.href, { waitUntil: 'domcontentloaded', timeout: 240_000 });
      expect(refused!.status()).toBe(403);
      await expect(page.locator('body')).toContainText('The link you followed has expired.');

      // Another logged-in user (a customer, without edit_shop_orders) following the owner's link: refused.
      const customer = `buyer${Date.now()}`;
      const created = (
        await adminRest(page, 'POST', 'wp/v2/users', {
          username: customer,
          email: `${customer}@example.com`,
          password: 'customer-password-1',
          roles: ['customer'],
        })
      ).status;
      expect(created).toBe(201);
      const other = await browser.newContext();
      try {
        const otherPage = await other.newPage();
        await otherPage.goto(`${store.storeUrl}/wp-login.php`, { waitUntil: 'domcontentloaded', timeout: 240_000 });
        await fillLogin(otherPage, customer, 'customer-password-1');
        await Promise.all([otherPage.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: 240_000 }), otherPage.locator('#wp-submit').click()]);
        expect((await other.cookies()).some((c) => c.name.startsWith('wordpress_logged_in_'))).toBe(true);
        const answer = await otherPage.goto(refreshUrl.href, { waitUntil: 'domcontentloaded', timeout: 240_000 });
        expect(answer!.status()).toBe(403);
      } finally {
        await other.close();
      }

      const untouched = await legacyOrder(page, store, order.id);
      expect(untouched.status).toBe('wc-on-hold');
      expect(untouched.notes).toEqual(view.notes);

      // The owner's own click: the service is asked, the result is a note, and the browser comes back here.
      await page.goto(refreshUrl.href, { waitUntil: 'domcontentloaded', timeout: 300_000 });
      expect(new URL(page.url()).pathname).toBe('/wp-admin/post.php');
      const refreshed = await legacyOrder(page, store, order.id);
      expect(refreshed.notes.length).toBe(view.notes.length + 1);
      expect(refreshed.notes.some((n) => n.includes('refreshed the payment from the service') && /The service reports .*\(awaiting confirm\)/.test(n))).toBe(
        true,
      );
      expect(refreshed.status).toBe('wc-on-hold');
    } finally {
      await setSettings(page, { auto_confirm: wasAutoConfirm });
      if (wasHpos) {
        await useStorage(page, request, true);
      }
      await compatibilityMode(page, wasSyncing);
    }
  });
});

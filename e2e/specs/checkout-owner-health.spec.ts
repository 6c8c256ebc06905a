/**
 * The owner's view of the connection (issue 15, points 7 and 9), in a real
 * browser: saving the payment settings tests the credentials with a signed
 * request, and a save the service refuses (wrong secret, unknown token)
 * writes nothing, says why next to the field and keeps what was typed
 * (never the secret); the status box shows the last verified callback and
 * the callbacks refused in the last 24 hours by reason, with a link to the
 * plugin's logs, and an admin notice while callbacks are being refused.
 */
import { expect, test, type Page } from './fixtures';
import { phpProblemsIn } from '../checks.ts';
import { loginAsAdmin, operationData, partnerSecret, placeOrder, requireWooCommerce, runningStore, sendCallback } from './checkout-helpers.js';
import { watchForSecret } from './widget-helpers.ts';

const store = runningStore();
const SETTINGS = () => `${store.storeUrl}/wp-admin/admin.php?page=wc-settings&tab=checkout&section=card2crypto`;
const field = (page: Page, id: string) => page.locator(`#woocommerce_card2crypto_${id}`);

async function openSettings(page: Page): Promise<void> {
  await page.goto(SETTINGS(), { waitUntil: 'domcontentloaded', timeout: 240_000 });
}

async function save(page: Page): Promise<void> {
  const saved = page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: 300_000 });
  await page.locator('#mainform button[name="save"], #mainform [name="save"]').first().click({ noWaitAfter: true });
  await saved;
}

/** The count the status box shows for one refusal reason (0 when it is not listed). */
async function refusedFor(page: Page, reason: string): Promise<number> {
  const item = page.locator(`[data-card2crypto="refused-reasons"] li[data-reason="${reason}"]`);
  if ((await item.count()) === 0) {
    return 0;
  }
  return Number(/: (\d+)$/.exec((await item.innerText()).trim())?.[1] ?? 'NaN');
}

test.describe('owner: connection and callback health', () => {
  test.describe.configure({ mode: 'serial', timeout: 900_000 });
  test.beforeEach(async ({ page }) => {
    requireWooCommerce(store);
    await loginAsAdmin(page, store);
  });

  test('a save with a wrong secret or an unknown token: the service refuses it, said next to the field, typed values kept, nothing saved', async ({ page }) => {
    const wrongSecret = `e2e-wrong-secret-${Date.now()}`;
    const leak = watchForSecret(page, store, wrongSecret);
    await openSettings(page);
    const before = { title: await field(page, 'title').inputValue(), token: await field(page, 'partner_token').inputValue() };
    await expect(page.locator('[data-card2crypto="connection"]')).toContainText('Connected');

    // A wrong secret, with another change beside it.
    await field(page, 'title').fill('Typed but not saved');
    await field(page, 'partner_secret').fill(wrongSecret);
    await save(page);
    await expect(page.getByText('Nothing was saved: the service refuses these credentials.')).toBeVisible();
    await expect(page.getByText('Your settings have been saved.')).toHaveCount(0);
    const secretError = page.locator('#woocommerce_card2crypto_partner_secret-error');
    await expect(secretError).toContainText('the partner secret is wrong for this token');
    await expect(secretError).toContainText('Wrong signature');
    await expect(secretError).toContainText('The secret you entered was not saved: enter it again.');
    await expect(field(page, 'partner_secret')).toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, 'partner_secret')).toHaveValue('');
    await expect(field(page, 'title')).toHaveValue('Typed but not saved');
    // The status box does not greet a refused save with "Connected": it speaks of the saved credentials.
    await expect(page.locator('[data-card2crypto="connection"]')).toHaveText(
      'Still connected with the saved credentials: what you typed was not saved, and the store goes on using what was saved before.',
    );

    // An unknown token.
    await field(page, 'partner_token').fill('e2e-no-such-partner');
    await save(page);
    await expect(page.locator('#woocommerce_card2crypto_partner_token-error')).toContainText('the service does not know this partner token');
    await expect(field(page, 'partner_token')).toHaveValue('e2e-no-such-partner');
    await expect(field(page, 'title')).toHaveValue('Typed but not saved');

    // Nothing was written: the stored settings still work.
    await openSettings(page);
    await expect(field(page, 'title')).toHaveValue(before.title);
    await expect(field(page, 'partner_token')).toHaveValue(before.token);
    await expect(page.locator('#woocommerce_card2crypto_partner_secret-description')).toContainText('A secret is saved');
    await expect(page.locator('[data-card2crypto="connection"]')).toContainText('Connected');
    expect(phpProblemsIn(await page.locator('body').innerText())).toEqual([]);
    expect(await leak()).toEqual([]);
  });

  test('a forged callback is counted as refused (status box and admin notice); a genuine one shows as the last callback', async ({ page, request }) => {
    const secret = partnerSecret(store);
    const order = await placeOrder(request, store);
    const pending = operationData(order, 'pending', 2);

    await openSettings(page);
    const forgedBefore = await refusedFor(page, 'signature');
    await expect(page.locator('[data-card2crypto="logs-link"]')).toHaveAttribute('href', /page=wc-status&tab=logs&source=card2crypto-checkout/);

    expect(await sendCallback(store, `${secret}x`, pending)).toBe('401 Wrong signature');
    await openSettings(page);
    expect(await refusedFor(page, 'signature')).toBe(forgedBefore + 1);
    await expect(page.locator('[data-card2crypto="refused-reasons"] li[data-reason="signature"]')).toContainText('wrong signature');
    await expect(page.locator('[data-card2crypto="refused-callbacks"]')).toContainText('Callbacks refused in the last 24 hours:');
    await expect(page.locator('[data-card2crypto="connection"]')).toContainText('Connected');
    await expect(page.locator('[data-card2crypto="callback-warning"]')).toContainText('Callbacks are being refused');
    await expect(page.locator('.card2crypto-status-box')).toHaveClass(/notice-warning/);
    // Elsewhere in the admin, a notice says so.
    await page.goto(`${store.storeUrl}/wp-admin/admin.php?page=wc-orders`, { waitUntil: 'domcontentloaded', timeout: 240_000 });
    await expect(page.locator('.card2crypto-callback-health')).toContainText('refused in the last 24 hours, and none has been accepted since');

    expect(await sendCallback(store, secret, pending)).toBe('200 OK');
    await openSettings(page);
    await expect(page.locator('[data-card2crypto="last-callback"]')).toContainText(/Last verified callback: .+ \(\d+ (seconds?|secs?|minutes?|mins?) ago\)\./);
    await expect(page.locator('[data-card2crypto="callback-warning"]')).toHaveCount(0);
    expect(await refusedFor(page, 'signature')).toBe(forgedBefore + 1);
    await page.goto(`${store.storeUrl}/wp-admin/admin.php?page=wc-orders`, { waitUntil: 'domcontentloaded', timeout: 240_000 });
    await expect(page.locator('.card2crypto-callback-health')).toHaveCount(0);

    // The link opens WooCommerce's logs for the plugin's source.
    await openSettings(page);
    await page.locator('[data-card2crypto="logs-link"]').click();
    await expect(page).toHaveURL(/page=wc-status.*tab=logs/);
    expect(phpProblemsIn(await page.locator('body').innerText())).toEqual([]);
  });
});

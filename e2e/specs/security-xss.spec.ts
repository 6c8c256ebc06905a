/**
 * Stored XSS by a shop manager (issue "Security", point 3), seen in a real
 * browser: the payment method's title and description saved with script
 * payloads through both of WooCommerce's save paths (its REST API and the
 * settings page), then every page that prints them (the block checkout, the
 * classic checkout, order-pay, order-received and the admin order screen):
 * nothing runs, no dialog opens, no injected element is in the page, and the
 * label still reads as the method's name. The PHP security suite proves what
 * is stored; this proves what a browser makes of it.
 */
import { expect, test, type Page } from './fixtures';
import { addToCart, adminRest, classicCheckoutPage, loginAsAdmin, placeOrder, requireWooCommerce, runningStore, saveSettings } from './checkout-helpers.js';

const store = runningStore();

// Within the title field's 100 characters, so that the browser sends all of it.
const TITLE = `Card payment<script>window.__c2cXss=1</script><img src=x onerror="window.__c2cXss=2">`;
const DESCRIPTION = `Pay by card. <img src=x onerror="window.__c2cXss=3;alert(3)"><svg onload="window.__c2cXss=4"></svg><script>window.__c2cXss=5</script>"><a href="javascript:window.__c2cXss=6">x</a>`;

/** Opens `url` on `page` and asserts that nothing of the payloads ran or stayed in the DOM as markup. */
async function assertInert(page: Page, url: string, where: string): Promise<void> {
  const dialogs: string[] = [];
  const onDialog = (dialog: { message: () => string; dismiss: () => Promise<void> }) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  };
  page.on('dialog', onDialog);
  await page.goto(url, { waitUntil: 'load', timeout: 240_000 });
  // Scripts and handlers that run at all run by now; block checkout renders its methods after load.
  await page.waitForTimeout(1500);
  expect(await page.evaluate(() => (window as unknown as { __c2cXss?: unknown }).__c2cXss), `${where}: no payload ran`).toBeUndefined();
  expect(dialogs, `${where}: no dialog`).toEqual([]);
  const injected = await page.evaluate(() => ({
    handlers: [...document.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name) && a.value.includes('__c2cXss'))).length,
    scripts: [...document.querySelectorAll('script')].filter((s) => (s.textContent ?? '').trim().startsWith('window.__c2cXss')).length,
    links: document.querySelectorAll('a[href^="javascript:"]').length,
    svgs: document.querySelectorAll('svg[onload]').length,
  }));
  expect(injected, `${where}: no injected element`).toEqual({ handlers: 0, scripts: 0, links: 0, svgs: 0 });
  page.off('dialog', onDialog);
}

test.describe('stored XSS through the payment method title and description', () => {
  test.beforeEach(() => requireWooCommerce(store));

  test('saved with script payloads by either save path, they are inert on every page that prints them', async ({ browser, request }) => {
    test.setTimeout(600_000);
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    const before = (await adminRest(admin, 'GET', 'wc/v3/payment_gateways/card2crypto')).json as { title: string; description: string };

    try {
      // WooCommerce's REST API (what a shop manager's key can call).
      const updated = await adminRest(admin, 'PUT', 'wc/v3/payment_gateways/card2crypto', { title: TITLE, description: DESCRIPTION });
      expect(updated.status).toBe(200);
      // What is stored, read back (the PUT's answer echoes WooCommerce's own filtering of the request).
      const stored = (await adminRest(admin, 'GET', 'wc/v3/payment_gateways/card2crypto')).json as { title: string; description: string };
      expect(stored.title).toContain('Card payment');
      // No markup is left (what remains of a script's text is plain text, proven inert below).
      expect(stored.title).not.toMatch(/[<>]/);
      expect(stored.description).not.toMatch(/<script|onerror|onload|<svg|javascript:/i);

      // The settings page: the fields show what was stored, sanitised.
      await saveSettings(admin, store, { fill: { title: TITLE, description: DESCRIPTION } });
      await expect(admin.locator('#woocommerce_card2crypto_title')).toHaveValue('Card payment');
      const description = await admin.locator('#woocommerce_card2crypto_description').inputValue();
      expect(description).toContain('Pay by card.');
      expect(description).not.toMatch(/<script|onerror|onload|<svg|javascript:/i);

      const classicUrl = await classicCheckoutPage(admin);
      const order = await placeOrder(request, store);

      // A buyer with the product in the cart: the block checkout and the classic one.
      const buyer = await browser.newPage();
      await addToCart(buyer, store, store.woocommerce!.products[0]!.id);
      await assertInert(buyer, `${store.storeUrl}/checkout/`, 'block checkout');
      await expect(
        buyer.locator('.wc-block-components-radio-control__label, .wc-block-components-payment-method-label').filter({ hasText: 'Card payment' }).first(),
      ).toBeVisible();
      await assertInert(buyer, classicUrl, 'classic checkout');
      await expect(buyer.locator('label[for="payment_method_card2crypto"]')).toContainText('Card');
      await assertInert(buyer, `${store.storeUrl}/checkout/order-pay/${order.id}/?pay_for_order=true&key=${order.key}`, 'order-pay');
      await assertInert(buyer, `${store.storeUrl}/checkout/order-received/${order.id}/?key=${order.key}`, 'order-received');

      // The administrator's order screen ("Payment via …").
      await assertInert(admin, `${store.storeUrl}/wp-admin/admin.php?page=wc-orders&action=edit&id=${order.id}`, 'admin order screen');
      await expect(admin.locator('.woocommerce-order-data__meta')).toContainText('Card payment');
    } finally {
      await adminRest(admin, 'PUT', 'wc/v3/payment_gateways/card2crypto', { title: before.title, description: before.description });
    }
  });
});

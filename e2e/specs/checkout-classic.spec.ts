/**
 * The classic (shortcode) checkout, paid in full through the sandbox: the
 * method's fields (what happens, accepted methods, BTC estimate), placing the
 * order, the landing page, and the order processing with its transaction id.
 */
import { expect, test } from '@playwright/test';
import { BUYER, CARDS, loginAsAdmin, orderIdFromUrl, payInWidget, requireWooCommerce, runningStore, waitForOrder } from './checkout-helpers.js';

const store = runningStore();

test.describe('classic checkout through the sandbox', () => {
  test.beforeEach(() => requireWooCommerce(store));

  test('paid in full: order processing with the transaction id', async ({ browser }) => {
    test.setTimeout(900_000);
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    // A page with the classic checkout shortcode, created through the REST API as the admin.
    const pageUrl = await admin.evaluate(async () => {
      const settings = (window as unknown as { wpApiSettings: { root: string; nonce: string } }).wpApiSettings;
      const response = await fetch(`${settings.root}wp/v2/pages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-WP-Nonce': settings.nonce },
        body: JSON.stringify({ title: `Classic checkout ${Date.now()}`, status: 'publish', content: '<!-- wp:shortcode -->[woocommerce_checkout]<!-- /wp:shortcode -->' }),
      });
      return ((await response.json()) as { link: string }).link;
    });

    const buyer = await browser.newPage();
    await buyer.goto(`${store.storeUrl}/?add-to-cart=${store.woocommerce!.products[0]!.id}`, { waitUntil: 'domcontentloaded' });
    await buyer.goto(pageUrl, { waitUntil: 'domcontentloaded' });
    await buyer.locator('#billing_first_name').fill(BUYER.first_name);
    await buyer.locator('#billing_last_name').fill(BUYER.last_name);
    await buyer.locator('#billing_address_1').fill(BUYER.address_1);
    await buyer.locator('#billing_city').fill(BUYER.city);
    await buyer.locator('#billing_postcode').fill(BUYER.postcode);
    await buyer.locator('#billing_email').fill(BUYER.email);
    const method = buyer.locator('#payment_method_card2crypto');
    await expect(method).toBeAttached();
    await method.check({ force: true });
    await expect(buyer.locator('.card2crypto-payment-fields')).toContainText('Accepted: Visa, Maestro, MasterCard, SEPA, Google Pay.');
    await expect(buyer.locator('.card2crypto-payment-fields')).toContainText(/about 0\.\d{8} BTC/);
    await buyer.locator('#place_order').click();
    await buyer.waitForURL(/\/landing\/\?i=/, { timeout: 180_000 });
    await payInWidget(buyer, CARDS.success);
    await buyer.waitForURL(/order-received\/\d+/, { timeout: 180_000 });
    const orderId = orderIdFromUrl(buyer.url());
    const view = await waitForOrder(admin, store, orderId, (v) => v.status === 'wc-processing' && Boolean(v.panel['transaction']));
    expect(view.notes.some((n) => n.includes('BTC transaction:'))).toBe(true);
  });
});

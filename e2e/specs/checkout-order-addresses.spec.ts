/**
 * "A new address for each order" (issue 25), end to end: the owner saves a
 * testnet extended public key and sees the wallet's first three addresses;
 * two buyers' orders, one through the block checkout and one through the
 * classic checkout, send the bitcoin to two different addresses of that
 * wallet (the sandbox receives each as the operation's to_account and
 * reports it back as blockchain_address); a payment that ended unpaid gives
 * its address back once the payment window has passed and the reconciler has
 * asked the service, and the next order takes it; its old landing link,
 * opened again, never signs that address again; and ten "Pay" presses of
 * one order are all signed for its one address (issue 31).
 */
import { expect, test, type Page } from './fixtures';
import { deriveAddresses, parseLandingUrl } from '@card2crypto/core';
import {
  CARDS,
  adminOrder,
  adminRest,
  blockCheckout,
  classicCheckoutPage,
  fillClassicCheckout,
  loginAsAdmin,
  moveStoreClock,
  orderIdFromUrl,
  payInWidget,
  pendingReconcile,
  requireWooCommerce,
  runReconcile,
  runningStore,
  setSettings,
  waitForOrder,
} from './checkout-helpers.js';

const store = runningStore();

/** A testnet account key (core's vectors/bip32-addresses.json, random-vpub-2): the sandbox takes testnet keys only. */
const VPUB = 'vpub5V2fbUVeD3G6mLuDfdMTjPrvZnnu1bjATm1HrTSjaDHjLP7BbZyXkb15TEdArC876Q6Y61FF6bmvRrNcQWcjuTG2HgcyXCKFWAfKaPQo9vc';

/** The settings page's box with the wallet's first addresses. */
async function firstAddresses(admin: Page): Promise<string[]> {
  await admin.goto(`${store.storeUrl}/wp-admin/admin.php?page=wc-settings&tab=checkout&section=card2crypto`, {
    waitUntil: 'domcontentloaded',
    timeout: 240_000,
  });
  return admin.locator('[data-card2crypto="first-addresses"] code').allTextContents();
}

/** The to_account the landing page was signed with, the order it pays, and the order's own payment page and landing link. */
function landingAddress(url: string): { address: string; orderId: number; payUrl: string; landingLink: string } {
  const landing = parseLandingUrl(url);
  if (!landing.ok) {
    throw new Error(`not a landing URL: ${url}`);
  }
  const id = String(landing.payload.params.partner_operation_id);
  const orderId = Number(/^wc-(\d+)-/.exec(id)![1]);
  // The fail address is the order's payment page with the return mark; its key opens the store's landing link.
  const pay = new URL(String((landing.payload.callbacks as Record<string, unknown>).fail));
  pay.searchParams.delete('card2crypto-return');
  const landingLink = `${pay.origin}/wp-json/card2crypto/v1/orders/${orderId}/landing?key=${encodeURIComponent(pay.searchParams.get('key') ?? '')}`;
  return { address: String(landing.payload.params.to_account), orderId, payUrl: pay.href, landingLink };
}

test.describe('a new address for each order', () => {
  test.beforeEach(() => requireWooCommerce(store));

  test('two buyers pay two addresses of the wallet; an unpaid payment gives its address to the next order', async ({ browser }) => {
    test.setTimeout(1_200_000);
    const expected = deriveAddresses(VPUB, { from: 0, count: 40, environment: 'sandbox' }).map((x) => x.address);
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    // The key is a secret field: saved through the same REST route as the other settings, never answered back.
    const saved = await adminRest(admin, 'PUT', 'wc/v3/payment_gateways/card2crypto', { settings: { wallet_mode: 'xpub', wallet_key_secret: VPUB } });
    expect(saved.status).toBe(200);
    expect(JSON.stringify(saved.json)).not.toContain(VPUB);
    // A payment window of 20 s for this test (the filter the plugin offers, set through the test's clock probe).
    await moveStoreClock(admin, store, 'window', { seconds: 20 });
    try {
      // The owner compares these with the wallet's receive addresses before taking payments.
      const first = await firstAddresses(admin);
      expect(first).toEqual(expected.slice(0, 3));
      const base = expected.indexOf(first[0]!);
      expect(base).toBe(0);

      // Block checkout: the landing page is signed for one address of the wallet, the order pays it.
      const one = await browser.newPage();
      await blockCheckout(one, store);
      const a = landingAddress(one.url());
      const indexA = expected.indexOf(a.address);
      expect(indexA, `${a.address} is an address of the wallet`).toBeGreaterThanOrEqual(0);
      await payInWidget(one, CARDS.success);
      await one.waitForURL(/order-received\/\d+/, { timeout: 180_000 });
      const paidA = await waitForOrder(admin, store, a.orderId, (v) => v.status === 'wc-processing');
      expect(paidA.panel['bitcoin-address']).toBe(a.address);
      expect(paidA.panel['address-index']).toBe(`${indexA} (receive chain)`);
      await expect(admin.locator('[data-card2crypto="address-explorer"]')).toHaveAttribute('href', `https://mempool.space/testnet/address/${a.address}`);
      await one.close();

      // Classic checkout: another address of the same wallet.
      const checkoutUrl = await classicCheckoutPage(admin);
      const two = await browser.newPage();
      await fillClassicCheckout(two, store, checkoutUrl);
      await two.locator('#place_order').click();
      await two.waitForURL(/\/landing\/\?i=/, { timeout: 180_000 });
      const b = landingAddress(two.url());
      expect(b.address).not.toBe(a.address);
      expect(expected.indexOf(b.address)).toBe(indexA + 1);
      await payInWidget(two, CARDS.success);
      await two.waitForURL(/order-received\/\d+/, { timeout: 180_000 });
      const paidB = await waitForOrder(admin, store, b.orderId, (v) => v.status === 'wc-processing');
      expect(paidB.panel['bitcoin-address']).toBe(b.address);
      await two.close();

      // A third buyer's card is declined: the payment ends unpaid. Once the window has passed, the reconciler's
      // last look (run by the owner from Tools → Scheduled Actions) confirms it with the service and frees the address.
      const three = await browser.newPage();
      await blockCheckout(three, store);
      const c = landingAddress(three.url());
      expect(expected.indexOf(c.address)).toBe(indexA + 2);
      await payInWidget(three, CARDS.refused);
      await three.waitForURL(/order-pay\/\d+/, { timeout: 180_000 });
      expect(orderIdFromUrl(three.url())).toBe(c.orderId);
      await three.close();
      await waitForOrder(admin, store, c.orderId, (v) => v.status === 'wc-failed');
      // The window passes without waiting: the test ends it (window 0: every unpaid payment's window is over).
      await pendingReconcile(admin, store, c.orderId);
      await moveStoreClock(admin, store, 'window', { seconds: 0 });
      await runReconcile(admin, store, c.orderId);

      // The next order takes the freed address, not a new one.
      const four = await browser.newPage();
      await blockCheckout(four, store);
      const d = landingAddress(four.url());
      expect(d.address, 'the freed index is taken first').toBe(c.address);
      await four.close();
      const view = await adminOrder(admin, store, d.orderId);
      expect(view.panel['bitcoin-address']).toBe(c.address);

      // The third buyer opens the old landing link again: its payment is dead and its address is the fourth order's
      // now, so the link never signs that address again; the order gets an address of its own, the wallet's next.
      const reopened = await browser.newPage();
      await reopened.goto(c.landingLink, { waitUntil: 'domcontentloaded', timeout: 180_000 });
      await reopened.waitForURL(/\/landing\/\?i=/, { timeout: 180_000 });
      const again = landingAddress(reopened.url());
      expect(again.orderId).toBe(c.orderId);
      expect(again.address, "never the next order's address").not.toBe(c.address);
      expect(expected.indexOf(again.address)).toBe(indexA + 3);
      await reopened.close();
      await moveStoreClock(admin, store, 'window', { seconds: 20 });

      // The fourth buyer presses "Pay" on the order's payment page ten times: every payment the store signs asks
      // for the order's one address. (An order may ask the service 12 times a minute and start 10 payments an hour:
      // a press past either is told to wait, and takes no address either.)
      const presser = await browser.newPage();
      const signed: string[] = [];
      const waited: string[] = [];
      for (let press = 0; press < 10; press++) {
        await presser.goto(d.payUrl, { waitUntil: 'domcontentloaded', timeout: 180_000 });
        await presser.locator('#place_order').click();
        await presser.waitForURL(/\/landing\/\?i=|\/order-pay\//, { timeout: 180_000, waitUntil: 'domcontentloaded' });
        if (/\/landing\/\?i=/.test(presser.url())) {
          signed.push(landingAddress(presser.url()).address);
        } else {
          waited.push((await presser.locator('.woocommerce-error, .woocommerce-info, .woocommerce-message').allInnerTexts()).join(' '));
        }
      }
      expect(signed.length, `presses that reached the payment page (the others: ${waited.join(' | ')})`).toBeGreaterThanOrEqual(5);
      expect(new Set(signed), 'one address for every press').toEqual(new Set([c.address]));
      for (const words of waited) {
        expect(words).toMatch(/Too many payment requests for this order in a short time|Too many card payments were started for this order in the last hour/);
      }
      await presser.close();
      // No press took an index: the next new order takes the wallet's next one.
      const five = await browser.newPage();
      await blockCheckout(five, store);
      expect(expected.indexOf(landingAddress(five.url()).address)).toBe(indexA + 4);
      await five.close();
    } finally {
      await moveStoreClock(admin, store, 'window', { seconds: null });
      await setSettings(admin, { wallet_mode: 'address' });
    }
  });
});

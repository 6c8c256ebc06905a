/**
 * What the buyer and the owner receive by e-mail (issue 21, point 6), read
 * from the store's outgoing mail as they would read it. One card payment is
 * one buyer e-mail (WooCommerce's "processing" mail, not also its "on hold
 * until we confirm payment" mail seconds before); a failed payment's mail
 * says what happened and carries the pay link; the owner's "does not match"
 * mail comes once per payment, through WooCommerce's mailer and template.
 */
import { expect, test } from './fixtures';
import {
  BUYER,
  CARDS,
  blockCheckout,
  loginAsAdmin,
  operationData,
  orderIdFromUrl,
  partnerSecret,
  payInWidget,
  placeOrder,
  requireWooCommerce,
  runningStore,
  sendCallback,
  serviceHas,
  waitForOrder,
} from './checkout-helpers.js';
import { mailLogPath, mailsAbout, type Mail } from './mail-log.js';

const store = runningStore();
const OWNER = 'admin@example.com';

/** Waits until `check` holds for the mails about an order (mail leaves while the request that sent it ends). */
async function mailsUntil(address: string, orderId: number, check: (mails: Mail[]) => boolean): Promise<Mail[]> {
  await expect.poll(() => check(mailsAbout(address, orderId)), { timeout: 60_000, message: `mail to ${address} about order #${orderId}` }).toBe(true);
  return mailsAbout(address, orderId);
}

test.describe('e-mail about a card payment', () => {
  test.describe.configure({ timeout: 600_000 });
  test.beforeEach(() => {
    requireWooCommerce(store);
    test.skip(mailLogPath() === null, 'the outgoing mail is only readable on a site the harness booted on the native runtime');
  });

  test('a card payment that completes: one e-mail for the buyer, not an "on hold" one before it', async ({ browser }) => {
    const admin = await browser.newPage();
    await loginAsAdmin(admin, store);
    const buyer = await browser.newPage();
    await blockCheckout(buyer, store);
    await payInWidget(buyer, CARDS.success);
    await buyer.waitForURL(/order-received\/\d+/, { timeout: 180_000 });
    const orderId = orderIdFromUrl(buyer.url());
    await waitForOrder(admin, store, orderId, (v) => v.status === 'wc-processing', 180_000);
    const mails = await mailsUntil(BUYER.email, orderId, (m) => m.some((mail) => /being processed/i.test(mail.text)));
    // The order was on hold while the service moved the money (pending 2 onwards): no mail said so.
    expect(
      mails.map((m) => `${m.subject} | ${m.text.slice(0, 160)}`),
      'one mail for one payment',
    ).toHaveLength(1);
    expect(mails[0]!.text).not.toMatch(/on-hold|on hold/i);
  });

  test('a failed payment: the buyer reads what happened and gets the pay link', async ({ request }) => {
    const order = await placeOrder(request, store);
    const secret = partnerSecret(store);
    const closed = operationData(order, 'declined', 102);
    await serviceHas(store, secret, closed);
    expect(await sendCallback(store, secret, closed)).toBe('200 OK');
    const [failed] = await mailsUntil(BUYER.email, order.id, (m) => m.some((mail) => /unsuccessful/i.test(mail.subject)));
    expect(failed!.text).toContain('The card payment was not completed: it was cancelled or timed out before your card was charged.');
    expect(failed!.text).toMatch(new RegExp(`Pay for this order: \\S*order-pay/${order.id}/`));
  });

  test("a payment that does not match: the owner is told once, through WooCommerce's mailer and template", async ({ request }) => {
    const order = await placeOrder(request, store);
    const secret = partnerSecret(store);
    const short = order.params.from_amount - 100;
    for (const [status, code] of [
      ['pending', 2],
      ['success', 6],
    ] as const) {
      const operation = operationData(order, status, code, { amount: short });
      await serviceHas(store, secret, operation);
      expect(await sendCallback(store, secret, operation)).toBe('200 OK');
    }
    const mails = await mailsUntil(OWNER, order.id, (m) => m.some((mail) => mail.subject.includes('does not match')));
    // Give a second mail the time to arrive, if one were sent.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const notices = mailsAbout(OWNER, order.id).filter((m) => m.subject.includes('does not match'));
    expect(notices, mails.map((m) => m.subject).join('\n')).toHaveLength(1);
    expect(notices[0]!.contentType).toMatch(/text\/html/);
    expect(notices[0]!.from).not.toMatch(/^WordPress </);
    expect(notices[0]!.text).toContain('does NOT match this order');
    expect(notices[0]!.body).toMatch(/<a href="[^"]*wc-orders[^"]*"/);
  });
});

/**
 * The block checkout registration (src/blocks.ts) as WooCommerce Blocks sees
 * it: the payment method it registers, its label and content rendered with
 * the real @wordpress/element from the settings PHP gives, and canMakePayment
 * by billing country and by the currency's limits, and the range notice that
 * follows the cart's total. WooCommerce's packages are not on npm (they exist
 * only as wc.* globals in a store), so the test stands in for them:
 * getSetting() returns the data, registerPaymentMethod() records what it is
 * given, and a cart store with WooCommerce's name and getCartTotals()
 * selector is registered in the real @wordpress/data registry.
 */
import { render } from '@testing-library/react';
import type { CanMakePaymentArgument, PaymentMethodConfiguration } from '@woocommerce/blocks-registry';

const mockRegistered: PaymentMethodConfiguration[] = [];
let mockSettings: Record<string, unknown> = {};
jest.mock('@woocommerce/blocks-registry', () => ({ registerPaymentMethod: (options: PaymentMethodConfiguration) => mockRegistered.push(options) }), {
  virtual: true,
});
jest.mock('@woocommerce/settings', () => ({ getSetting: (name: string) => (name === 'card2crypto_data' ? mockSettings : undefined) }), { virtual: true });
jest.mock('@woocommerce/block-data', () => ({ CART_STORE_KEY: 'wc/store/cart' }), { virtual: true });

/** What Blocks_Integration::get_payment_method_data() sends for a store in EUR (limits in cents; texts plain, Plain_Text). */
const DATA = {
  title: 'Card & <crypto>',
  lines: ['Pay by card; the store receives bitcoin.', 'Between 50,00\u00a0€ and 5.000,00\u00a0€.'],
  countries: ['DE', 'FR'],
  min: 5000,
  max: 500000,
  range: [
    '',
    'Card payment is available for orders from 50,00 € to 5.000,00 €. Add to your order to pay by card, or choose another payment method.',
    'Card payment is available for orders from 50,00 € to 5.000,00 €. Split your order to pay by card, or choose another payment method.',
  ],
  alone: false,
  supports: { features: ['products'] },
};

/** The @wordpress/data module the script last ran with (each run gets fresh modules, so a fresh registry). */
let data: {
  select: (store: string) => unknown;
  dispatch: (store: string) => unknown;
  register: (store: unknown) => void;
  createReduxStore: (name: string, options: unknown) => unknown;
};

/** Our notice in a context, as the checkout or cart block would show it. */
const rangeNotice = (context: string) =>
  (data.select('core/notices') as { getNotices: (c: string) => Array<{ id: string; status: string; content: string; isDismissible: boolean }> })
    .getNotices(context)
    .filter((n) => n.id === 'card2crypto-range');

/** The cart's total changes, as WooCommerce's cart store changes when the buyer edits the cart (minor units). */
const cartTotal = (total: string) => (data.dispatch('wc/store/cart') as { setTotal: (t: string) => void }).setTotal(total);

/** Runs the script as the checkout page does, with these settings; returns what it registered. */
function registerWith(settings: Record<string, unknown>): PaymentMethodConfiguration {
  mockSettings = settings;
  mockRegistered.length = 0;
  jest.isolateModules(() => {
    data = require('@wordpress/data');
    // WooCommerce's cart store, registered before our script runs (its wc-blocks-data-store dependency).
    data.register(
      data.createReduxStore('wc/store/cart', {
        reducer: (state = { total_price: '0', currency_code: 'EUR' }, action: { type: string; total?: string }) =>
          action.type === 'SET_TOTAL' ? { ...state, total_price: action.total } : state,
        actions: { setTotal: (total: string) => ({ type: 'SET_TOTAL', total }) },
        selectors: { getCartTotals: (state: unknown) => state },
      }),
    );
    require('../../src/blocks');
  });
  expect(mockRegistered).toHaveLength(1);
  return mockRegistered[0]!;
}

const cart = (country: string | undefined, total: string | undefined): CanMakePaymentArgument => ({
  billingAddress: country === undefined ? {} : { country },
  cartTotals: total === undefined ? {} : { total_price: total },
});

describe('block checkout registration', () => {
  test('registers card2crypto with the features PHP lists', () => {
    const method = registerWith(DATA);
    expect(method.name).toBe('card2crypto');
    expect(method.supports).toEqual({ features: ['products'] });
  });

  test('the label and the aria label are the title from the settings, shown as text (never markup)', () => {
    const method = registerWith(DATA);
    expect(method.ariaLabel).toBe('Card & <crypto>');
    const { container } = render(<>{method.label}</>);
    expect(container.textContent).toBe('Card & <crypto>');
    expect(container.querySelector('crypto')).toBeNull();
  });

  test('the content (and the editor preview) shows each line from the settings as a paragraph', () => {
    const method = registerWith(DATA);
    expect(method.edit).toBe(method.content);
    const { container } = render(<>{method.content}</>);
    expect([...container.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      'Pay by card; the store receives bitcoin.',
      'Between 50,00\u00a0€ and 5.000,00\u00a0€.',
    ]);
  });

  test('canMakePayment: only the service’s countries, and any while the buyer has not chosen one', () => {
    const { canMakePayment } = registerWith(DATA);
    expect(canMakePayment(cart('DE', '10000'))).toBe(true);
    expect(canMakePayment(cart('FR', '10000'))).toBe(true);
    expect(canMakePayment(cart('US', '10000'))).toBe(false);
    expect(canMakePayment(cart(undefined, '10000'))).toBe(true);
    expect(canMakePayment(cart('', '10000'))).toBe(true);
  });

  test('canMakePayment: every country when the service names none', () => {
    const { canMakePayment } = registerWith({ ...DATA, countries: null });
    expect(canMakePayment(cart('US', '10000'))).toBe(true);
    expect(canMakePayment(cart('JP', '10000'))).toBe(true);
  });

  test('canMakePayment: the cart total within the currency’s minimum and maximum, both included', () => {
    const { canMakePayment } = registerWith(DATA);
    expect(canMakePayment(cart('DE', '4999'))).toBe(false);
    expect(canMakePayment(cart('DE', '5000'))).toBe(true);
    expect(canMakePayment(cart('DE', '500000'))).toBe(true);
    expect(canMakePayment(cart('DE', '500001'))).toBe(false);
    // Totals not known yet (the checkout still loading) do not hide the method.
    expect(canMakePayment(cart('DE', undefined))).toBe(true);
  });

  test.each([
    ['the checkout, by its payment options', 'wc/checkout/payments', 'wc/cart'],
    ['the cart', 'wc/cart', 'wc/checkout/payments'],
  ])('outside the range the buyer is told why on %s, following the cart total (WooCommerce never asks canMakePayment then)', (_page, here, elsewhere) => {
    // The checkout block's server-rendered wrapper is what tells the two pages apart.
    document.body.innerHTML =
      here === 'wc/checkout/payments' ? '<div class="wp-block-woocommerce-checkout"></div>' : '<div class="wp-block-woocommerce-cart"></div>';
    registerWith(DATA);
    // The cart not loaded yet (total 0): nothing said.
    expect(rangeNotice(here)).toEqual([]);
    cartTotal('490');
    expect(rangeNotice(here)).toEqual([expect.objectContaining({ status: 'info', isDismissible: false })]);
    expect(rangeNotice(here)[0]!.content).toBe(
      'Card payment is available for orders from 50,00 € to 5.000,00 €. Add to your order to pay by card, or choose another payment method.',
    );
    // Once on the page: the checkout shows the cart's notices too.
    expect(rangeNotice(elsewhere)).toEqual([]);
    cartTotal('600000');
    expect(rangeNotice(here)).toHaveLength(1);
    expect(rangeNotice(here)[0]!.content).toMatch(/Split your order/);
    // Both limits are within.
    cartTotal('500000');
    expect(rangeNotice(here)).toEqual([]);
    cartTotal('4999');
    expect(rangeNotice(here)).toHaveLength(1);
    cartTotal('5000');
    expect(rangeNotice(here)).toEqual([]);
    // An emptied cart says nothing.
    cartTotal('490');
    cartTotal('0');
    expect(rangeNotice(here)).toEqual([]);
    // The store has another method: WooCommerce's own "no payment methods" never shows, nothing to stand in for.
    cartTotal('490');
    expect(document.body.classList.contains('card2crypto-range-alone')).toBe(false);
  });

  test('the only method: while the range message shows, the page is marked so that WooCommerce\'s "no payment methods" gives way to it', () => {
    document.body.innerHTML = '<div class="wp-block-woocommerce-checkout"></div>';
    document.body.className = '';
    registerWith({ ...DATA, alone: true });
    expect(document.body.classList.contains('card2crypto-range-alone')).toBe(false);
    cartTotal('490');
    expect(rangeNotice('wc/checkout/payments')).toHaveLength(1);
    expect(document.body.classList.contains('card2crypto-range-alone')).toBe(true);
    cartTotal('6000');
    expect(rangeNotice('wc/checkout/payments')).toEqual([]);
    expect(document.body.classList.contains('card2crypto-range-alone')).toBe(false);
  });

  test('no range to tell (a currency without limits) says nothing', () => {
    registerWith({ ...DATA, min: 0, max: Number.MAX_SAFE_INTEGER, range: ['', '', ''] });
    cartTotal('1');
    expect(rangeNotice('wc/checkout/payments')).toEqual([]);
    expect(rangeNotice('wc/cart')).toEqual([]);
  });
});

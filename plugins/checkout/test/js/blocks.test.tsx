/**
 * The block checkout registration (src/blocks.ts) as WooCommerce Blocks sees
 * it: the payment method it registers, its label and content rendered with
 * the real @wordpress/element from the settings PHP gives, and canMakePayment
 * by billing country and by the currency's limits. WooCommerce's two packages
 * are not on npm (they exist only as wc.* globals in a store), so the test
 * stands in for them: getSetting() returns the data, registerPaymentMethod()
 * records what it is given.
 */
import { render, screen } from '@testing-library/react';
import type { CanMakePaymentArgument, PaymentMethodConfiguration } from '@woocommerce/blocks-registry';

const mockRegistered: PaymentMethodConfiguration[] = [];
let mockSettings: Record<string, unknown> = {};
jest.mock('@woocommerce/blocks-registry', () => ({ registerPaymentMethod: (options: PaymentMethodConfiguration) => mockRegistered.push(options) }), {
  virtual: true,
});
jest.mock('@woocommerce/settings', () => ({ getSetting: (name: string) => (name === 'card2crypto_data' ? mockSettings : undefined) }), { virtual: true });

/** What Blocks_Integration::get_payment_method_data() sends for a store in EUR (limits in cents). */
const DATA = {
  title: 'Card &amp; crypto',
  lines: ['Pay by card; the store receives bitcoin.', 'Between 50,00&nbsp;€ and 5.000,00&nbsp;€.'],
  countries: ['DE', 'FR'],
  min: 5000,
  max: 500000,
  supports: ['products'],
};

/** Runs the script as the checkout page does, with these settings; returns what it registered. */
function registerWith(data: Record<string, unknown>): PaymentMethodConfiguration {
  mockSettings = data;
  mockRegistered.length = 0;
  jest.isolateModules(() => {
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

  test('the label and the aria label are the title from the settings, entities decoded', () => {
    const method = registerWith(DATA);
    expect(method.ariaLabel).toBe('Card & crypto');
    render(<>{method.label}</>);
    expect(screen.getByText('Card & crypto')).toBeInTheDocument();
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
});

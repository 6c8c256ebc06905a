/**
 * Block checkout registration. Deliberately tiny (budget: 600 B gzipped):
 * the WordPress and WooCommerce packages stay external (wp-scripts' dependency
 * extraction lists them in build/blocks.asset.php), every text and limit is
 * decided in PHP (Blocks_Integration::get_payment_method_data), and nothing
 * the embedded widget needs is loaded here.
 */
import { CART_STORE_KEY } from '@woocommerce/block-data';
import { registerPaymentMethod } from '@woocommerce/blocks-registry';
import { getSetting } from '@woocommerce/settings';
import { dispatch, select, subscribe } from '@wordpress/data';
import { createElement as h } from '@wordpress/element';
import { store as noticesStore } from '@wordpress/notices';

/** Blocks_Integration::get_payment_method_data(): every text plain text (Plain_Text), for React to escape. */
interface Data {
  title: string;
  lines: string[];
  countries: string[] | null;
  min: number;
  max: number;
  /**
   * What to tell a buyer, by outside(): nothing (0), below min (1), above max (2) (Range_Words::messages);
   * while the service refuses the store, its words three times, whatever the total.
   */
  range: [string, string, string];
  /** No other method is offered: our words then replace WooCommerce's "no payment methods" (and its dead order button). */
  alone: boolean;
  /** As registerPaymentMethod takes it. */
  supports: { features: string[] };
}

const data = getSetting<Data>('card2crypto_data');
const content = h('div', null, ...data.lines.map((line) => h('p', null, line)));

/** Below the currency's minimum (1), above its maximum (2), or within (0); a total of 0 or not known yet is within. */
const outside = (total: number) => (total > 0 && total < data.min ? 1 : total > data.max ? 2 : 0);

/**
 * Outside the currency's range the method is not offered (the gateway's
 * is_available() says so on the server, so WooCommerce never asks
 * canMakePayment), and WooCommerce would only say "no payment methods
 * available". Say why, as a notice by the checkout's payment options or on
 * the cart, following the cart's total as the buyer changes it.
 */
let told = '';
subscribe(() => {
  const message = data.range[outside(Number(select(CART_STORE_KEY)?.getCartTotals().total_price))];
  if (message !== told) {
    told = message;
    // The checkout also shows the cart's notices (at its top): there, say it by the payment options instead.
    const context = document.querySelector('.wp-block-woocommerce-checkout') ? 'wc/checkout/payments' : 'wc/cart';
    const notices = dispatch(noticesStore);
    document.body.classList.toggle('card2crypto-range-alone', !!message && data.alone);
    void (message
      ? notices.createNotice('info', message, { id: 'card2crypto-range', context, isDismissible: false })
      : notices.removeNotice('card2crypto-range', context));
  }
}, CART_STORE_KEY);

registerPaymentMethod({
  name: 'card2crypto',
  // A string label is rendered as it is (WooCommerce clones only an element, to pass its components).
  label: data.title,
  ariaLabel: data.title,
  content,
  edit: content,
  // Offered only where it can work: the service's countries, the currency's limits.
  canMakePayment: ({ billingAddress: a, cartTotals: t }) =>
    (!data.countries || !a?.country || data.countries.includes(a.country)) && !outside(Number(t?.total_price)),
  supports: data.supports,
});

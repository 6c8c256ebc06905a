/**
 * Block checkout registration. Deliberately tiny (budget: 600 B gzipped):
 * the WordPress and WooCommerce packages stay external (wp-scripts' dependency
 * extraction lists them in build/blocks.asset.php), every text and limit is
 * decided in PHP (Blocks_Integration::get_payment_method_data), and nothing
 * the embedded widget needs is loaded here.
 */
import { registerPaymentMethod } from '@woocommerce/blocks-registry';
import { getSetting } from '@woocommerce/settings';
import { createElement as h } from '@wordpress/element';
import { decodeEntities as text } from '@wordpress/html-entities';

interface Data {
  title: string;
  lines: string[];
  countries: string[] | null;
  min: number;
  max: number;
  supports: string[];
}

const data = getSetting<Data>('card2crypto_data');
const title = text(data.title);
const content = h('div', null, ...data.lines.map((line) => h('p', null, text(line))));

registerPaymentMethod({
  name: 'card2crypto',
  label: h('span', null, title),
  ariaLabel: title,
  content,
  edit: content,
  // Offered only where it can work: the service's countries, the currency's limits.
  canMakePayment: ({ billingAddress: a, cartTotals: t }) => {
    const total = Number(t?.total_price);
    return (!data.countries || !a?.country || data.countries.includes(a.country)) && !(total < data.min || total > data.max);
  },
  supports: { features: data.supports },
});

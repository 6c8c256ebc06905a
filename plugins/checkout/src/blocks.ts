/**
 * Block checkout registration. Deliberately tiny (budget: 600 B gzipped):
 * WordPress and WooCommerce packages come from their globals, every text and
 * limit is decided in PHP (Blocks_Integration::get_payment_method_data), and
 * nothing the embedded widget needs is loaded here.
 */
interface Data {
  title: string;
  lines: string[];
  countries: string[] | null;
  min: number;
  max: number;
  supports: string[];
}
interface CanPayArgs {
  billingAddress?: { country?: string };
  cartTotals?: { total_price?: string };
}
declare const wc: {
  wcBlocksRegistry: { registerPaymentMethod(options: object): void };
  wcSettings: { getSetting<T>(name: string, fallback?: T): T };
};
declare const wp: {
  element: { createElement(type: unknown, props?: object | null, ...children: unknown[]): unknown };
  htmlEntities: { decodeEntities(text: string): string };
};

const h = wp.element.createElement;
const text = wp.htmlEntities.decodeEntities;
const data = wc.wcSettings.getSetting<Data>('card2crypto_data');
const title = text(data.title);
const content = h('div', null, ...data.lines.map((line) => h('p', null, text(line))));

wc.wcBlocksRegistry.registerPaymentMethod({
  name: 'card2crypto',
  label: h('span', null, title),
  ariaLabel: title,
  content,
  edit: content,
  // Offered only where it can work: the service's countries, the currency's limits.
  canMakePayment: ({ billingAddress: a, cartTotals: t }: CanPayArgs) => {
    const total = Number(t?.total_price);
    return (!data.countries || !a?.country || data.countries.includes(a.country)) && !(total < data.min || total > data.max);
  },
  supports: { features: data.supports },
});

/**
 * Types of the three WooCommerce Blocks packages the block checkout script
 * imports. They are not published to npm (the dependency extraction plugin
 * maps them to wc.wcBlocksRegistry / wc.wcSettings / wc.wcBlocksData and the
 * `wc-blocks-registry` / `wc-settings` / `wc-blocks-data-store` script
 * handles), so only the members used here are typed.
 */
declare module '@woocommerce/blocks-registry' {
  import type { ReactNode } from 'react';

  /** What canMakePayment receives from the checkout (the parts this plugin reads). */
  export interface CanMakePaymentArgument {
    billingAddress?: { country?: string };
    cartTotals?: { total_price?: string };
  }

  export interface PaymentMethodConfiguration {
    name: string;
    label: ReactNode;
    ariaLabel: string;
    content: ReactNode;
    edit: ReactNode;
    canMakePayment: (argument: CanMakePaymentArgument) => boolean | Promise<boolean>;
    supports?: { features?: string[] };
  }

  export function registerPaymentMethod(options: PaymentMethodConfiguration): void;
}

declare module '@woocommerce/settings' {
  export function getSetting<T>(name: string, fallback?: T): T;
}

declare module '@woocommerce/block-data' {
  /** The cart's data store ('wc/store/cart'); its totals are in minor units, as strings. */
  export const CART_STORE_KEY: 'wc/store/cart';
}

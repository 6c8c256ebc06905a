<?php
/**
 * What an order's payment attempts read from WooCommerce, without the
 * plugin's tables: the order reloaded, its total in minor units, and the
 * window a payment stays open (a filter). Whether money is moving for an
 * attempt or its state is final is the Attempt's own (Attempt::in_flight(),
 * ::is_final(), ::payment_started()). The attempts themselves are read
 * through the attempts' repository (Attempt_Store: the current one, money
 * moving, a payment in progress).
 *
 * Built once (Plugin::build()) and passed to the classes that use it.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

use Card2Crypto\Checkout\Rules\Currencies;

defined( 'ABSPATH' ) || exit;

final class Order_Attempts {

	/**
	 * How long an unpaid payment stays open: the buyer may still finish an
	 * operation created (1) and not paid for this long after it started, and
	 * the service ends it then (docs/decisions.md, "Checkout: no second
	 * payment while one may be under way"). One window for the hold-stock
	 * timer (Attempt_Store::payment_in_progress()) and for a new payment (Attempt_Policy).
	 */
	public function payment_window(): int {
		/**
		 * Filters how long an unpaid card payment stays open after it started:
		 * WooCommerce's hold-stock timer leaves an order with such a payment
		 * alone, and no new payment of the order starts, until it ends.
		 *
		 * @since 0.1.0
		 *
		 * @param int $seconds Default HOUR_IN_SECONDS (the service's lifetime of an unpaid operation).
		 */
		return (int) apply_filters( 'card2crypto_checkout_payment_window', HOUR_IN_SECONDS );
	}

	/** The order as stored now: an answer just applied, or another request, may have changed it since it was loaded. */
	public function reloaded( \WC_Order $order ): \WC_Order {
		$fresh = wc_get_order( $order->get_id() );
		return $fresh instanceof \WC_Order ? $fresh : $order;
	}

	/**
	 * The order total in exact minor units.
	 *
	 * @throws Payment_Refused When the total cannot be expressed in the currency's minor units.
	 */
	public function order_amount( \WC_Order $order ): int {
		try {
			return Currencies::to_minor( wc_format_decimal( $order->get_total(), wc_get_price_decimals() ), $order->get_currency() );
		} catch ( \DomainException $e ) {
			throw new Payment_Refused( __( 'The order total cannot be paid by card.', 'card2crypto-checkout' ) );
		}
	}
}

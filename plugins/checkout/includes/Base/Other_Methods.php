<?php
/**
 * Whether the buyer has another way to pay: a payment method other than
 * this one that WooCommerce offers for this cart or order right now
 * (enabled and available). Only then do the buyer's words say "or choose
 * another payment method"; a store whose only method is this one never
 * points the buyer to one that does not exist.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Base;

defined( 'ABSPATH' ) || exit;

final class Other_Methods {

	/** Whether another payment method is enabled and available now; false where WooCommerce cannot tell. */
	public static function exist(): bool {
		if ( ! function_exists( 'WC' ) || ! WC()->payment_gateways() ) {
			return false;
		}
		$available = WC()->payment_gateways()->get_available_payment_gateways();
		unset( $available[ Keys::GATEWAY_ID ] );
		return array() !== $available;
	}
}

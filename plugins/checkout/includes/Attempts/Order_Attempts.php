<?php
/**
 * What an order's payment attempts mean, without the database: the order
 * reloaded, its total in minor units, whether money is moving for an
 * attempt or its state is final, and the window a payment stays open. The
 * attempts themselves are read through the attempts' repository
 * (Attempt_Store: the current one, money moving, a payment in progress).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

use Card2Crypto\Checkout\Rules\Currencies;
use Card2Crypto\Checkout\Rules\Status_Flow;

defined( 'ABSPATH' ) || exit;

final class Order_Attempts {

	/**
	 * How long an unpaid payment stays open: the buyer may still finish an
	 * operation created (1) and not paid for this long after it started, and
	 * the service ends it then (docs/decisions.md, "Checkout: no second
	 * payment while one may be under way"). One window for the hold-stock
	 * timer (Attempt_Store::payment_in_progress()) and for a new payment (Attempt_Policy).
	 */
	public static function payment_window(): int {
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

	/**
	 * When an attempt's payment started (Unix time): the later of when the
	 * buyer was sent to pay and when the service created the operation
	 * (its created_at, when known).
	 */
	public static function window_start( Attempt $attempt, ?string $operation_created_at = null, ?int $now = null ): int {
		$sent    = (int) strtotime( $attempt->created_at() . ' UTC' );
		$created = null !== $operation_created_at && '' !== $operation_created_at
			// The service writes up to 7 fractional digits, which strtotime() does not read.
			? (int) strtotime( (string) preg_replace( '/\.\d+/', '', $operation_created_at ) )
			: 0;
		// A created_at in the future (the service's clock, or a forged answer) never lengthens the window: clamped to now.
		return min( max( $sent, $created ), max( $sent, $now ?? time() ) );
	}

	/** The order as stored now: an answer just applied, or another request, may have changed it since it was loaded. */
	public static function reloaded( \WC_Order $order ): \WC_Order {
		$fresh = wc_get_order( $order->get_id() );
		return $fresh instanceof \WC_Order ? $fresh : $order;
	}

	/** True when money may be moving for this attempt: the buyer paid and no final failure came. */
	public static function in_flight( ?Attempt $attempt ): bool {
		if ( null === $attempt || Status_Flow::NO_CODE === $attempt->status_code() ) {
			return false;
		}
		$step = Status_Flow::find_step( $attempt->status(), $attempt->status_code() );
		return null === $step || ( ! $step['final'] && 1 !== $step['status_code'] ) || Status_Flow::PHASE_SUCCEEDED === $step['phase'];
	}

	/**
	 * The order total in exact minor units.
	 *
	 * @throws Payment_Refused When the total cannot be expressed in the currency's minor units.
	 */
	public static function order_amount( \WC_Order $order ): int {
		try {
			return Currencies::to_minor( wc_format_decimal( $order->get_total(), wc_get_price_decimals() ), $order->get_currency() );
		} catch ( \DomainException $e ) {
			throw new Payment_Refused( __( 'The order total cannot be paid by card.', 'card2crypto-checkout' ) );
		}
	}

	/** Whether the service reported a final status for the attempt (paid, or ended without payment). */
	public static function is_final( Attempt $attempt ): bool {
		return self::final_pair( $attempt->status(), $attempt->status_code() );
	}

	/** Whether a status pair (of an attempt or of one of its operations) is final: paid, or ended without payment. */
	public static function final_pair( string $status, int $status_code ): bool {
		$step = Status_Flow::find_step( $status, $status_code );
		return null !== $step && $step['final'];
	}
}

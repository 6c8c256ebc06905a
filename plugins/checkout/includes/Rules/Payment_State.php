<?php
/**
 * The payment's state as the buyer reads it on the order's page and in the
 * payment-state route's answer (Order_View): one of a few states, whether
 * it is final, and the words. Pure; unit-tested in test/php/words.php
 * (order-view.test.ts, buyer-return.test.ts).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Payment_State {

	/** The buyer's states (the script stops at a final one: paid, failed, on hold, cancelled, refunded). */
	const PAID       = 'paid';
	const FAILED     = 'failed';
	const ON_HOLD    = 'on_hold';
	const CANCELLED  = 'cancelled';
	const REFUNDED   = 'refunded';
	const WAITING    = 'waiting';
	const PROCESSING = 'processing';

	/**
	 * The payment's state for the buyer, in words: one source for the
	 * server-rendered page and the route's answer. Pure.
	 *
	 * @param array $facts {
	 *     @type bool       $paid         The order is paid.
	 *     @type string     $order_status The order's status (without "wc-").
	 *     @type mixed      $status       The current attempt's status, null when the service reported nothing yet.
	 *     @type mixed      $status_code  Its status code.
	 *     @type bool       $mismatch     The payment did not match the order (the order is held for the store).
	 *     @type bool       $others       The store offers another payment method now; absent: as if it did.
	 * }
	 * @return array{state: string, final: bool, message: string}
	 */
	public static function words( array $facts ): array {
		if ( ! empty( $facts['paid'] ) ) {
			return self::state( self::PAID, true, __( 'Paid. The bitcoin was sent to the store.', 'card2crypto-checkout' ) );
		}
		$order_status = (string) ( $facts['order_status'] ?? '' );
		if ( 'refunded' === $order_status ) {
			return self::state( self::REFUNDED, true, __( 'This order was refunded. Contact the store if you have a question about it.', 'card2crypto-checkout' ) );
		}
		if ( 'cancelled' === $order_status ) {
			return self::state( self::CANCELLED, true, __( 'This order was cancelled, so it no longer waits for a payment. Contact the store if you have a question about it.', 'card2crypto-checkout' ) );
		}
		$code = $facts['status_code'] ?? null;
		if ( is_string( $code ) && 1 === preg_match( '/^(0|[1-9][0-9]{0,2})$/', $code ) ) {
			$code = (int) $code;
		}
		$step = null === ( $facts['status'] ?? null ) ? null : Status_Flow::find_step( $facts['status'], $code );
		if ( null !== $step && Status_Flow::PHASE_FAILED === $step['phase'] ) {
			return self::state( self::FAILED, true, Buyer_Words::failure( $step['status_code'], $facts['others'] ?? true ) );
		}
		if ( ! empty( $facts['mismatch'] ) ) {
			return self::state( self::ON_HOLD, true, Buyer_Words::on_hold() );
		}
		if ( null === ( $facts['status'] ?? null ) ) {
			return self::state( self::WAITING, false, __( 'Waiting for the payment. This page shows the result once the service reports it.', 'card2crypto-checkout' ) );
		}
		if ( null === $step ) {
			return self::state( self::PROCESSING, false, __( 'The payment is being reviewed by the store.', 'card2crypto-checkout' ) );
		}
		switch ( $step['phase'] ) {
			case Status_Flow::PHASE_NEEDS_ACTION:
				return self::state( self::PROCESSING, false, __( 'Your card was charged; the store is confirming the payment.', 'card2crypto-checkout' ) );
			case Status_Flow::PHASE_SUCCEEDED:
				return self::state( self::PROCESSING, false, __( 'Your payment was received and is being checked by the store.', 'card2crypto-checkout' ) );
			default:
				return 1 === $step['status_code']
					? self::state( self::WAITING, false, __( 'Waiting for the payment. This page shows the result once the service reports it.', 'card2crypto-checkout' ) )
					: self::state( self::PROCESSING, false, __( 'Your payment is being processed.', 'card2crypto-checkout' ) );
		}
	}
	/** @return array{state: string, final: bool, message: string} */
	private static function state( string $state, bool $final, string $message ): array {
		return array(
			'state'   => $state,
			'final'   => $final,
			'message' => $message,
		);
	}
}

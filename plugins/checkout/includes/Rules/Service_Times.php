<?php
/**
 * The service's times read, and the windows they open: when a fixed rate
 * stops being valid, and when an attempt's payment started (the payment
 * window runs from there: Order_Attempts::payment_window()). Pure,
 * unit-tested in test/start-budget.test.ts.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Service_Times {

	/**
	 * Whether a rate's expired_at (UTC, up to 7 fractional digits, Z) is
	 * still ahead of $now; a time that cannot be read is not.
	 */
	public static function still_valid( string $expired_at, int $now ): bool {
		if ( 1 !== preg_match( '/^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d{1,7})?Z$/D', $expired_at, $m ) ) {
			return false;
		}
		$at = strtotime( $m[1] . ' ' . $m[2] . ' UTC' );
		return false !== $at && $at > $now;
	}

	/**
	 * When a payment started (Unix time): the later of when the buyer was
	 * sent to pay ($sent_at, UTC in MySQL format: the attempt's created_at)
	 * and when the service created the operation (its created_at, when
	 * known). A created_at in the future (the service's clock, or a forged
	 * answer) never lengthens the window: clamped to $now.
	 */
	public static function window_start( string $sent_at, ?string $operation_created_at, int $now ): int {
		$sent    = (int) strtotime( $sent_at . ' UTC' );
		$created = null !== $operation_created_at && '' !== $operation_created_at
			// The service writes up to 7 fractional digits, which strtotime() does not read.
			? (int) strtotime( (string) preg_replace( '/\.\d+/', '', $operation_created_at ) )
			: 0;
		return min( max( $sent, $created ), max( $sent, $now ) );
	}
}

<?php
/**
 * The service's refusal of a request for its timestamp (more than 30 s
 * ahead or 5 s behind its own time: `invalid_parameter`, field
 * `timestamp`), as rules: whether an error is one, and how far off this
 * server's clock is, in words for the log and the owner (the service's Date
 * header, whole seconds). Pure; Service\Clock_Offset records the refusals.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

use Card2Crypto\Checkout\Shared\Api\Partner_Api_Exception;

defined( 'ABSPATH' ) || exit;

final class Clock_Refusal {

	/** Whether the service refused the request for its timestamp (the store's clock is off). */
	public static function is( Partner_Api_Exception $e ): bool {
		return Partner_Api_Exception::HTTP === $e->kind && 400 === $e->status && 'invalid_parameter' === $e->error_code && 'timestamp' === $e->field;
	}

	/** The clock's offset in words, for the log and the owner's status box. */
	public static function words( ?int $offset_ms ): string {
		if ( null === $offset_ms ) {
			return __( 'this server\'s clock is off (the service did not say its own time).', 'card2crypto-checkout' );
		}
		$seconds = (int) round( abs( $offset_ms ) / 1000 );
		return $offset_ms > 0
			/* translators: %d: seconds */
			? sprintf( _n( 'this server\'s clock is %d second behind the service\'s (5 seconds behind at most are accepted).', 'this server\'s clock is %d seconds behind the service\'s (5 seconds behind at most are accepted).', $seconds, 'card2crypto-checkout' ), $seconds )
			/* translators: %d: seconds */
			: sprintf( _n( 'this server\'s clock is %d second ahead of the service\'s (30 seconds ahead at most are accepted).', 'this server\'s clock is %d seconds ahead of the service\'s (30 seconds ahead at most are accepted).', $seconds, 'card2crypto-checkout' ), $seconds );
	}
}

<?php
/**
 * How fast reconciliation asks the service, and how long it waits when the
 * service says it asked too fast; pure, unit-tested in test/reconcile-pace.test.ts.
 *
 * The service limits each partner's requests a second and does not show the
 * threshold (docs/decisions.md, "Checkout: reconciliation rate"): the store
 * spaces its background requests evenly at the setting's rate, so no second
 * ever holds more than that many, and buyers' own requests keep the rest.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Reconcile_Pace {

	/** The longest wait a Retry-After may ask for before the next batch (longer answers are taken as an hour). */
	const MAX_RETRY_WAIT = 3600;

	/** Attempts one batch claims at most, whatever the rate and time allow. */
	const MAX_BATCH = 500;

	/**
	 * Milliseconds the network may shift one request against another on the
	 * way to the service: $rate + 1 requests in a row span at least a second
	 * and this margin, so no second of the service's clock ever holds more
	 * than $rate of them.
	 */
	const JITTER_MS = 50;

	/** Milliseconds between two requests at $rate a second (rounded up: never faster than the rate). */
	public static function interval_ms( int $rate ): int {
		return (int) ceil( ( 1000 + self::JITTER_MS ) / max( 1, $rate ) );
	}

	/**
	 * When the next request may leave (ms): at once for the first, else one
	 * interval after the previous one left, and never before now.
	 */
	public static function next_send_ms( ?int $last_ms, int $rate, int $now_ms ): int {
		return null === $last_ms ? $now_ms : max( $now_ms, $last_ms + self::interval_ms( $rate ) );
	}

	/** Seconds to wait after a 429: its Retry-After, at least 1 s (also when absent), at most MAX_RETRY_WAIT. */
	public static function retry_wait( ?int $retry_after ): int {
		if ( null === $retry_after || $retry_after < 1 ) {
			return 1;
		}
		return min( self::MAX_RETRY_WAIT, $retry_after );
	}

	/** How many due attempts one batch claims: as many as its time allows at the rate (one request each), 1 to MAX_BATCH. */
	public static function batch_size( int $rate, int $seconds ): int {
		return max( 1, min( self::MAX_BATCH, max( 1, $rate ) * max( 1, $seconds ) ) );
	}
}

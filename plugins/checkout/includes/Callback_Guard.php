<?php
/**
 * Checks on the callback route that need no WordPress (unit-tested in
 * test/callback-guard.test.ts):
 *
 * - body_too_large(): refuse an oversized body by its declared length, and by
 *   what was read, before it is parsed or HMAC'd;
 * - count_failure() / over_limit(): a per-address budget of refused
 *   (unsigned, invalid, oversized) callbacks in a time window.
 *
 * A body whose canonical string could also be the string of another body is
 * refused by the shared Callback_Verifier itself (reason "ambiguous";
 * docs/decisions.md, "Callbacks: ambiguous bodies and the service's word").
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

use Card2Crypto\Checkout\Shared\Callback\Callback_Verifier;

defined( 'ABSPATH' ) || exit;

final class Callback_Guard {

	/** A callback is one operation_data (a few KB); 64 KB leaves room for any growth of it. */
	const MAX_BODY_BYTES = 65536;

	/** Refused callbacks allowed per address in one window, before the route answers 429 without reading the body. */
	const FAILURE_LIMIT = 20;

	/** Seconds of the failure window. */
	const FAILURE_WINDOW = 60;

	/**
	 * True when a declared Content-Length or the body read (at most
	 * MAX_BODY_BYTES + 1 bytes of it) is over the limit.
	 */
	public static function body_too_large( ?string $content_length, ?int $bytes_read = null ): bool {
		if ( null !== $content_length && 1 === preg_match( '/^\s*(\d+)\s*$/D', $content_length, $m ) && ( strlen( ltrim( $m[1], '0' ) ) > 9 || (int) $m[1] > self::MAX_BODY_BYTES ) ) {
			return true;
		}
		return null !== $bytes_read && $bytes_read > self::MAX_BODY_BYTES;
	}

	/**
	 * The window after one more refused callback.
	 *
	 * @param array{start?: int, count?: int}|mixed $window What was stored for the address (anything else: a fresh window).
	 * @return array{start: int, count: int}
	 */
	public static function count_failure( $window, int $now ): array {
		if ( ! is_array( $window ) || ! isset( $window['start'], $window['count'] ) || $now - (int) $window['start'] >= self::FAILURE_WINDOW || $now < (int) $window['start'] ) {
			return array(
				'start' => $now,
				'count' => 1,
			);
		}
		return array(
			'start' => (int) $window['start'],
			'count' => (int) $window['count'] + 1,
		);
	}

	/** @param array{start?: int, count?: int}|mixed $window */
	public static function over_limit( $window, int $now ): bool {
		return is_array( $window ) && isset( $window['start'], $window['count'] )
			&& $now - (int) $window['start'] < self::FAILURE_WINDOW && $now >= (int) $window['start']
			&& (int) $window['count'] >= self::FAILURE_LIMIT;
	}

	/**
	 * Callback_Verifier::ambiguity(), the shared library's rule. The verifier
	 * refuses an ambiguous body before Callback_Controller asks this, so for a
	 * verified body it is always null; it stays only while the controller
	 * still asks it (the checkout's rewrite into rooms drops the call).
	 *
	 * @param mixed $node
	 * @return array{field: string, message: string}|null
	 */
	public static function ambiguity( $node ) {
		return Callback_Verifier::ambiguity( $node );
	}
}

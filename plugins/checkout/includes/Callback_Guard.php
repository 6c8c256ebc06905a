<?php
/**
 * Checks on the callback route that need no WordPress (unit-tested in
 * test/callback-guard.test.ts):
 *
 * - body_too_large(): refuse an oversized body by its declared length, and by
 *   what was read, before it is parsed or HMAC'd;
 * - count_failure() / over_limit(): a per-address budget of refused
 *   (unsigned, invalid, oversized) callbacks in a time window;
 * - ambiguity(): refuse a verified body whose canonical string could also be
 *   the string of another body (docs/decisions.md, "Callbacks: ambiguous
 *   bodies and the service's word").
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

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
	 * Why the canonical string of a decoded body (Lossless_Json) cannot tell
	 * it from another body, or null when it can.
	 *
	 * Lines are name:value joined with ";", names are paths joined with ":".
	 * - A member name with ":" reads like a nested path ({"a:b":1} and
	 *   {"a":{"b":1}}): refused. With ";" it could end one line and start the
	 *   next: refused.
	 * - A string value with ";" followed by text holding ":" (before the next
	 *   ";" or its end) reads like a line of its own ({"a":"x;b:1"} and
	 *   {"a":"x","b":"1"}): refused. A ";" with no ":" after it ("Smith; Jr")
	 *   cannot start a line, and a ":" alone only lets the value be read as an
	 *   object under its own name ({"a":"b:c"} and {"a":{"b":"c"}}), which the
	 *   typed shape of every member the plugin reads refuses: both accepted.
	 *
	 * @param mixed $node
	 * @return array{field: string, message: string}|null
	 */
	public static function ambiguity( $node, string $path = '' ) {
		if ( is_array( $node ) ) {
			foreach ( $node as $key => $child ) {
				$key  = (string) $key;
				$name = '' === $path ? $key : $path . '.' . $key;
				if ( false !== strpbrk( $key, ':;' ) ) {
					return array(
						'field'   => $name,
						'message' => 'a member name contains ":" or ";", so the signed string could stand for another body',
					);
				}
				$problem = self::ambiguity( $child, $name );
				if ( null !== $problem ) {
					return $problem;
				}
			}
			return null;
		}
		if ( is_string( $node ) ) {
			$segments = explode( ';', $node );
			array_shift( $segments );
			foreach ( $segments as $segment ) {
				if ( false !== strpos( $segment, ':' ) ) {
					return array(
						'field'   => $path,
						'message' => 'the value contains ";" followed by ":", so the signed string could stand for another body',
					);
				}
			}
		}
		return null;
	}
}

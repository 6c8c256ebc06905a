<?php
/**
 * Checks on the callback route that need no WordPress (unit-tested in
 * test/callback-guard.test.ts):
 *
 * - body_too_large(): refuse an oversized body by its declared length, and by
 *   what was read, before it is parsed or HMAC'd;
 * - count_failure() / over_limit(): a per-address budget of refused
 *   callbacks in a time window; counts_toward_budget(): only bodies that
 *   are not shown to be the service's (oversized, empty, unparseable,
 *   unsigned or wrongly signed) count, never one from an allowlisted
 *   address (docs/decisions.md, "Checkout: callback route limits");
 * - is_route(): whether a REST route is the callback route, matched as
 *   WordPress's REST server matches it.
 *
 * A body whose canonical string could also be the string of another body is
 * refused by the shared Callback_Verifier itself (reason "ambiguous";
 * docs/decisions.md, "Callbacks: ambiguous bodies and the service's word").
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

use Card2Crypto\Checkout\Shared\Callback\Callback_Verifier;
use Card2Crypto\Checkout\Shared\Client\Client_Ip;
defined( 'ABSPATH' ) || exit;

final class Callback_Guard {

	/** The largest callback body: the shared verifier's one limit (64 KB), refused here before it is read. */
	const MAX_BODY_BYTES = Callback_Verifier::MAX_BODY_BYTES;

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
	 * The headers a reverse proxy or CDN sets with the caller's address (the
	 * schema's trust_proxy_header options, core's PROXY_ADDRESS_HEADERS):
	 * the only ones the allowlist may trust. Any other header (Host,
	 * Remote-Addr, ...) is written by the caller.
	 */
	const PROXY_HEADERS = Client_Ip::PROXY_HEADERS;

	/**
	 * The settings as stored, with a trusted proxy header that is one of
	 * PROXY_HEADERS in another case ("x-forwarded-for", saved before the list
	 * existed) written as listed, so it neither fails the settings' rule nor
	 * stops being trusted. Any other value is left for the rule to report.
	 *
	 * @param mixed $settings
	 * @return mixed
	 */
	public static function canonical_settings( $settings ) {
		if ( ! is_array( $settings ) || ! isset( $settings['trust_proxy_header'] ) || ! is_string( $settings['trust_proxy_header'] ) ) {
			return $settings;
		}
		foreach ( self::PROXY_HEADERS as $listed ) {
			if ( 0 === strcasecmp( trim( $settings['trust_proxy_header'] ), $listed ) ) {
				$settings['trust_proxy_header'] = $listed;
			}
		}
		return $settings;
	}

	/** A refused body the signature could not vouch for (too large, empty, unparseable, unsigned, wrongly signed). */
	const UNVERIFIED = 'unverified';

	/** A refused body that is correctly signed (an ambiguous string, a shape the plugin does not accept). */
	const SIGNED = 'signed';

	/**
	 * Whether a refused callback counts against its address's budget: only
	 * a body the secret does not vouch for, and never from an address in the
	 * owner's allowlist. A correctly signed body comes from the service (or
	 * replays one of its bodies): counting it would let twenty replays of a
	 * refused body, or the service's own odd bodies, shut out its genuine
	 * callbacks for a minute.
	 *
	 * @param string $refusal     UNVERIFIED or SIGNED.
	 * @param bool   $allowlisted Whether the owner's allowlist is set and holds the address.
	 */
	public static function counts_toward_budget( string $refusal, bool $allowlisted ): bool {
		return ! $allowlisted && self::UNVERIFIED === $refusal;
	}

	/**
	 * Whether a REST route (as in ?rest_route= or after /wp-json) is $route,
	 * matched the way WP_REST_Server::match_request_to_handler() does: the
	 * trailing slashes rest_api_loaded() strips removed, then
	 * '@^' . route . '$@i', in which "$" also matches before a final newline
	 * ("/card2crypto/v1/callback\n" reaches the route's handler, so it must
	 * meet its early refusals too).
	 */
	public static function is_route( string $path, string $route ): bool {
		return 1 === preg_match( '@^' . preg_quote( $route, '@' ) . '$@i', rtrim( $path, '/\\' ) );
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
}

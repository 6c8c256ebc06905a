<?php
/**
 * The address of the client a request comes from, by the same rule as the
 * callback allowlist (Callback_Guard::client_ip()): the connection's, or,
 * when the owner names the forwarding header their own proxy sets, the last
 * hop in it (entries left of it are the caller's word and can be forged).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Callback;

defined( 'ABSPATH' ) || exit;

final class Client_Address {

	/** @param string $header The trusted proxy header's name ('' for none); only the forwarding headers proxies set are trusted. */
	public static function of( string $header ): string {
		// phpcs:ignore WordPress.Security.ValidatedSanitizedInput -- read, never output; Callback_Guard::client_ip() keeps only an address.
		return Callback_Guard::client_ip( $header, $_SERVER );
	}
}

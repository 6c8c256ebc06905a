<?php
/**
 * The address of the client a request comes from, by the rule both plugins
 * share with the callback allowlist (Client_Ip::of()): the connection's, or,
 * when the owner names the forwarding header their own proxy sets, the last
 * hop in it (entries left of it are the caller's word and can be forged).
 *
 * With no header named, a forwarding header arriving anyway (X-Forwarded-For,
 * Forwarded, X-Real-IP) says the store is likely behind a proxy: every buyer
 * then counts as the proxy's address and shares one budget (Start_Budget).
 * The sighting is recorded cheaply (a transient of a day, written once)
 * for the owner's status box and Site Health (Rules\Proxy_Words says what
 * the owner reads of it). Built once and passed in.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Callback;

use Card2Crypto\Checkout\Shared\Client\Client_Ip;

defined( 'ABSPATH' ) || exit;

final class Client_Address {

	/** The transient recording that a forwarding header arrived while none is trusted: {at, header}. */
	const FORWARDED_SEEN = 'card2crypto_checkout_forwarded_seen';

	/** @param string $header The trusted proxy header's name ('' for none); only the forwarding headers proxies set are trusted. */
	public function of( string $header ): string {
		if ( '' === $header ) {
			// phpcs:ignore WordPress.Security.ValidatedSanitizedInput -- only which header is present is read.
			$this->note_forwarding( $_SERVER );
		}
		// phpcs:ignore WordPress.Security.ValidatedSanitizedInput -- read, never output; Client_Ip::of() keeps only an address.
		return Client_Ip::of( $header, $_SERVER );
	}

	/** Records (once a day at most) that a forwarding header arrived while no client address header is set. */
	private function note_forwarding( array $server ): void {
		$name = Client_Ip::forwarding_header( $server );
		if ( null === $name || ! function_exists( 'set_transient' ) || false !== get_transient( self::FORWARDED_SEEN ) ) {
			return;
		}
		set_transient(
			self::FORWARDED_SEEN,
			array(
				'at'     => time(),
				'header' => $name,
			),
			DAY_IN_SECONDS
		);
	}

	/**
	 * The last sighting of a forwarding header while no client address
	 * header was set (within a day), or null.
	 *
	 * @return array{at: int, header: string}|null
	 */
	public function forwarding_seen(): ?array {
		$seen = get_transient( self::FORWARDED_SEEN );
		return is_array( $seen ) && isset( $seen['at'], $seen['header'] ) ? array(
			'at'     => (int) $seen['at'],
			'header' => (string) $seen['header'],
		) : null;
	}
}

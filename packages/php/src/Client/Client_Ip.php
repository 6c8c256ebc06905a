<?php
/**
 * The one rule both plugins read a client's IP address by: the
 * connection's (REMOTE_ADDR), or, when the site owner names the forwarding
 * header their own reverse proxy or CDN sets (one of PROXY_HEADERS), the
 * last entry of that header: the one the owner's proxy added; entries left
 * of it are the caller's word and can be forged. Any other header (Host,
 * Remote-Addr, ...) is written by the caller and never trusted.
 *
 * Pure: it reads the $_SERVER array it is given, and calls no WordPress
 * function. The checkout uses it for the callback allowlist and the
 * visitors' budgets; the widget (which names no header) for its routes' limit.
 *
 * @package card2crypto
 */

namespace Card2Crypto\Shared\Client;

final class Client_Ip {

	/**
	 * The headers a reverse proxy or CDN sets with the caller's address (the
	 * schema's trust_proxy_header options, core's PROXY_ADDRESS_HEADERS).
	 */
	const PROXY_HEADERS = array( 'X-Forwarded-For', 'X-Real-IP', 'CF-Connecting-IP', 'True-Client-IP', 'Forwarded' );

	/** The forwarding headers proxies set, by their $_SERVER name: their arrival says a proxy is likely in front. */
	const FORWARDING = array(
		'HTTP_X_FORWARDED_FOR' => 'X-Forwarded-For',
		'HTTP_FORWARDED'       => 'Forwarded',
		'HTTP_X_REAL_IP'       => 'X-Real-IP',
	);

	/**
	 * The caller's address. A header that is not one of PROXY_HEADERS (a
	 * value saved before the list) is ignored. Forwarded (RFC 7239) gives
	 * the for= of its last element, without quotes, brackets or port.
	 *
	 * @param string               $header The trusted proxy header's name ('' for none).
	 * @param array<string, mixed> $server $_SERVER, unslashed.
	 */
	public static function of( string $header, array $server ): string {
		$remote = isset( $server['REMOTE_ADDR'] ) && is_string( $server['REMOTE_ADDR'] ) ? trim( $server['REMOTE_ADDR'] ) : '';
		if ( ! in_array( $header, self::PROXY_HEADERS, true ) ) {
			return $remote;
		}
		$key = 'HTTP_' . strtoupper( str_replace( '-', '_', $header ) );
		if ( ! isset( $server[ $key ] ) || ! is_string( $server[ $key ] ) ) {
			return $remote;
		}
		$hops = array_values( array_filter( array_map( 'trim', explode( ',', $server[ $key ] ) ), 'strlen' ) );
		if ( array() === $hops ) {
			return $remote;
		}
		$last = (string) end( $hops );
		if ( 'Forwarded' !== $header ) {
			return $last;
		}
		foreach ( explode( ';', $last ) as $pair ) {
			$parts = explode( '=', $pair, 2 );
			if ( 2 === count( $parts ) && 'for' === strtolower( trim( $parts[0] ) ) ) {
				$for = trim( trim( $parts[1] ), '"' );
				if ( 1 === preg_match( '/^\[([^\]]+)\]/', $for, $m ) ) {
					return $m[1];
				}
				// IPv4 with a port ("192.0.2.60:4711"); a bare IPv6 address has more than one colon.
				return 1 === substr_count( $for, ':' ) ? (string) strstr( $for, ':', true ) : $for;
			}
		}
		return $remote;
	}

	/**
	 * The first forwarding header a request carries (its usual spelling), or null.
	 *
	 * @param array<string, mixed> $server $_SERVER.
	 */
	public static function forwarding_header( array $server ): ?string {
		foreach ( self::FORWARDING as $key => $name ) {
			if ( isset( $server[ $key ] ) && '' !== trim( (string) $server[ $key ] ) ) {
				return $name;
			}
		}
		return null;
	}
}

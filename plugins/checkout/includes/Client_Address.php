<?php
/**
 * The address of the client a request comes from: the connection's, or,
 * when the owner names the header their own proxy sets, the last hop in it
 * (entries left of it are the caller's word and can be forged).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

defined( 'ABSPATH' ) || exit;

final class Client_Address {

	/** @param string $header The trusted proxy header's name ('' for none). */
	public static function of( string $header ): string {
		if ( '' !== $header ) {
			$key = 'HTTP_' . strtoupper( str_replace( '-', '_', $header ) );
			if ( isset( $_SERVER[ $key ] ) ) {
				$hops = array_filter( array_map( 'trim', explode( ',', sanitize_text_field( wp_unslash( $_SERVER[ $key ] ) ) ) ) );
				if ( array() !== $hops ) {
					return (string) end( $hops );
				}
			}
		}
		return isset( $_SERVER['REMOTE_ADDR'] ) ? sanitize_text_field( wp_unslash( $_SERVER['REMOTE_ADDR'] ) ) : '';
	}

	/** This request's client, by the store's settings. */
	public static function current(): string {
		return self::of( (string) Plugin::settings()->get( 'trust_proxy_header' ) );
	}
}

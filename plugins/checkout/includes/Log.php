<?php
/**
 * Log lines of the payment code, with the partner secret and anything shaped
 * like a signature redacted, written through Plugin::log() (WooCommerce's
 * logger, source card2crypto-checkout; errors always, the rest with debug
 * logging on).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

defined( 'ABSPATH' ) || exit;

final class Log {

	public static function write( string $level, string $message ): void {
		Plugin::log( $level, self::redact( $message, Config::load()->secret() ) );
	}

	public static function info( string $message ): void {
		self::write( 'info', $message );
	}

	public static function warning( string $message ): void {
		self::write( 'warning', $message );
	}

	public static function error( string $message ): void {
		self::write( 'error', $message );
	}

	public static function debug( string $message ): void {
		self::write( 'debug', $message );
	}

	/** Removes the secret and 128-hex signatures from a text. */
	public static function redact( string $text, string $secret ): string {
		if ( '' !== $secret ) {
			$text = str_replace( $secret, '[redacted]', $text );
		}
		return (string) preg_replace( '/\b[0-9a-fA-F]{128}\b/', '[signature]', $text );
	}
}

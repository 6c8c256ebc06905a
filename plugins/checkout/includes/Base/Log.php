<?php
/**
 * The plugin's only logger: every line has the partner secret and anything
 * shaped like a signature redacted, and goes to WooCommerce's logger (source
 * card2crypto-checkout; errors always, the rest with debug logging on).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Base;

use Card2Crypto\Checkout\Plugin;

defined( 'ABSPATH' ) || exit;

final class Log {

	public static function write( string $level, string $message ): void {
		if ( 'error' !== $level && true !== Plugin::settings()->get( 'debug_logging' ) ) {
			return;
		}
		$message = self::redact( $message, Config::load()->secret() );
		if ( function_exists( 'wc_get_logger' ) ) {
			wc_get_logger()->log( $level, $message, array( 'source' => 'card2crypto-checkout' ) );
		} else {
			error_log( 'card2crypto-checkout ' . $level . ': ' . $message ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log -- WooCommerce's logger is not loaded.
		}
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

<?php
/**
 * The plugin's only logger: every line has the partner secret and anything
 * shaped like a signature redacted, and goes to WooCommerce's logger (source
 * card2crypto-checkout; errors and notices always, the rest with debug
 * logging on). A notice is a line the owner must be able to find whatever
 * the settings: a change of where the money goes.
 *
 * Like WooCommerce's wc_get_logger(), it is reached from anywhere; what it
 * needs (the credentials to redact, whether debug lines are kept) is handed
 * to it once by the wiring (Plugin::boot() calls wire()), so it names no
 * class that could log.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Base;

defined( 'ABSPATH' ) || exit;

final class Log {

	/** @var (callable(): Credentials)|null */
	private static $credentials = null;

	/** @var (callable(): bool)|null */
	private static $debug = null;

	/**
	 * @param callable(): Credentials $credentials The current credentials (their secret is redacted).
	 * @param callable(): bool        $debug       Whether info, warning and debug lines are kept.
	 */
	public static function wire( callable $credentials, callable $debug ): void {
		self::$credentials = $credentials;
		self::$debug       = $debug;
	}

	public static function write( string $level, string $message ): void {
		if ( 'error' !== $level && 'notice' !== $level && ( null === self::$debug || true !== ( self::$debug )() ) ) {
			return;
		}
		$message = ( null === self::$credentials ? new Credentials( '', '' ) : ( self::$credentials )() )->redact( $message );
		if ( function_exists( 'wc_get_logger' ) ) {
			wc_get_logger()->log( $level, $message, array( 'source' => 'card2crypto-checkout' ) );
		} else {
			error_log( 'card2crypto-checkout ' . $level . ': ' . $message ); // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_error_log -- WooCommerce's logger is not loaded.
		}
	}

	public static function info( string $message ): void {
		self::write( 'info', $message );
	}

	/** Always kept, like an error: what the owner must be able to find (a change of where the money goes). */
	public static function notice( string $message ): void {
		self::write( 'notice', $message );
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
}

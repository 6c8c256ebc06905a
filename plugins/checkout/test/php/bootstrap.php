<?php
/**
 * Test bootstrap (no WordPress): strict errors, the plugin's classes from
 * includes/, and the shared library under Card2Crypto\Checkout\Shared,
 * prefixed on the fly from packages/php/src (mounted at /shared) exactly as
 * the build's prefix step rewrites it.
 */

define( 'C2C_TESTING', true );
error_reporting( E_ALL );
ini_set( 'display_errors', '1' );
set_error_handler(
	static function ( int $severity, string $message, string $file, int $line ): bool {
		throw new ErrorException( $message, 0, $severity, $file, $line );
	}
);

spl_autoload_register(
	static function ( string $class ): void {
		$shared = 'Card2Crypto\\Checkout\\Shared\\';
		if ( 0 === strncmp( $class, $shared, strlen( $shared ) ) ) {
			$file = '/shared/' . str_replace( '\\', '/', substr( $class, strlen( $shared ) ) ) . '.php';
			if ( is_file( $file ) ) {
				$code = preg_replace( '/Card2Crypto(\\\\{1,2})Shared(?![A-Za-z0-9_])/', 'Card2Crypto$1Checkout$1Shared', file_get_contents( $file ) );
				eval( '?>' . $code ); // phpcs:ignore Squiz.PHP.Eval -- test-only prefixing.
			}
			return;
		}
		$own = 'Card2Crypto\\Checkout\\';
		if ( 0 === strncmp( $class, $own, strlen( $own ) ) ) {
			$file = '/plugin/includes/' . str_replace( '\\', '/', substr( $class, strlen( $own ) ) ) . '.php';
			if ( is_file( $file ) ) {
				require $file;
			}
		}
	}
);

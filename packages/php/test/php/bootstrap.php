<?php
/**
 * Test bootstrap: strict errors and a PSR-4 autoloader for the unprefixed
 * library (Card2Crypto\Shared => /c2c/src). The plugins load their own
 * prefixed copies instead (see scripts/prefix.mjs).
 */

error_reporting( E_ALL );
ini_set( 'display_errors', '1' );
set_error_handler(
	static function ( int $severity, string $message, string $file, int $line ): bool {
		if ( ! ( error_reporting() & $severity ) ) {
			return false; // Silenced with @ on purpose.
		}
		throw new ErrorException( $message, 0, $severity, $file, $line );
	}
);

spl_autoload_register(
	static function ( string $class ): void {
		$prefix = 'Card2Crypto\\Shared\\';
		if ( 0 !== strncmp( $class, $prefix, strlen( $prefix ) ) ) {
			return;
		}
		$file = dirname( __DIR__, 2 ) . '/src/' . str_replace( '\\', '/', substr( $class, strlen( $prefix ) ) ) . '.php';
		if ( is_file( $file ) ) {
			require $file;
		}
	}
);

/** Prints one JSON document for the Node side of the test. */
function c2c_test_output( $value ): void {
	echo json_encode( $value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE | JSON_PRESERVE_ZERO_FRACTION );
}

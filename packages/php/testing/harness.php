<?php
/**
 * What every PHP test script run from Node (testing/php-wasm.ts) starts
 * with: strict errors, the shared library's autoloader, and the runner of
 * [function, ...arguments] calls. packages/php is mounted at /php.
 *
 * The plugins ship the library under their own namespace
 * (Card2Crypto\Checkout\Shared, ...), rewritten by scripts/prefix.mjs at
 * build time. c2c_test_load_shared() rewrites it the same way as it loads
 * each class, so a plugin's tests run the code its zip carries.
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

/**
 * Loads Card2Crypto\Shared\… from /php/src, or, given a plugin namespace
 * (Card2Crypto\Checkout), loads it as Card2Crypto\Checkout\Shared\….
 */
function c2c_test_load_shared( string $plugin_namespace = '' ): void {
	$namespace = '' === $plugin_namespace ? 'Card2Crypto\\Shared\\' : $plugin_namespace . '\\Shared\\';
	spl_autoload_register(
		static function ( string $class ) use ( $namespace, $plugin_namespace ): void {
			if ( 0 !== strncmp( $class, $namespace, strlen( $namespace ) ) ) {
				return;
			}
			$file = C2C_TEST_ROOT . '/php/src/' . str_replace( '\\', '/', substr( $class, strlen( $namespace ) ) ) . '.php';
			if ( ! is_file( $file ) ) {
				return;
			}
			if ( '' === $plugin_namespace ) {
				require $file;
				return;
			}
			// The rule of scripts/prefix.mjs: Card2Crypto\Shared (with one or two backslashes) gains the plugin's segment.
			$segment = substr( $plugin_namespace, strlen( 'Card2Crypto\\' ) );
			$code    = preg_replace( '/Card2Crypto(\\\\{1,2})Shared(?![A-Za-z0-9_])/', 'Card2Crypto$1' . $segment . '$1Shared', file_get_contents( $file ) );
			eval( '?>' . $code ); // phpcs:ignore Squiz.PHP.Eval -- test-only prefixing.
		}
	);
}

/** Prints one JSON document for the Node side of the test. */
function c2c_test_output( $value ): void {
	echo json_encode( $value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE | JSON_PRESERVE_ZERO_FRACTION );
}

/**
 * Runs the calls in /work/calls.json ([name, ...arguments] each) against
 * $functions and prints their results: {"value": …}, or {"error": "Class:
 * message"} when one throws, so a test can assert on it.
 */
function c2c_test_run_calls( array $functions ): void {
	if ( '1' === getenv( 'C2C_TEST_CALL_SESSION' ) ) {
		// One process for many batches (PhpRunner::session()): a JSON list of calls a line on standard
		// input, its results a line on standard output, until standard input closes.
		while ( false !== ( $line = fgets( STDIN ) ) ) {
			if ( '' === trim( $line ) ) {
				continue;
			}
			c2c_test_output( c2c_test_calls( $functions, json_decode( $line, true ) ) );
			echo "\n";
			flush();
		}
		return;
	}
	c2c_test_output( c2c_test_calls( $functions, json_decode( file_get_contents( C2C_TEST_ROOT . '/work/calls.json' ), true ) ) );
}

/** The results of [name, ...arguments] calls against $functions: {"value": …} or {"error": "Class: message"} each. */
function c2c_test_calls( array $functions, array $calls ): array {
	$results = array();
	foreach ( $calls as $call ) {
		$name = array_shift( $call );
		try {
			$results[] = array( 'value' => call_user_func_array( $functions[ $name ], $call ) );
		} catch ( Throwable $e ) {
			$results[] = array( 'error' => get_class( $e ) . ': ' . $e->getMessage() );
		}
	}
	return $results;
}

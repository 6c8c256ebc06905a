<?php
/**
 * Test bootstrap (no WordPress): the shared harness, the shared library
 * under Card2Crypto\Checkout\Shared as the plugin's zip carries it, and the
 * plugin's classes from includes/ (mounted at /plugin).
 */

define( 'C2C_TESTING', true );
require C2C_TEST_ROOT . '/php/testing/harness.php';
c2c_test_load_shared( 'Card2Crypto\\Checkout' );

spl_autoload_register(
	static function ( string $class ): void {
		$own = 'Card2Crypto\\Checkout\\';
		if ( 0 === strncmp( $class, $own, strlen( $own ) ) ) {
			$file = C2C_TEST_ROOT . '/plugin/includes/' . str_replace( '\\', '/', substr( $class, strlen( $own ) ) ) . '.php';
			if ( is_file( $file ) ) {
				require $file;
			}
		}
	}
);

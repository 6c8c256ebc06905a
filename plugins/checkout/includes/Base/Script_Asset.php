<?php
/**
 * Registers a browser script built by `wp-scripts build` from the asset file
 * written beside it (build/<name>.asset.php: the script handles it imports
 * and a version that changes with its content), so no dependency list or
 * version is kept by hand.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Base;

defined( 'ABSPATH' ) || exit;

final class Script_Asset {

	/**
	 * Registers build/<name>.js under $handle, in the footer. False when the
	 * plugin was not built (no asset file): the script does not exist either.
	 */
	public static function register( string $handle, string $name ): bool {
		// WooCommerce asks a payment method for its handles more than once per
		// page; wp_register_script() answers false for a handle it already has.
		if ( wp_script_is( $handle, 'registered' ) ) {
			return true;
		}
		$file = dirname( CARD2CRYPTO_CHECKOUT_FILE ) . '/build/' . $name . '.asset.php';
		if ( ! is_readable( $file ) ) {
			return false;
		}
		$asset = require $file;
		return wp_register_script(
			$handle,
			plugins_url( 'build/' . $name . '.js', CARD2CRYPTO_CHECKOUT_FILE ),
			$asset['dependencies'],
			$asset['version'],
			array( 'in_footer' => true )
		);
	}
}

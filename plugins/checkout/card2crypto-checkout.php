<?php
/**
 * Plugin Name:       Card2Crypto Checkout
 * Description:       Buyers pay WooCommerce orders with a bank card (Visa, Mastercard, Maestro, SEPA, Google Pay); the store receives bitcoin.
 * Version:           0.1.0
 * Requires at least: 6.6
 * Requires PHP:      7.4
 * Requires Plugins:  woocommerce
 * Author:            card2crypto
 * License:           GPLv2 or later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       card2crypto-checkout
 * Domain Path:       /languages
 * WC requires at least: 9.8
 * WC tested up to:   11.0
 *
 * @package card2crypto-checkout
 */

defined( 'ABSPATH' ) || exit;

define( 'CARD2CRYPTO_CHECKOUT_VERSION', '0.1.0' );
define( 'CARD2CRYPTO_CHECKOUT_FILE', __FILE__ );

/*
 * Autoloader for this plugin only. Card2Crypto\Checkout\Shared\* is this
 * plugin's own copy of the shared library (lib/shared, written by the build
 * under this namespace), so another plugin's copy is never used here.
 */
spl_autoload_register(
	static function ( string $class ): void {
		$prefix = 'Card2Crypto\\Checkout\\';
		if ( 0 !== strncmp( $class, $prefix, strlen( $prefix ) ) ) {
			return;
		}
		$relative = str_replace( '\\', '/', substr( $class, strlen( $prefix ) ) );
		$file     = 0 === strncmp( $relative, 'Shared/', 7 )
			? __DIR__ . '/lib/shared/' . substr( $relative, 7 ) . '.php'
			: __DIR__ . '/includes/' . $relative . '.php';
		if ( is_readable( $file ) ) {
			require $file;
		}
	}
);

if ( ! is_readable( __DIR__ . '/lib/shared/Library.php' ) || ! is_readable( __DIR__ . '/lib/settings-schema.json' ) ) {
	// A source checkout that was never built: say so instead of failing.
	add_action(
		'admin_notices',
		static function (): void {
			if ( current_user_can( 'activate_plugins' ) ) {
				echo '<div class="notice notice-error"><p>' . esc_html__( 'Card2Crypto Checkout is incomplete: its shared library was not built. Install the plugin from its zip file, or run "npm run build".', 'card2crypto-checkout' ) . '</p></div>';
			}
		}
	);
	return;
}

Card2Crypto\Checkout\Plugin::boot( __FILE__ );

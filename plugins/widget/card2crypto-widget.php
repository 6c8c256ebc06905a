<?php
/**
 * Plugin Name:       Card2Crypto Widget
 * Description:       A widget-area block that lets visitors buy crypto with a bank card through the card-to-crypto purchase widget.
 * Version:           0.1.0
 * Requires at least: 6.6
 * Requires PHP:      7.4
 * Author:            card2crypto
 * License:           GPLv2 or later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       card2crypto-widget
 * Domain Path:       /languages
 *
 * @package card2crypto-widget
 */

defined( 'ABSPATH' ) || exit;

define( 'CARD2CRYPTO_WIDGET_VERSION', '0.1.0' );
define( 'CARD2CRYPTO_WIDGET_FILE', __FILE__ );

/*
 * lib/ is this plugin's copy of the shared library and settings schema: the
 * build writes it and the zip ships it. A source checkout that was never built
 * has none, and then the notice saying so cannot come from lib/ (the one thing
 * missing) nor from any other file of the repository (wp-env and Playground
 * mount each plugin folder alone), so it is the one part each main file keeps.
 */
if ( ! is_readable( __DIR__ . '/lib/shared/Plugin_Bootstrap.php' ) || ! is_readable( __DIR__ . '/lib/settings-schema.php' ) ) {
	add_action(
		'admin_notices',
		static function (): void {
			if ( current_user_can( 'activate_plugins' ) ) {
				wp_admin_notice( esc_html__( 'Card2Crypto Widget is incomplete: its shared library was not built. Install the plugin from its zip file, or run "npm run build".', 'card2crypto-widget' ), array( 'type' => 'error' ) );
			}
		}
	);
	return;
}

require __DIR__ . '/lib/shared/Plugin_Bootstrap.php';
Card2Crypto\Widget\Shared\Plugin_Bootstrap::start( __FILE__, Card2Crypto\Widget\Plugin::class );

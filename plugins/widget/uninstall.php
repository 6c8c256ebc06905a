<?php
/**
 * Uninstall: removes the stored partner secret always, and the plugin's
 * settings only when the site owner asked for it: the plugin's "Delete data
 * on uninstall" setting, or define( 'WC_REMOVE_ALL_DATA', true ) in
 * wp-config.php. This plugin does not need WooCommerce, but that constant is
 * the site-wide "remove all data" request that WooCommerce's own plugins and
 * the checkout plugin honour, so it is not ignored here either.
 * Deactivating never deletes anything.
 *
 * @package card2crypto-widget
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

$card2crypto_settings = get_option( 'card2crypto_widget_settings', array() );
$card2crypto_settings = is_array( $card2crypto_settings ) ? $card2crypto_settings : array();
$card2crypto_asked    = ( defined( 'WC_REMOVE_ALL_DATA' ) && true === WC_REMOVE_ALL_DATA )
	|| 'yes' === ( $card2crypto_settings['delete_data_on_uninstall'] ?? '' );

// The secret's own option (Settings_Store::secret_option_name()): always.
delete_option( 'card2crypto_widget_partner_secret' );
// The last connection check (Connection_Check): a hash of the credentials and the service's answer.
delete_option( 'card2crypto_widget_connection' );
wp_clear_scheduled_hook( 'card2crypto_widget_check_connection' );

if ( $card2crypto_asked ) {
	delete_option( 'card2crypto_widget_settings' );
} elseif ( array_key_exists( 'partner_secret', $card2crypto_settings ) ) {
	// The secret is a credential a deleted plugin has no use for: removed whatever the setting says.
	unset( $card2crypto_settings['partner_secret'] );
	update_option( 'card2crypto_widget_settings', $card2crypto_settings );
}
unset( $card2crypto_settings, $card2crypto_asked );

<?php
/**
 * Uninstall: removes the plugin's settings only when the site owner chose
 * "Delete data on uninstall" (a setting of the schema; without it nothing
 * is deleted). Deactivating never deletes anything.
 *
 * @package card2crypto-widget
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

$card2crypto_settings = get_option( 'card2crypto_widget_settings', array() );
if ( is_array( $card2crypto_settings ) && isset( $card2crypto_settings['delete_data_on_uninstall'] ) && 'yes' === $card2crypto_settings['delete_data_on_uninstall'] ) {
	delete_option( 'card2crypto_widget_settings' );
	delete_option( 'card2crypto_widget_partner_secret' ); // The secret's own option (Settings_Store::secret_option_name()).
}
unset( $card2crypto_settings );

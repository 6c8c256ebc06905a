<?php
/**
 * Uninstall: removes the stored partner secret always, and the plugin's
 * settings only when the site owner chose "Delete data on uninstall" (a
 * setting of the schema). Deactivating never deletes anything.
 *
 * @package card2crypto-widget
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

// The secret's own option (Settings_Store::secret_option_name()): always.
delete_option( 'card2crypto_widget_partner_secret' );

$card2crypto_settings = get_option( 'card2crypto_widget_settings', array() );
if ( is_array( $card2crypto_settings ) && isset( $card2crypto_settings['delete_data_on_uninstall'] ) && 'yes' === $card2crypto_settings['delete_data_on_uninstall'] ) {
	delete_option( 'card2crypto_widget_settings' );
} elseif ( is_array( $card2crypto_settings ) && array_key_exists( 'partner_secret', $card2crypto_settings ) ) {
	// The secret is a credential a deleted plugin has no use for: removed whatever the setting says.
	unset( $card2crypto_settings['partner_secret'] );
	update_option( 'card2crypto_widget_settings', $card2crypto_settings );
}
unset( $card2crypto_settings );

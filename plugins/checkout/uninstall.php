<?php
/**
 * Uninstall: removes the plugin's settings only when the store owner chose
 * "Delete data on uninstall". Deactivating never deletes anything; orders
 * and their notes are always kept.
 *
 * @package card2crypto-checkout
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

$card2crypto_settings = get_option( 'woocommerce_card2crypto_settings', array() );
if ( is_array( $card2crypto_settings ) && isset( $card2crypto_settings['delete_data_on_uninstall'] ) && 'yes' === $card2crypto_settings['delete_data_on_uninstall'] ) {
	delete_option( 'woocommerce_card2crypto_settings' );
}
unset( $card2crypto_settings );

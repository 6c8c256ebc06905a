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
	delete_option( 'card2crypto_checkout_partner_secret' ); // The secret's own option (Settings_Store::secret_option_name()).
	// The payment records (includes/Operation_Store.php) and caches (includes/Availability.php).
	global $wpdb;
	$wpdb->query( "DROP TABLE IF EXISTS {$wpdb->prefix}card2crypto_events" ); // phpcs:ignore WordPress.DB
	$wpdb->query( "DROP TABLE IF EXISTS {$wpdb->prefix}card2crypto_attempts" ); // phpcs:ignore WordPress.DB
	delete_option( 'card2crypto_checkout_db_version' );
	delete_option( 'card2crypto_checkout_countries_last' );
	delete_transient( 'card2crypto_checkout_countries' );
	delete_transient( 'card2crypto_checkout_pairs' );
	if ( function_exists( 'as_unschedule_all_actions' ) ) {
		as_unschedule_all_actions( 'card2crypto_checkout_reconcile' );
	}
}
unset( $card2crypto_settings );

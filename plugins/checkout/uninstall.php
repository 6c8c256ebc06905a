<?php
/**
 * Uninstall (the plugin is deleted, not just deactivated).
 *
 * Always: the stored partner secret is removed; it is a credential, and a
 * deleted plugin has no use for it.
 *
 * Everything else only when the store asked for it, by WooCommerce's own
 * convention (define( 'WC_REMOVE_ALL_DATA', true ) in wp-config.php) or the
 * plugin's "Delete data on uninstall" setting: the settings, the payment
 * tables ({prefix}card2crypto_attempts and _events), the plugin's options and
 * transients (all named card2crypto_checkout_*) and its scheduled
 * reconciliation actions.
 *
 * Never: orders, their notes and the order meta this plugin wrote (operation
 * and transaction ids, masked card data). They are the store's record of a
 * payment, needed for refunds and bookkeeping after the plugin is gone.
 *
 * @package card2crypto-checkout
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

$card2crypto_settings = get_option( 'woocommerce_card2crypto_settings', array() );
$card2crypto_settings = is_array( $card2crypto_settings ) ? $card2crypto_settings : array();
$card2crypto_all      = ( defined( 'WC_REMOVE_ALL_DATA' ) && true === WC_REMOVE_ALL_DATA )
	|| ( isset( $card2crypto_settings['delete_data_on_uninstall'] ) && 'yes' === $card2crypto_settings['delete_data_on_uninstall'] );

// The secret's own option (Settings_Store::secret_option_name()): always.
delete_option( 'card2crypto_checkout_partner_secret' );
// The wallet's extended public key, kept like the secret (it reveals every address of the wallet): always.
delete_option( 'card2crypto_checkout_wallet_key_secret' );

if ( $card2crypto_all ) {
	global $wpdb;
	delete_option( 'woocommerce_card2crypto_settings' );
	$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'card2crypto_events' ) ); // phpcs:ignore WordPress.DB
	$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'card2crypto_attempts' ) ); // phpcs:ignore WordPress.DB
	$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'card2crypto_operations' ) ); // phpcs:ignore WordPress.DB
	$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'card2crypto_addresses' ) ); // phpcs:ignore WordPress.DB
	$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'card2crypto_address_counters' ) ); // phpcs:ignore WordPress.DB
	// Through the API first, so a persistent object cache forgets them too.
	delete_option( 'card2crypto_checkout_db_version' );
	delete_option( 'card2crypto_checkout_countries_last' );
	delete_transient( 'card2crypto_checkout_countries' );
	delete_transient( 'card2crypto_checkout_pairs' );
	// Then whatever else is named card2crypto_checkout_* (per-address and per-credential transients of a minute, with their timeouts).
	foreach ( array( '', '_transient_', '_transient_timeout_' ) as $card2crypto_prefix ) {
		$wpdb->query( $wpdb->prepare( 'DELETE FROM %i WHERE option_name LIKE %s', $wpdb->options, $wpdb->esc_like( $card2crypto_prefix . 'card2crypto_checkout_' ) . '%' ) ); // phpcs:ignore WordPress.DB
	}
	if ( function_exists( 'as_unschedule_all_actions' ) ) {
		as_unschedule_all_actions( '', array(), 'card2crypto-checkout' ); // Every action of the plugin's group, whatever its order.
	}
} elseif ( array_key_exists( 'partner_secret', $card2crypto_settings ) ) {
	unset( $card2crypto_settings['partner_secret'] );
	update_option( 'woocommerce_card2crypto_settings', $card2crypto_settings );
}
unset( $card2crypto_settings, $card2crypto_all, $card2crypto_prefix );

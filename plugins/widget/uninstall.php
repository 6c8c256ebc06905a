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
 * On a multisite network the plugin is deleted for every site at once: each
 * site is gone through in turn (switch_to_blog()), each loses its secret,
 * its last connection check and its visitors' budgets table, and its
 * settings only when that site's own setting asked for it (or
 * WC_REMOVE_ALL_DATA, the whole installation's).
 *
 * @package card2crypto-widget
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

/** What uninstalling does on one site (the current one). */
$card2crypto_uninstall_site = static function (): void {
	$settings = get_option( 'card2crypto_widget_settings', array() );
	$settings = is_array( $settings ) ? $settings : array();
	$asked    = ( defined( 'WC_REMOVE_ALL_DATA' ) && true === WC_REMOVE_ALL_DATA )
		|| 'yes' === ( $settings['delete_data_on_uninstall'] ?? '' );

	// The secret's own option (Settings_Store::secret_option_name()): always.
	delete_option( 'card2crypto_widget_partner_secret' );
	// The last connection check (Connection_Check): a hash of the credentials and the service's answer.
	delete_option( 'card2crypto_widget_connection' );
	wp_clear_scheduled_hook( 'card2crypto_widget_check_connection' );
	// The visitors' budgets (Budget_Table, the shared Visitor_Budget): counts of the last minutes, nobody's data.
	global $wpdb;
	$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'card2crypto_widget_budgets' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.DirectDatabaseQuery.SchemaChange -- the plugin's own table.
	delete_option( 'card2crypto_widget_db_version' );
	wp_clear_scheduled_hook( 'card2crypto_widget_clean_budgets' );

	if ( $asked ) {
		delete_option( 'card2crypto_widget_settings' );
	} elseif ( array_key_exists( 'partner_secret', $settings ) ) {
		// The secret is a credential a deleted plugin has no use for: removed whatever the setting says.
		unset( $settings['partner_secret'] );
		update_option( 'card2crypto_widget_settings', $settings );
	}
};

// Every site of a network in turn, or this one (the shared Network_Sites, as the plugin's own tables go by).
require_once __DIR__ . '/lib/shared/Database/Network_Sites.php';
Card2Crypto\Widget\Shared\Database\Network_Sites::each_site( $card2crypto_uninstall_site );
unset( $card2crypto_uninstall_site );

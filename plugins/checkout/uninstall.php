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
 * On a multisite network the plugin is deleted for every site at once: each
 * site is gone through in turn (switch_to_blog()), and each loses its secret
 * and key, and its data only when that site's own setting asked for it (or
 * wp-config.php's WC_REMOVE_ALL_DATA, which is the whole installation's).
 *
 * @package card2crypto-checkout
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

/** What uninstalling does on one site (the current one). */
$card2crypto_uninstall_site = static function (): void {
	global $wpdb;
	$settings = get_option( 'woocommerce_card2crypto_settings', array() );
	$settings = is_array( $settings ) ? $settings : array();
	$all      = ( defined( 'WC_REMOVE_ALL_DATA' ) && true === WC_REMOVE_ALL_DATA )
		|| ( isset( $settings['delete_data_on_uninstall'] ) && 'yes' === $settings['delete_data_on_uninstall'] );

	// The secret's own option (Settings_Store::secret_option_name()): always.
	delete_option( 'card2crypto_checkout_partner_secret' );
	// The wallet's extended public key, kept like the secret (it reveals every address of the wallet): always.
	delete_option( 'card2crypto_checkout_wallet_key_secret' );
	// The hourly clean-up of the visitors' budgets (Start_Budget::CLEAN_HOOK) and sweep of the queued confirmations
	// (Confirm_Queue::SWEEP_HOOK): nothing left to run them.
	if ( function_exists( 'wp_clear_scheduled_hook' ) ) {
		wp_clear_scheduled_hook( 'card2crypto_checkout_clean_budgets' );
		wp_clear_scheduled_hook( 'card2crypto_checkout_confirm_sweep' );
	}

	if ( ! $all ) {
		if ( array_key_exists( 'partner_secret', $settings ) ) {
			unset( $settings['partner_secret'] );
			update_option( 'woocommerce_card2crypto_settings', $settings );
		}
		return;
	}
	delete_option( 'woocommerce_card2crypto_settings' );
	$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'card2crypto_events' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.DirectDatabaseQuery.SchemaChange
	$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'card2crypto_attempts' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.DirectDatabaseQuery.SchemaChange
	$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'card2crypto_operations' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.DirectDatabaseQuery.SchemaChange
	$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'card2crypto_addresses' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.DirectDatabaseQuery.SchemaChange
	$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'card2crypto_address_counters' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.DirectDatabaseQuery.SchemaChange
	$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $wpdb->prefix . 'card2crypto_budgets' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.DirectDatabaseQuery.SchemaChange
	// Through the API first, so a persistent object cache forgets them too.
	delete_option( 'card2crypto_checkout_db_version' );
	delete_option( 'card2crypto_checkout_countries_last' );
	delete_transient( 'card2crypto_checkout_countries' );
	delete_transient( 'card2crypto_checkout_pairs' );
	delete_option( 'card2crypto_checkout_answer_countries' );
	delete_option( 'card2crypto_checkout_answer_prices' );
	// Then whatever else is named card2crypto_checkout_* (per-address and per-credential transients of a minute, with their timeouts).
	foreach ( array( '', '_transient_', '_transient_timeout_' ) as $prefix ) {
		$wpdb->query( $wpdb->prepare( 'DELETE FROM %i WHERE option_name LIKE %s', $wpdb->options, $wpdb->esc_like( $prefix . 'card2crypto_checkout_' ) . '%' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}
	// Every action of the plugin's group, whatever its order (a site without WooCommerce has no queue: nothing to do).
	$suppress = $wpdb->suppress_errors( true );
	try {
		if ( function_exists( 'as_unschedule_all_actions' ) ) {
			as_unschedule_all_actions( '', array(), 'card2crypto-checkout' );
		} elseif ( is_multisite() ) {
			// WooCommerce active on this site alone: Action Scheduler is not loaded in the network's admin, its tables are there.
			$wpdb->query( $wpdb->prepare( 'DELETE a FROM %i a JOIN %i g ON g.group_id = a.group_id WHERE g.slug = %s AND a.status = %s', $wpdb->prefix . 'actionscheduler_actions', $wpdb->prefix . 'actionscheduler_groups', 'card2crypto-checkout', 'pending' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		}
	} catch ( \Throwable $e ) {
		unset( $e ); // The queue could not be read: its actions find no plugin to run and fail on their own.
	} finally {
		$wpdb->suppress_errors( $suppress );
	}
};

// Every site of a network in turn, or this one (the shared Network_Sites, as the plugin's own tables go by).
require_once __DIR__ . '/lib/shared/Database/Network_Sites.php';
Card2Crypto\Checkout\Shared\Database\Network_Sites::each_site( $card2crypto_uninstall_site );
unset( $card2crypto_uninstall_site );

<?php
/**
 * Steps of test/wordpress/multisite.test.ts inside a multisite network of
 * the harness (run by the harness's runPhp with WordPress loaded on one site
 * of it, the one the request's path names; test/support/reconcile-store.ts
 * writes $c2c_step = array( action, input, out ) before requiring this file).
 * The steps that read a site's state name the plugin's tables, options and
 * queue group literally: they also run after the plugin is deleted.
 *
 * - "make_site": {path, title}: a new site of the network (wp_insert_site()); its id.
 * - "network_activate": both plugins, active on the main site, activated for the whole network instead.
 * - "activate_woocommerce": WooCommerce activated on this site (its own request, as in wp-admin).
 * - "tables": every table of the plugin in the database, by name.
 * - "settings": {values}: merges values into this site's checkout settings; this site's id and settings.
 * - "wallet": {key, gap_limit}: a new address per order from the extended public key `key`, in the sandbox.
 * - "take": {client}: a new order whose first payment is signed now (Order_Address::for_signing()):
 *   its address and index, or the words the buyer is refused with.
 * - "find": {partner_operation_id, address}: this site's attempt of that id and its row of that address.
 * - "counters": this site's address counters ({wallet: next index}).
 * - "spent": {client}: the client's budget of new addresses spent on this site (Start_Budget).
 * - "lock_names": {other}: the batch lock's name on this site, and on site `other` under switch_to_blog().
 * - "queue": the reconciliation batch queued on this site (Reconciler->ensure_batch()); this site's pending actions.
 * - "notice": the admin notices on this site's payment settings page (the wallet another shop uses).
 * - "delete_site": {id}: wp_delete_site(), as the network's Sites screen does.
 * - "widget_settings": {values}: merges values into this site's widget settings.
 * - "uninstall": both plugins deactivated for the network, then uninstalled (uninstall_plugin(): uninstall.php;
 *   the plugin's files are never deleted: they are the repository's).
 * - "state": this site's plugin options, tables and pending actions.
 *
 * @package card2crypto-checkout
 */

// phpcs:disable WordPress.WP.AlternativeFunctions, WordPress.DB -- CLI-only test code.

use Card2Crypto\Checkout\Admin\Address_Gap_Notice;
use Card2Crypto\Checkout\Attempts\Address_Store;
use Card2Crypto\Checkout\Attempts\Payment_Refused;
use Card2Crypto\Checkout\Attempts\Start_Budget;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Payment\Order_Address;
use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Service\Reconciler;
use Card2Crypto\Checkout\Attempts\Tables;
use Card2Crypto\Checkout\Attempts\Attempt_Store;

const C2C_MS_PLUGINS = array( 'card2crypto-checkout/card2crypto-checkout.php', 'card2crypto-widget/card2crypto-widget.php' );

/** This site's pending actions of the plugin's group (by hook), read from its own Action Scheduler tables. */
function c2c_ms_pending(): array {
	global $wpdb;
	$rows = $wpdb->get_results(
		$wpdb->prepare( 'SELECT a.hook, COUNT(*) AS n FROM %i a JOIN %i g ON g.group_id = a.group_id WHERE g.slug = %s AND a.status = %s GROUP BY a.hook', $wpdb->prefix . 'actionscheduler_actions', $wpdb->prefix . 'actionscheduler_groups', 'card2crypto-checkout', 'pending' ),
		ARRAY_A
	);
	$out  = array();
	foreach ( (array) $rows as $row ) {
		$out[ $row['hook'] ] = (int) $row['n'];
	}
	return $out;
}

/** Every table whose name holds card2crypto_, sorted. */
function c2c_ms_tables(): array {
	global $wpdb;
	$tables = $wpdb->get_col( $wpdb->prepare( 'SHOW TABLES LIKE %s', '%' . $wpdb->esc_like( 'card2crypto_' ) . '%' ) );
	sort( $tables );
	return $tables;
}

function c2c_ms_step( string $action, array $input ) {
	global $wpdb;
	switch ( $action ) {
		case 'make_site':
			$id = wp_insert_site(
				array(
					'domain'  => get_network()->domain,
					'path'    => (string) $input['path'],
					'title'   => (string) $input['title'],
					'user_id' => 1,
				)
			);
			if ( is_wp_error( $id ) ) {
				throw new RuntimeException( $id->get_error_message() );
			}
			return array(
				'id'     => (int) $id,
				'prefix' => $wpdb->get_blog_prefix( (int) $id ),
			);

		case 'network_activate':
			require_once ABSPATH . 'wp-admin/includes/plugin.php';
			foreach ( C2C_MS_PLUGINS as $plugin ) {
				deactivate_plugins( $plugin, true ); // This site's activation, without its hooks: the network's replaces it.
				$done = activate_plugin( $plugin, '', true );
				if ( is_wp_error( $done ) ) {
					throw new RuntimeException( $plugin . ': ' . $done->get_error_message() );
				}
			}
			return array_keys( (array) get_site_option( 'active_sitewide_plugins', array() ) );

		case 'activate_woocommerce':
			require_once ABSPATH . 'wp-admin/includes/plugin.php';
			$done = activate_plugin( 'woocommerce/woocommerce.php' );
			if ( is_wp_error( $done ) ) {
				throw new RuntimeException( $done->get_error_message() );
			}
			update_option( 'woocommerce_currency', 'EUR' );
			delete_transient( '_wc_activation_redirect' );
			return get_option( 'active_plugins' );

		case 'tables':
			return c2c_ms_tables();

		case 'settings':
			$settings = get_option( 'woocommerce_card2crypto_settings', array() );
			update_option( 'woocommerce_card2crypto_settings', array_merge( is_array( $settings ) ? $settings : array(), (array) ( $input['values'] ?? array() ) ) );
			return array(
				'site'     => get_current_blog_id(),
				'settings' => get_option( 'woocommerce_card2crypto_settings' ),
			);

		case 'wallet':
			update_option( 'card2crypto_checkout_wallet_key_secret', array( 'value' => (string) $input['key'] ), false );
			return c2c_ms_step(
				'settings',
				array(
					'values' => array(
						'environment' => 'sandbox',
						'wallet_mode' => 'xpub',
						'gap_limit'   => (string) ( $input['gap_limit'] ?? '20' ),
					),
				)
			);

		case 'take':
			$config = Plugin::service( Config::class );
			$order  = wc_create_order();
			$order->set_currency( $config->currency() );
			$order->set_payment_method( 'card2crypto' );
			$order->set_payment_method_title( 'Card' );
			$order->set_billing_email( 'buyer@example.com' );
			$order->set_total( '79.00' );
			$order->set_status( 'pending' );
			$order->save();
			$pid     = 'wc-' . $order->get_id() . '-' . wp_generate_password( 8, false );
			$attempt = Plugin::service( Attempt_Store::class )->create_attempt( $order->get_id(), $pid, 7900, $config->currency(), '' );
			try {
				$signed = Plugin::service( Order_Address::class )->for_signing( $order, $attempt, (string) $input['client'] );
			} catch ( Payment_Refused $e ) {
				return array(
					'order'                => $order->get_id(),
					'partner_operation_id' => $pid,
					'refused'              => $e->getMessage(),
				);
			}
			$meta = Plugin::service( Order_Address::class )->of_order( wc_get_order( $order->get_id() ) );
			return array(
				'order'                => $order->get_id(),
				'partner_operation_id' => $pid,
				'address'              => $signed->wallet(),
				'index'                => $meta['index'] ?? null,
			);

		case 'find':
			$row = Plugin::service( Address_Store::class )->of_address( (string) $input['address'] );
			return array(
				'attempt' => Plugin::service( Attempt_Store::class )->attempt_by_partner_id( (string) $input['partner_operation_id'] ),
				'address' => null === $row ? null : array(
					'index' => $row['address_index'],
					'order' => $row['order_id'],
					'state' => $row['state'],
				),
			);

		case 'counters':
			$out = array();
			foreach ( $wpdb->get_results( $wpdb->prepare( 'SELECT wallet, next_index FROM %i', Plugin::service( Tables::class )->address_counters_table() ), ARRAY_A ) as $row ) {
				$out[ $row['wallet'] ] = (int) $row['next_index'];
			}
			return $out;

		case 'spent':
			return Plugin::service( Start_Budget::class )->spent( 'address_client_' . md5( (string) $input['client'] ) );

		case 'lock_names':
			$mine = Plugin::service( Shared_Store::class )->lock_name( Reconciler::BATCH_LOCK );
			switch_to_blog( (int) $input['other'] );
			$other = Plugin::service( Shared_Store::class )->lock_name( Reconciler::BATCH_LOCK );
			restore_current_blog();
			return array(
				'mine'  => $mine,
				'other' => $other,
				'back'  => Plugin::service( Shared_Store::class )->lock_name( Reconciler::BATCH_LOCK ),
			);

		case 'queue':
			Plugin::service( Reconciler::class )->ensure_batch( time() + 3600 );
			return c2c_ms_pending();

		case 'notice':
			$_GET['page']    = 'wc-settings';
			$_GET['tab']     = 'checkout';
			$_GET['section'] = 'card2crypto';
			ob_start();
			Plugin::service( Address_Gap_Notice::class )->notice();
			return ob_get_clean();

		case 'delete_site':
			$deleted = wp_delete_site( (int) $input['id'] );
			if ( is_wp_error( $deleted ) ) {
				throw new RuntimeException( $deleted->get_error_message() );
			}
			return (int) $deleted->blog_id;

		case 'widget_settings':
			$settings = get_option( 'card2crypto_widget_settings', array() );
			update_option( 'card2crypto_widget_settings', array_merge( is_array( $settings ) ? $settings : array(), (array) $input['values'] ) );
			return get_option( 'card2crypto_widget_settings' );

		case 'uninstall':
			require_once ABSPATH . 'wp-admin/includes/plugin.php';
			deactivate_plugins( C2C_MS_PLUGINS, false, true );
			$ran = array();
			foreach ( C2C_MS_PLUGINS as $plugin ) {
				$ran[ $plugin ] = uninstall_plugin( $plugin );
			}
			return $ran;

		case 'state':
			$names = array( 'woocommerce_card2crypto_settings', 'card2crypto_checkout_partner_secret', 'card2crypto_checkout_wallet_key_secret', 'card2crypto_checkout_db_version', 'card2crypto_widget_settings', 'card2crypto_widget_partner_secret' );
			$found = array();
			foreach ( $names as $name ) {
				$value = $wpdb->get_var( $wpdb->prepare( 'SELECT option_value FROM %i WHERE option_name = %s', $wpdb->options, $name ) );
				if ( null !== $value ) {
					$found[ $name ] = maybe_unserialize( $value );
				}
			}
			return array(
				'site'    => get_current_blog_id(),
				'options' => $found,
				'tables'  => array_values(
					array_filter(
						c2c_ms_tables(),
						static function ( string $table ) use ( $wpdb ): bool {
							return 1 === preg_match( '/^' . preg_quote( $wpdb->prefix, '/' ) . 'card2crypto_/', $table );
						}
					)
				),
				'pending' => c2c_ms_pending(),
			);
	}
	throw new RuntimeException( "unknown step {$action}" );
}

try {
	$c2c_result = array( 'value' => c2c_ms_step( $c2c_step['action'], $c2c_step['input'] ) );
} catch ( Throwable $c2c_error ) {
	$c2c_result = array( 'error' => get_class( $c2c_error ) . ': ' . $c2c_error->getMessage() );
}
file_put_contents( $c2c_step['out'], wp_json_encode( $c2c_result ) );

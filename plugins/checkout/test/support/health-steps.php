<?php
/**
 * Steps of test/wordpress/privacy-health.test.ts inside a real store (run by
 * the harness's runPhp with WordPress loaded as the admin; the test writes
 * $c2c_step = array( action, input, out ) before requiring this file):
 *
 * - "settings": merges values into the checkout's settings (written as stored).
 * - "option": sets (value, written as stored) or deletes (no value) an option.
 * - "new_address": a new order whose attempt takes the wallet's next address.
 * - "wc_remove": {id}: WooCommerce's own removal of the order's personal data.
 * - "health": runs every Site Health direct test of both plugins as
 *   Tools → Site Health does (WP_Site_Health::get_tests(), then each test),
 *   and says which of the plugins' tests are registered.
 * - "math": the checkout's GMP/BCMath check with this host's extensions and
 *   with none (a host without both cannot be made here).
 * - "callbacks": {verified, refused: [[reason, age]]}: the callbacks' record
 *   as Callback_Health keeps it, written afresh (ages in seconds).
 * - "late_action": {age}: an action of the checkout's Action Scheduler group
 *   `age` seconds past due; {clear: true} removes it.
 * - "service_check": the checkout asks the service (Service_Health::ask()),
 *   as its background check does; returns the state kept.
 * - "widget_check": the widget asks the service (Connection_Check's background check).
 * - "export": {email}: WooCommerce's order exporter for the e-mail, as
 *   Tools → Export Personal Data runs it; returns the exported items.
 * - "erase": {email, remove}: every eraser for the e-mail, in WordPress's
 *   order and page by page, with WooCommerce's "Remove personal data from
 *   orders on request" set to `remove`; returns each eraser's answers.
 * - "order": {id}: what the order keeps of the payment.
 * - "forwarded": {header?}: a visitor's payment request arriving with
 *   `header` (X-Forwarded-For, Forwarded or X-Real-IP), read as the
 *   checkout reads a client's address (Client_Address::of() with the
 *   configured header); {clear: true} forgets the sighting. Returns the
 *   sighting kept and the settings page's status box.
 *
 * @package card2crypto-checkout
 */

use Card2Crypto\Checkout\Admin\Health_Checks;
use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Service\Callback_Health;
use Card2Crypto\Checkout\Service\Reconciler;
use Card2Crypto\Checkout\Service\Service_Health;
use Card2Crypto\Checkout\Shared\Btc\Bip32;
use Card2Crypto\Checkout\Attempts\Attempt_Store;

const C2C_LATE_HOOK = 'card2crypto_checkout_test_late';

/** An option written as stored, around update_option's filters (the settings' save rules). */
function c2c_health_raw_option( string $name, $value ): void {
	global $wpdb;
	$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name = %s", $name ) );
	$wpdb->insert( $wpdb->options, array( 'option_name' => $name, 'option_value' => maybe_serialize( $value ), 'autoload' => 'off' ) );
	wp_cache_delete( 'alloptions', 'options' );
	wp_cache_delete( $name, 'options' );
}

function c2c_health_step( string $action, array $input ) {
	switch ( $action ) {
		case 'settings':
			// As stored, around the settings' save rules (a production environment with a sandbox address, say).
			$settings = get_option( Keys::SETTINGS_OPTION, array() );
			c2c_health_raw_option( Keys::SETTINGS_OPTION, array_merge( is_array( $settings ) ? $settings : array(), $input ) );
			return get_option( Keys::SETTINGS_OPTION );

		case 'option':
			if ( array_key_exists( 'value', $input ) ) {
				c2c_health_raw_option( $input['name'], $input['value'] );
			} else {
				delete_option( $input['name'] );
			}
			return get_option( $input['name'], null );

		case 'new_address':
			// A new order whose first payment is signed: it takes the wallet's next address (Order_Address::for_signing()).
			$addresses = Plugin::service( Card2Crypto\Checkout\Payment\Order_Address::class );
			$order     = wc_create_order();
			$order->set_currency( 'EUR' );
			$order->set_payment_method( Keys::GATEWAY_ID );
			$order->set_total( '25.00' );
			$order->save();
			$attempt = Plugin::service( Attempt_Store::class )->create_attempt( $order->get_id(), 'wc-' . $order->get_id() . '-' . bin2hex( random_bytes( 6 ) ), 2500, 'EUR', '' );
			$attempt = $addresses->for_signing( $order, $attempt, '198.51.100.' . wp_rand( 1, 254 ) . '-' . bin2hex( random_bytes( 4 ) ) );
			return $addresses->gap() + array( 'address' => $attempt->wallet() );

		case 'wc_remove':
			// WooCommerce's own removal of an order's personal data (its bulk action, its clean-up of old orders).
			WC_Privacy_Erasers::remove_order_personal_data( wc_get_order( (int) $input['id'] ) );
			return true;

		case 'health':
			require_once ABSPATH . 'wp-admin/includes/class-wp-site-health.php';
			$results = array();
			foreach ( WP_Site_Health::get_tests()['direct'] as $id => $test ) {
				if ( 0 === strpos( (string) $id, 'card2crypto_' ) ) {
					$results[ $id ] = call_user_func( $test['test'] ) + array( 'test_label' => $test['label'] );
				}
			}
			return $results;

		case 'math':
			return array(
				'host' => Bip32::support(),
				'here' => Plugin::service( Health_Checks::class )->math( true, Bip32::support() ),
				'none' => Plugin::service( Health_Checks::class )->math( true, array( 'available' => false, 'backend' => null ) ),
				'off'  => Plugin::service( Health_Checks::class )->math( false, array( 'available' => false, 'backend' => null ) ),
			);

		case 'callbacks':
			delete_option( Callback_Health::OPTION );
			if ( isset( $input['verified'] ) ) {
				Plugin::service( Callback_Health::class )->record_verified( time() - (int) $input['verified'] );
			}
			foreach ( $input['refused'] ?? array() as $refusal ) {
				Plugin::service( Callback_Health::class )->record_refused( (string) $refusal[0], time() - (int) $refusal[1] );
			}
			return Plugin::service( Callback_Health::class )->summary();

		case 'late_action':
			as_unschedule_all_actions( C2C_LATE_HOOK );
			if ( empty( $input['clear'] ) ) {
				as_schedule_single_action( time() - (int) $input['age'], C2C_LATE_HOOK, array(), Reconciler::GROUP );
			}
			return count( as_get_scheduled_actions( array( 'hook' => C2C_LATE_HOOK, 'status' => ActionScheduler_Store::STATUS_PENDING ), 'ids' ) );

		case 'forwarded':
			if ( ! empty( $input['clear'] ) ) {
				delete_transient( Card2Crypto\Checkout\Callback\Client_Address::FORWARDED_SEEN );
				return null;
			}
			$server = array(
				'X-Forwarded-For' => 'HTTP_X_FORWARDED_FOR',
				'Forwarded'       => 'HTTP_FORWARDED',
				'X-Real-IP'       => 'HTTP_X_REAL_IP',
			)[ (string) $input['header'] ];
			$_SERVER['REMOTE_ADDR'] = '10.0.0.5';
			$_SERVER[ $server ]     = 'HTTP_FORWARDED' === $server ? 'for=203.0.113.9' : '203.0.113.9';
			$client                 = Plugin::service( Card2Crypto\Checkout\Callback\Client_Address::class )->of( Plugin::service( Config::class )->trust_proxy_header() );
			unset( $_SERVER[ $server ] );
			ob_start();
			Plugin::service( Card2Crypto\Checkout\Settings\Settings_Status::class )->render( Plugin::service( Card2Crypto\Checkout\Partner\Service_Gateway::class ) );
			return array(
				'client' => $client,
				'seen'   => Plugin::service( Card2Crypto\Checkout\Callback\Client_Address::class )->forwarding_seen(),
				'box'    => (string) ob_get_clean(),
			);

		case 'service_check':
			$answer = Plugin::service( Service_Health::class )->ask( 'admin' );
			return array(
				'error' => null === $answer->error() ? null : $answer->error()->getMessage(),
				'state' => Plugin::service( Service_Health::class )->state(),
			);

		case 'widget_check':
			$connection = Card2Crypto\Widget\Plugin::service( Card2Crypto\Widget\Connection\Connection_Check::class );
			$connection->run_scheduled();
			return $connection->last();

		case 'export':
			$exporters = apply_filters( 'wp_privacy_personal_data_exporters', array() );
			$answer    = call_user_func( $exporters['woocommerce-customer-orders']['callback'], $input['email'], 1 );
			return $answer['data'];

		case 'erase':
			update_option( 'woocommerce_erasure_request_removes_order_data', $input['remove'] ? 'yes' : 'no' );
			$erasers = apply_filters( 'wp_privacy_personal_data_erasers', array() );
			$answers = array();
			foreach ( $erasers as $id => $eraser ) {
				$page = 1;
				do {
					$answer           = call_user_func( $eraser['callback'], $input['email'], $page++ );
					$answers[ $id ][] = $answer;
				} while ( empty( $answer['done'] ) && $page < 20 );
			}
			return array(
				'order'   => array_keys( $erasers ),
				'answers' => $answers,
			);

		case 'order':
			$order = wc_get_order( (int) $input['id'] );
			return array(
				'status'         => $order->get_status(),
				'payment_method' => $order->get_payment_method(),
				'billing_email'  => $order->get_billing_email(),
				'transaction_id' => $order->get_transaction_id(),
				'operation'      => $order->get_meta( Keys::META_OPERATION ),
				'attempts'       => Plugin::service( Attempt_Store::class )->attempts_of_order( (int) $input['id'] ),
				'operations'     => Plugin::service( Operation_Store::class )->operations_of_order( (int) $input['id'] ),
				'anonymized'     => $order->get_meta( '_anonymized' ),
			);
	}
	throw new RuntimeException( "unknown step {$action}" );
}

try {
	$c2c_result = array( 'value' => c2c_health_step( $c2c_step['action'], $c2c_step['input'] ) );
} catch ( Throwable $c2c_error ) {
	$c2c_result = array( 'error' => get_class( $c2c_error ) . ': ' . $c2c_error->getMessage() . ' at ' . $c2c_error->getFile() . ':' . $c2c_error->getLine() );
}
file_put_contents( $c2c_step['out'], wp_json_encode( $c2c_result ) );

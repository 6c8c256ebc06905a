<?php
/**
 * Steps of test/wordpress/embedded-tabs.test.ts inside a real store (run by
 * the harness's runPhp with WordPress loaded; phpStep() writes
 * $c2c_step = array( action, input, out ) before requiring this file):
 *
 * - "embedded": the checkout's embedded flow (the widget on the order's payment page).
 * - "order": a new guest order awaiting card payment: its id, key and order-pay (receipt) page.
 * - "state": {order}: the order's status, its notes (oldest first), its
 *   attempts, the end of a decline's retry wait and our pending actions for it.
 * - "retry_over": {order}: the widget's retry window ends now (time moved on,
 *   not waited for): the mark set in the past and the action run as its time had come.
 *
 * @package card2crypto-checkout
 */

use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Attempts\Tables;

// C2C_RETRY_UNTIL and C2C_RETRY_HOOK, by value: the steps also run against code without them
// (a test must fail on the old code for what it does, not for a missing name).
const C2C_RETRY_UNTIL = '_card2crypto_retry_until';
const C2C_RETRY_HOOK  = 'card2crypto_checkout_widget_retry_over';

function c2c_embedded_step( string $action, array $input ) {
	global $wpdb;
	switch ( $action ) {
		case 'embedded':
			$settings = get_option( 'woocommerce_card2crypto_settings', array() );
			update_option( 'woocommerce_card2crypto_settings', array_merge( is_array( $settings ) ? $settings : array(), array( 'payment_flow' => 'embedded' ) ) );
			return true;

		case 'order':
			$order = wc_create_order();
			$order->set_currency( Plugin::service( Config::class )->currency() );
			$order->set_payment_method( 'card2crypto' );
			$order->set_payment_method_title( 'Card' );
			$order->set_billing_email( 'buyer@example.com' );
			$order->set_billing_first_name( 'Ada' );
			$order->set_total( '79.00' );
			$order->set_status( 'pending' );
			$order->save();
			return array(
				'id'  => $order->get_id(),
				'key' => $order->get_order_key(),
				'pay' => $order->get_checkout_payment_url( true ),
			);

		case 'state':
			$order = wc_get_order( (int) $input['order'] );
			return array(
				'status'      => $order->get_status(),
				'notes'       => array_map(
					static function ( $note ) {
						return $note->content;
					},
					array_reverse( wc_get_order_notes( array( 'order_id' => $order->get_id() ) ) )
				),
				'attempts'    => $wpdb->get_results( $wpdb->prepare( 'SELECT partner_operation_id, status, status_code FROM %i WHERE order_id = %d ORDER BY id', Plugin::service( Tables::class )->attempts_table(), $order->get_id() ), ARRAY_A ),
				'retry_until' => (string) $order->get_meta( C2C_RETRY_UNTIL ),
				'pending'     => count(
					as_get_scheduled_actions(
						array(
							'hook'   => C2C_RETRY_HOOK,
							'args'   => array( $order->get_id() ),
							'status' => ActionScheduler_Store::STATUS_PENDING,
						),
						'ids'
					)
				),
			);

		case 'retry_over':
			$order = wc_get_order( (int) $input['order'] );
			$order->update_meta_data( C2C_RETRY_UNTIL, (string) ( time() - 1 ) );
			$order->save();
			do_action( C2C_RETRY_HOOK, $order->get_id() );
			return wc_get_order( $order->get_id() )->get_status();
	}
	throw new RuntimeException( "unknown step {$action}" );
}

try {
	$c2c_result = array( 'value' => c2c_embedded_step( $c2c_step['action'], $c2c_step['input'] ) );
} catch ( Throwable $c2c_error ) {
	$c2c_result = array( 'error' => get_class( $c2c_error ) . ': ' . $c2c_error->getMessage() );
}
file_put_contents( $c2c_step['out'], wp_json_encode( $c2c_result ) );

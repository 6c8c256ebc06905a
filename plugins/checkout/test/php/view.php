<?php
/**
 * Asks Order_View's payment-state route (Order_View::rest_state()) without
 * WordPress (fakes in wordpress-fakes.php) and prints each answer: status,
 * data, headers, and whether the request wrote anything (order saves, notes,
 * status; attempt rows) or asked the service.
 *
 * Input /work/scenario.json: {settings, order, attempts, requests}; each
 * request {order_id, key, order_status?, method?, attempt?: {status, status_code, mismatch?},
 * customer?, user?, cookie_user?}
 * (order_status, method and attempt: the store's state before the request).
 */

require __DIR__ . '/wordpress-fakes.php';

use Card2Crypto\Checkout\Buyer\Order_View;
use Card2Crypto\Checkout\Plugin;

/** Order_View reads Keys::GATEWAY_ID; WooCommerce's gateway base class is stood in for. */
class WC_Payment_Gateway {
}

/** A route request's parameters, read as WordPress's WP_REST_Request reads them ($request['key']). */
class C2C_Route_Request extends WP_REST_Request implements ArrayAccess {
	private $params;
	public function __construct( array $params ) {
		parent::__construct( '', array() );
		$this->params = $params;
	}
	#[\ReturnTypeWillChange]
	public function offsetExists( $offset ) {
		return isset( $this->params[ $offset ] );
	}
	#[\ReturnTypeWillChange]
	public function offsetGet( $offset ) {
		return $this->params[ $offset ] ?? null;
	}
	#[\ReturnTypeWillChange]
	public function offsetSet( $offset, $value ) {
		$this->params[ $offset ] = $value;
	}
	#[\ReturnTypeWillChange]
	public function offsetUnset( $offset ) {
		unset( $this->params[ $offset ] );
	}
}

$results = array();
foreach ( $scenario['requests'] as $request ) {
	if ( isset( $request['order_status'] ) ) {
		$order->status = $request['order_status'];
	}
	if ( isset( $request['method'] ) ) {
		$order->meta['_payment_method'] = $request['method'];
	}
	// The order's customer account, and who asks: the REST API's user, or the user a logged-in cookie names.
	$order->customer_id          = (int) ( $request['customer'] ?? 0 );
	$GLOBALS['c2c_user']         = (int) ( $request['user'] ?? 0 );
	$GLOBALS['c2c_cookie_user']  = (int) ( $request['cookie_user'] ?? 0 );
	if ( isset( $request['attempt'] ) ) {
		$GLOBALS['wpdb']->query( $GLOBALS['wpdb']->prepare( 'UPDATE wp_card2crypto_attempts SET status = %s, status_code = %d, mismatch = %d', $request['attempt']['status'], $request['attempt']['status_code'], empty( $request['attempt']['mismatch'] ) ? 0 : 1 ) );
	}
	$before          = serialize( array( $order->status, $order->meta, $order->notes, $order->saves, $GLOBALS['wpdb']->rows( 'wp_card2crypto_attempts' ) ) );
	$service->calls  = array();
	$response        = Plugin::service( Order_View::class )->rest_state( new C2C_Route_Request( array( 'order_id' => $request['order_id'], 'key' => $request['key'] ) ) );
	$after           = serialize( array( $order->status, $order->meta, $order->notes, $order->saves, $GLOBALS['wpdb']->rows( 'wp_card2crypto_attempts' ) ) );
	$results[]       = ( $response instanceof WP_Error
		? array(
			'status' => $response->data['status'],
			'error'  => $response->code,
		)
		: array(
			'status'  => $response->status,
			'data'    => $response->data,
			'headers' => (object) $response->headers,
		) ) + array(
			'wrote'         => $before !== $after,
			'service_calls' => count( $service->calls ),
		);
}
c2c_test_output( $results );

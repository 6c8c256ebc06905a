<?php
/**
 * Sends requests to Callback_Controller::handle() without WordPress (fakes in
 * wordpress-fakes.php) and prints each answer: status, body, headers, and the
 * order's status after it.
 *
 * Input /work/scenario.json: {settings, order, attempts, requests}; each
 * request {ip, headers?, raw?} or {ip, headers?, operation, sign: right|wrong}
 * (the operation_data sent as a callback body, signed with the partner
 * secret or another one); {repeat: n} sends it n times.
 */

require __DIR__ . '/wordpress-fakes.php';

use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Callback\Callback_Controller;

$results = array();
foreach ( $scenario['requests'] as $request ) {
	$body = c2c_callback_body( $request, $secret );
	$_SERVER['REMOTE_ADDR'] = $request['ip'];
	for ( $i = 0; $i < (int) ( $request['repeat'] ?? 1 ); $i++ ) {
		$response  = Plugin::service( Callback_Controller::class )->handle( new WP_REST_Request( $body, $request['headers'] ?? array() ) );
		$results[] = array(
			'status'  => $response->status,
			'body'    => $response->data,
			'headers' => (object) $response->headers,
			'order'   => $order->status,
		);
	}
}
c2c_test_output( $results );

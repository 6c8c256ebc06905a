<?php
/**
 * Runs Buyer_Return::tell() without WordPress (fakes in wordpress-fakes.php):
 * the buyer comes back from a payment that did not succeed, the store asks
 * the service (answers from a list) and applies the answer. Prints what the
 * buyer is told, the order's status and new notes, the attempt and the
 * service calls.
 *
 * Input /work/scenario.json: {settings, order, attempts, steps}; each step
 * {event: fail|exit, service: [answers], attempt?: {status, status_code, minutes_ago?}, claimed?: {operation_id, status, status_code}}
 * (attempt: what the store already knew before the buyer came back; claimed:
 * an event another request, the service's callback, has claimed and is still
 * applying).
 */

require __DIR__ . '/wordpress-fakes.php';

use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Attempts\Attempt;
use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Buyer\Buyer_Return;

$results = array();
foreach ( $scenario['steps'] as $step ) {
	$service->answers = $step['service'] ?? array();
	$service->calls   = array();
	if ( isset( $step['attempt'] ) ) {
		// minutes_ago: when the store last had news of the payment.
		$GLOBALS['wpdb']->query( $GLOBALS['wpdb']->prepare( "UPDATE wp_card2crypto_attempts SET status = %s, status_code = %d, operation_id = CASE WHEN %d = -1 THEN NULL ELSE 'op-1' END, updated_at = %s", $step['attempt']['status'], $step['attempt']['status_code'], $step['attempt']['status_code'], gmdate( 'Y-m-d H:i:s', time() - 60 * (int) ( $step['attempt']['minutes_ago'] ?? 0 ) ) ) );
	}
	if ( isset( $step['claimed'] ) ) {
		$row = $GLOBALS['wpdb']->rows( 'wp_card2crypto_attempts' )[0];
		Plugin::service( Operation_Store::class )->claim_event( Attempt::from_row( $row ), $step['claimed']['operation_id'], $step['claimed']['status'], (int) $step['claimed']['status_code'], 'callback' );
	}
	$notes_before = count( $order->notes );
	try {
		$result = array( 'told' => Plugin::service( Buyer_Return::class )->tell( $order, $step['event'] ?? 'fail' ) );
	} catch ( Throwable $e ) {
		$result = array( 'error' => get_class( $e ) . ': ' . $e->getMessage() );
	}
	$row       = $GLOBALS['wpdb']->rows( 'wp_card2crypto_attempts' )[0];
	$results[] = $result + array(
		'status'        => $order->status,
		'new_notes'     => array_slice( $order->notes, $notes_before ),
		'attempt'       => $row['status'] . ' ' . $row['status_code'],
		'service_calls' => count( $service->calls ),
	);
}
c2c_test_output( $results );

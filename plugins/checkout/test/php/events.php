<?php
/**
 * Runs Operation_Events::process() for real (Order_Decision, Order_Actions,
 * Operation_Store's SQL, the partner API client and its signature checks)
 * without WordPress: the tables live in SQLite (INSERT IGNORE read as INSERT
 * OR IGNORE; claim and compare-and-swap keep their meaning), and the order is
 * a small WC_Order stand-in whose hooks can be told to fail. The service is
 * a transport that answers from a list.
 *
 * Input /work/scenario.json: {settings, order, attempts, steps}; each step
 * {operation, source, service: [answers], fail: {payment_complete?, update_status?}, meanwhile?: operation}
 * (meanwhile: another callback processed while this one changes the order).
 * Prints, after each step, the outcome (or the error), the order (status,
 * notes, meta), the attempts, their operations and the number of events and
 * service calls.
 */

require __DIR__ . '/wordpress-fakes.php';

use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Order\Operation_Events;
use Card2Crypto\Checkout\Shared\Api\Operation;
use Card2Crypto\Checkout\Shared\Json\Lossless_Json;

$results = array();
foreach ( $scenario['steps'] as $step ) {
	if ( isset( $step['order_total'] ) ) {
		$order->total = (string) $step['order_total'];
	}
	$order->fail      = $step['fail'] ?? array();
	$service->answers = $step['service'] ?? array();
	$service->calls   = array();
	$parsed           = Operation::from_decoded( Lossless_Json::decode_object( json_encode( $step['operation'] ) ) );
	$notes_before     = count( $order->notes );
	$nested           = null;
	if ( isset( $step['meanwhile'] ) ) {
		// Another delivery processed while this one changes the order (as a concurrent request would, between its swap and its order update).
		$other        = Operation::from_decoded( Lossless_Json::decode_object( json_encode( $step['meanwhile'] ) ) )['operation'];
		$order->during = static function () use ( $other, &$nested ): void {
			try {
				$nested = Plugin::service( Operation_Events::class )->process( $other, 'callback' );
			} catch ( Throwable $e ) {
				$nested = 'error: ' . $e->getMessage();
			}
		};
	}
	try {
		$result = array( 'outcome' => Plugin::service( Operation_Events::class )->process( $parsed['operation'], $step['source'] ?? 'callback' ) );
	} catch ( Throwable $e ) {
		$result = array( 'error' => get_class( $e ) . ': ' . $e->getMessage() );
	}
	$attempts  = array_map(
		static function ( array $row ): array {
			// Columns come back as text, as from MySQL; the output gives numbers as numbers.
			return array(
				'partner_operation_id' => $row['partner_operation_id'],
				'operation_id'         => $row['operation_id'],
				'status'               => $row['status'],
				'status_code'          => (int) $row['status_code'],
				'version'              => (int) $row['version'],
				'mismatch'             => (int) $row['mismatch'],
			);
		},
		$GLOBALS['wpdb']->rows( 'wp_card2crypto_attempts' )
	);
	$order->during = null;
	$results[]     = $result + array(
		'meanwhile'     => $nested,
		'status'        => $order->status,
		'new_notes'     => array_slice( $order->notes, $notes_before ),
		'paid_by'       => $order->meta['_card2crypto_paid_by'] ?? null,
		'paid_by_op'    => $order->meta['_card2crypto_paid_by_operation'] ?? null,
		'attempts'      => $attempts,
		'operations'    => array_map(
			static function ( array $row ): array {
				return array( $row['operation_id'], $row['status'], (int) $row['status_code'], (int) $row['version'] );
			},
			$GLOBALS['wpdb']->rows( 'wp_card2crypto_operations' )
		),
		'events'        => array_map(
			static function ( array $row ): string {
				return $row['status'] . ' ' . $row['status_code'] . ' ' . $row['outcome'];
			},
			$GLOBALS['wpdb']->rows( 'wp_card2crypto_events' )
		),
		'service_calls' => $service->calls,
		'mails'         => count( $GLOBALS['c2c_mails'] ),
		'log'           => $GLOBALS['c2c_log'],
	);
}
c2c_test_output( $results );

<?php
/**
 * Runs Admin_Order_Panel::act() without WordPress (fakes in
 * wordpress-fakes.php), optionally with the database failing, and prints
 * what it returned (or threw) and the notes it left.
 *
 * Input /work/scenario.json: {settings, order, attempts, steps}; each step
 * {do: refresh|confirm|cancel, service: [answers], db_fail?: regex}.
 */

require __DIR__ . '/wordpress-fakes.php';

use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Admin\Admin_Order_Panel;

$results = array();
foreach ( $scenario['steps'] as $step ) {
	$service->answers     = $step['service'] ?? array();
	$GLOBALS['wpdb']->fail = $step['db_fail'] ?? '';
	$notes_before         = count( $order->notes );
	try {
		$result = array( 'returned' => Plugin::service( Admin_Order_Panel::class )->act( $order, $step['do'], 'shopadmin' ) );
	} catch ( Throwable $e ) {
		$result = array( 'error' => get_class( $e ) . ': ' . $e->getMessage() );
	}
	$GLOBALS['wpdb']->fail = '';
	$results[]             = $result + array(
		'status'    => $order->status,
		'new_notes' => array_slice( $order->notes, $notes_before ),
		'log'       => $GLOBALS['c2c_log'],
	);
}
c2c_test_output( $results );

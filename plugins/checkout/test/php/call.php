<?php
/**
 * Calls the plugin's pure functions for the Node tests: reads
 * /work/calls.json, a list of [function, ...arguments], prints the results
 * ({"value": ...} or {"error": "Class: message"}).
 */

use Card2Crypto\Checkout\Currencies;
use Card2Crypto\Checkout\Payment_Match;
use Card2Crypto\Checkout\Status_Flow;

require __DIR__ . '/bootstrap.php';

$functions = array(
	'decide'          => static function ( ?array $from, array $to ) {
		return Status_Flow::decide( $from, $to );
	},
	'decide_all'      => static function ( array $cases ) {
		return array_map(
			static function ( array $c ) {
				return Status_Flow::decide( $c['from'], $c['to'] );
			},
			$cases
		);
	},
	'classify'        => array( Status_Flow::class, 'classify' ),
	'match'           => array( Payment_Match::class, 'compare' ),
	'same_address'    => array( Payment_Match::class, 'same_address' ),
	'fiat'            => array( Currencies::class, 'all' ),
	'to_minor'        => array( Currencies::class, 'to_minor' ),
	'limit_problem'   => array( Currencies::class, 'limit_problem' ),
);

c2c_test_run_calls( $functions );

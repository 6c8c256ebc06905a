<?php
/**
 * Runs Partner_Api_Client calls against the test's HTTP server.
 * Input /work/scenario.json: {base_url, token, secret, timeout, calls: [[method, ...args]]}.
 * Prints per call {value} or {exception: {...}}, plus everything logged and
 * a print_r() of the client, for the secret-leak checks.
 */

use Card2Crypto\Shared\Api\Operation;
use Card2Crypto\Shared\Api\Partner_Api_Client;
use Card2Crypto\Shared\Api\Partner_Api_Exception;

require __DIR__ . '/bootstrap.php';
require __DIR__ . '/Stream_Transport.php';

ini_set( 'zend.exception_ignore_args', '0' ); // Show arguments in traces, as a careless host would.

$scenario  = json_decode( file_get_contents( C2C_TEST_ROOT . '/work/scenario.json' ), true );
$logs      = array();
$transport = new Stream_Transport();
$client    = new Partner_Api_Client(
	$scenario['base_url'],
	$scenario['token'],
	$scenario['secret'],
	array(
		'timeout'   => $scenario['timeout'] ?? 5,
		'transport' => $transport,
		'logger'    => static function ( string $level, string $message ) use ( &$logs ) {
			$logs[] = $level . ': ' . $message;
		},
	)
);

$results = array();
foreach ( $scenario['calls'] as $call ) {
	$method = array_shift( $call );
	try {
		$value     = $client->$method( ...$call );
		$results[] = array( 'value' => $value instanceof Operation ? array( 'operation' => $value->to_array(), 'id' => $value->id(), 'from_amount' => $value->from_amount() ) : $value );
	} catch ( Partner_Api_Exception $e ) {
		$results[] = array(
			'exception' => array(
				'kind'           => $e->kind,
				'endpoint'       => $e->endpoint,
				'status'         => $e->status,
				'meaning'        => $e->meaning,
				'code'           => $e->error_code,
				'field'          => $e->field,
				'server_message' => $e->server_message,
				'retry_after'    => $e->retry_after,
				'message'        => $e->getMessage(),
				'trace'          => $e->getTraceAsString(),
				'dump'           => print_r( $e, true ),
			),
		);
	}
}

c2c_test_output(
	array(
		'results' => $results,
		'logs'    => $logs,
		'client'  => print_r( $client, true ) . var_export( $client, true ),
		'sent'    => $transport->sent,
	)
);

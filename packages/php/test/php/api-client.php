<?php
/**
 * Runs Partner_Api_Client calls against the test's HTTP server.
 * Input /work/scenario.json: {base_url, token, secret, timeout, calls: [[method, ...args]]}.
 * A call ["credentials", base_url?] asks the shared credentials check with
 * the scenario's token and secret (at base_url, else the scenario's).
 * Prints per call {value} or {exception: {...}}, plus everything logged and
 * a print_r() of the client, for the secret-leak checks.
 */

use Card2Crypto\Shared\Api\Credentials_Check;
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

if ( ! function_exists( '__' ) ) {
	/** WordPress's translation, untranslated (the refusal's words). */
	function __( string $text, string $domain = 'default' ): string { // phpcs:ignore
		unset( $domain );
		return $text;
	}
}

$results = array();
foreach ( $scenario['calls'] as $call ) {
	$method = array_shift( $call );
	if ( 'credentials' === $method ) {
		$answer    = ( new Credentials_Check() )->ask_settings(
			array(
				'base_url'       => $call[0] ?? $scenario['base_url'],
				'partner_token'  => $scenario['token'],
				'partner_secret' => $scenario['secret'],
				'environment'    => 'sandbox',
			),
			(float) ( $scenario['timeout'] ?? 5 ),
			$transport,
			1800000000
		);
		$results[] = array(
			'value' => $answer->to_array() + array(
				'fee'   => $answer->fee(),
				'error' => null === $answer->error() ? null : get_class( $answer->error() ),
				'dump'  => print_r( $answer, true ),
			),
		);
		continue;
	}
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

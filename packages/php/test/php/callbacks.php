<?php
/**
 * Verifies each body of /work/bodies.json with Callback_Verifier::from_raw()
 * and prints the outcome and the HTTP answer it calls for.
 */

use Card2Crypto\Shared\Callback\Callback_Verifier;

require __DIR__ . '/bootstrap.php';

$input   = json_decode( file_get_contents( C2C_TEST_ROOT . '/work/bodies.json' ), true );
$results = array();
foreach ( $input['bodies'] as $body ) {
	$result    = Callback_Verifier::from_raw( $body, $input['secret'] );
	$results[] = array(
		'ok'        => $result->ok,
		'reason'    => $result->reason,
		'field'     => $result->field,
		'message'   => $result->message,
		'response'  => $result->http_response(),
		'status'    => $result->ok ? $result->operation->status() : null,
		'code'      => $result->ok ? $result->operation->status_code() : null,
		'id'        => $result->ok ? $result->operation->id() : null,
		'partner'   => $result->ok ? $result->operation->partner_operation_id() : null,
		'amount'    => $result->ok ? $result->operation->from_amount() : null,
	);
}
try {
	Callback_Verifier::from_raw( '{}', '' );
	$results[] = 'no exception for an empty secret';
} catch ( InvalidArgumentException $e ) {
	$results[] = $e->getMessage();
}
c2c_test_output( $results );

<?php
/**
 * Runs core's signing vectors through the PHP library and prints what PHP
 * computes for each case; test/vectors.test.ts compares with the file.
 *
 * Input: /work/vectors.json (core's packages/core/vectors/signing.json) and
 * /work/bodies.json (per case, the raw JSON text to verify).
 */

use Card2Crypto\Shared\Json\Lossless_Json;
use Card2Crypto\Shared\Signing\Canonical;
use Card2Crypto\Shared\Signing\Signer;

require __DIR__ . '/bootstrap.php';

// The vector file itself is read losslessly, so "input" keeps each number's text.
$vectors = Lossless_Json::decode( file_get_contents( C2C_TEST_ROOT . '/work/vectors.json' ) );
$bodies  = json_decode( file_get_contents( C2C_TEST_ROOT . '/work/bodies.json' ), true );
$results = array();

foreach ( $vectors['cases'] as $index => $case ) {
	$form   = $case['form'];
	$secret = $case['secret'];
	$result = array( 'name' => $case['name'] );

	try {
		$input   = isset( $case['input_json'] ) ? Lossless_Json::decode_object( $case['input_json'] ) : $case['input'];
		$numbers = $case['numbers'] ?? Canonical::NUMBERS_RAW;
		$nulls   = $case['nulls'] ?? Canonical::NULLS_EMPTY;
		// The case's reading (a non-default one proves verification accepts it).
		$result['canonical'] = Canonical::of( $input, $form, $numbers, $nulls );
		$result['signature'] = Signer::hmac( $result['canonical'], $secret );
		if ( Canonical::NUMBERS_RAW === $numbers && Canonical::NULLS_EMPTY === $nulls ) {
			$result['signed'] = Signer::sign( $input, $secret, $form );
		}
	} catch ( Throwable $e ) {
		$result['sign_error'] = get_class( $e ) . ': ' . $e->getMessage();
	}

	// Signing PHP-native values (ints, floats from json_decode) must give the
	// same string when the number text does not matter.
	if ( ! isset( $case['input_json'] ) && ! isset( $case['nulls'] ) && ! isset( $case['numbers'] ) && is_array( $case['input'] ) ) {
		try {
			$native                     = json_decode( Lossless_Json::encode( $case['input'] ), true, 512, JSON_THROW_ON_ERROR );
			$result['native_canonical'] = Canonical::of( $native, $form );
		} catch ( Throwable $e ) {
			$result['native_error'] = get_class( $e ) . ': ' . $e->getMessage();
		}
	}

	$verdict          = Signer::verify( $bodies[ $index ], $secret, $form );
	$result['verify'] = array(
		'ok'      => $verdict->ok,
		'reason'  => $verdict->reason,
		'message' => $verdict->message,
	);
	$results[]        = $result;
}

c2c_test_output( $results );

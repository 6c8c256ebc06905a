<?php
/**
 * Calls library functions for the Node tests: reads /work/calls.json, a list
 * of [function, ...arguments], and prints the list of results. Exceptions
 * become {"error": "Class: message"} so a test can assert on them.
 * The settings schema, when needed, is /work/settings.json.
 */

use Card2Crypto\Shared\Btc\Btc_Address;
use Card2Crypto\Shared\Json\Json_Number;
use Card2Crypto\Shared\Json\Lossless_Json;
use Card2Crypto\Shared\Landing\Landing_Url;
use Card2Crypto\Shared\Settings\Css_Color;
use Card2Crypto\Shared\Settings\Http_Url;
use Card2Crypto\Shared\Settings\Ip_Address;
use Card2Crypto\Shared\Settings\Schema;
use Card2Crypto\Shared\Settings\Settings_Validator;
use Card2Crypto\Shared\Signing\Canonical;
use Card2Crypto\Shared\Signing\Js_Number;
use Card2Crypto\Shared\Signing\Signer;

require __DIR__ . '/bootstrap.php';

$functions = array(
	'btc_validate'      => static function ( string $address, ?array $networks = null ) {
		return Btc_Address::validate( $address, $networks );
	},
	'color_valid'       => array( Css_Color::class, 'is_valid' ),
	'color_normalize'   => array( Css_Color::class, 'normalize' ),
	'ip_or_cidr'        => array( Ip_Address::class, 'is_ip_or_cidr' ),
	'ip_in_list'        => array( Ip_Address::class, 'in_list' ),
	'url_valid'         => array( Http_Url::class, 'is_valid' ),
	'landing_url'       => array( Landing_Url::class, 'build' ),
	// A double given by its 16 hex digits (big-endian IEEE 754), written as JavaScript would.
	'js_format_bits'    => static function ( string $hex ) {
		return Js_Number::format( unpack( 'E', hex2bin( $hex ) )[1] );
	},
	'js_reformat'       => array( Js_Number::class, 'reformat' ),
	'json_decode'       => static function ( string $text ) {
		return c2c_test_plain( Lossless_Json::decode( $text ) );
	},
	'json_roundtrip'    => static function ( string $text ) {
		return Lossless_Json::encode( Lossless_Json::decode( $text ) );
	},
	'json_number_int'   => static function ( string $text ) {
		return ( new Json_Number( $text ) )->to_int();
	},
	'json_whole_digits' => static function ( string $text ) {
		return ( new Json_Number( $text ) )->to_whole_digits();
	},
	'canonical'         => static function ( string $json, string $form = 'general' ) {
		return Canonical::of( Lossless_Json::decode_object( $json ), $form );
	},
	'sign'              => static function ( string $json, string $secret, string $form = 'general' ) {
		return Signer::sign( Lossless_Json::decode_object( $json ), $secret, $form );
	},
	'verify'            => static function ( string $body, string $secret, string $form = 'general' ) {
		return (array) Signer::verify( $body, $secret, $form );
	},
	'settings_validate' => static function ( string $plugin, $input, array $stored = array(), array $constants = array(), bool $may_change_partner = true ) {
		$validator = new Settings_Validator( Schema::from_file( C2C_TEST_ROOT . '/work/settings.json' ), $plugin );
		return $validator->validate( $input, $stored, $constants, $may_change_partner );
	},
	'settings_store'    => static function ( string $plugin, $input, array $stored = array(), array $constants = array() ) {
		$validator = new Settings_Validator( Schema::from_file( C2C_TEST_ROOT . '/work/settings.json' ), $plugin );
		return $validator->for_storage( $validator->validate( $input, $stored, $constants ), $stored );
	},
);

/** Json_Number => {"number": text}, so Node can see what was kept. */
function c2c_test_plain( $value ) {
	if ( $value instanceof Json_Number ) {
		return array( 'number' => $value->text() );
	}
	if ( is_array( $value ) ) {
		return array_map( 'c2c_test_plain', $value );
	}
	return $value;
}

c2c_test_run_calls( $functions );

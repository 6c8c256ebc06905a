<?php
/**
 * Calls library functions for the Node tests: reads /work/calls.json, a list
 * of [function, ...arguments], and prints the list of results. Exceptions
 * become {"error": "Class: message"} so a test can assert on them.
 * The settings schema, when needed, is /work/settings.json.
 */

use Card2Crypto\Shared\Btc\Bip32;
use Card2Crypto\Shared\Budget\Visitor_Budget;
use Card2Crypto\Shared\Database\Site_Lock;
use Card2Crypto\Shared\Btc\Bip32_Exception;
use Card2Crypto\Shared\Btc\Btc_Address;
use Card2Crypto\Shared\Client\Client_Ip;
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
	// Bip32: $backend is 'gmp', 'bcmath' or null (the best the host has); a refusal is {"refused": {code, message}}.
	'bip32_support'     => array( Bip32::class, 'support' ),
	'bip32_backend'     => static function ( ?string $backend ) {
		return c2c_test_bip32( $backend, static function ( Bip32 $bip32 ) {
			return $bip32->backend();
		} );
	},
	'bip32_wallet'      => static function ( string $text, ?string $environment, ?string $backend ) {
		return c2c_test_bip32( $backend, static function ( Bip32 $bip32 ) use ( $text, $environment ) {
			$wallet        = $bip32->parse_wallet_key( $text, $environment );
			$wallet['key'] = c2c_test_key( $wallet['key'] );
			return $wallet;
		} );
	},
	'bip32_derive'      => static function ( string $text, int $from, int $count, bool $change, ?string $environment, ?string $backend ) {
		return c2c_test_bip32( $backend, static function ( Bip32 $bip32 ) use ( $text, $from, $count, $change, $environment ) {
			return $bip32->derive_addresses( $text, $from, $count, $change, $environment );
		} );
	},
	'bip32_child'       => static function ( string $xpub, int $index, ?string $backend ) {
		return c2c_test_bip32( $backend, static function ( Bip32 $bip32 ) use ( $xpub, $index ) {
			return Bip32::serialize_extended_key( $bip32->derive_child( $bip32->parse_extended_key( $xpub ), $index ) );
		} );
	},
	'bip32_key'         => static function ( string $xpub, ?string $backend ) {
		return c2c_test_bip32( $backend, static function ( Bip32 $bip32 ) use ( $xpub ) {
			$key = $bip32->parse_extended_key( $xpub );
			return c2c_test_key( $key ) + array( 'serialized' => Bip32::serialize_extended_key( $key ) );
		} );
	},
	'bip32_checksum'    => array( Bip32::class, 'descriptor_checksum' ),
	'bip32_segwit'      => static function ( string $hrp, int $version, string $program_hex ) {
		return Btc_Address::segwit_encode( $hrp, $version, hex2bin( $program_hex ) );
	},
	'bip32_hash160'     => static function ( string $hex ) {
		return bin2hex( hash( 'ripemd160', hash( 'sha256', hex2bin( $hex ), true ), true ) );
	},
	// Every comb entry recomputed by adding up G (GMP): [rows checked, first wrong entry or null].
	'bip32_comb_table'  => static function () {
		return c2c_test_comb_table();
	},
	'color_valid'       => array( Css_Color::class, 'is_valid' ),
	'color_normalize'   => array( Css_Color::class, 'normalize' ),
	'ip_or_cidr'        => array( Ip_Address::class, 'is_ip_or_cidr' ),
	'ip_in_list'        => array( Ip_Address::class, 'in_list' ),
	'url_valid'         => array( Http_Url::class, 'is_valid' ),
	'landing_url'       => array( Landing_Url::class, 'build' ),
	'client_ip'         => array( Client_Ip::class, 'of' ),
	'forwarding_header' => array( Client_Ip::class, 'forwarding_header' ),
	// One request at each time; after each, whether it fit the budget, and the wait a refusal is told.
	'budget_window'     => static function ( array $times, int $limit, bool $count_refused, int $span = 60 ) {
		$window = null;
		$out    = array();
		foreach ( $times as $now ) {
			$window = Visitor_Budget::window( $window, $limit, $now, $span, $count_refused );
			$out[]  = $window['ok'] ? 0 : Visitor_Budget::wait( $window, $limit, $now, $span );
		}
		return $out;
	},
	'budget_client_key' => array( Visitor_Budget::class, 'client_key' ),
	'lock_name_for'     => array( Site_Lock::class, 'name_for' ),
	'lock_taken'        => array( Site_Lock::class, 'taken' ),
	'proxy_headers'     => static function () {
		return Client_Ip::PROXY_HEADERS;
	},
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
// Another call, timed here (not by the Node side, which also counts starting PHP): {"value", "seconds"}.
$functions['timed'] = static function ( string $name, ...$args ) use ( &$functions ) {
	$start = microtime( true );
	$value = call_user_func_array( $functions[ $name ], $args );
	return array(
		'value'   => $value,
		'seconds' => microtime( true ) - $start,
	);
};

/** Runs $run on a Bip32 of $backend; a Bip32_Exception becomes {"refused": {"code", "message"}}. */
function c2c_test_bip32( ?string $backend, callable $run ) {
	try {
		return $run( new Bip32( $backend ) );
	} catch ( Bip32_Exception $e ) {
		return array(
			'refused' => array(
				'code'    => $e->reason(),
				'message' => $e->getMessage(),
			),
		);
	}
}

/** A key array with its binary fields as hex, for JSON. */
function c2c_test_key( array $key ): array {
	$key['chain_code'] = bin2hex( $key['chain_code'] );
	$key['public_key'] = bin2hex( $key['public_key'] );
	return $key;
}

/**
 * Checks Secp256k1_Table::POINTS against sums of G computed here with GMP's
 * plain affine formulas (independent of the library's Jacobian code).
 */
function c2c_test_comb_table(): array {
	$p   = gmp_init( 'fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f', 16 );
	$add = static function ( array $a, array $b ) use ( $p ): array {
		if ( 0 === gmp_cmp( $a[0], $b[0] ) ) {
			$l = gmp_mod( gmp_mul( gmp_mul( 3, gmp_mul( $a[0], $a[0] ) ), gmp_invert( gmp_mul( 2, $a[1] ), $p ) ), $p );
		} else {
			$l = gmp_mod( gmp_mul( gmp_sub( $b[1], $a[1] ), gmp_invert( gmp_mod( gmp_sub( $b[0], $a[0] ), $p ), $p ) ), $p );
		}
		$x = gmp_mod( gmp_sub( gmp_sub( gmp_mul( $l, $l ), $a[0] ), $b[0] ), $p );
		return array( $x, gmp_mod( gmp_sub( gmp_mul( $l, gmp_sub( $a[0], $x ) ), $a[1] ), $p ) );
	};
	$base = array( gmp_init( '79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798', 16 ), gmp_init( '483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8', 16 ) );
	$rows = \Card2Crypto\Shared\Btc\Secp256k1_Table::POINTS;
	foreach ( $rows as $i => $row ) {
		$point = $base;
		foreach ( $row as $j => $entry ) {
			if ( gmp_strval( $point[0] ) !== $entry[0] || gmp_strval( $point[1] ) !== $entry[1] ) {
				return array( count( $rows ), ( $j + 1 ) . '·16^' . $i . '·G' );
			}
			$point = $add( $point, $base );
		}
		$base = $point; // 16·16^i·G
	}
	return array( count( $rows ), null );
}

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

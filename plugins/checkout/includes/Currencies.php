<?php
/**
 * The fiat currencies the service accepts, with their decimals and purchase
 * limits in minor units (core's reference data; test/currencies.test.ts
 * checks this table against @card2crypto/core), and exact conversion of an
 * order total to minor units.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

use Card2Crypto\Checkout\Shared\Settings\Decimal_Amount;

defined( 'ABSPATH' ) || defined( 'C2C_TESTING' ) || exit;

final class Currencies {

	/** code => [decimals, minimum, maximum] (minor units). */
	const FIAT = array(
		'ARS' => array( 2, 1030000, 140000000 ),
		'AMD' => array( 2, 5000000, 300000000 ),
		'AUD' => array( 2, 10000, 1000000 ),
		'AZN' => array( 2, 15000, 1000000 ),
		'BHD' => array( 3, 30000, 2000000 ),
		'BGN' => array( 2, 15000, 900000 ),
		'BRL' => array( 2, 50000, 2000000 ),
		'CAD' => array( 2, 10000, 600000 ),
		'CZK' => array( 2, 150000, 10000000 ),
		'DKK' => array( 2, 50000, 3000000 ),
		'EUR' => array( 2, 5000, 500000 ),
		'HKD' => array( 2, 50000, 50000000 ),
		'HUF' => array( 2, 1200000, 180000000 ),
		'ILS' => array( 2, 20000, 1500000 ),
		'INR' => array( 2, 500000, 40000000 ),
		'KZT' => array( 2, 4000000, 200000000 ),
		'MYR' => array( 2, 25000, 2000000 ),
		'MDL' => array( 2, 100000, 10000000 ),
		'TWD' => array( 2, 200000, 15000000 ),
		'NOK' => array( 2, 60000, 4500000 ),
		'NZD' => array( 2, 10000, 800000 ),
		'PLN' => array( 2, 30000, 2000000 ),
		'GBP' => array( 2, 5000, 500000 ),
		'RON' => array( 2, 30000, 2000000 ),
		'SAR' => array( 2, 15000, 2000000 ),
		'KRW' => array( 0, 100000, 20000000 ),
		'SEK' => array( 2, 50000, 5000000 ),
		'CHF' => array( 2, 4000, 480000 ),
		'TRY' => array( 2, 60000, 15000000 ),
		'UAH' => array( 2, 200000, 15000000 ),
		'USD' => array( 2, 5000, 500000 ),
		'VND' => array( 0, 2000000, 150000000 ),
	);

	public static function is_supported( string $code ): bool {
		return isset( self::FIAT[ $code ] );
	}

	public static function decimals( string $code ): int {
		if ( ! isset( self::FIAT[ $code ] ) ) {
			throw new \DomainException( sprintf( 'The service does not accept %s.', $code ) );
		}
		return self::FIAT[ $code ][0];
	}

	/**
	 * Exact minor units of a decimal amount ("99.50" EUR => 9950). WooCommerce
	 * totals are rounded to the store's price decimals, which may exceed the
	 * currency's: extra zeros are accepted, anything else is an error.
	 *
	 * @throws \DomainException When the amount is malformed, too precise or too large.
	 */
	public static function to_minor( string $decimal, string $code ): int {
		$digits = Decimal_Amount::to_minor( trim( $decimal ), self::decimals( $code ) );
		if ( Decimal_Amount::compare( $digits, (string) PHP_INT_MAX ) > 0 ) {
			throw new \DomainException( 'too_large' );
		}
		return (int) $digits;
	}

	/** Decimal text of minor units ("9950" EUR => "99.50"). */
	public static function to_decimal( int $minor, string $code ): string {
		return Decimal_Amount::to_decimal( (string) $minor, self::decimals( $code ) );
	}

	/**
	 * Null when the service accepts this amount, else why not.
	 *
	 * @return array{rule: string, limit: int}|null
	 */
	public static function limit_problem( int $minor, string $code ): ?array {
		if ( ! isset( self::FIAT[ $code ] ) ) {
			return array( 'rule' => 'currency', 'limit' => 0 );
		}
		list( , $min, $max ) = self::FIAT[ $code ];
		if ( $minor < $min ) {
			return array( 'rule' => 'min', 'limit' => $min );
		}
		if ( $minor > $max ) {
			return array( 'rule' => 'max', 'limit' => $max );
		}
		return null;
	}
}

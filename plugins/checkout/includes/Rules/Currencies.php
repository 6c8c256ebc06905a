<?php
/**
 * The fiat currencies the service accepts, with their decimals and purchase
 * limits in minor units, read from the settings schema the plugin ships
 * (lib/settings-schema.php, core's reference data; test/currencies.test.ts
 * checks what this class reads against @card2crypto/core), and exact
 * conversion of an order total to minor units.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

use Card2Crypto\Checkout\Shared\Plugin_Bootstrap;
use Card2Crypto\Checkout\Shared\Settings\Decimal_Amount;

defined( 'ABSPATH' ) || exit;

final class Currencies {

	/**
	 * Every accepted currency: code => [decimals, minimum, maximum] (minor units), in the schema's order.
	 *
	 * @return array<string, array{0: int, 1: int, 2: int}>
	 */
	public static function all(): array {
		$table = array();
		foreach ( Plugin_Bootstrap::schema()->fiat_currencies() as $currency ) {
			$table[ $currency['code'] ] = array( (int) $currency['decimals'], (int) $currency['minMinor'], (int) $currency['maxMinor'] );
		}
		return $table;
	}

	/**
	 * Decimals, minimum and maximum (minor units) of one currency, or null when the service does not accept it.
	 *
	 * @return array{0: int, 1: int, 2: int}|null
	 */
	public static function limits( string $code ): ?array {
		$currency = Plugin_Bootstrap::schema()->fiat( $code );
		return null === $currency ? null : array( (int) $currency['decimals'], (int) $currency['minMinor'], (int) $currency['maxMinor'] );
	}

	public static function is_supported( string $code ): bool {
		return null !== self::limits( $code );
	}

	public static function decimals( string $code ): int {
		$limits = self::limits( $code );
		if ( null === $limits ) {
			throw new \DomainException( sprintf( 'The service does not accept %s.', $code ) );
		}
		return $limits[0];
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
		$limits = self::limits( $code );
		if ( null === $limits ) {
			return array( 'rule' => 'currency', 'limit' => 0 );
		}
		list( , $min, $max ) = $limits;
		if ( $minor < $min ) {
			return array( 'rule' => 'min', 'limit' => $min );
		}
		if ( $minor > $max ) {
			return array( 'rule' => 'max', 'limit' => $max );
		}
		return null;
	}
}

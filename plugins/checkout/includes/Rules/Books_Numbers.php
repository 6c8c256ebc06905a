<?php
/**
 * The owner's books' numbers as exact decimal text (Admin\Books,
 * Admin\Books_Chart): bitcoin from satoshis, the sum of two whole numbers
 * written as digits, the service's rate as plain decimal text. Pure: string
 * arithmetic, never a float for an amount; table-tested in test/books.test.ts.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

use Card2Crypto\Checkout\Shared\Settings\Decimal_Amount;

defined( 'ABSPATH' ) || exit;

final class Books_Numbers {

	/** Bitcoin's decimals: satoshis per BTC = 10^8. */
	const BTC_DECIMALS = 8;

	/** Satoshis (decimal digits) as BTC with 8 decimals, by string arithmetic: "123456" => "0.00123456". */
	public static function btc( string $sats ): string {
		return Decimal_Amount::to_decimal( $sats, self::BTC_DECIMALS );
	}

	/** The sum of two whole numbers written as decimal digits, by string arithmetic (no overflow, no float). */
	public static function add_digits( string $a, string $b ): string {
		$a     = str_pad( $a, max( strlen( $a ), strlen( $b ) ), '0', STR_PAD_LEFT );
		$b     = str_pad( $b, strlen( $a ), '0', STR_PAD_LEFT );
		$sum   = '';
		$carry = 0;
		for ( $i = strlen( $a ) - 1; $i >= 0; $i-- ) {
			$digit = (int) $a[ $i ] + (int) $b[ $i ] + $carry;
			$sum   = ( $digit % 10 ) . $sum;
			$carry = intdiv( $digit, 10 );
		}
		$sum = ( $carry > 0 ? (string) $carry : '' ) . $sum;
		return '' === ltrim( $sum, '0' ) ? '0' : ltrim( $sum, '0' );
	}

	/**
	 * A number the service sent (the rate: an int, or a float as the shape
	 * check read it) as plain decimal text: the shortest text that reads back
	 * as the same number (so "65432.1" stays "65432.1" whatever the host's
	 * precision settings), never in exponent form.
	 *
	 * @param mixed $value
	 */
	public static function number_text( $value ): string {
		if ( is_int( $value ) ) {
			return (string) $value;
		}
		if ( is_string( $value ) && 1 === preg_match( '/^-?[0-9]+(\.[0-9]+)?$/D', $value ) ) {
			return $value;
		}
		if ( ! is_float( $value ) || ! is_finite( $value ) ) {
			return '';
		}
		// The fewest significant digits that read back as the same float (17 always do).
		for ( $precision = 0; $precision <= 16; $precision++ ) {
			$text = str_replace( ',', '.', sprintf( '%.' . $precision . 'e', $value ) ); // A locale's decimal comma, on old PHP.
			if ( (float) $text === $value ) {
				break;
			}
		}
		// Mantissa and exponent ("6.54321e+4") to plain digits.
		preg_match( '/^(-?)([0-9])(?:\.([0-9]+))?e([+-][0-9]+)$/', $text, $m );
		$digits   = $m[2] . ( $m[3] ?? '' );
		$exponent = (int) $m[4];
		$point    = 1 + $exponent;
		if ( $point <= 0 ) {
			$plain = '0.' . str_repeat( '0', -$point ) . $digits;
		} elseif ( $point >= strlen( $digits ) ) {
			$plain = $digits . str_repeat( '0', $point - strlen( $digits ) );
		} else {
			$plain = substr( $digits, 0, $point ) . '.' . substr( $digits, $point );
		}
		if ( false !== strpos( $plain, '.' ) ) {
			$plain = rtrim( rtrim( $plain, '0' ), '.' );
		}
		return ( '-' === $m[1] && '0' !== $plain ? '-' : '' ) . $plain;
	}
}

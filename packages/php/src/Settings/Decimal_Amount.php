<?php
/**
 * Exact conversion between decimal strings ("99.50") and integer minor units
 * (9950), as @card2crypto/core's money.ts does it: digits only, no float.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Settings;

final class Decimal_Amount {

	/**
	 * Minor units, as a string of digits (optionally "-"), for a plain decimal
	 * with at most $decimals significant fraction digits (trailing zeros beyond
	 * that are exact and accepted).
	 *
	 * @throws \DomainException With code 1 (malformed) or 2 (too many decimals).
	 */
	public static function to_minor( string $decimal, int $decimals ): string {
		if ( 1 !== preg_match( '/^(-?)([0-9]+)(?:\.([0-9]+))?$/D', $decimal, $m ) ) {
			throw new \DomainException( 'malformed', 1 );
		}
		$significant = rtrim( isset( $m[3] ) ? $m[3] : '', '0' );
		if ( strlen( $significant ) > $decimals ) {
			throw new \DomainException( 'too_many_decimals', 2 );
		}
		$digits = ltrim( $m[2] . str_pad( $significant, $decimals, '0' ), '0' );
		if ( '' === $digits ) {
			return '0';
		}
		return $m[1] . $digits;
	}

	/** Decimal string with exactly $decimals places for minor units given as digits. */
	public static function to_decimal( string $minor, int $decimals ): string {
		$negative = '-' === substr( $minor, 0, 1 );
		$digits   = str_pad( ltrim( $negative ? substr( $minor, 1 ) : $minor, '0' ), $decimals + 1, '0', STR_PAD_LEFT );
		$whole    = substr( $digits, 0, strlen( $digits ) - $decimals );
		$fraction = substr( $digits, strlen( $digits ) - $decimals );
		return ( $negative ? '-' : '' ) . $whole . ( $decimals > 0 ? '.' . $fraction : '' );
	}

	/** Compares two integers written as digit strings (optionally "-"), of any size. */
	public static function compare( string $a, string $b ): int {
		$neg_a = '-' === substr( $a, 0, 1 ) && '-0' !== $a;
		$neg_b = '-' === substr( $b, 0, 1 ) && '-0' !== $b;
		if ( $neg_a !== $neg_b ) {
			return $neg_a ? -1 : 1;
		}
		$abs_a = ltrim( ltrim( $a, '-' ), '0' );
		$abs_b = ltrim( ltrim( $b, '-' ), '0' );
		$cmp   = strlen( $abs_a ) <=> strlen( $abs_b );
		if ( 0 === $cmp ) {
			$cmp = strcmp( $abs_a, $abs_b ) <=> 0;
		}
		return $neg_a ? -$cmp : $cmp;
	}
}

<?php
/**
 * Numbers written as JavaScript writes them (Number.prototype.toString).
 *
 * Why: the service and @card2crypto/core sign numbers as JavaScript's
 * String(n) writes them; PHP writes floats differently (1.0E+20, 1.0E-7,
 * 0.30000000000000004 only with serialize_precision -1), so signing a PHP
 * float needs this to agree byte for byte.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Signing;

final class Js_Number {

	/**
	 * The text JavaScript's String(n) gives for a double.
	 *
	 * @throws \InvalidArgumentException For INF and NAN (JSON has no such number).
	 */
	public static function format( float $value ): string {
		if ( ! is_finite( $value ) ) {
			throw new \InvalidArgumentException( ( is_nan( $value ) ? 'NAN' : 'INF' ) . ' cannot be signed (JSON has no such number)' );
		}
		if ( 0.0 === $value ) {
			return '0'; // Also -0, as String(-0) gives "0".
		}
		list( $digits, $exponent ) = self::shortest_digits( abs( $value ) );
		return ( $value < 0 ? '-' : '' ) . self::layout( $digits, $exponent );
	}

	/**
	 * The shortest decimal digits that read back as $value, and n such that
	 * $value = 0.DIGITS × 10^n (ECMAScript's Number::toString terms).
	 *
	 * For each length, sprintf gives the correctly rounded (closest)
	 * candidate. At a power of two the doubles below are twice as dense as
	 * above, so the closest candidate can miss while the one on the other
	 * side still reads back: that one is tried too, as JavaScript would pick
	 * it. Independent of the precision and serialize_precision ini settings.
	 *
	 * @return array{0: string, 1: int}
	 */
	private static function shortest_digits( float $value ): array {
		for ( $precision = 0; $precision <= 16; $precision++ ) {
			$text = sprintf( '%.' . $precision . 'e', $value );
			if ( 1 !== preg_match( '/^([0-9])(?:\.([0-9]+))?e([+-][0-9]+)$/D', $text, $m ) ) {
				throw new \UnexpectedValueException( 'Unexpected float text from sprintf: ' . $text );
			}
			$mantissa = $m[1] . ( isset( $m[2] ) ? $m[2] : '' ); // $precision + 1 digits, at most 17: fits an int.
			$scale    = (int) $m[3] - $precision;                // $value ≈ $mantissa × 10^$scale.
			$read     = (float) ( $mantissa . 'e' . $scale );
			if ( $read !== $value ) {
				$other = (int) $mantissa + ( $read < $value ? 1 : -1 );
				if ( $other <= 0 || (float) ( $other . 'e' . $scale ) !== $value ) {
					continue;
				}
				$mantissa = (string) $other;
			}
			$digits = rtrim( $mantissa, '0' );
			// n counts the digits before the decimal point: strlen(mantissa) + scale.
			return array( $digits, strlen( $mantissa ) + $scale );
		}
		throw new \UnexpectedValueException( 'No round-trip decimal form found for a float' );
	}

	/** ECMAScript Number::toString, steps for k digits and exponent n. */
	private static function layout( string $digits, int $n ): string {
		$k = strlen( $digits );
		if ( $k <= $n && $n <= 21 ) {
			return $digits . str_repeat( '0', $n - $k );
		}
		if ( 0 < $n && $n <= 21 ) {
			return substr( $digits, 0, $n ) . '.' . substr( $digits, $n );
		}
		if ( -6 < $n && $n <= 0 ) {
			return '0.' . str_repeat( '0', -$n ) . $digits;
		}
		$e    = $n - 1;
		$sign = $e < 0 ? '-' : '+';
		$head = 1 === $k ? $digits : $digits[0] . '.' . substr( $digits, 1 );
		return $head . 'e' . $sign . abs( $e );
	}

	/**
	 * How JavaScript re-writes a JSON number text: String(Number(text)).
	 * Null when the value is out of range of a double (1e400), as core skips that reading.
	 */
	public static function reformat( string $json_number_text ): ?string {
		$value = (float) $json_number_text;
		return is_finite( $value ) ? self::format( $value ) : null;
	}
}

<?php
/**
 * A JSON number exactly as received.
 *
 * Why: PHP's json_decode turns numbers into int or float and loses their text
 * ("1.50" becomes 1.5, 1e20 prints as 1.0E+20). The service signs the text it
 * wrote, so verification needs that text; see docs/decisions.md, "Signing:
 * number text".
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Json;

final class Json_Number implements \JsonSerializable {

	/** RFC 8259 number grammar. */
	const GRAMMAR = '/^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/D';

	/** @var string */
	private $text;

	/**
	 * @param string $text A JSON number, e.g. "1.50", "1e2", "9007199254740993".
	 * @throws \InvalidArgumentException When $text is not a JSON number.
	 */
	public function __construct( string $text ) {
		if ( 1 !== preg_match( self::GRAMMAR, $text ) ) {
			throw new \InvalidArgumentException( 'Not a JSON number: "' . substr( $text, 0, 40 ) . '"' );
		}
		$this->text = $text;
	}

	/** The number as written in the JSON text. */
	public function text(): string {
		return $this->text;
	}

	public function __toString(): string {
		return $this->text;
	}

	/** True when the text is an integer (no fraction, no exponent). */
	public function is_integer_text(): bool {
		return 1 === preg_match( '/^-?[0-9]+$/D', $this->text );
	}

	/**
	 * The value as a PHP int, when it is a whole number that fits one.
	 * "100", "1e2" and "100.0" all give 100; "1.5" and integers beyond
	 * PHP_INT_MAX give null. Money is read with this, never through a float.
	 */
	public function to_int(): ?int {
		if ( $this->is_integer_text() ) {
			$int = (int) $this->text; // Saturates beyond PHP_INT_MAX, caught by the comparison.
			if ( (string) $int === $this->text ) {
				return $int;
			}
			return '-0' === $this->text ? 0 : null;
		}
		$float = (float) $this->text;
		if ( floor( $float ) !== $float || abs( $float ) > 9007199254740991.0 ) {
			return null;
		}
		return (int) $float;
	}

	/**
	 * The exact whole number >= 0 the text stands for, as decimal digits
	 * ("1.5e18" gives "1500000000000000000", "100.0" gives "100"), or null
	 * for negatives, fractions and absurd sizes (more than $max_digits digits).
	 * Read from the text: no float ever touches it.
	 */
	public function to_whole_digits( int $max_digits = 60 ): ?string {
		if ( 1 !== preg_match( '/^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/D', $this->text, $m ) ) {
			return null;
		}
		$fraction = isset( $m[3] ) ? $m[3] : '';
		$digits   = ltrim( $m[2] . $fraction, '0' );
		if ( '' === $digits ) {
			return '0'; // 0, -0, 0.00, 0e5
		}
		if ( '-' === $m[1] ) {
			return null;
		}
		$exponent = isset( $m[4] ) && '' !== $m[4] ? $m[4] : '0';
		if ( strlen( ltrim( $exponent, '+-0' ) ) > 6 ) {
			return null; // An exponent this large cannot give a sane whole number.
		}
		$shift = (int) $exponent - strlen( $fraction ); // value = digits × 10^shift
		if ( $shift >= 0 ) {
			return strlen( $digits ) + $shift > $max_digits ? null : $digits . str_repeat( '0', $shift );
		}
		$kept = strlen( $digits ) + $shift; // Digits before the decimal point.
		if ( $kept <= 0 || '' !== trim( substr( $digits, $kept ), '0' ) ) {
			return null;
		}
		return $kept > $max_digits ? null : substr( $digits, 0, $kept );
	}

	/** The value as a PHP float (may round, like JavaScript's Number()). */
	public function to_float(): float {
		return (float) $this->text;
	}

	/** json_encode() writes the value; Lossless_Json::encode() writes the text. */
	#[\ReturnTypeWillChange]
	public function jsonSerialize() {
		$int = $this->to_int();
		return null !== $int ? $int : $this->to_float();
	}
}

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

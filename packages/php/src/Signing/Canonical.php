<?php
/**
 * The canonical string the service signs (spec, "Authentication"), byte for
 * byte as @card2crypto/core's canonicalString() writes it.
 *
 * General form: nested members are flattened to root members named by their
 * ":"-joined path (array indices from 0, written as text), empty arrays and
 * empty objects give no member, booleans are 1/0, null is an empty value
 * (or left out in the "omit" reading verification also tries), numbers as
 * JavaScript writes them or, for Json_Number, their text as received.
 * Members are sorted by name in UTF-16 code-unit order (not PHP's ksort, not
 * UTF-8 byte order), then by value; written name:value and joined with ";".
 * The top-level "signature" member is left out.
 *
 * Simple form (widget settings): the same on a flat object; nested values are an error.
 *
 * See docs/decisions.md for null, empty objects, quotes and number text.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Signing;

use Card2Crypto\Shared\Json\Json_Number;

final class Canonical {

	const FORM_GENERAL = 'general';
	const FORM_SIMPLE  = 'simple';

	/** Numbers from JSON text: as received. */
	const NUMBERS_RAW = 'raw';
	/** Numbers from JSON text: as JavaScript re-writes their value. */
	const NUMBERS_JS = 'js';

	/** null as "name:", the project's signing policy. */
	const NULLS_EMPTY = 'empty';
	/** null members left out (accepted when verifying). */
	const NULLS_OMIT = 'omit';

	const SIGNATURE_MEMBER = 'signature';

	/** Same guard as core: a clear error instead of a stack overflow. */
	const MAX_DEPTH = 256;

	/** @var bool */
	private $simple;

	/** @var bool */
	private $raw_numbers;

	/** @var bool */
	private $omit_nulls;

	/** @var array<int, string> Flattened names. */
	private $names = array();

	/** @var array<int, string> Leaf texts, same order as $names. */
	private $texts = array();

	private function __construct( bool $simple, bool $raw_numbers, bool $omit_nulls ) {
		$this->simple      = $simple;
		$this->raw_numbers = $raw_numbers;
		$this->omit_nulls  = $omit_nulls;
	}

	/**
	 * The exact string that is HMAC'd for $value.
	 *
	 * @param array<string|int, mixed>|\stdClass $value An object: a PHP array (its keys are member names) or stdClass.
	 * @throws Signing_Exception Naming the member when a value cannot be signed.
	 */
	public static function of( $value, string $form = self::FORM_GENERAL, string $numbers = self::NUMBERS_RAW, string $nulls = self::NULLS_EMPTY ): string {
		if ( self::FORM_GENERAL !== $form && self::FORM_SIMPLE !== $form ) {
			throw new Signing_Exception( '', 'unknown signing form "' . $form . '" (general or simple)' );
		}
		if ( self::NUMBERS_RAW !== $numbers && self::NUMBERS_JS !== $numbers ) {
			throw new Signing_Exception( '', 'unknown number reading "' . $numbers . '" (raw or js)' );
		}
		if ( self::NULLS_EMPTY !== $nulls && self::NULLS_OMIT !== $nulls ) {
			throw new Signing_Exception( '', 'unknown null reading "' . $nulls . '" (empty or omit)' );
		}
		if ( $value instanceof \stdClass ) {
			$value = get_object_vars( $value );
		}
		if ( ! is_array( $value ) ) {
			throw new Signing_Exception( '', 'the signed value must be an object (a PHP array or stdClass), not ' . self::describe( $value ) );
		}
		$writer = new self( self::FORM_SIMPLE === $form, self::NUMBERS_RAW === $numbers, self::NULLS_OMIT === $nulls );
		$writer->collect( $value, '', 0 );
		return $writer->joined();
	}

	/**
	 * @param array<string|int, mixed> $node
	 */
	private function collect( array $node, string $prefix, int $depth ): void {
		if ( $depth > self::MAX_DEPTH ) {
			throw new Signing_Exception( substr( $prefix, 0, -1 ), 'nesting deeper than ' . self::MAX_DEPTH . ' levels' );
		}
		foreach ( $node as $key => $child ) {
			$key = (string) $key; // PHP stores "10" as 10: names are always text.
			if ( 0 === $depth && self::SIGNATURE_MEMBER === $key ) {
				continue;
			}
			if ( 1 !== preg_match( '//u', $key ) ) {
				throw new Signing_Exception( $prefix . bin2hex( $key ), 'the member name is not valid UTF-8' );
			}
			$name = $prefix . $key;
			if ( $child instanceof \stdClass ) {
				$child = get_object_vars( $child );
			}
			if ( is_array( $child ) ) {
				if ( $this->simple ) {
					throw new Signing_Exception( $name, 'the simple form signs flat settings only; nested objects and arrays need the general form' );
				}
				// Empty arrays and objects give no member (decisions.md), so do containers of only empty containers.
				$this->collect( $child, $name . ':', $depth + 1 );
				continue;
			}
			$text = $this->leaf_text( $child, $name );
			if ( null === $text ) {
				continue;
			}
			$this->names[] = $name;
			$this->texts[] = $text;
		}
	}

	/**
	 * @param mixed $value
	 * @return string|null Null when the member produces nothing.
	 */
	private function leaf_text( $value, string $name ): ?string {
		if ( is_string( $value ) ) {
			if ( 1 !== preg_match( '//u', $value ) ) {
				throw new Signing_Exception( $name, 'the value is not valid UTF-8' );
			}
			return $value;
		}
		if ( is_bool( $value ) ) {
			return $value ? '1' : '0';
		}
		if ( is_int( $value ) ) {
			return (string) $value;
		}
		if ( is_float( $value ) ) {
			try {
				return Js_Number::format( $value );
			} catch ( \InvalidArgumentException $e ) {
				throw new Signing_Exception( $name, $e->getMessage() );
			}
		}
		if ( null === $value ) {
			return $this->omit_nulls ? null : '';
		}
		if ( $value instanceof Json_Number ) {
			if ( $this->raw_numbers ) {
				return $value->text();
			}
			$text = Js_Number::reformat( $value->text() );
			if ( null === $text ) {
				throw new Signing_Exception( $name, $value->text() . ' is out of the range of a JavaScript number' );
			}
			return $text;
		}
		throw new Signing_Exception( $name, self::describe( $value ) . ' cannot be signed (arrays, stdClass, strings, numbers, booleans and null only)' );
	}

	private function joined(): string {
		$count = count( $this->names );
		if ( 0 === $count ) {
			return '';
		}
		// Sort by name, then by value (names collide only through a literal ":" in a key).
		$name_keys = array_map( array( self::class, 'utf16_sort_key' ), $this->names );
		$text_keys = array_map( array( self::class, 'utf16_sort_key' ), $this->texts );
		$order     = range( 0, $count - 1 );
		array_multisort( $name_keys, SORT_ASC, SORT_STRING, $text_keys, SORT_ASC, SORT_STRING, $order );
		$lines = array();
		foreach ( $order as $i ) {
			$lines[] = $this->names[ $i ] . ':' . $this->texts[ $i ];
		}
		return implode( ';', $lines );
	}

	/**
	 * A byte string whose byte order is the UTF-16 code-unit order of the
	 * UTF-8 string $text.
	 *
	 * UTF-8 byte order is code-point order, which differs from UTF-16 order in
	 * one place only: U+E000–U+FFFF (lead bytes EE, EF) sort after the
	 * supplementary planes (lead bytes F0–F4, surrogates D800–DFFF in UTF-16).
	 * Moving those two lead bytes to F5 and F6 (never used in UTF-8) restores
	 * UTF-16 order; continuation bytes (80–BF) are untouched.
	 */
	public static function utf16_sort_key( string $text ): string {
		return strtr( $text, "\xEE\xEF", "\xF5\xF6" );
	}

	/** @param mixed $value */
	private static function describe( $value ): string {
		if ( null === $value ) {
			return 'null';
		}
		if ( is_object( $value ) ) {
			return 'a ' . get_class( $value );
		}
		return 'a ' . gettype( $value );
	}
}

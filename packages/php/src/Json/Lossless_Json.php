<?php
/**
 * Strict JSON (RFC 8259) that keeps every number's text: decode and encode.
 *
 * decode(): objects become PHP arrays (member names as keys: PHP stores "10"
 * as the int 10, so read keys back with (string)), arrays become lists,
 * numbers become Json_Number, strings stay UTF-8. Invalid UTF-8, lone
 * surrogate escapes, comments, trailing commas, a BOM and nesting deeper than
 * 256 levels are refused with a Json_Exception that says where.
 * Duplicate member names keep the last value, as JSON.parse does.
 *
 * encode(): writes Json_Number as its text and floats as JavaScript writes
 * them, so a body's numbers are exactly the text that was signed.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Json;

use Card2Crypto\Shared\Signing\Js_Number;

final class Lossless_Json {

	/** Same limit as @card2crypto/core's parser. */
	const MAX_DEPTH = 256;

	/** @var string */
	private $text;

	/** @var int */
	private $pos = 0;

	/** @var int */
	private $length;

	private function __construct( string $text ) {
		$this->text   = $text;
		$this->length = strlen( $text );
	}

	/**
	 * Parses a JSON text.
	 *
	 * @return mixed array|string|bool|null|Json_Number
	 * @throws Json_Exception When the text is not valid JSON.
	 */
	public static function decode( string $text ) {
		if ( 1 !== preg_match( '//u', $text ) ) {
			throw new Json_Exception( 'Invalid JSON: the text is not valid UTF-8' );
		}
		$parser = new self( $text );
		$parser->skip_whitespace();
		$value = $parser->parse_value( 0 );
		$parser->skip_whitespace();
		if ( $parser->pos < $parser->length ) {
			$parser->fail( 'unexpected data after the JSON value' );
		}
		return $value;
	}

	/**
	 * Parses a JSON text that must be an object (a request or callback body).
	 *
	 * @return array<string|int, mixed>
	 * @throws Json_Exception When the text is not valid JSON or not an object.
	 */
	public static function decode_object( string $text ): array {
		$value = self::decode( $text );
		// decode() returns arrays for both objects and lists; the first token tells them apart.
		if ( ! is_array( $value ) || '{' !== substr( ltrim( $text, " \t\r\n" ), 0, 1 ) ) {
			throw new Json_Exception( 'Invalid JSON: expected an object, got ' . self::describe( $value ) );
		}
		return $value;
	}

	/**
	 * Writes a value as compact JSON. Arrays with keys 0..n-1 in order are
	 * written as lists, other arrays as objects (an empty array as []).
	 *
	 * @param mixed $value
	 * @throws Json_Exception For values JSON cannot hold (INF, NAN, resources, invalid UTF-8).
	 */
	public static function encode( $value ): string {
		return self::encode_value( $value, 0 );
	}

	/** @param mixed $value */
	private static function encode_value( $value, int $depth ): string {
		if ( $depth > self::MAX_DEPTH ) {
			throw new Json_Exception( 'Cannot write JSON nested deeper than ' . self::MAX_DEPTH . ' levels' );
		}
		if ( null === $value ) {
			return 'null';
		}
		if ( is_bool( $value ) ) {
			return $value ? 'true' : 'false';
		}
		if ( is_int( $value ) ) {
			return (string) $value;
		}
		if ( is_float( $value ) ) {
			if ( ! is_finite( $value ) ) {
				throw new Json_Exception( 'Cannot write ' . ( is_nan( $value ) ? 'NAN' : 'INF' ) . ' as JSON' );
			}
			return Js_Number::format( $value );
		}
		if ( is_string( $value ) ) {
			return self::encode_string( $value );
		}
		if ( $value instanceof Json_Number ) {
			return $value->text();
		}
		if ( $value instanceof \stdClass ) {
			$value = get_object_vars( $value );
			if ( array() === $value ) {
				return '{}';
			}
		}
		if ( is_array( $value ) ) {
			if ( self::is_list( $value ) ) {
				$parts = array();
				foreach ( $value as $item ) {
					$parts[] = self::encode_value( $item, $depth + 1 );
				}
				return '[' . implode( ',', $parts ) . ']';
			}
			$parts = array();
			foreach ( $value as $key => $item ) {
				$parts[] = self::encode_string( (string) $key ) . ':' . self::encode_value( $item, $depth + 1 );
			}
			return '{' . implode( ',', $parts ) . '}';
		}
		throw new Json_Exception( 'Cannot write a ' . ( is_object( $value ) ? get_class( $value ) : gettype( $value ) ) . ' as JSON' );
	}

	private static function encode_string( string $value ): string {
		if ( 1 !== preg_match( '//u', $value ) ) {
			throw new Json_Exception( 'Cannot write a string that is not valid UTF-8 as JSON' );
		}
		return (string) json_encode( $value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE );
	}

	/** @param array<mixed> $value */
	public static function is_list( array $value ): bool {
		$expected = 0;
		foreach ( $value as $key => $_ ) {
			if ( $key !== $expected ) {
				return false;
			}
			++$expected;
		}
		return true;
	}

	// ------------------------------------------------------------------ parser

	/** @return never */
	private function fail( string $message, ?int $at = null ) {
		throw new Json_Exception( 'Invalid JSON: ' . $message, null === $at ? $this->pos : $at );
	}

	private function skip_whitespace(): void {
		$this->pos += strspn( $this->text, " \t\r\n", $this->pos );
	}

	/** @return mixed */
	private function parse_value( int $depth ) {
		if ( $this->pos >= $this->length ) {
			$this->fail( 'unexpected end of the text' );
		}
		$c = $this->text[ $this->pos ];
		switch ( $c ) {
			case '{':
				return $this->parse_object( $depth + 1 );
			case '[':
				return $this->parse_array( $depth + 1 );
			case '"':
				return $this->parse_string();
			case 't':
				return $this->parse_literal( 'true', true );
			case 'f':
				return $this->parse_literal( 'false', false );
			case 'n':
				return $this->parse_literal( 'null', null );
		}
		if ( '-' === $c || ( $c >= '0' && $c <= '9' ) ) {
			return $this->parse_number();
		}
		$this->fail( 'unexpected character ' . self::show_char( $this->text, $this->pos ) );
	}

	/**
	 * @param mixed $value
	 * @return mixed
	 */
	private function parse_literal( string $word, $value ) {
		if ( substr( $this->text, $this->pos, strlen( $word ) ) !== $word ) {
			$this->fail( 'unexpected character ' . self::show_char( $this->text, $this->pos ) );
		}
		$this->pos += strlen( $word );
		return $value;
	}

	private function parse_number(): Json_Number {
		$start = $this->pos;
		$pos   = $start;
		if ( '-' === $this->text[ $pos ] ) {
			++$pos;
		}
		$int_digits = strspn( $this->text, '0123456789', $pos );
		if ( 0 === $int_digits ) {
			$this->fail( 'invalid number: a digit is expected', $pos );
		}
		// A leading zero stands alone: "012" is "0" followed by unexpected data, as in JSON.parse.
		$pos += '0' === $this->text[ $pos ] ? 1 : $int_digits;
		if ( $pos < $this->length && '.' === $this->text[ $pos ] ) {
			$digits = strspn( $this->text, '0123456789', $pos + 1 );
			if ( 0 === $digits ) {
				$this->fail( 'invalid number: digits expected after "."', $pos + 1 );
			}
			$pos += 1 + $digits;
		}
		if ( $pos < $this->length && ( 'e' === $this->text[ $pos ] || 'E' === $this->text[ $pos ] ) ) {
			++$pos;
			if ( $pos < $this->length && ( '+' === $this->text[ $pos ] || '-' === $this->text[ $pos ] ) ) {
				++$pos;
			}
			$digits = strspn( $this->text, '0123456789', $pos );
			if ( 0 === $digits ) {
				$this->fail( 'invalid number: digits expected in the exponent', $pos );
			}
			$pos += $digits;
		}
		$this->pos = $pos;
		return new Json_Number( substr( $this->text, $start, $pos - $start ) );
	}

	private function parse_string(): string {
		$start = $this->pos; // At the opening quote.
		$pos   = $start + 1;
		$out   = '';
		for ( ;; ) {
			// Copy the run of plain characters at once.
			$run = strcspn( $this->text, "\"\\\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f", $pos );
			$out .= substr( $this->text, $pos, $run );
			$pos += $run;
			if ( $pos >= $this->length ) {
				$this->fail( 'unterminated string', $start );
			}
			$c = $this->text[ $pos ];
			if ( '"' === $c ) {
				$this->pos = $pos + 1;
				return $out;
			}
			if ( '\\' !== $c ) {
				$this->fail( 'control character in a string (escape it)', $pos );
			}
			$escape = $pos + 1 < $this->length ? $this->text[ $pos + 1 ] : '';
			switch ( $escape ) {
				case '"':
				case '\\':
				case '/':
					$out .= $escape;
					$pos += 2;
					break;
				case 'b':
					$out .= "\x08";
					$pos += 2;
					break;
				case 'f':
					$out .= "\x0c";
					$pos += 2;
					break;
				case 'n':
					$out .= "\n";
					$pos += 2;
					break;
				case 'r':
					$out .= "\r";
					$pos += 2;
					break;
				case 't':
					$out .= "\t";
					$pos += 2;
					break;
				case 'u':
					$unit = $this->read_hex4( $pos );
					$pos += 6;
					if ( $unit >= 0xD800 && $unit <= 0xDBFF ) {
						// A high surrogate must be followed by an escaped low surrogate.
						$low = '\\u' === substr( $this->text, $pos, 2 ) ? $this->read_hex4( $pos ) : -1;
						if ( $low < 0xDC00 || $low > 0xDFFF ) {
							$this->fail( 'lone UTF-16 surrogate escape in a string (it has no UTF-8 form)', $pos - 6 );
						}
						$unit = 0x10000 + ( ( $unit - 0xD800 ) << 10 ) + ( $low - 0xDC00 );
						$pos += 6;
					} elseif ( $unit >= 0xDC00 && $unit <= 0xDFFF ) {
						$this->fail( 'lone UTF-16 surrogate escape in a string (it has no UTF-8 form)', $pos - 6 );
					}
					$out .= self::utf8( $unit );
					break;
				default:
					$this->fail( 'invalid escape sequence in a string', $pos );
			}
		}
	}

	private function read_hex4( int $pos ): int {
		$hex = substr( $this->text, $pos + 2, 4 );
		if ( 4 !== strlen( $hex ) || ! ctype_xdigit( $hex ) ) {
			$this->fail( 'invalid \\u escape in a string (four hexadecimal digits expected)', $pos );
		}
		return (int) hexdec( $hex );
	}

	private static function utf8( int $code_point ): string {
		if ( $code_point < 0x80 ) {
			return chr( $code_point );
		}
		if ( $code_point < 0x800 ) {
			return chr( 0xC0 | ( $code_point >> 6 ) ) . chr( 0x80 | ( $code_point & 0x3F ) );
		}
		if ( $code_point < 0x10000 ) {
			return chr( 0xE0 | ( $code_point >> 12 ) ) . chr( 0x80 | ( ( $code_point >> 6 ) & 0x3F ) ) . chr( 0x80 | ( $code_point & 0x3F ) );
		}
		return chr( 0xF0 | ( $code_point >> 18 ) ) . chr( 0x80 | ( ( $code_point >> 12 ) & 0x3F ) ) . chr( 0x80 | ( ( $code_point >> 6 ) & 0x3F ) ) . chr( 0x80 | ( $code_point & 0x3F ) );
	}

	/** @return array<mixed> */
	private function parse_array( int $depth ): array {
		if ( $depth > self::MAX_DEPTH ) {
			$this->fail( 'nesting deeper than ' . self::MAX_DEPTH . ' levels' );
		}
		++$this->pos; // [
		$items = array();
		$this->skip_whitespace();
		if ( $this->pos < $this->length && ']' === $this->text[ $this->pos ] ) {
			++$this->pos;
			return $items;
		}
		for ( ;; ) {
			$this->skip_whitespace();
			$items[] = $this->parse_value( $depth );
			$this->skip_whitespace();
			$c = $this->pos < $this->length ? $this->text[ $this->pos ] : '';
			if ( ',' === $c ) {
				++$this->pos;
			} elseif ( ']' === $c ) {
				++$this->pos;
				return $items;
			} else {
				$this->fail( 'expected "," or "]" in an array' );
			}
		}
	}

	/** @return array<string|int, mixed> */
	private function parse_object( int $depth ): array {
		if ( $depth > self::MAX_DEPTH ) {
			$this->fail( 'nesting deeper than ' . self::MAX_DEPTH . ' levels' );
		}
		++$this->pos; // {
		$object = array();
		$this->skip_whitespace();
		if ( $this->pos < $this->length && '}' === $this->text[ $this->pos ] ) {
			++$this->pos;
			return $object;
		}
		for ( ;; ) {
			$this->skip_whitespace();
			if ( $this->pos >= $this->length || '"' !== $this->text[ $this->pos ] ) {
				$this->fail( 'expected a member name (a string)' );
			}
			$name = $this->parse_string();
			$this->skip_whitespace();
			if ( $this->pos >= $this->length || ':' !== $this->text[ $this->pos ] ) {
				$this->fail( 'expected ":" after a member name' );
			}
			++$this->pos;
			$this->skip_whitespace();
			$object[ $name ] = $this->parse_value( $depth );
			$this->skip_whitespace();
			$c = $this->pos < $this->length ? $this->text[ $this->pos ] : '';
			if ( ',' === $c ) {
				++$this->pos;
			} elseif ( '}' === $c ) {
				++$this->pos;
				return $object;
			} else {
				$this->fail( 'expected "," or "}" in an object' );
			}
		}
	}

	private static function show_char( string $text, int $pos ): string {
		// The whole UTF-8 character, not a lone byte of it.
		if ( 1 === preg_match( '/./suA', $text, $m, 0, $pos ) ) {
			return '"' . $m[0] . '"';
		}
		return 'byte 0x' . bin2hex( $text[ $pos ] );
	}

	/** @param mixed $value */
	private static function describe( $value ): string {
		if ( is_array( $value ) ) {
			return 'an array';
		}
		if ( $value instanceof Json_Number ) {
			return 'a number';
		}
		if ( null === $value ) {
			return 'null';
		}
		return is_bool( $value ) ? 'a boolean' : 'a string';
	}
}

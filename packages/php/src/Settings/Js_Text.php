<?php
/**
 * Text helpers that behave like their JavaScript counterparts, so the PHP
 * settings rules accept exactly what @card2crypto/core's validator accepts.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Settings;

final class Js_Text {

	/** JavaScript's WhiteSpace and LineTerminator set (what String.prototype.trim and \s mean). */
	const WHITESPACE_CLASS = '\t\n\x{0B}\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}';

	public static function is_utf8( string $text ): bool {
		return 1 === preg_match( '//u', $text );
	}

	/** String.prototype.trim(). The text must be valid UTF-8. */
	public static function trim( string $text ): string {
		$class = '[' . self::WHITESPACE_CLASS . ']';
		return (string) preg_replace( '/^' . $class . '+|' . $class . '+$/uD', '', $text );
	}

	/** Number of Unicode characters ([...text].length; mb_strlen without needing mbstring). */
	public static function length( string $text ): int {
		return (int) preg_match_all( '/./su', $text );
	}

	/** Splits on runs of commas and JavaScript whitespace, dropping empty entries (text.split(/[\s,]+/)). */
	public static function split_list( string $text ): array {
		return preg_split( '/[' . self::WHITESPACE_CLASS . ',]+/u', $text, -1, PREG_SPLIT_NO_EMPTY ) ?: array();
	}

	/**
	 * Tests an ECMAScript pattern (as new RegExp(pattern, 'u').test(text)).
	 * PHP's /u turns on Unicode classes, where \d, \w and \s would match more
	 * than in JavaScript; they are rewritten to JavaScript's sets first.
	 */
	public static function matches( string $pattern, string $text ): bool {
		$result = preg_match( "\x01" . self::to_pcre( $pattern ) . "\x01uD", $text );
		if ( false === $result ) {
			throw new \InvalidArgumentException( 'Invalid pattern in the settings schema: ' . $pattern );
		}
		return 1 === $result;
	}

	private static function to_pcre( string $pattern ): string {
		$sets     = array(
			'd' => '0-9',
			'w' => 'A-Za-z0-9_',
			's' => self::WHITESPACE_CLASS,
		);
		$out      = '';
		$in_class = false;
		$length   = strlen( $pattern );
		for ( $i = 0; $i < $length; $i++ ) {
			$c = $pattern[ $i ];
			if ( '\\' === $c && $i + 1 < $length ) {
				$next  = $pattern[ $i + 1 ];
				$lower = strtolower( $next );
				if ( isset( $sets[ $lower ] ) ) {
					$negated = $next !== $lower;
					if ( $in_class && ! $negated ) {
						$out .= $sets[ $lower ];
					} elseif ( ! $in_class ) {
						$out .= '[' . ( $negated ? '^' : '' ) . $sets[ $lower ] . ']';
					} else {
						$out .= '\\' . $next; // A negated set inside a class has no plain rewrite; PCRE's is close.
					}
				} else {
					$out .= '\\' . $next;
				}
				++$i;
				continue;
			}
			if ( '[' === $c && ! $in_class ) {
				$in_class = true;
			} elseif ( ']' === $c && $in_class ) {
				$in_class = false;
			}
			$out .= $c;
		}
		return $out;
	}
}

<?php
/**
 * CSS colours the widget can use, as @card2crypto/core's theme.ts checks
 * them: hex, rgb()/rgba(), hsl()/hsla() (comma or space syntax, components
 * in range) and CSS named colours. Anything else (var(), ";", "}") is
 * refused, so a value can never break out of its declaration in the
 * generated partner CSS.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Settings;

final class Css_Color {

	const NAMED = 'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen transparent';

	const NUMBER = '/^(?:\d+(?:\.\d+)?|\.\d+)$/D';

	/** Trimmed, lower case, inner whitespace collapsed: the form written into the CSS file. */
	public static function normalize( string $value ): string {
		return (string) preg_replace( '/[' . Js_Text::WHITESPACE_CLASS . ']+/u', ' ', strtolower( Js_Text::trim( $value ) ) );
	}

	public static function is_valid( string $value ): bool {
		if ( ! Js_Text::is_utf8( $value ) ) {
			return false;
		}
		$v = self::normalize( $value );
		if ( 1 === preg_match( '/^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/D', $v ) || in_array( $v, explode( ' ', self::NAMED ), true ) ) {
			return true;
		}
		if ( 1 !== preg_match( '/^(rgba?|hsla?)\((.*)\)$/sD', $v, $m ) ) {
			return false;
		}
		$parts = self::split_arguments( $m[2] );
		if ( null === $parts || ( 3 !== count( $parts ) && 4 !== count( $parts ) ) ) {
			return false;
		}
		if ( isset( $parts[3] ) && ! self::in_range( $parts[3], 1, true ) ) {
			return false;
		}
		if ( 0 === strpos( $m[1], 'rgb' ) ) {
			return self::in_range( $parts[0], 255, true ) && self::in_range( $parts[1], 255, true ) && self::in_range( $parts[2], 255, true );
		}
		return self::is_hue( $parts[0] ) && self::is_percent( $parts[1] ) && self::is_percent( $parts[2] );
	}

	/** Comma syntax "a, b, c[, alpha]" or space syntax "a b c[ / alpha]". */
	private static function split_arguments( string $args ): ?array {
		$text = Js_Text::trim( $args );
		if ( false !== strpos( $text, ',' ) ) {
			return array_map( array( Js_Text::class, 'trim' ), explode( ',', $text ) );
		}
		$pieces = array_map( array( Js_Text::class, 'trim' ), explode( '/', $text ) );
		if ( count( $pieces ) > 2 || '' === $pieces[0] ) {
			return null;
		}
		$parts = explode( ' ', $pieces[0] );
		if ( 3 !== count( $parts ) ) {
			return null;
		}
		if ( isset( $pieces[1] ) ) {
			$parts[] = $pieces[1];
		}
		return $parts;
	}

	/** A plain number in [0, max], or (when allowed) a percentage in [0%, 100%]. */
	private static function in_range( string $x, int $max, bool $percent_allowed ): bool {
		if ( '%' === substr( $x, -1 ) ) {
			return $percent_allowed && self::is_percent( $x );
		}
		return 1 === preg_match( self::NUMBER, $x ) && (float) $x <= $max;
	}

	private static function is_percent( string $x ): bool {
		$n = substr( $x, 0, -1 );
		return '%' === substr( $x, -1 ) && 1 === preg_match( self::NUMBER, $n ) && (float) $n <= 100;
	}

	private static function is_hue( string $x ): bool {
		$n = 'deg' === substr( $x, -3 ) ? substr( $x, 0, -3 ) : $x;
		return 1 === preg_match( self::NUMBER, $n ) && (float) $n <= 360;
	}
}

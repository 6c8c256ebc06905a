<?php
/**
 * Hosted landing-page addresses, byte for byte as @card2crypto/core's
 * buildLandingUrl() writes them (decisions.md, "Landing URL encoding"):
 * {origin}{path ending in "/"}?{query&}i=<percent-encoded standard base64 of
 * the UTF-8 JSON {"params": …, "callbacks": {"success": …, "fail": …}}>.
 *
 * Core takes the origin, path and query from the WHATWG URL parser, which
 * rewrites what it reads: scheme and host in lower case, user info and the
 * scheme's default port dropped, IPv4 written as a dotted quad, IPv6
 * compressed, "." and ".." path segments resolved, and some characters of
 * the path and query percent-encoded. This class makes the same rewrites, so
 * both plugins send the buyer to the address core would. A host outside
 * ASCII is refused instead of converted (WHATWG writes it in punycode by
 * UTS #46, which PHP has only with the intl extension): the site owner can
 * write it in punycode. test/suites/landing-url.ts compares the two on a table
 * of addresses.
 *
 * No WordPress calls here.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Landing;

use Card2Crypto\Shared\Settings\Http_Url;

final class Landing_Url {

	/** Bytes WHATWG percent-encodes in a path (besides controls, space and non-ASCII): " # < > ? ^ ` { } (^ since 2024, as core writes it on every Node). */
	const PATH_ENCODE = '"#<>?^`{}';

	/** Bytes WHATWG percent-encodes in the query of an http(s) URL: " # < > '. */
	const QUERY_ENCODE = '"#<>\'';

	/**
	 * @param string               $landing_url Absolute http(s) address of the landing page, without #fragment or "i" parameter.
	 * @param array<string, mixed> $params      Signed widget settings (already validated by whoever signed them).
	 * @param string               $success     Opened when the purchase succeeds: an absolute http(s) URL.
	 * @param string               $fail        Opened when it fails: an absolute http(s) URL.
	 * @throws \InvalidArgumentException Naming what is wrong with the landing address or a callback.
	 */
	public static function build( string $landing_url, array $params, string $success, string $fail ): string {
		$parts = self::parse( $landing_url );
		foreach ( array(
			'success' => $success,
			'fail'    => $fail,
		) as $name => $url ) {
			if ( ! Http_Url::is_valid( $url ) ) {
				throw new \InvalidArgumentException( 'callbacks.' . $name . ' must be an absolute http(s) URL.' );
			}
		}
		$json = json_encode( // phpcs:ignore WordPress.WP.AlternativeFunctions.json_encode_json_encode -- the exact bytes JSON.stringify writes; runs without WordPress in tests.
			array(
				'params'    => $params,
				'callbacks' => array(
					'success' => $success,
					'fail'    => $fail,
				),
			),
			// No escaped slashes, Unicode or line separators: the text JSON.stringify writes.
			JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_LINE_TERMINATORS | JSON_THROW_ON_ERROR
		);
		$i = rawurlencode( base64_encode( $json ) ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- the landing page's documented format.
		return $parts['origin'] . $parts['path'] . '?' . ( '' !== $parts['query'] ? $parts['query'] . '&' : '' ) . 'i=' . $i;
	}

	/**
	 * The landing address as core's URL parser writes it, the path ending in "/".
	 *
	 * @return array{origin: string, path: string, query: string}
	 * @throws \InvalidArgumentException When it is not usable as a landing address.
	 */
	private static function parse( string $url ): array {
		if ( ! Http_Url::is_valid( $url ) || 1 !== preg_match( '~^(https?)://([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#(.*))?$~isD', $url, $m ) ) {
			throw new \InvalidArgumentException( 'The landing address must be an absolute http(s) URL.' );
		}
		if ( isset( $m[5] ) && '' !== $m[5] ) {
			// An empty fragment ("…/landing#") is dropped, as the URL parser does.
			throw new \InvalidArgumentException( 'The landing address must not have a #fragment.' );
		}
		$query = $m[4] ?? '';
		foreach ( explode( '&', $query ) as $pair ) {
			// URLSearchParams' reading of a name: "+" is a space, %XX a byte.
			if ( 'i' === urldecode( explode( '=', $pair, 2 )[0] ) ) {
				throw new \InvalidArgumentException( 'The landing address must not already carry an "i" parameter.' );
			}
		}
		$scheme    = strtolower( $m[1] );
		$authority = $m[2];
		$at        = strrpos( $authority, '@' );
		$host_port = false === $at ? $authority : substr( $authority, $at + 1 ); // The origin has no user info.
		preg_match( '/^(\[[^\]]*\]|[^:]*)(?::([0-9]*))?$/D', $host_port, $hp ); // Http_Url has checked this shape.
		$port = isset( $hp[2] ) && '' !== $hp[2] ? (int) $hp[2] : null;
		if ( ( 'http' === $scheme && 80 === $port ) || ( 'https' === $scheme && 443 === $port ) ) {
			$port = null;
		}
		$path = self::path( $m[3] );
		if ( '/' !== substr( $path, -1 ) ) {
			$path .= '/';
		}
		return array(
			'origin' => $scheme . '://' . self::host( $hp[1] ) . ( null === $port ? '' : ':' . $port ),
			'path'   => $path,
			'query'  => self::percent_encode( $query, self::QUERY_ENCODE ),
		);
	}

	/** The host as WHATWG serialises it: lower case, IPv4 as a dotted quad, IPv6 compressed. */
	private static function host( string $host ): string {
		if ( '[' === $host[0] ) {
			return '[' . self::ipv6( substr( $host, 1, -1 ) ) . ']';
		}
		if ( 1 === preg_match( '/[^\x00-\x7F]/', $host ) ) {
			throw new \InvalidArgumentException( 'The landing address must have an ASCII host: write an international domain name in punycode (xn--…).' );
		}
		$host   = strtolower( $host );
		$labels = explode( '.', $host );
		if ( count( $labels ) > 1 && '' === end( $labels ) ) {
			array_pop( $labels );
		}
		// WHATWG reads a host whose last label is a number as an IPv4 address (127.1, 0x7f.0.0.1, ...).
		return 1 === preg_match( '/^(?:0x[0-9a-f]*|[0-9]+)$/D', (string) end( $labels ) ) ? self::ipv4( $labels ) : $host;
	}

	/**
	 * WHATWG's IPv4 parser: one to four parts, decimal, octal (leading 0) or
	 * hexadecimal (0x), the last filling the remaining bytes.
	 *
	 * @param string[] $parts
	 */
	private static function ipv4( array $parts ): string {
		$numbers = array();
		foreach ( $parts as $part ) {
			if ( 1 === preg_match( '/^0x([0-9a-f]*)$/D', $part, $hex ) ) {
				$numbers[] = '' === $hex[1] ? 0 : hexdec( $hex[1] );
			} elseif ( 1 === preg_match( '/^0([0-7]+)$/D', $part, $oct ) ) {
				$numbers[] = octdec( $oct[1] );
			} elseif ( 1 === preg_match( '/^(?:0|[1-9][0-9]*)$/D', $part ) ) {
				$numbers[] = strlen( $part ) > 10 ? INF : (float) $part; // "08" is octal, so not a number.
			} else {
				$numbers = array();
				break;
			}
		}
		$count = count( $numbers );
		$last  = $count > 0 ? array_pop( $numbers ) : null;
		if ( null === $last || $count > 4 || max( array_merge( $numbers, array( 0 ) ) ) > 255 || $last >= 256 ** ( 5 - $count ) ) {
			throw new \InvalidArgumentException( 'The landing address has a host that is not a valid IPv4 address.' );
		}
		$value = (int) $last;
		foreach ( $numbers as $i => $number ) {
			$value += (int) $number * 256 ** ( 3 - $i );
		}
		return implode( '.', array( ( $value >> 24 ) & 255, ( $value >> 16 ) & 255, ( $value >> 8 ) & 255, $value & 255 ) );
	}

	/** An IPv6 address as WHATWG writes it: lower-case hex pieces, the first longest run of two or more zero pieces as "::". */
	private static function ipv6( string $address ): string {
		$bytes = @inet_pton( $address ); // phpcs:ignore WordPress.PHP.NoSilencedErrors.Discouraged -- false is the answer for a bad address.
		if ( false === $bytes || 16 !== strlen( $bytes ) ) {
			throw new \InvalidArgumentException( 'The landing address has a host that is not a valid IPv6 address.' );
		}
		$pieces = array_values( unpack( 'n8', $bytes ) );
		$best   = array( -1, 0 ); // Start and length of the longest zero run.
		for ( $i = 0; $i < 8; $i++ ) {
			$length = 0;
			while ( $i + $length < 8 && 0 === $pieces[ $i + $length ] ) {
				++$length;
			}
			if ( $length > 1 && $length > $best[1] ) {
				$best = array( $i, $length );
			}
		}
		$hex = array_map( 'dechex', $pieces );
		if ( $best[0] < 0 ) {
			return implode( ':', $hex );
		}
		return implode( ':', array_slice( $hex, 0, $best[0] ) ) . '::' . implode( ':', array_slice( $hex, $best[0] + $best[1] ) );
	}

	/** The path with "." and ".." segments resolved and percent-encoded as WHATWG does ("" is "/"). */
	private static function path( string $path ): string {
		$segments = array();
		$raw      = '' === $path ? array() : explode( '/', substr( $path, 1 ) );
		$last     = count( $raw ) - 1;
		foreach ( $raw as $i => $segment ) {
			$lower = strtolower( $segment );
			if ( in_array( $lower, array( '..', '.%2e', '%2e.', '%2e%2e' ), true ) ) {
				array_pop( $segments );
				if ( $i === $last ) {
					$segments[] = '';
				}
			} elseif ( in_array( $lower, array( '.', '%2e' ), true ) ) {
				if ( $i === $last ) {
					$segments[] = '';
				}
			} else {
				$segments[] = self::percent_encode( $segment, self::PATH_ENCODE );
			}
		}
		return '/' . implode( '/', $segments );
	}

	/** Percent-encodes controls, space, non-ASCII bytes and $also; existing %XX escapes are kept as written. */
	private static function percent_encode( string $text, string $also ): string {
		return (string) preg_replace_callback(
			'/[\x00-\x20\x7F-\xFF' . preg_quote( $also, '/' ) . ']/',
			static function ( array $byte ): string {
				return sprintf( '%%%02X', ord( $byte[0] ) );
			},
			$text
		);
	}
}

<?php
/**
 * Absolute http(s) URLs for the service address settings.
 *
 * Close to core's isHttpUrl (WHATWG URL): scheme http or https followed by
 * "//", a non-empty host (name, IPv4 or [IPv6]), an optional port up to
 * 65535, no whitespace or control characters anywhere. Stricter than WHATWG
 * on purpose in the corners browsers repair silently ("http:/host",
 * backslashes, spaces in the path).
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Settings;

final class Http_Url {

	public static function is_valid( string $url ): bool {
		if ( ! Js_Text::is_utf8( $url ) || 1 === preg_match( '/[\x00-\x20\x7F\\\\]|[' . Js_Text::WHITESPACE_CLASS . ']/u', $url ) ) {
			return false;
		}
		if ( 1 !== preg_match( '~^https?://([^/?#]*)~iD', $url, $m ) ) {
			return false;
		}
		$authority = $m[1];
		$at        = strrpos( $authority, '@' );
		$host_port = false === $at ? $authority : substr( $authority, $at + 1 );
		if ( 1 !== preg_match( '/^(\[[0-9A-Fa-f:.]+\]|[^:\[\]]+)(?::([0-9]*))?$/uD', $host_port, $hp ) ) {
			return false;
		}
		$host = $hp[1];
		if ( isset( $hp[2] ) && '' !== $hp[2] && (int) $hp[2] > 65535 ) {
			return false;
		}
		if ( '[' === $host[0] ) {
			return Ip_Address::is_ipv6( substr( $host, 1, -1 ) );
		}
		// Letters (any script, for IDN), digits, hyphens and dots; no empty labels except a final dot.
		return 1 === preg_match( '/^(?:[\p{L}\p{N}](?:[\p{L}\p{N}\p{M}_-]*[\p{L}\p{N}\p{M}])?\.)*[\p{L}\p{N}](?:[\p{L}\p{N}\p{M}_-]*[\p{L}\p{N}\p{M}])?\.?$/uD', $host );
	}

	/**
	 * Whether an http(s) address names this machine or a private network
	 * (core's hasLocalHost, character for character): localhost and
	 * *.localhost, IPv4 0/8, 10/8, 127/8, 169.254/16, 172.16/12, 192.168/16,
	 * IPv6 ::, ::1, fc00::/7, fe80::/10 and IPv4-mapped forms of those.
	 */
	public static function has_local_host( string $url ): bool {
		if ( 1 !== preg_match( '~^https?://([^/?#]*)~i', $url, $m ) ) {
			return false;
		}
		$at        = strrpos( $m[1], '@' );
		$host_port = false === $at ? $m[1] : substr( $m[1], $at + 1 );
		$host      = 1 === preg_match( '/^(\[[0-9A-Fa-f:.]+\]|[^:\[\]]+)/', $host_port, $hp ) ? strtolower( $hp[1] ) : '';
		$host      = '.' === substr( $host, -1 ) ? substr( $host, 0, -1 ) : $host;
		if ( 'localhost' === $host || '.localhost' === substr( $host, -10 ) ) {
			return true;
		}
		if ( '' !== $host && '[' === $host[0] ) {
			$ip = substr( $host, 1, -1 );
			if ( 1 === preg_match( '/^::ffff:(\d+\.\d+\.\d+\.\d+)$/D', $ip, $mapped ) ) {
				return self::is_local_ipv4( $mapped[1] );
			}
			return '::' === $ip || '::1' === $ip || 1 === preg_match( '/^f[cd][0-9a-f]{0,2}:/', $ip ) || 1 === preg_match( '/^fe[89ab][0-9a-f]?:/', $ip );
		}
		return self::is_local_ipv4( $host );
	}

	private static function is_local_ipv4( string $host ): bool {
		if ( 1 !== preg_match( '/^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/D', $host, $m ) ) {
			return false;
		}
		$a = (int) $m[1];
		$b = (int) $m[2];
		return 0 === $a || 10 === $a || 127 === $a || ( 169 === $a && 254 === $b ) || ( 172 === $a && $b >= 16 && $b <= 31 ) || ( 192 === $a && 168 === $b );
	}
}

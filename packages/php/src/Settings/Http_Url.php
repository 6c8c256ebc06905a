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
}

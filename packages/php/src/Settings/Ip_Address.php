<?php
/**
 * IP addresses and CIDR ranges for the callback allowlist, in the strict
 * textual forms @card2crypto/core's ip.ts accepts (no zone ids, no leading
 * zeros in IPv4 octets), and the check of an address against such a list.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Settings;

final class Ip_Address {

	const IPV4_OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';

	public static function is_ipv4( string $text ): bool {
		return 1 === preg_match( '/^' . self::IPV4_OCTET . '(?:\.' . self::IPV4_OCTET . '){3}$/D', $text );
	}

	public static function is_ipv6( string $text ): bool {
		if ( 1 !== preg_match( '/^[0-9a-fA-F:.]+$/D', $text ) ) {
			return false;
		}
		$halves = explode( '::', $text );
		if ( count( $halves ) > 2 ) {
			return false;
		}
		$head  = '' === $halves[0] ? array() : explode( ':', $halves[0] );
		$tail  = 2 === count( $halves ) && '' !== $halves[1] ? explode( ':', $halves[1] ) : array();
		$all   = array_merge( $head, $tail );
		$count = 0;
		$last  = count( $all ) - 1;
		foreach ( $all as $i => $group ) {
			// The last group ends the address only if nothing follows it ("1.2.3.4::" is invalid).
			$at_end = $i === $last && ( 1 === count( $halves ) || count( $tail ) > 0 );
			if ( $at_end && false !== strpos( $group, '.' ) ) {
				// Embedded IPv4 (::ffff:192.0.2.1) counts as two groups and must come last.
				if ( ! self::is_ipv4( $group ) ) {
					return false;
				}
				$count += 2;
			} elseif ( 1 === preg_match( '/^[0-9a-fA-F]{1,4}$/D', $group ) ) {
				++$count;
			} else {
				return false;
			}
		}
		return 2 === count( $halves ) ? $count <= 7 : 8 === $count;
	}

	/** An IPv4/IPv6 address, or a CIDR range such as 192.0.2.0/24 or 2001:db8::/32. */
	public static function is_ip_or_cidr( string $text ): bool {
		$slash = strpos( $text, '/' );
		if ( false === $slash ) {
			return self::is_ipv4( $text ) || self::is_ipv6( $text );
		}
		$address = substr( $text, 0, $slash );
		$prefix  = substr( $text, $slash + 1 );
		if ( 1 !== preg_match( '/^(?:0|[1-9][0-9]{0,2})$/D', $prefix ) ) {
			return false;
		}
		if ( self::is_ipv4( $address ) ) {
			return (int) $prefix <= 32;
		}
		if ( self::is_ipv6( $address ) ) {
			return (int) $prefix <= 128;
		}
		return false;
	}

	/**
	 * Whether $ip is one of the entries (addresses or CIDR ranges) of an allowlist.
	 *
	 * @param string[] $entries
	 */
	public static function in_list( string $ip, array $entries ): bool {
		$address = @inet_pton( $ip ); // phpcs:ignore WordPress.PHP.NoSilencedErrors -- an invalid address is simply not in the list.
		if ( false === $address ) {
			return false;
		}
		foreach ( $entries as $entry ) {
			$parts  = explode( '/', $entry, 2 );
			$range  = @inet_pton( $parts[0] ); // phpcs:ignore WordPress.PHP.NoSilencedErrors
			if ( false === $range || strlen( $range ) !== strlen( $address ) ) {
				continue;
			}
			$bits = isset( $parts[1] ) ? (int) $parts[1] : strlen( $range ) * 8;
			$full = intdiv( $bits, 8 );
			if ( substr( $address, 0, $full ) !== substr( $range, 0, $full ) ) {
				continue;
			}
			$rest = $bits % 8;
			if ( 0 === $rest ) {
				return true;
			}
			$mask = ( 0xff << ( 8 - $rest ) ) & 0xff;
			if ( ( ord( $address[ $full ] ) & $mask ) === ( ord( $range[ $full ] ) & $mask ) ) {
				return true;
			}
		}
		return false;
	}
}

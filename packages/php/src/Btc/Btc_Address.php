<?php
/**
 * Bitcoin address validation: base58check (P2PKH, P2SH) and segwit bech32
 * (witness v0, BIP173) / bech32m (v1+, BIP350), for mainnet, testnet (signet
 * shares its prefixes) and regtest; and the segwit encoder Bip32 writes
 * addresses with, on the same bech32 checksum (one copy, here). The same
 * checks and reasons as @card2crypto/core's btc-address.ts; no GMP or BCMath
 * needed.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Btc;

final class Btc_Address {

	const NETWORKS = array( 'mainnet', 'testnet', 'regtest' );

	const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

	const BASE58_VERSIONS = array(
		0x00 => array( 'mainnet', 'p2pkh' ),
		0x05 => array( 'mainnet', 'p2sh' ),
		0x6f => array( 'testnet', 'p2pkh' ),
		0xc4 => array( 'testnet', 'p2sh' ),
	);

	const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
	const BECH32_CONST   = 1;
	const BECH32M_CONST  = 0x2bc830a3;
	const HRP_NETWORK    = array(
		'bc'   => 'mainnet',
		'tb'   => 'testnet',
		'bcrt' => 'regtest',
	);

	/**
	 * Validates an address. Base58 testnet prefixes are shared by testnet,
	 * signet and regtest and are reported as "testnet" (accepted when either
	 * testnet or regtest is allowed).
	 *
	 * @param string[]|null $networks Networks accepted; null = all.
	 * @return array{valid: bool, reason?: string, network?: string, type?: string, encoding?: string, witness_version?: int}
	 */
	public static function validate( string $address, ?array $networks = null ): array {
		if ( '' === $address ) {
			return self::invalid( 'The address is empty.' );
		}
		if ( 1 !== preg_match( '//u', $address ) ) {
			return self::invalid( 'The address is not valid text (UTF-8).' );
		}
		// JavaScript's trim(): ASCII and Unicode spaces, line separators and the BOM.
		if ( 1 === preg_match( '/^[\s\p{Z}\x{FEFF}]|[\s\p{Z}\x{FEFF}]$/u', $address ) ) {
			return self::invalid( 'The address has leading or trailing spaces.' );
		}
		// A string whose base58check checksum holds was meant as base58, even when it also looks like bech32
		// ("bc1…" or "B1…" happen among random base58 strings): its own answer stands, length and version
		// included. Otherwise a bech32-shaped string gets the segwit reason (a wrong prefix such as Litecoin's
		// "ltc1…" is the useful one), and anything else the base58 reason.
		$result      = self::decode_base58_address( $address );
		$checksummed = ! empty( $result['checksummed'] );
		unset( $result['checksummed'] );
		$lower         = strtolower( $address );
		$bech32_shaped = 1 === preg_match( '/^(bc|tb|bcrt)1/', $lower ) || 1 === preg_match( '/^[a-z]{1,83}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/D', $lower );
		if ( ! $result['valid'] && ! $checksummed && $bech32_shaped ) {
			$result = self::decode_segwit( $address );
		}
		if ( ! $result['valid'] ) {
			return $result;
		}
		if ( null !== $networks && ! in_array( $result['network'], $networks, true ) ) {
			$shared_test_prefix = 'base58check' === $result['encoding'] && 'testnet' === $result['network'] && in_array( 'regtest', $networks, true );
			if ( ! $shared_test_prefix ) {
				return self::invalid( 'This is a ' . $result['network'] . ' address; expected ' . implode( ' or ', $networks ) . '.' );
			}
		}
		return $result;
	}

	public static function is_valid( string $address, ?array $networks = null ): bool {
		return self::validate( $address, $networks )['valid'];
	}

	/** @return array{valid: false, reason: string} */
	private static function invalid( string $reason ): array {
		return array(
			'valid'  => false,
			'reason' => $reason,
		);
	}

	/** @return string[] The UTF-8 characters of a (valid UTF-8) string. */
	private static function chars( string $text ): array {
		return preg_split( '//u', $text, -1, PREG_SPLIT_NO_EMPTY ) ?: array();
	}

	// ---------------------------------------------------------------- base58check

	/**
	 * Decode a base58check address. A refusal carries 'checksummed' => true when the last four
	 * bytes are the checksum of the rest (whatever the length): the writer meant base58check.
	 */
	private static function decode_base58_address( string $address ): array {
		$chars  = self::chars( $address );
		$length = count( $chars );
		if ( $length < 26 || $length > 35 ) {
			return self::invalid( 'A legacy (base58) address has 26 to 35 characters; this one has ' . $length . '.' );
		}
		// Big-endian base-256 digits, multiplied by 58 and added to per character.
		$bytes = array();
		foreach ( $chars as $index => $char ) {
			$digit = 1 === strlen( $char ) ? strpos( self::BASE58_ALPHABET, $char ) : false;
			if ( false === $digit ) {
				return self::invalid( 'Character "' . $char . '" at position ' . ( $index + 1 ) . ' is not valid in a base58 address.' );
			}
			$carry = $digit;
			for ( $i = count( $bytes ) - 1; $i >= 0; $i-- ) {
				$carry      += $bytes[ $i ] * 58;
				$bytes[ $i ] = $carry & 0xff;
				$carry     >>= 8;
			}
			while ( $carry > 0 ) {
				array_unshift( $bytes, $carry & 0xff );
				$carry >>= 8;
			}
		}
		// Leading zero digits ("1") are leading zero bytes.
		$zeros = strspn( $address, '1' );
		$bytes = array_merge( array_fill( 0, $zeros, 0 ), self::strip_leading_zeros( $bytes ) );
		// The last four bytes checksum the rest whatever the length: then the writer meant base58check.
		$binary      = pack( 'C*', ...$bytes );
		$end         = strlen( $binary ) - 4;
		$checksummed = $end > 0 && substr( $binary, $end ) === substr( hash( 'sha256', hash( 'sha256', substr( $binary, 0, $end ), true ), true ), 0, 4 );
		if ( 25 !== count( $bytes ) ) {
			return self::invalid( 'The address does not decode to a 20-byte hash with version and checksum.' ) + array( 'checksummed' => $checksummed );
		}
		if ( ! $checksummed ) {
			return self::invalid( 'Checksum mismatch: the address has a typo.' );
		}
		if ( ! isset( self::BASE58_VERSIONS[ $bytes[0] ] ) ) {
			return self::invalid( 'Version byte 0x' . sprintf( '%02x', $bytes[0] ) . ' is not a Bitcoin address type.' ) + array( 'checksummed' => true );
		}
		list( $network, $type ) = self::BASE58_VERSIONS[ $bytes[0] ];
		return array(
			'valid'    => true,
			'network'  => $network,
			'type'     => $type,
			'encoding' => 'base58check',
		);
	}

	/** @param int[] $bytes */
	private static function strip_leading_zeros( array $bytes ): array {
		$i = 0;
		while ( $i < count( $bytes ) && 0 === $bytes[ $i ] ) {
			++$i;
		}
		return array_slice( $bytes, $i );
	}

	// ------------------------------------------------------------ bech32 / bech32m

	/** @param int[] $values */
	private static function polymod( array $values ): int {
		$generators = array( 0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3 );
		$chk        = 1;
		foreach ( $values as $v ) {
			$top = $chk >> 25;
			$chk = ( ( $chk & 0x1ffffff ) << 5 ) ^ $v;
			for ( $i = 0; $i < 5; $i++ ) {
				if ( ( $top >> $i ) & 1 ) {
					$chk ^= $generators[ $i ];
				}
			}
		}
		return $chk;
	}

	/** @return int[] */
	private static function hrp_expand( string $hrp ): array {
		$out = array();
		for ( $i = 0, $n = strlen( $hrp ); $i < $n; $i++ ) {
			$out[] = ord( $hrp[ $i ] ) >> 5;
		}
		$out[] = 0;
		for ( $i = 0, $n = strlen( $hrp ); $i < $n; $i++ ) {
			$out[] = ord( $hrp[ $i ] ) & 31;
		}
		return $out;
	}

	/**
	 * Regroups bits (5-bit words to 8-bit bytes); null on invalid padding.
	 *
	 * @param int[] $data
	 * @return int[]|null
	 */
	private static function convert_bits( array $data, int $from, int $to, bool $pad ): ?array {
		$acc  = 0;
		$bits = 0;
		$out  = array();
		$maxv = ( 1 << $to ) - 1;
		foreach ( $data as $value ) {
			$acc   = ( ( $acc << $from ) | $value ) & 0xffffff; // Only the low bits are ever read.
			$bits += $from;
			while ( $bits >= $to ) {
				$bits -= $to;
				$out[] = ( $acc >> $bits ) & $maxv;
			}
		}
		if ( $pad ) {
			if ( $bits > 0 ) {
				$out[] = ( $acc << ( $to - $bits ) ) & $maxv;
			}
		} elseif ( $bits >= $from || ( ( $acc << ( $to - $bits ) ) & $maxv ) !== 0 ) {
			return null;
		}
		return $out;
	}

	/**
	 * A segwit output as an address: bech32 (BIP173) for v0, bech32m (BIP350) for v1 to v16, lower case.
	 *
	 * @throws \InvalidArgumentException For a version or a program length no address can hold.
	 */
	public static function segwit_encode( string $hrp, int $version, string $program ): string {
		$length = strlen( $program );
		if ( $version < 0 || $version > 16 ) {
			throw new \InvalidArgumentException( 'Witness version ' . $version . ' does not exist (0 to 16).' );
		}
		if ( $length < 2 || $length > 40 || ( 0 === $version && 20 !== $length && 32 !== $length ) ) {
			throw new \InvalidArgumentException( 'A witness v' . $version . ' program cannot have ' . $length . ' bytes.' );
		}
		$data  = array_merge( array( $version ), (array) self::convert_bits( array_values( unpack( 'C*', $program ) ), 8, 5, true ) );
		$check = self::polymod( array_merge( self::hrp_expand( $hrp ), $data, array( 0, 0, 0, 0, 0, 0 ) ) ) ^ ( 0 === $version ? self::BECH32_CONST : self::BECH32M_CONST );
		$text  = $hrp . '1';
		foreach ( $data as $v ) {
			$text .= self::BECH32_CHARSET[ $v ];
		}
		for ( $i = 0; $i < 6; $i++ ) {
			$text .= self::BECH32_CHARSET[ ( $check >> ( 5 * ( 5 - $i ) ) ) & 31 ];
		}
		return $text;
	}

	private static function decode_segwit( string $address ): array {
		if ( strtolower( $address ) !== $address && strtoupper( $address ) !== $address ) {
			return self::invalid( 'A bech32 address must be all lower case or all upper case, not mixed.' );
		}
		$chars = self::chars( $address );
		if ( count( $chars ) > 90 ) {
			return self::invalid( 'A bech32 address has at most 90 characters.' );
		}
		$text = strtolower( $address );
		$sep  = (int) strrpos( $text, '1' );
		$hrp  = substr( $text, 0, $sep );
		if ( ! isset( self::HRP_NETWORK[ $hrp ] ) ) {
			return self::invalid( 'Unknown address prefix "' . $hrp . '"; expected bc, tb or bcrt.' );
		}
		$network   = self::HRP_NETWORK[ $hrp ];
		$data_part = self::chars( substr( $text, $sep + 1 ) );
		if ( count( $data_part ) < 6 ) {
			return self::invalid( 'The address is too short to hold a checksum.' );
		}
		$original = self::chars( substr( $address, $sep + 1 ) );
		$data     = array();
		foreach ( $data_part as $i => $char ) {
			$v = 1 === strlen( $char ) ? strpos( self::BECH32_CHARSET, $char ) : false;
			if ( false === $v ) {
				return self::invalid( 'Character "' . $original[ $i ] . '" at position ' . ( $sep + 2 + $i ) . ' is not valid in a bech32 address.' );
			}
			$data[] = $v;
		}
		$check = self::polymod( array_merge( self::hrp_expand( $hrp ), $data ) );
		if ( self::BECH32_CONST === $check ) {
			$variant = 'bech32';
		} elseif ( self::BECH32M_CONST === $check ) {
			$variant = 'bech32m';
		} else {
			return self::invalid( 'Checksum mismatch: the address has a typo.' );
		}
		$words = array_slice( $data, 0, -6 );
		if ( array() === $words ) {
			return self::invalid( 'The address has no witness version or program.' );
		}
		$version = $words[0];
		if ( $version > 16 ) {
			return self::invalid( 'Witness version ' . $version . ' does not exist (0 to 16).' );
		}
		if ( 0 === $version && 'bech32' !== $variant ) {
			return self::invalid( 'A witness v0 address must use the bech32 checksum (BIP173), not bech32m.' );
		}
		if ( 0 !== $version && 'bech32m' !== $variant ) {
			return self::invalid( 'A witness v' . $version . ' address must use the bech32m checksum (BIP350), not bech32.' );
		}
		$program = self::convert_bits( array_slice( $words, 1 ), 5, 8, false );
		if ( null === $program ) {
			return self::invalid( 'The witness program has invalid padding.' );
		}
		$length = count( $program );
		if ( $length < 2 || $length > 40 ) {
			return self::invalid( 'A witness program has 2 to 40 bytes; this one has ' . $length . '.' );
		}
		$type = 'witness_unknown';
		if ( 0 === $version ) {
			if ( 20 === $length ) {
				$type = 'p2wpkh';
			} elseif ( 32 === $length ) {
				$type = 'p2wsh';
			} else {
				return self::invalid( 'A witness v0 program has 20 or 32 bytes; this one has ' . $length . '.' );
			}
		} elseif ( 1 === $version && 32 === $length ) {
			$type = 'p2tr';
		}
		return array(
			'valid'           => true,
			'network'         => $network,
			'type'            => $type,
			'encoding'        => $variant,
			'witness_version' => $version,
		);
	}
}

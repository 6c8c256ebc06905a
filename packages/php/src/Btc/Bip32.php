<?php
/**
 * A store's wallet, given as an extended public key (xpub/ypub/zpub,
 * tpub/upub/vpub) or an output descriptor of one such key (wpkh(…),
 * sh(wpkh(…)), pkh(…), BIP380-382 with the BIP389 <0;1> step), and the
 * addresses derived from it (BIP32 public derivation, BIP44/49/84 address
 * types). Nothing here can spend: a private key is refused, by name.
 *
 * The same rules and messages as @card2crypto/core's bip32 module (proven by
 * vectors/bip32-addresses.json); big numbers on GMP when the host has it, else
 * BCMath. support() says which, or why neither, for a settings page.
 *
 * Keys are arrays: prefix, version, network ('mainnet'|'testnet'), depth,
 * parent_fingerprint, child_number (ints), chain_code and public_key (binary).
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Btc;

final class Bip32 {

	const HARDENED = 0x80000000;

	const MAX_DERIVE_COUNT = 1000;

	/**
	 * The longest wallet key or descriptor read, in characters (core's
	 * WALLET_KEY_MAX_LENGTH, the schema's wallet_key maxLength): longer text
	 * is refused before anything decodes it.
	 */
	const MAX_KEY_LENGTH = 512;

	const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

	/** Version => [prefix, network, kind, address type, public prefix]. */
	const VERSIONS = array(
		0x0488b21e => array( 'xpub', 'mainnet', 'public', 'p2pkh', 'xpub' ),
		0x0488ade4 => array( 'xprv', 'mainnet', 'private', 'p2pkh', 'xpub' ),
		0x049d7cb2 => array( 'ypub', 'mainnet', 'public', 'p2sh-p2wpkh', 'ypub' ),
		0x049d7878 => array( 'yprv', 'mainnet', 'private', 'p2sh-p2wpkh', 'ypub' ),
		0x04b24746 => array( 'zpub', 'mainnet', 'public', 'p2wpkh', 'zpub' ),
		0x04b2430c => array( 'zprv', 'mainnet', 'private', 'p2wpkh', 'zpub' ),
		0x043587cf => array( 'tpub', 'testnet', 'public', 'p2pkh', 'tpub' ),
		0x04358394 => array( 'tprv', 'testnet', 'private', 'p2pkh', 'tpub' ),
		0x044a5262 => array( 'upub', 'testnet', 'public', 'p2sh-p2wpkh', 'upub' ),
		0x044a4e28 => array( 'uprv', 'testnet', 'private', 'p2sh-p2wpkh', 'upub' ),
		0x045f1cf6 => array( 'vpub', 'testnet', 'public', 'p2wpkh', 'vpub' ),
		0x045f18bc => array( 'vprv', 'testnet', 'private', 'p2wpkh', 'vpub' ),
		// SLIP-132 multisig keys: refused, by name.
		0x0295b43f => array( 'Ypub', 'mainnet', 'multisig', 'p2sh-p2wpkh', 'Ypub' ),
		0x0295b005 => array( 'Yprv', 'mainnet', 'multisig', 'p2sh-p2wpkh', 'Ypub' ),
		0x02aa7ed3 => array( 'Zpub', 'mainnet', 'multisig', 'p2wpkh', 'Zpub' ),
		0x02aa7a99 => array( 'Zprv', 'mainnet', 'multisig', 'p2wpkh', 'Zpub' ),
		0x024289ef => array( 'Upub', 'testnet', 'multisig', 'p2sh-p2wpkh', 'Upub' ),
		0x024285b5 => array( 'Uprv', 'testnet', 'multisig', 'p2sh-p2wpkh', 'Upub' ),
		0x02575483 => array( 'Vpub', 'testnet', 'multisig', 'p2wpkh', 'Vpub' ),
		0x02575048 => array( 'Vprv', 'testnet', 'multisig', 'p2wpkh', 'Vpub' ),
	);

	const PREFIXES = array(
		'mainnet' => 'xpub, ypub or zpub',
		'testnet' => 'tpub, upub or vpub',
	);

	const ADDRESS_TYPE_NAMES = array(
		'p2wpkh'      => 'native segwit (wpkh)',
		'p2sh-p2wpkh' => 'nested segwit (sh(wpkh))',
		'p2pkh'       => 'legacy (pkh)',
	);

	const INPUT_CHARSET    = "0123456789()[],'/*abcdefgh@:$%{}IJKLMNOPQRSTUVWXYZ&+-.;<=>?!^_|~ijklmnopqrstuvwxyzABCDEFGH`#\"\\ ";
	const CHECKSUM_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

	const NO_MATH_MESSAGE = "This server's PHP has neither the GMP nor the BCMath extension, so it cannot derive addresses from an extended public key. Ask your host to enable one of them (GMP is faster); until then, payments go to the single address.";

	/** @var Secp256k1 */
	private $curve;

	/**
	 * @param string|null $backend 'gmp', 'bcmath', or null for the best the host has.
	 * @throws Bip32_Exception 'no_math' when the host has neither (or not the one asked for).
	 */
	public function __construct( ?string $backend = null ) {
		$this->curve = new Secp256k1( self::math( $backend ) );
	}

	/**
	 * What this host can do, for a settings page: the backend derivation will use, or why none.
	 *
	 * @return array{available: bool, backend: string|null, message: string}
	 */
	public static function support(): array {
		foreach ( array( 'gmp', 'bcmath' ) as $backend ) {
			if ( extension_loaded( $backend ) ) {
				return array(
					'available' => true,
					'backend'   => $backend,
					'message'   => 'gmp' === $backend ? 'Addresses are derived with PHP\'s GMP extension.' : 'Addresses are derived with PHP\'s BCMath extension (slower than GMP, fast enough).',
				);
			}
		}
		return array(
			'available' => false,
			'backend'   => null,
			'message'   => self::NO_MATH_MESSAGE,
		);
	}

	private static function math( ?string $backend ): Big_Math {
		if ( null === $backend ) {
			$backend = self::support()['backend'];
			if ( null === $backend ) {
				throw new Bip32_Exception( 'no_math', self::NO_MATH_MESSAGE );
			}
		}
		if ( 'gmp' !== $backend && 'bcmath' !== $backend ) {
			throw new \InvalidArgumentException( 'The backend is gmp, bcmath or null, not ' . $backend . '.' );
		}
		if ( ! extension_loaded( $backend ) ) {
			throw new Bip32_Exception( 'no_math', 'This server\'s PHP has no ' . ( 'gmp' === $backend ? 'GMP' : 'BCMath' ) . ' extension.' );
		}
		return 'gmp' === $backend ? new Gmp_Math() : new Bcmath_Math();
	}

	/** 'gmp' or 'bcmath'. */
	public function backend(): string {
		return $this->curve->math()->name();
	}

	/** Surrounding spaces, tabs and line breaks are dropped (as pasted), the same four as core. */
	private static function trim_pasted( string $text ): string {
		return trim( $text, " \t\r\n" );
	}

	/**
	 * Refuses a text longer than any wallet key or descriptor (MAX_KEY_LENGTH
	 * characters, trimmed; bytes when it is not valid UTF-8) before anything
	 * decodes it: base58 decoding takes time that grows with the square of the
	 * length (a 200,000-character paste held a PHP worker for minutes).
	 *
	 * @throws Bip32_Exception
	 */
	private static function refuse_too_long( string $text ): void {
		if ( strlen( $text ) <= self::MAX_KEY_LENGTH ) {
			return;
		}
		$count = 1 === preg_match( '//u', $text ) ? (int) preg_match_all( '/./su', $text ) : strlen( $text );
		if ( $count > self::MAX_KEY_LENGTH ) {
			throw new Bip32_Exception( 'too_long', 'A wallet key or descriptor has at most ' . self::MAX_KEY_LENGTH . ' characters (an extended public key has 111); this one has ' . $count . '.' );
		}
	}

	/** The UTF-8 characters of a string (bytes when it is not valid UTF-8). */
	private static function chars( string $text ): array {
		$chars = 1 === preg_match( '//u', $text ) ? preg_split( '//u', $text, -1, PREG_SPLIT_NO_EMPTY ) : str_split( $text );
		return $chars ? $chars : array();
	}

	// ------------------------------------------------------------ base58check

	/** Base58check text of $payload (checksum appended). */
	public static function base58check_encode( string $payload ): string {
		$bytes = $payload . substr( hash( 'sha256', hash( 'sha256', $payload, true ), true ), 0, 4 );
		// Repeated division of big-endian base-256 digits by 58.
		$digits = array_values( unpack( 'C*', $bytes ) );
		$text   = '';
		while ( array() !== $digits ) {
			$rest  = array();
			$carry = 0;
			foreach ( $digits as $digit ) {
				$carry = $carry * 256 + $digit;
				$q     = intdiv( $carry, 58 );
				$carry = $carry % 58;
				if ( array() !== $rest || 0 !== $q ) {
					$rest[] = $q;
				}
			}
			$text   = self::BASE58[ $carry ] . $text;
			$digits = $rest;
		}
		return str_repeat( '1', strspn( $bytes, "\0" ) ) . $text;
	}

	/**
	 * [null, payload] of base58check text, or ['short'|'checksum', null]. Characters are checked by the caller.
	 *
	 * @return array{0: string|null, 1: string|null}
	 */
	private static function base58check_decode( string $text ): array {
		$bytes = array();
		for ( $i = 0, $n = strlen( $text ); $i < $n; $i++ ) {
			$carry = strpos( self::BASE58, $text[ $i ] );
			for ( $j = count( $bytes ) - 1; $j >= 0; $j-- ) {
				$carry      += $bytes[ $j ] * 58;
				$bytes[ $j ] = $carry & 0xff;
				$carry     >>= 8;
			}
			while ( $carry > 0 ) {
				array_unshift( $bytes, $carry & 0xff );
				$carry >>= 8;
			}
		}
		$binary = str_repeat( "\0", strspn( $text, '1' ) ) . ( array() === $bytes ? '' : pack( 'C*', ...$bytes ) );
		if ( strlen( $binary ) < 5 ) {
			return array( 'short', null );
		}
		$payload = substr( $binary, 0, -4 );
		return substr( hash( 'sha256', hash( 'sha256', $payload, true ), true ), 0, 4 ) === substr( $binary, -4 ) ? array( null, $payload ) : array( 'checksum', null );
	}

	// ----------------------------------------------------------- extended keys

	/**
	 * Decodes one base58check extended public key; refuses private, multisig
	 * and unknown keys, bad checksums and key data that is no public key.
	 *
	 * @throws Bip32_Exception
	 */
	public function parse_extended_key( string $text ): array {
		$text = self::trim_pasted( $text );
		if ( '' === $text ) {
			throw new Bip32_Exception( 'empty', 'The key is empty.' );
		}
		self::refuse_too_long( $text );
		$chars = self::chars( $text );
		foreach ( $chars as $i => $char ) {
			if ( 1 !== strlen( $char ) || false === strpos( self::BASE58, $char ) ) {
				throw new Bip32_Exception( 'characters', 'Character "' . $char . '" at position ' . ( $i + 1 ) . ' is not valid in an extended key.' );
			}
		}
		list( $error, $data ) = self::base58check_decode( $text );
		if ( 'short' === $error ) {
			throw new Bip32_Exception( 'length', 'An extended key has 111 characters; this one has ' . count( $chars ) . '.' );
		}
		if ( 'checksum' === $error ) {
			throw new Bip32_Exception( 'checksum', 'Checksum mismatch: the key has a typo or is incomplete.' );
		}
		if ( 78 !== strlen( $data ) ) {
			throw new Bip32_Exception( 'length', 'An extended key holds 78 bytes; this one holds ' . strlen( $data ) . '.' );
		}
		$fields = unpack( 'Nversion/Cdepth/Nparent/Nchild', $data );
		$version = $fields['version'];
		if ( ! isset( self::VERSIONS[ $version ] ) ) {
			throw new Bip32_Exception( 'unknown_prefix', 'Unknown extended key version 0x' . sprintf( '%08x', $version ) . ': expected ' . self::PREFIXES['mainnet'] . ' (' . self::PREFIXES['testnet'] . ' on testnet).' );
		}
		list( $prefix, $network, $kind, , $public_prefix ) = self::VERSIONS[ $version ];
		if ( 'private' === $kind ) {
			throw new Bip32_Exception( 'private_key', 'This is an extended private key (' . $prefix . "): it can spend the wallet's funds. Paste its extended public key (" . $public_prefix . ') instead, and keep the private key out of any website.' );
		}
		if ( 'multisig' === $kind ) {
			throw new Bip32_Exception( 'multisig', 'This is a multisig key (' . $prefix . "): one key alone does not give the wallet's addresses. Use a single-signature wallet's key (" . self::PREFIXES[ $network ] . ').' );
		}
		$public_key = substr( $data, 45, 33 );
		if ( "\0" === $public_key[0] ) {
			throw new Bip32_Exception( 'invalid_key', 'The key data is a private key under public key version bytes (' . $prefix . ').' );
		}
		$point = $this->curve->decompress( $public_key );
		if ( is_string( $point ) ) {
			throw new Bip32_Exception( 'invalid_key', 'The key is damaged: ' . $point . '.' );
		}
		if ( 0 === $fields['depth'] && 0 !== $fields['parent'] ) {
			throw new Bip32_Exception( 'invalid_key', 'The key is damaged: a master key (depth 0) has no parent fingerprint.' );
		}
		if ( 0 === $fields['depth'] && 0 !== $fields['child'] ) {
			throw new Bip32_Exception( 'invalid_key', 'The key is damaged: a master key (depth 0) has no child number.' );
		}
		return array(
			'prefix'             => $prefix,
			'version'            => $version,
			'network'            => $network,
			'depth'              => $fields['depth'],
			'parent_fingerprint' => $fields['parent'],
			'child_number'       => $fields['child'],
			'chain_code'         => substr( $data, 13, 32 ),
			'public_key'         => $public_key,
		);
	}

	/** The 111-character text of an extended public key ($version overrides its own). */
	public static function serialize_extended_key( array $key, ?int $version = null ): string {
		return self::base58check_encode( pack( 'NCNN', null === $version ? $key['version'] : $version, $key['depth'], $key['parent_fingerprint'], $key['child_number'] ) . $key['chain_code'] . $key['public_key'] );
	}

	/**
	 * CKDpub (BIP32): the child at non-hardened $index.
	 *
	 * @throws Bip32_Exception 'underivable' for the (below 2^-127 likely) index with no key.
	 */
	public function derive_child( array $key, int $index ): array {
		if ( $index < 0 || $index >= self::HARDENED ) {
			throw new \InvalidArgumentException( 'Child index ' . $index . ' is not a non-hardened index (0 to ' . ( self::HARDENED - 1 ) . ').' );
		}
		if ( $key['depth'] >= 255 ) {
			throw new \InvalidArgumentException( 'The key is at depth 255, the deepest BIP32 allows.' );
		}
		$i      = hash_hmac( 'sha512', $key['public_key'] . pack( 'N', $index ), $key['chain_code'], true );
		$il_hex = bin2hex( substr( $i, 0, 32 ) );
		$child  = null;
		if ( $this->curve->below_n( $il_hex ) ) {
			$child = $this->curve->multiply_g_add( $il_hex, $this->curve->decompress( $key['public_key'] ) );
		}
		if ( null === $child ) {
			throw new Bip32_Exception( 'underivable', 'Index ' . $index . ' below this key has no valid child key (BIP32 says to skip it).' );
		}
		return array(
			'prefix'             => $key['prefix'],
			'version'            => $key['version'],
			'network'            => $key['network'],
			'depth'              => $key['depth'] + 1,
			'parent_fingerprint' => unpack( 'N', hash( 'ripemd160', hash( 'sha256', $key['public_key'], true ), true ) )[1],
			'child_number'       => $index,
			'chain_code'         => substr( $i, 32 ),
			'public_key'         => $this->curve->compress( $child ),
		);
	}

	/** The address of a compressed public key (binary) for an address type and network. */
	public static function address_of( string $public_key, string $address_type, string $network ): string {
		$key_hash = hash( 'ripemd160', hash( 'sha256', $public_key, true ), true );
		if ( 'p2wpkh' === $address_type ) {
			return Btc_Address::segwit_encode( 'mainnet' === $network ? 'bc' : 'tb', 0, $key_hash );
		}
		if ( 'p2sh-p2wpkh' === $address_type ) {
			$script_hash = hash( 'ripemd160', hash( 'sha256', "\x00\x14" . $key_hash, true ), true );
			return self::base58check_encode( ( 'mainnet' === $network ? "\x05" : "\xc4" ) . $script_hash );
		}
		return self::base58check_encode( ( 'mainnet' === $network ? "\x00" : "\x6f" ) . $key_hash );
	}

	// ------------------------------------------------------------- descriptors

	/**
	 * The BIP380 checksum (8 characters) of a descriptor written without one;
	 * null when a character is outside its set. The 40-bit arithmetic needs 64-bit PHP.
	 */
	public static function descriptor_checksum( string $descriptor ): ?string {
		$generators = array( 0xf5dee51989, 0xa9fdca3312, 0x1bab10e32d, 0x3706b1677a, 0x644d626ffd );
		$symbols    = array();
		$groups     = array();
		foreach ( self::chars( $descriptor ) as $char ) {
			$v = 1 === strlen( $char ) ? strpos( self::INPUT_CHARSET, $char ) : false;
			if ( false === $v ) {
				return null;
			}
			$symbols[] = $v & 31;
			$groups[]  = $v >> 5;
			if ( 3 === count( $groups ) ) {
				$symbols[] = $groups[0] * 9 + $groups[1] * 3 + $groups[2];
				$groups    = array();
			}
		}
		if ( 1 === count( $groups ) ) {
			$symbols[] = $groups[0];
		} elseif ( 2 === count( $groups ) ) {
			$symbols[] = $groups[0] * 3 + $groups[1];
		}
		$chk = 1;
		foreach ( array_merge( $symbols, array( 0, 0, 0, 0, 0, 0, 0, 0 ) ) as $value ) {
			$top = $chk >> 35;
			$chk = ( ( $chk & 0x7ffffffff ) << 5 ) ^ $value;
			for ( $i = 0; $i < 5; $i++ ) {
				if ( ( $top >> $i ) & 1 ) {
					$chk ^= $generators[ $i ];
				}
			}
		}
		$chk ^= 1;
		$out  = '';
		for ( $i = 0; $i < 8; $i++ ) {
			$out .= self::CHECKSUM_CHARSET[ ( $chk >> ( 5 * ( 7 - $i ) ) ) & 31 ];
		}
		return $out;
	}

	/** One path step: "12", "12h" or "12'" (BIP380: "H" is not a hardened marker). */
	private static function parse_step( string $step, string $where ): array {
		if ( 1 !== preg_match( "/^(\\d+)(h|')?$/D", $step, $match ) ) {
			throw new Bip32_Exception( 'descriptor', '"' . $step . '" in the ' . $where . " is not a path step (a number, with h or ' when hardened)." );
		}
		if ( strlen( ltrim( $match[1], '0' ) ) > 10 || (float) $match[1] >= self::HARDENED ) {
			throw new Bip32_Exception( 'descriptor', 'Step ' . $step . ' in the ' . $where . ' is out of range (0 to ' . ( self::HARDENED - 1 ) . ').' );
		}
		return array( (int) $match[1], isset( $match[2] ) );
	}

	private function parse_descriptor( string $text ): array {
		$body = $text;
		$hash = strpos( $text, '#' );
		if ( false !== $hash ) {
			$body     = substr( $text, 0, $hash );
			$checksum = substr( $text, $hash + 1 );
			$expected = self::descriptor_checksum( $body );
			if ( null === $expected ) {
				throw new Bip32_Exception( 'descriptor', 'The descriptor has a character no descriptor may contain.' );
			}
			if ( 1 !== preg_match( '/^[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{8}$/D', $checksum ) ) {
				throw new Bip32_Exception( 'descriptor_checksum', "The descriptor's checksum \"#" . $checksum . '" is not 8 checksum characters.' );
			}
			if ( $checksum !== $expected ) {
				throw new Bip32_Exception( 'descriptor_checksum', "The descriptor's checksum does not match: it has a typo or was edited after it was copied." );
			}
		} elseif ( null === self::descriptor_checksum( $body ) ) {
			throw new Bip32_Exception( 'descriptor', 'The descriptor has a character no descriptor may contain.' );
		}
		$function = null;
		foreach ( array( array( 'sh(wpkh(', '))', 'p2sh-p2wpkh' ), array( 'wpkh(', ')', 'p2wpkh' ), array( 'pkh(', ')', 'p2pkh' ) ) as $candidate ) {
			if ( 0 === strncmp( $body, $candidate[0], strlen( $candidate[0] ) ) && substr( $body, -strlen( $candidate[1] ) ) === $candidate[1] && strlen( $body ) >= strlen( $candidate[0] ) + strlen( $candidate[1] ) ) {
				$function = $candidate;
				break;
			}
		}
		$unsupported = 'Only wpkh(…), sh(wpkh(…)) and pkh(…) descriptors of one extended key are supported';
		if ( null === $function ) {
			$name = 1 === preg_match( '/^([a-z_]+)\(/', $body, $m ) ? $m[1] : null;
			throw new Bip32_Exception( 'descriptor_unsupported', $unsupported . ( null === $name ? '' : ', not ' . $name . '(…)' ) . '.' );
		}
		list( $open, $close, $address_type ) = $function;
		$expression                          = substr( $body, strlen( $open ), strlen( $body ) - strlen( $open ) - strlen( $close ) );
		if ( 1 === preg_match( '/[(),]/', $expression ) ) {
			throw new Bip32_Exception( 'descriptor_unsupported', $unsupported . '.' );
		}
		$origin = null;
		if ( '' !== $expression && '[' === $expression[0] ) {
			$end = strpos( $expression, ']' );
			if ( false === $end ) {
				throw new Bip32_Exception( 'descriptor', 'The key origin opened with "[" is not closed with "]".' );
			}
			$parts       = explode( '/', substr( $expression, 1, $end - 1 ) );
			$fingerprint = array_shift( $parts );
			if ( 1 !== preg_match( '/^[0-9a-fA-F]{8}$/D', $fingerprint ) ) {
				throw new Bip32_Exception( 'descriptor', 'The key origin\'s fingerprint "' . $fingerprint . '" is not 8 hex digits.' );
			}
			$path = array();
			foreach ( $parts as $part ) {
				list( $index, $hardened ) = self::parse_step( $part, 'key origin' );
				$path[]                   = $index . ( $hardened ? 'h' : '' );
			}
			$origin     = array(
				'fingerprint' => strtolower( $fingerprint ),
				'path'        => implode( '/', $path ),
			);
			$expression = substr( $expression, $end + 1 );
		}
		if ( 1 === preg_match( '/[\[\]]/', $expression ) ) {
			throw new Bip32_Exception( 'descriptor', 'A key has one key origin, at its start.' );
		}
		$steps    = explode( '/', $expression );
		$key_text = array_shift( $steps );
		if ( 1 === preg_match( '/^(02|03)[0-9a-fA-F]{64}$|^04[0-9a-fA-F]{128}$/D', $key_text ) ) {
			throw new Bip32_Exception( 'not_ranged', 'The descriptor holds a single public key, not an extended key: it gives one address, not one per order.' );
		}
		if ( 1 === preg_match( '/^[5KLc9][1-9A-HJ-NP-Za-km-z]{50,51}$/D', $key_text ) ) {
			list( , $payload ) = self::base58check_decode( $key_text );
			if ( null !== $payload && ( "\x80" === $payload[0] || "\xef" === $payload[0] ) ) {
				throw new Bip32_Exception( 'private_key', "The descriptor holds a private key (WIF): it can spend the wallet's funds. Use the wallet's public descriptor." );
			}
		}
		$key      = $this->parse_extended_key( $key_text );
		$key_type = self::VERSIONS[ $key['version'] ][3];
		if ( 'p2pkh' !== $key_type && $key_type !== $address_type ) {
			throw new Bip32_Exception( 'mismatch', 'A ' . $key['prefix'] . ' is a ' . self::ADDRESS_TYPE_NAMES[ $key_type ] . ' key, but the descriptor asks for ' . self::ADDRESS_TYPE_NAMES[ $address_type ] . ' addresses.' );
		}
		$not_ranged = 'The descriptor ends without /*: it gives one address, not one per order. End it with /0/* or /<0;1>/*.';
		if ( array() === $steps || '' === $steps[ count( $steps ) - 1 ] ) {
			throw new Bip32_Exception( 'not_ranged', $not_ranged );
		}
		$last = array_pop( $steps );
		if ( '*h' === $last || "*'" === $last ) {
			throw new Bip32_Exception( 'hardened_after_key', 'The last step ' . $last . ' is hardened: hardened addresses can only be derived from the private key. End the descriptor with /*.' );
		}
		$hardened_step = static function ( string $step ): Bip32_Exception {
			return new Bip32_Exception( 'hardened_after_key', 'The step ' . $step . ' after the key is hardened: it can only be derived from the private key.' );
		};
		if ( '*' !== $last ) {
			if ( 1 === preg_match( "/^\\d+(h|')$/D", $last ) ) {
				throw $hardened_step( $last );
			}
			if ( in_array( '*', $steps, true ) ) {
				throw new Bip32_Exception( 'descriptor', 'The * (the address index) must be the last step.' );
			}
			self::parse_step( $last, 'path after the key' );
			throw new Bip32_Exception( 'not_ranged', $not_ranged );
		}
		$receive_path = array();
		$change_path  = array();
		$multipath    = false;
		foreach ( $steps as $step ) {
			if ( 1 === preg_match( '/^<(.*)>$/D', $step, $choice ) ) {
				$values = explode( ';', $choice[1] );
				if ( $multipath || 2 !== count( $values ) ) {
					throw new Bip32_Exception( 'descriptor', 'The step ' . $step . ' is not the one <receive;change> pair this supports (such as <0;1>).' );
				}
				$multipath = true;
				$receive   = self::parse_step( $values[0], 'path after the key' );
				$change    = self::parse_step( $values[1], 'path after the key' );
				if ( $receive[1] || $change[1] ) {
					throw $hardened_step( $step );
				}
				if ( $receive[0] === $change[0] ) {
					throw new Bip32_Exception( 'descriptor', 'The step ' . $step . ' names the same chain twice.' );
				}
				$receive_path[] = $receive[0];
				$change_path[]  = $change[0];
				continue;
			}
			if ( '*' === $step || '*h' === $step || "*'" === $step ) {
				throw new Bip32_Exception( 'descriptor', 'The * (the address index) must be the last step.' );
			}
			list( $index, $hardened ) = self::parse_step( $step, 'path after the key' );
			if ( $hardened ) {
				throw $hardened_step( $step );
			}
			$receive_path[] = $index;
			$change_path[]  = $index;
		}
		return array(
			'source'       => 'descriptor',
			'key'          => $key,
			'address_type' => $address_type,
			'receive_path' => $receive_path,
			'change_path'  => $multipath ? $change_path : null,
			'origin'       => $origin,
			'descriptor'   => $body . '#' . self::descriptor_checksum( $body ),
		);
	}

	/**
	 * Reads what a store owner pastes: a bare extended public key (its prefix
	 * decides the address type; addresses at 0/i, change at 1/i) or a ranged
	 * descriptor of one key. With $environment ('production'|'sandbox'), a key
	 * of the other network is refused.
	 *
	 * @return array{source: string, key: array, network: string, address_type: string, receive_path: int[], change_path: int[]|null, origin: array|null, descriptor: string}
	 * @throws Bip32_Exception
	 */
	public function parse_wallet_key( string $text, ?string $environment = null ): array {
		$text = self::trim_pasted( $text );
		if ( '' === $text ) {
			throw new Bip32_Exception( 'empty', 'The key is empty.' );
		}
		self::refuse_too_long( $text );
		if ( 1 === preg_match( '/[(\[#]/', $text ) ) {
			$wallet = $this->parse_descriptor( $text );
		} elseif ( false !== strpos( $text, '/' ) ) {
			throw new Bip32_Exception( 'descriptor', 'A path after the key needs a descriptor such as wpkh(KEY/0/*); or paste the key alone.' );
		} else {
			if ( Btc_Address::is_valid( $text ) ) {
				throw new Bip32_Exception( 'address_not_key', "This is a bitcoin address, not an extended public key: a new address for each order needs the wallet's " . self::PREFIXES['mainnet'] . ' (' . self::PREFIXES['testnet'] . ' on testnet).' );
			}
			$key          = $this->parse_extended_key( $text );
			$address_type = self::VERSIONS[ $key['version'] ][3];
			$xpub         = self::serialize_extended_key( $key, 'mainnet' === $key['network'] ? 0x0488b21e : 0x043587cf );
			$bodies       = array(
				'p2wpkh'      => 'wpkh(' . $xpub . '/<0;1>/*)',
				'p2sh-p2wpkh' => 'sh(wpkh(' . $xpub . '/<0;1>/*))',
				'p2pkh'       => 'pkh(' . $xpub . '/<0;1>/*)',
			);
			$wallet       = array(
				'source'       => 'extended-key',
				'key'          => $key,
				'address_type' => $address_type,
				'receive_path' => array( 0 ),
				'change_path'  => array( 1 ),
				'origin'       => null,
				'descriptor'   => $bodies[ $address_type ] . '#' . self::descriptor_checksum( $bodies[ $address_type ] ),
			);
		}
		$network = $wallet['key']['network'];
		if ( 'production' === $environment && 'mainnet' !== $network ) {
			throw new Bip32_Exception( 'wrong_network', 'This is a testnet key (' . $wallet['key']['prefix'] . '); production takes mainnet keys (' . self::PREFIXES['mainnet'] . ').' );
		}
		if ( 'sandbox' === $environment && 'testnet' !== $network ) {
			throw new Bip32_Exception( 'wrong_network', 'This is a mainnet key (' . $wallet['key']['prefix'] . '); the sandbox takes testnet keys (' . self::PREFIXES['testnet'] . '), so that no real bitcoin is sent to it.' );
		}
		return array(
			'source'       => $wallet['source'],
			'key'          => $wallet['key'],
			'network'      => $network,
			'address_type' => $wallet['address_type'],
			'receive_path' => $wallet['receive_path'],
			'change_path'  => $wallet['change_path'],
			'origin'       => $wallet['origin'],
			'descriptor'   => $wallet['descriptor'],
		);
	}

	/**
	 * Addresses $from … $from + $count - 1 of a wallet's receive (or change) chain.
	 *
	 * @param array|string $wallet A parse_wallet_key() result, or the text to parse.
	 * @return array<int, array{index: int, change: bool, path: string, address: string, public_key: string}>
	 * @throws Bip32_Exception
	 */
	public function derive_addresses( $wallet, int $from = 0, int $count = 1, bool $change = false, ?string $environment = null ): array {
		if ( is_string( $wallet ) ) {
			$wallet = $this->parse_wallet_key( $wallet, $environment );
		}
		if ( $from < 0 || $from >= self::HARDENED ) {
			throw new \InvalidArgumentException( 'from must be a whole number from 0 to ' . ( self::HARDENED - 1 ) . ', not ' . $from . '.' );
		}
		if ( $count < 1 || $count > self::MAX_DERIVE_COUNT ) {
			throw new \InvalidArgumentException( 'count must be a whole number from 1 to ' . self::MAX_DERIVE_COUNT . ', not ' . $count . '.' );
		}
		if ( $from + $count > self::HARDENED ) {
			throw new \InvalidArgumentException( 'The last index ' . ( $from + $count - 1 ) . ' is past ' . ( self::HARDENED - 1 ) . ', the last non-hardened index.' );
		}
		$path = $change ? $wallet['change_path'] : $wallet['receive_path'];
		if ( null === $path ) {
			throw new Bip32_Exception( 'no_change_chain', 'The descriptor names one chain, with no change chain; a descriptor ending in /<0;1>/* has both.' );
		}
		$node = $wallet['key'];
		foreach ( $path as $step ) {
			$node = $this->derive_child( $node, $step );
		}
		$out = array();
		for ( $index = $from; $index < $from + $count; $index++ ) {
			$child = $this->derive_child( $node, $index );
			$out[] = array(
				'index'      => $index,
				'change'     => $change,
				'path'       => implode( '/', array_merge( $path, array( $index ) ) ),
				'address'    => self::address_of( $child['public_key'], $wallet['address_type'], $wallet['network'] ),
				'public_key' => bin2hex( $child['public_key'] ),
			);
		}
		return $out;
	}
}

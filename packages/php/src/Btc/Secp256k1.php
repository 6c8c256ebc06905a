<?php
/**
 * The secp256k1 curve, just what BIP32 public derivation needs, on either
 * Big_Math backend: decompress a public key (checking it is on the curve),
 * k·G + K, compress. The same algorithms as @card2crypto/core's
 * bip32/secp256k1.ts: Jacobian coordinates, k·G + K by one mixed addition
 * per non-zero hex digit of k from the comb Secp256k1_Table (no doubling),
 * one inversion at the end. Every input is public, so no constant-time care
 * is taken.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Btc;

final class Secp256k1 {

	const P_HEX  = 'fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f';
	const N_HEX  = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141';
	const GX_HEX = '79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
	const GY_HEX = '483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8';

	/** @var Big_Math */
	private $m;
	private $p;
	private $n;
	private $zero;
	private $one;
	private $seven;
	/** @var array<string, array> Comb entries converted to the backend's numbers, by "i:j". */
	private $comb = array();
	/** @var array<string, array> Points of keys met lately (parsed or derived), by binary key: a chain's parent is decompressed once. */
	private $known = array();

	public function __construct( Big_Math $math ) {
		$this->m     = $math;
		$this->p     = $math->from_hex( self::P_HEX );
		$this->n     = $math->from_hex( self::N_HEX );
		$this->zero  = $math->from_int( 0 );
		$this->one   = $math->from_int( 1 );
		$this->seven = $math->from_int( 7 );
	}

	public function math(): Big_Math {
		return $this->m;
	}

	/** Is $hex (32 bytes) below N, i.e. a usable BIP32 tweak? */
	public function below_n( string $hex ): bool {
		return strcmp( strtolower( $hex ), self::N_HEX ) < 0;
	}

	/**
	 * The affine point [x, y] of a 33-byte compressed key, or the reason it is none.
	 *
	 * @return array|string
	 */
	public function decompress( string $key ) {
		if ( isset( $this->known[ $key ] ) ) {
			return $this->known[ $key ];
		}
		$prefix = '' === $key ? 0 : ord( $key[0] );
		if ( 33 !== strlen( $key ) || ( 2 !== $prefix && 3 !== $prefix ) ) {
			return 'a compressed public key starts with 02 or 03, not ' . sprintf( '%02x', $prefix );
		}
		$m = $this->m;
		$x = $m->from_hex( bin2hex( substr( $key, 1 ) ) );
		if ( $m->cmp( $x, $this->p ) >= 0 ) {
			return 'its x coordinate is not below the field prime';
		}
		$y2 = $m->add_mod( $m->mul_mod( $m->mul_mod( $x, $x, $this->p ), $x, $this->p ), $this->seven, $this->p );
		// P ≡ 3 (mod 4): a square root of y2, if one exists, is y2^((P+1)/4).
		$y = $m->pow_mod( $y2, $m->from_hex( '3fffffffffffffffffffffffffffffffffffffffffffffffffffffffbfffff0c' ), $this->p );
		if ( 0 !== $m->cmp( $m->mul_mod( $y, $y, $this->p ), $y2 ) ) {
			return 'it is not a point of the secp256k1 curve';
		}
		if ( $m->is_odd( $y ) !== ( 3 === $prefix ) ) {
			$y = $m->sub_mod( $this->zero, $y, $this->p );
		}
		$this->remember( $key, array( $x, $y ) );
		return array( $x, $y );
	}

	/** 33-byte compressed encoding of an affine point. */
	public function compress( array $point ): string {
		$key = chr( $this->m->is_odd( $point[1] ) ? 3 : 2 ) . hex2bin( $this->m->to_hex( $point[0], 32 ) );
		$this->remember( $key, $point );
		return $key;
	}

	private function remember( string $key, array $point ): void {
		if ( count( $this->known ) >= 256 ) {
			$this->known = array();
		}
		$this->known[ $key ] = $point;
	}

	/**
	 * $hex·G + $point (affine), or null for the point at infinity. $hex: 64 hex digits, k < N.
	 *
	 * @return array|null
	 */
	public function multiply_g_add( string $hex, array $point ) {
		$acc = array( $point[0], $point[1], $this->one );
		for ( $i = 0; $i < 64; $i++ ) {
			$digit = hexdec( $hex[ 63 - $i ] );
			if ( 0 === $digit ) {
				continue;
			}
			$id = $i . ':' . $digit;
			if ( ! isset( $this->comb[ $id ] ) ) {
				$entry              = Secp256k1_Table::POINTS[ $i ][ $digit - 1 ];
				$this->comb[ $id ] = array( $this->m->from_dec( $entry[0] ), $this->m->from_dec( $entry[1] ) );
			}
			$acc = $this->add_affine( $acc, $this->comb[ $id ] );
		}
		return $this->to_affine( $acc );
	}

	/** Mixed addition: Jacobian $a + affine $b ("madd-2007-bl"), doubling for equal points. */
	private function add_affine( array $a, array $b ): array {
		list( $x2, $y2 ) = $b;
		if ( $this->is_zero( $a[2] ) ) {
			return array( $x2, $y2, $this->one );
		}
		$m                    = $this->m;
		$p                    = $this->p;
		list( $x1, $y1, $z1 ) = $a;
		$z1z1                 = $m->mul_mod( $z1, $z1, $p );
		$u2                   = $m->mul_mod( $x2, $z1z1, $p );
		$s2                   = $m->mul_mod( $m->mul_mod( $y2, $z1, $p ), $z1z1, $p );
		$h                    = $m->sub_mod( $u2, $x1, $p );
		$r                    = $m->sub_mod( $s2, $y1, $p );
		$r                    = $m->add_mod( $r, $r, $p );
		if ( $this->is_zero( $h ) ) {
			return $this->is_zero( $r ) ? $this->double( $a ) : array( $this->zero, $this->one, $this->zero );
		}
		$hh  = $m->mul_mod( $h, $h, $p );
		$i   = $m->add_mod( $hh, $hh, $p );
		$i   = $m->add_mod( $i, $i, $p );
		$j   = $m->mul_mod( $h, $i, $p );
		$v   = $m->mul_mod( $x1, $i, $p );
		$x3  = $m->sub_mod( $m->sub_mod( $m->mul_mod( $r, $r, $p ), $j, $p ), $m->add_mod( $v, $v, $p ), $p );
		$y1j = $m->mul_mod( $y1, $j, $p );
		$y3  = $m->sub_mod( $m->mul_mod( $r, $m->sub_mod( $v, $x3, $p ), $p ), $m->add_mod( $y1j, $y1j, $p ), $p );
		$zh  = $m->add_mod( $z1, $h, $p );
		$z3  = $m->sub_mod( $m->sub_mod( $m->mul_mod( $zh, $zh, $p ), $z1z1, $p ), $hh, $p );
		return array( $x3, $y3, $z3 );
	}

	private function is_zero( $a ): bool {
		return 0 === $this->m->cmp( $a, $this->zero );
	}

	/** Doubling in Jacobian coordinates (a = 0, "dbl-2009-l"). */
	private function double( array $q ): array {
		list( $x, $y, $z ) = $q;
		if ( $this->is_zero( $z ) || $this->is_zero( $y ) ) {
			return array( $this->zero, $this->one, $this->zero );
		}
		$m  = $this->m;
		$p  = $this->p;
		$a  = $m->mul_mod( $x, $x, $p );
		$b  = $m->mul_mod( $y, $y, $p );
		$c  = $m->mul_mod( $b, $b, $p );
		$xb = $m->add_mod( $x, $b, $p );
		$d  = $m->sub_mod( $m->sub_mod( $m->mul_mod( $xb, $xb, $p ), $a, $p ), $c, $p );
		$d  = $m->add_mod( $d, $d, $p );
		$e  = $m->add_mod( $m->add_mod( $a, $a, $p ), $a, $p );
		$f  = $m->mul_mod( $e, $e, $p );
		$x3 = $m->sub_mod( $f, $m->add_mod( $d, $d, $p ), $p );
		$c8 = $m->add_mod( $c, $c, $p );
		$c8 = $m->add_mod( $c8, $c8, $p );
		$c8 = $m->add_mod( $c8, $c8, $p );
		$y3 = $m->sub_mod( $m->mul_mod( $e, $m->sub_mod( $d, $x3, $p ), $p ), $c8, $p );
		$yz = $m->mul_mod( $y, $z, $p );
		$z3 = $m->add_mod( $yz, $yz, $p );
		return array( $x3, $y3, $z3 );
	}

	/** @return array|null */
	private function to_affine( array $q ) {
		if ( $this->is_zero( $q[2] ) ) {
			return null;
		}
		$m   = $this->m;
		$p   = $this->p;
		$zi  = $m->invert( $q[2], $p );
		$zi2 = $m->mul_mod( $zi, $zi, $p );
		return array( $m->mul_mod( $q[0], $zi2, $p ), $m->mul_mod( $m->mul_mod( $q[1], $zi2, $p ), $zi, $p ) );
	}
}

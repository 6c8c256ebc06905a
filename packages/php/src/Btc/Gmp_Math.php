<?php
/**
 * Big_Math on the GMP extension.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Btc;

final class Gmp_Math implements Big_Math {

	public function name(): string {
		return 'gmp';
	}

	public function from_hex( string $hex ) {
		return gmp_init( $hex, 16 );
	}

	public function to_hex( $a, int $bytes ): string {
		return str_pad( gmp_strval( $a, 16 ), $bytes * 2, '0', STR_PAD_LEFT );
	}

	public function from_int( int $value ) {
		return gmp_init( $value );
	}

	public function from_dec( string $decimal ) {
		return gmp_init( $decimal, 10 );
	}

	public function add_mod( $a, $b, $m ) {
		$r = gmp_add( $a, $b );
		return gmp_cmp( $r, $m ) >= 0 ? gmp_sub( $r, $m ) : $r;
	}

	public function sub_mod( $a, $b, $m ) {
		$r = gmp_sub( $a, $b );
		return gmp_sign( $r ) < 0 ? gmp_add( $r, $m ) : $r;
	}

	public function mul_mod( $a, $b, $m ) {
		return gmp_mod( gmp_mul( $a, $b ), $m );
	}

	public function pow_mod( $a, $e, $m ) {
		return gmp_powm( $a, $e, $m );
	}

	public function invert( $a, $m ) {
		return gmp_invert( $a, $m );
	}

	public function cmp( $a, $b ): int {
		return gmp_cmp( $a, $b );
	}

	public function is_odd( $a ): bool {
		return 1 === gmp_intval( gmp_and( $a, 1 ) );
	}
}

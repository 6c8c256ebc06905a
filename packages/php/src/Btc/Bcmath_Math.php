<?php
/**
 * Big_Math on the BCMath extension: numbers are decimal strings, every call
 * at scale 0 whatever the host's bcmath.scale.
 *
 * BCMath's division (bcmod, bcpowmod) is what makes it slow, so products are
 * reduced by Barrett's method in base 10 (HAC 14.42): dividing by a power of
 * ten is cutting digits off a string, leaving two multiplications and a
 * subtraction. Powers (square roots) are square-and-multiply over that, 4
 * bits at a time, instead of bcpowmod; inverses are Euclid's.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Btc;

final class Bcmath_Math implements Big_Math {

	public function name(): string {
		return 'bcmath';
	}

	public function from_hex( string $hex ) {
		$value = '0';
		// Seven hex digits at a time stay within a 32-bit PHP integer.
		$hex   = str_pad( $hex, (int) ( ceil( strlen( $hex ) / 7 ) * 7 ), '0', STR_PAD_LEFT );
		foreach ( str_split( $hex, 7 ) as $chunk ) {
			$value = bcadd( bcmul( $value, '268435456', 0 ), (string) hexdec( $chunk ), 0 );
		}
		return $value;
	}

	public function to_hex( $a, int $bytes ): string {
		$hex = '';
		while ( '0' !== $a ) {
			$hex = str_pad( dechex( (int) bcmod( $a, '65536', 0 ) ), 4, '0', STR_PAD_LEFT ) . $hex;
			$a   = bcdiv( $a, '65536', 0 );
		}
		$hex = ltrim( $hex, '0' );
		return str_pad( $hex, $bytes * 2, '0', STR_PAD_LEFT );
	}

	public function from_int( int $value ) {
		return (string) $value;
	}

	public function from_dec( string $decimal ) {
		return $decimal;
	}

	public function add_mod( $a, $b, $m ) {
		$r = bcadd( $a, $b, 0 );
		return bccomp( $r, $m, 0 ) >= 0 ? bcsub( $r, $m, 0 ) : $r;
	}

	public function sub_mod( $a, $b, $m ) {
		$r = bcsub( $a, $b, 0 );
		return '-' === $r[0] ? bcadd( $r, $m, 0 ) : $r;
	}

	/** @var array<string, array{0: int, 1: string}> Modulus => [its digit count k, floor(10^2k / modulus)]. */
	private $barrett = array();

	public function mul_mod( $a, $b, $m ) {
		if ( ! isset( $this->barrett[ $m ] ) ) {
			$k                   = strlen( $m );
			$this->barrett[ $m ] = array( $k, bcdiv( '1' . str_repeat( '0', 2 * $k ), $m, 0 ) );
		}
		list( $k, $mu ) = $this->barrett[ $m ];
		// x < m² < 10^2k: q = floor(floor(x / 10^(k-1)) * mu / 10^(k+1)) is at most 2 below floor(x / m).
		$x  = bcmul( $a, $b, 0 );
		$q1 = strlen( $x ) > $k - 1 ? substr( $x, 0, strlen( $x ) - ( $k - 1 ) ) : '0';
		$q2 = bcmul( $q1, $mu, 0 );
		$q3 = strlen( $q2 ) > $k + 1 ? substr( $q2, 0, strlen( $q2 ) - ( $k + 1 ) ) : '0';
		$r  = bcsub( $x, bcmul( $q3, $m, 0 ), 0 );
		while ( bccomp( $r, $m, 0 ) >= 0 ) {
			$r = bcsub( $r, $m, 0 );
		}
		return $r;
	}

	/** $a^$e mod $m, 4 bits of the exponent at a time. */
	public function pow_mod( $a, $e, $m ) {
		$table = array( '1', $a );
		for ( $i = 2; $i < 16; $i++ ) {
			$table[] = $this->mul_mod( $table[ $i - 1 ], $a, $m );
		}
		$result = '1';
		foreach ( str_split( $this->to_hex( $e, 0 ) ) as $nibble ) {
			if ( '1' !== $result ) {
				for ( $i = 0; $i < 4; $i++ ) {
					$result = $this->mul_mod( $result, $result, $m );
				}
			}
			$digit = hexdec( $nibble );
			if ( 0 !== $digit ) {
				$result = '1' === $result ? $table[ $digit ] : $this->mul_mod( $result, $table[ $digit ], $m );
			}
		}
		return $result;
	}

	/**
	 * The extended Euclidean algorithm: its quotients are small, so BCMath
	 * divides fast here (about 15 times faster than Fermat's $a^($m-2)).
	 */
	public function invert( $a, $m ) {
		$r0 = $m;
		$r1 = $a;
		$t0 = '0';
		$t1 = '1';
		while ( '0' !== $r1 ) {
			$q  = bcdiv( $r0, $r1, 0 );
			$r2 = bcsub( $r0, bcmul( $q, $r1, 0 ), 0 );
			$r0 = $r1;
			$r1 = $r2;
			$t2 = bcsub( $t0, bcmul( $q, $t1, 0 ), 0 );
			$t0 = $t1;
			$t1 = $t2;
		}
		return '-' === $t0[0] ? bcadd( $t0, $m, 0 ) : $t0;
	}

	public function cmp( $a, $b ): int {
		return bccomp( $a, $b, 0 );
	}

	public function is_odd( $a ): bool {
		return 1 === ( (int) substr( $a, -1 ) ) % 2;
	}
}

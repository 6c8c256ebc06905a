<?php
/**
 * The big-integer arithmetic secp256k1 needs, on whichever extension the
 * host has: GMP (fast) or BCMath. Numbers are the backend's own values (GMP
 * objects or decimal strings); callers only pass them back in.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Btc;

interface Big_Math {

	/** 'gmp' or 'bcmath'. */
	public function name(): string;

	/** @param string $hex Non-empty lower- or upper-case hex digits. */
	public function from_hex( string $hex );

	/** Big-endian hex of a non-negative number, left-padded with zeros to $bytes bytes. */
	public function to_hex( $a, int $bytes ): string;

	public function from_int( int $value );

	/** @param string $decimal Decimal digits of a non-negative number. */
	public function from_dec( string $decimal );

	/** ($a + $b) mod $m, for $a and $b in [0, $m). */
	public function add_mod( $a, $b, $m );

	/** ($a - $b) mod $m, for $a and $b in [0, $m). */
	public function sub_mod( $a, $b, $m );

	/** ($a * $b) mod $m, for $a and $b in [0, $m). */
	public function mul_mod( $a, $b, $m );

	/** $a^$e mod $m. */
	public function pow_mod( $a, $e, $m );

	/** $a^-1 mod prime $m, for $a in (0, $m). */
	public function invert( $a, $m );

	/** <0, 0 or >0 as $a is below, equal to or above $b. */
	public function cmp( $a, $b ): int;

	public function is_odd( $a ): bool;
}

<?php
/**
 * Times Btc\Bip32 on one backend for bench/bip32.bench.ts, in CPU time
 * (getrusage: what other processes do to the machine is left out):
 *   derive   one derivation: CKDpub of a receive chain's key (parent point
 *            known, as for every address after a chain's first) and its address
 *   request  what one checkout request does: parse the zpub, derive the
 *            receive chain's key, then the address at an index
 *   hmac     a bare HMAC-SHA512 of the same 37 bytes CKDpub hashes, for scale
 * Rounds interleave the three; medians of per-operation microseconds.
 * Usage: php bip32.php gmp|bcmath ROUNDS ITERATIONS. Prints one JSON object.
 *
 * @package Card2Crypto\Shared
 */

spl_autoload_register(
	static function ( string $class ): void {
		$prefix = 'Card2Crypto\\Shared\\';
		if ( 0 === strncmp( $class, $prefix, strlen( $prefix ) ) ) {
			require dirname( __DIR__ ) . '/src/' . str_replace( '\\', '/', substr( $class, strlen( $prefix ) ) ) . '.php';
		}
	}
);

use Card2Crypto\Shared\Btc\Bip32;

$backend    = $argv[1] ?? 'gmp';
$rounds     = (int) ( $argv[2] ?? 15 );
$iterations = (int) ( $argv[3] ?? 10 );
$zpub       = 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';

if ( ! extension_loaded( $backend ) ) {
	echo json_encode( array( 'available' => false, 'php' => PHP_VERSION, 'message' => Bip32::support()['message'] ) );
	exit( 0 );
}

/** CPU microseconds used so far by this process. */
function c2c_bench_cpu(): float {
	$u = getrusage();
	return $u['ru_utime.tv_sec'] * 1e6 + $u['ru_utime.tv_usec'] + $u['ru_stime.tv_sec'] * 1e6 + $u['ru_stime.tv_usec'];
}

$bip32  = new Bip32( $backend );
$wallet = $bip32->parse_wallet_key( $zpub );
$chain  = $bip32->derive_child( $wallet['key'], 0 );
$data   = $chain['public_key'] . pack( 'N', 7 );
$sink   = 0;
$index  = 0;
$tasks  = array(
	'derive'  => static function () use ( $bip32, $chain, &$index ): string {
		$child = $bip32->derive_child( $chain, $index++ );
		return Bip32::address_of( $child['public_key'], 'p2wpkh', 'mainnet' );
	},
	'request' => static function () use ( $backend, $zpub, &$index ): string {
		return ( new Bip32( $backend ) )->derive_addresses( $zpub, $index++, 1 )[0]['address'];
	},
	'hmac'    => static function () use ( $chain, $data ): string {
		return hash_hmac( 'sha512', $data, $chain['chain_code'], true );
	},
);
// The first address must be BIP84's, or nothing here means anything.
if ( 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu' !== $bip32->derive_addresses( $wallet, 0, 1 )[0]['address'] ) {
	fwrite( STDERR, "wrong address\n" );
	exit( 1 );
}
$times = array_fill_keys( array_keys( $tasks ), array() );
for ( $r = 0; $r <= $rounds; $r++ ) {
	$names = 0 === $r % 2 ? array_keys( $tasks ) : array_reverse( array_keys( $tasks ) );
	foreach ( $names as $name ) {
		$n     = 'hmac' === $name ? $iterations * 200 : $iterations;
		$start = c2c_bench_cpu();
		for ( $i = 0; $i < $n; $i++ ) {
			$sink ^= ord( $tasks[ $name ]()[5] );
		}
		if ( $r > 0 ) { // Round 0 warms up.
			$times[ $name ][] = ( c2c_bench_cpu() - $start ) / $n;
		}
	}
}
$medians = array();
foreach ( $times as $name => $list ) {
	sort( $list );
	$medians[ $name ] = $list[ intdiv( count( $list ), 2 ) ];
}
echo json_encode(
	array(
		'available' => true,
		'php'       => PHP_VERSION,
		'us'        => $medians,
		'sink'      => $sink,
	)
);

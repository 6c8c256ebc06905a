<?php
/**
 * The addresses of the owner's wallet that orders were given, when each order
 * gets a new address derived from the wallet's extended public key: one row
 * per (wallet, index), never the key itself (a wallet is named by a hash of
 * its descriptor).
 *
 * An index is taken in one transaction with the attempt that uses it:
 * - first the lowest index the store freed (its attempt ended without
 *   payment, as the service confirmed, and no other attempt holds it), so
 *   abandoned payments do not push real ones past the wallet's gap limit;
 * - else the wallet's next index, from its counter row.
 * Every take of a wallet first locks that counter row, so concurrent
 * checkouts, on any web server (the database is the shared truth), wait for
 * each other instead of colliding; a failed attempt rolls the counter back:
 * no gap. A deadlock with another statement is undone and tried again.
 *
 * States: held (an attempt uses it), paid (money arrived there: never
 * reused), free (reusable).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

defined( 'ABSPATH' ) || exit;

final class Address_Store {

	const HELD = 'held';
	const PAID = 'paid';
	const FREE = 'free';

	public static function table(): string {
		global $wpdb;
		return $wpdb->prefix . 'card2crypto_addresses';
	}

	public static function counters_table(): string {
		global $wpdb;
		return $wpdb->prefix . 'card2crypto_address_counters';
	}

	/** The tables' definitions, for dbDelta() (Operation_Store::install()). */
	public static function schema( string $collate ): string {
		$addresses = self::table();
		$counters  = self::counters_table();
		return "CREATE TABLE {$addresses} (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  wallet char(64) NOT NULL,
  address_index int(10) unsigned NOT NULL,
  address varchar(100) NOT NULL,
  order_id bigint(20) unsigned NOT NULL DEFAULT 0,
  attempt_id bigint(20) unsigned NOT NULL DEFAULT 0,
  state varchar(8) NOT NULL DEFAULT 'held',
  updated_at datetime NOT NULL,
  PRIMARY KEY  (id),
  UNIQUE KEY wallet_index (wallet,address_index),
  KEY wallet_state (wallet,state,address_index),
  KEY attempt_id (attempt_id)
) {$collate};
CREATE TABLE {$counters} (
  wallet char(64) NOT NULL,
  next_index int(10) unsigned NOT NULL DEFAULT 0,
  PRIMARY KEY  (wallet)
) {$collate};";
	}

	public static function drop(): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', self::table() ) ); // phpcs:ignore WordPress.DB
		$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', self::counters_table() ) ); // phpcs:ignore WordPress.DB
	}

	/**
	 * Takes an index of $wallet for one attempt and runs $use( $index ) inside
	 * the same transaction; $use answers [attempt id, address]. The row is
	 * written, and the transaction committed, only when $use returns: an
	 * exception rolls everything back (the index is not lost) and is thrown on.
	 *
	 * @param callable(int): array{0: int, 1: string} $use
	 * @return array{index: int, address: string, reused: bool, attempt_id: int}
	 * @throws \Throwable What $use throws, or a database error (RuntimeException).
	 */
	public static function take( string $wallet, int $order_id, callable $use ): array {
		global $wpdb;
		// The wallet's counter row, made once, outside the transaction (its shared lock on a duplicate key ends at once).
		self::query( $wpdb->prepare( 'INSERT IGNORE INTO %i (wallet, next_index) VALUES (%s, 0)', self::counters_table(), $wallet ) );
		for ( $try = 1; ; $try++ ) {
			try {
				return self::take_once( $wallet, $order_id, $use );
			} catch ( \RuntimeException $e ) {
				// A deadlock with another statement on these tables is undone whole: the take is tried again.
				if ( $try >= 3 || false === stripos( $e->getMessage(), 'deadlock' ) ) {
					throw $e;
				}
			}
		}
	}

	/**
	 * One try of take(): the counter row's lock first, so that every
	 * checkout of the wallet waits for the one before it, on every web
	 * server; then the lowest freed index, else the counter's.
	 *
	 * @return array{index: int, address: string, reused: bool, attempt_id: int}
	 */
	private static function take_once( string $wallet, int $order_id, callable $use ): array {
		global $wpdb;
		$table = self::table();
		self::query( 'START TRANSACTION' );
		try {
			$next = $wpdb->get_var( $wpdb->prepare( 'SELECT next_index FROM %i WHERE wallet = %s FOR UPDATE', self::counters_table(), $wallet ) ); // phpcs:ignore WordPress.DB
			if ( null === $next ) {
				throw new \RuntimeException( 'The address could not be recorded: ' . ( '' !== $wpdb->last_error ? $wpdb->last_error : 'no counter for this wallet' ) );
			}
			$free = $wpdb->get_row( $wpdb->prepare( 'SELECT id, address_index FROM %i WHERE wallet = %s AND state = %s ORDER BY address_index LIMIT 1 FOR UPDATE', $table, $wallet, self::FREE ), ARRAY_A ); // phpcs:ignore WordPress.DB
			$reused = is_array( $free );
			if ( $reused ) {
				$index = (int) $free['address_index'];
			} else {
				$index = (int) $next;
				self::query( $wpdb->prepare( 'UPDATE %i SET next_index = next_index + 1 WHERE wallet = %s', self::counters_table(), $wallet ) );
			}
			list( $attempt_id, $address ) = $use( $index );
			$now = current_time( 'mysql', true );
			if ( $reused ) {
				self::query( $wpdb->prepare( 'UPDATE %i SET state = %s, order_id = %d, attempt_id = %d, address = %s, updated_at = %s WHERE id = %d', $table, self::HELD, $order_id, $attempt_id, $address, $now, (int) $free['id'] ) );
			} else {
				self::query( $wpdb->prepare( 'INSERT INTO %i (wallet, address_index, address, order_id, attempt_id, state, updated_at) VALUES (%s, %d, %s, %d, %d, %s, %s)', $table, $wallet, $index, $address, $order_id, $attempt_id, self::HELD, $now ) );
			}
			self::query( 'COMMIT' );
		} catch ( \Throwable $e ) {
			$wpdb->query( 'ROLLBACK' ); // phpcs:ignore WordPress.DB
			throw $e;
		}
		return array(
			'index'      => $index,
			'address'    => $address,
			'reused'     => $reused,
			'attempt_id' => (int) $attempt_id,
		);
	}

	/** The address row an attempt was given, or null (one address for every order, or an older attempt). */
	public static function of_attempt( int $attempt_id ): ?array {
		global $wpdb;
		$row = $wpdb->get_row( $wpdb->prepare( 'SELECT * FROM %i WHERE attempt_id = %d', self::table(), $attempt_id ), ARRAY_A ); // phpcs:ignore WordPress.DB
		if ( ! is_array( $row ) ) {
			return null;
		}
		foreach ( array( 'id', 'address_index', 'order_id', 'attempt_id' ) as $int ) {
			$row[ $int ] = (int) $row[ $int ];
		}
		return $row;
	}

	/** Money arrived at the attempt's address: it is never handed out again. */
	public static function mark_paid( int $attempt_id ): void {
		self::set_state( $attempt_id, self::PAID, array( self::HELD, self::FREE ) );
	}

	/** The attempt ended without payment, as the service confirmed: its index may serve another order. */
	public static function mark_free( int $attempt_id ): void {
		self::set_state( $attempt_id, self::FREE, array( self::HELD ) );
	}

	/** @param string[] $from The states the row may move from (paid never moves). */
	private static function set_state( int $attempt_id, string $state, array $from ): void {
		global $wpdb;
		$placeholders = implode( ', ', array_fill( 0, count( $from ), '%s' ) );
		$wpdb->query( $wpdb->prepare( "UPDATE %i SET state = %s, updated_at = %s WHERE attempt_id = %d AND state IN ($placeholders)", self::table(), $state, current_time( 'mysql', true ), $attempt_id, ...$from ) ); // phpcs:ignore WordPress.DB
	}

	/**
	 * How far past the last paid address the wallet's addresses in use reach
	 * (what a wallet's gap limit counts): the highest index handed out that
	 * is not free, minus the highest paid one (-1 when none is paid).
	 *
	 * @return array{in_use: int, last_paid: int|null, highest: int|null, gap: int}
	 */
	public static function gap( string $wallet ): array {
		global $wpdb;
		$row       = $wpdb->get_row( $wpdb->prepare( 'SELECT MAX(CASE WHEN state = %s THEN address_index END) AS last_paid, MAX(CASE WHEN state <> %s THEN address_index END) AS highest, SUM(state = %s) AS held FROM %i WHERE wallet = %s', self::PAID, self::FREE, self::HELD, self::table(), $wallet ), ARRAY_A ); // phpcs:ignore WordPress.DB
		$last_paid = isset( $row['last_paid'] ) ? (int) $row['last_paid'] : null;
		$highest   = isset( $row['highest'] ) ? (int) $row['highest'] : null;
		return array(
			'in_use'    => (int) ( $row['held'] ?? 0 ),
			'last_paid' => $last_paid,
			'highest'   => $highest,
			'gap'       => null === $highest ? 0 : $highest - ( null === $last_paid ? -1 : $last_paid ),
		);
	}

	/** @throws \RuntimeException When the database refuses the statement. */
	private static function query( string $sql ): void {
		global $wpdb;
		if ( false === $wpdb->query( $sql ) ) { // phpcs:ignore WordPress.DB
			throw new \RuntimeException( 'The address could not be recorded: ' . $wpdb->last_error );
		}
	}
}

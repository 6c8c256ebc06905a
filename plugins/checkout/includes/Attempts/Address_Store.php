<?php
/**
 * The addresses of the owner's wallet that orders were given, when each order
 * gets a new address derived from the wallet's extended public key: one row
 * per (wallet, index), never the key itself (a wallet is named by a hash of
 * its descriptor).
 *
 * An address belongs to one order (order_id), whatever number of payment
 * attempts the order makes: the order keeps it across them (attempt_id is the
 * last attempt signed with it). An index is taken when an order's payment is
 * first signed for the buyer, in one transaction with the attempt that uses it:
 * - the order's own address, when it holds one;
 * - else the lowest index the store freed (every payment to it ended without
 *   payment, as the service confirmed, or was never started), so abandoned
 *   payments do not push real ones past the wallet's gap limit;
 * - else the wallet's next index, from its counter row, but never past the
 *   last paid index plus the gap limit (the cap): an address the owner's
 *   wallet would not see is never handed out (Addresses_Exhausted).
 * Every take of a wallet first locks that counter row, so concurrent
 * checkouts, on any web server (the database is the shared truth), wait for
 * each other instead of colliding; a failed attempt rolls the counter back:
 * no gap. A deadlock with another statement is undone and tried again.
 *
 * On a multisite network every site has these tables under its own prefix,
 * so each shop counts its own indexes; a wallet serves one shop only: the
 * first site to take an address of it claims it (claim()), and another site
 * is refused its addresses (Wallet_Shared), since the same index in two
 * shops would be one address given to two orders.
 *
 * States: held (an order uses it), paid (money arrived there: never reused,
 * recorded by the address, whichever attempt paid), free (reusable).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Rules\Address_Policy;

defined( 'ABSPATH' ) || exit;

final class Address_Store {

	const HELD = 'held';
	const PAID = 'paid';
	const FREE = 'free';

	/** @var Attempt_Store */
	private $attempts;

	/** @var Shared_Store */
	private $shared;

	public function __construct( Attempt_Store $attempts, Shared_Store $shared ) {
		$this->attempts = $attempts;
		$this->shared   = $shared;
	}

	/**
	 * The address an order's payment is signed for: the order's own (held)
	 * address of $wallet, else a freed index, else the next one up to $cap
	 * (the highest index the owner's wallet sees). $derive( $index ) answers
	 * the index's address; $use( $address ) records it on the attempt and
	 * answers the attempt's id. Everything is written, and the transaction
	 * committed, only when $use returns: an exception rolls it back (the index
	 * is not lost) and is thrown on.
	 *
	 * @param callable(int): string $derive
	 * @param callable(string): int $use
	 * @return array{index: int, address: string, reused: bool, kept: bool, attempt_id: int}
	 * @throws Addresses_Exhausted When no index inside the gap is free.
	 * @throws Wallet_Shared When another site of the network gives out addresses of the wallet.
	 * @throws \Throwable What $derive or $use throws, or a database error (RuntimeException).
	 */
	public function take( string $wallet, int $order_id, int $cap, callable $derive, callable $use ): array {
		$this->claim( $wallet );
		for ( $try = 1; ; $try++ ) {
			try {
				return $this->take_once( $wallet, $order_id, $cap, $derive, $use );
			} catch ( Addresses_Exhausted $e ) {
				throw $e;
			} catch ( \RuntimeException $e ) {
				// A deadlock with another statement on these tables is undone whole: the take is tried again.
				if ( $try >= 3 || false === stripos( $e->getMessage(), 'deadlock' ) ) {
					throw $e;
				}
			}
		}
	}

	/**
	 * The wallet's counter row, made once, outside the transaction (its
	 * shared lock on a duplicate key ends at once). On a multisite network
	 * the row is the site's claim of the wallet: it is made only while no
	 * other site of the network has one, under the network's lock, so two
	 * shops taking their first address of one wallet at the same moment
	 * cannot both claim it.
	 *
	 * @throws Wallet_Shared When another site of the network has claimed the wallet.
	 */
	private function claim( string $wallet ): void {
		global $wpdb;
		$insert = $wpdb->prepare( 'INSERT IGNORE INTO %i (wallet, next_index) VALUES (%s, 0)', $this->counters_table(), $wallet );
		if ( ! is_multisite() ) {
			$this->query( $insert );
			return;
		}
		if ( null !== $wpdb->get_var( $wpdb->prepare( 'SELECT wallet FROM %i WHERE wallet = %s', $this->counters_table(), $wallet ) ) ) { // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
			return;
		}
		$this->shared->locked_network(
			'card2crypto_wallet_claims',
			function () use ( $wallet, $insert ): void {
				$others = $this->sites_sharing( $wallet );
				if ( array() !== $others ) {
					throw new Wallet_Shared( $others );
				}
				$this->query( $insert );
			},
			'Another shop of this network is taking its first address of a wallet.'
		);
	}

	/**
	 * The other sites of the multisite network (any network of this
	 * installation) that give out addresses of $wallet: those whose counter
	 * table has its row. Empty on a single site.
	 *
	 * @return int[] Site ids.
	 */
	public function sites_sharing( string $wallet ): array {
		global $wpdb;
		if ( ! is_multisite() ) {
			return array();
		}
		$mine     = $this->counters_table();
		$sharing  = array();
		$suppress = $wpdb->suppress_errors( true ); // A site where the plugin never ran has no table: no row.
		foreach ( get_sites(
			array(
				'fields' => 'ids',
				'number' => 0,
			)
		) as $site_id ) {
			$table = $wpdb->get_blog_prefix( (int) $site_id ) . 'card2crypto_address_counters';
			if ( $table !== $mine && null !== $wpdb->get_var( $wpdb->prepare( 'SELECT wallet FROM %i WHERE wallet = %s', $table, $wallet ) ) ) { // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
				$sharing[] = (int) $site_id;
			}
		}
		$wpdb->suppress_errors( $suppress );
		return $sharing;
	}

	/**
	 * One try of take(): the counter row's lock first, so that every
	 * checkout of the wallet waits for the one before it, on every web
	 * server; then the order's own address, the lowest freed index, else the
	 * counter's.
	 *
	 * @return array{index: int, address: string, reused: bool, kept: bool, attempt_id: int}
	 */
	private function take_once( string $wallet, int $order_id, int $cap, callable $derive, callable $use ): array {
		global $wpdb;
		$table = $this->table();
		$this->query( 'START TRANSACTION' );
		try {
			$next = $wpdb->get_var( $wpdb->prepare( 'SELECT next_index FROM %i WHERE wallet = %s FOR UPDATE', $this->counters_table(), $wallet ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
			if ( null === $next ) {
				throw new \RuntimeException( 'The address could not be recorded: ' . ( '' !== $wpdb->last_error ? $wpdb->last_error : 'no counter for this wallet' ) );
			}
			$row  = $wpdb->get_row( $wpdb->prepare( 'SELECT id, address_index, address FROM %i WHERE wallet = %s AND order_id = %d AND state = %s ORDER BY id DESC LIMIT 1 FOR UPDATE', $table, $wallet, $order_id, self::HELD ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
			$kept = is_array( $row );
			if ( ! $kept ) {
				$row = $wpdb->get_row( $wpdb->prepare( 'SELECT id, address_index FROM %i WHERE wallet = %s AND state = %s AND address_index <= %d ORDER BY address_index LIMIT 1 FOR UPDATE', $table, $wallet, self::FREE, $cap ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
			}
			$reused = ! $kept && is_array( $row );
			if ( $kept || $reused ) {
				$index = (int) $row['address_index'];
			} else {
				$index = (int) $next;
				if ( $index > $cap ) {
					throw new Addresses_Exhausted( $index, $cap );
				}
				$this->query( $wpdb->prepare( 'UPDATE %i SET next_index = next_index + 1 WHERE wallet = %s', $this->counters_table(), $wallet ) );
			}
			$address    = $kept ? (string) $row['address'] : (string) $derive( $index );
			$attempt_id = (int) $use( $address );
			$now        = current_time( 'mysql', true );
			if ( $kept || $reused ) {
				$this->query( $wpdb->prepare( 'UPDATE %i SET state = %s, order_id = %d, attempt_id = %d, address = %s, updated_at = %s WHERE id = %d', $table, self::HELD, $order_id, $attempt_id, $address, $now, (int) $row['id'] ) );
			} else {
				$this->query( $wpdb->prepare( 'INSERT INTO %i (wallet, address_index, address, order_id, attempt_id, state, updated_at) VALUES (%s, %d, %s, %d, %d, %s, %s)', $table, $wallet, $index, $address, $order_id, $attempt_id, self::HELD, $now ) );
			}
			$this->query( 'COMMIT' );
		} catch ( \Throwable $e ) {
			$wpdb->query( 'ROLLBACK' ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
			throw $e;
		}
		return array(
			'index'      => $index,
			'address'    => $address,
			'reused'     => $reused,
			'kept'       => $kept,
			'attempt_id' => $attempt_id,
		);
	}

	/** The address of $wallet the order holds now (a payment of it may be signed for it), or null. */
	public function held_by_order( string $wallet, int $order_id ): ?array {
		global $wpdb;
		$row = $wpdb->get_row( $wpdb->prepare( 'SELECT * FROM %i WHERE wallet = %s AND order_id = %d AND state = %s ORDER BY id DESC LIMIT 1', $this->table(), $wallet, $order_id, self::HELD ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		return is_array( $row ) ? $this->typed( $row ) : null;
	}

	/** Whether the order holds $address of $wallet now: only then may a payment be signed for it. */
	public function holds( string $wallet, int $order_id, string $address ): bool {
		global $wpdb;
		return null !== $wpdb->get_var( $wpdb->prepare( 'SELECT id FROM %i WHERE wallet = %s AND address = %s AND order_id = %d AND state = %s LIMIT 1', $this->table(), $wallet, $address, $order_id, self::HELD ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}

	/** The row of an address handed out by the store (any wallet), or null when the store never gave it to an order. */
	public function of_address( string $address ): ?array {
		global $wpdb;
		$row = $wpdb->get_row( $wpdb->prepare( 'SELECT * FROM %i WHERE address = %s ORDER BY id DESC LIMIT 1', $this->table(), $address ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		return is_array( $row ) ? $this->typed( $row ) : null;
	}

	/** @return array<int, array> The addresses the order holds now, of any wallet. */
	public function held_rows_of_order( int $order_id ): array {
		global $wpdb;
		$rows = $wpdb->get_results( $wpdb->prepare( 'SELECT * FROM %i WHERE order_id = %d AND state = %s', $this->table(), $order_id, self::HELD ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		return array_map( array( $this, 'typed' ), $rows ?: array() );
	}

	private function typed( array $row ): array {
		foreach ( array( 'id', 'address_index', 'order_id', 'attempt_id' ) as $int ) {
			$row[ $int ] = (int) $row[ $int ];
		}
		return $row;
	}

	/**
	 * Money arrived at $address: it is never handed out again, whichever
	 * attempt or order it was given to (recorded by the address itself).
	 */
	public function mark_paid( string $address ): void {
		global $wpdb;
		if ( '' === $address ) {
			return;
		}
		$wpdb->query( $wpdb->prepare( 'UPDATE %i SET state = %s, updated_at = %s WHERE address = %s AND state <> %s', $this->table(), self::PAID, current_time( 'mysql', true ), $address, self::PAID ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}

	/**
	 * Every payment of the order to $address ended without payment, or was
	 * never started, as the service confirmed: the index may serve another
	 * order (the order's payments to it are retired first, so none is ever
	 * signed again). True when this call freed it.
	 */
	public function release( int $order_id, string $address ): bool {
		global $wpdb;
		$affected = $wpdb->query( $wpdb->prepare( 'UPDATE %i SET state = %s, updated_at = %s WHERE order_id = %d AND address = %s AND state = %s', $this->table(), self::FREE, current_time( 'mysql', true ), $order_id, $address, self::HELD ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		return 0 < (int) $affected;
	}

	/**
	 * Frees the addresses the order holds whose payments are all dead
	 * (Address_Policy::releasable()): its payments to them are retired first,
	 * so none is ever signed again, and the order forgets the address. Called
	 * by reconciliation after each check of one of the order's payments.
	 *
	 * @param callable(array): bool $settled_unpaid Whether an attempt ended without payment longer ago than a payment stays open.
	 * @return string[] The addresses freed.
	 */
	public function release_dead( \WC_Order $order, callable $settled_unpaid ): array {
		$freed = array();
		foreach ( $this->held_rows_of_order( $order->get_id() ) as $row ) {
			$attempts = $this->attempts->attempts_of_order_to( $order->get_id(), (string) $row['address'] );
			$facts    = array_map(
				static function ( Attempt $attempt ) use ( $settled_unpaid ): array {
					return array(
						'signed'         => $attempt->is_signed(),
						'retired'        => $attempt->is_retired(),
						'settled_unpaid' => (bool) $settled_unpaid( $attempt ),
					);
				},
				$attempts
			);
			if ( ! Address_Policy::releasable( $order->is_paid(), $facts ) ) {
				continue;
			}
			foreach ( $attempts as $attempt ) {
				$this->attempts->retire( $attempt->id() );
			}
			if ( $this->release( $order->get_id(), (string) $row['address'] ) ) {
				$freed[] = (string) $row['address'];
				if ( (string) $order->get_meta( Keys::META_ADDRESS ) === (string) $row['address'] ) {
					$order->delete_meta_data( Keys::META_ADDRESS_INDEX );
					$order->delete_meta_data( Keys::META_ADDRESS );
					$order->save_meta_data();
				}
			}
		}
		return $freed;
	}

	/**
	 * How far past the last paid address the wallet's addresses in use reach
	 * (what a wallet's gap limit counts): the highest index handed out that
	 * is not free, minus the highest paid one (-1 when none is paid); how
	 * many freed indexes wait to be taken again.
	 *
	 * @return array{in_use: int, last_paid: int|null, highest: int|null, gap: int, free: int}
	 */
	public function gap( string $wallet ): array {
		global $wpdb;
		$row       = $wpdb->get_row( $wpdb->prepare( 'SELECT MAX(CASE WHEN state = %s THEN address_index END) AS last_paid, MAX(CASE WHEN state <> %s THEN address_index END) AS highest, SUM(state = %s) AS held, SUM(state = %s) AS freed FROM %i WHERE wallet = %s', self::PAID, self::FREE, self::HELD, self::FREE, $this->table(), $wallet ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		$last_paid = isset( $row['last_paid'] ) ? (int) $row['last_paid'] : null;
		$highest   = isset( $row['highest'] ) ? (int) $row['highest'] : null;
		return array(
			'in_use'    => (int) ( $row['held'] ?? 0 ),
			'last_paid' => $last_paid,
			'highest'   => $highest,
			'gap'       => null === $highest ? 0 : $highest - ( null === $last_paid ? -1 : $last_paid ),
			'free'      => (int) ( $row['freed'] ?? 0 ),
		);
	}

	/** The wallet's next new index (its counter), 0 before the first. */
	public function next_index( string $wallet ): int {
		global $wpdb;
		return (int) $wpdb->get_var( $wpdb->prepare( 'SELECT next_index FROM %i WHERE wallet = %s', $this->counters_table(), $wallet ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}

	/** @throws \RuntimeException When the database refuses the statement. */
	private function query( string $sql ): void {
		global $wpdb;
		if ( false === $wpdb->query( $sql ) ) { // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.PreparedSQL.NotPrepared -- every caller passes a prepared statement or a fixed one.
			throw new \RuntimeException( 'The address could not be recorded: ' . $wpdb->last_error );
		}
	}

	private function table(): string {
		global $wpdb;
		return $wpdb->prefix . Tables::ADDRESSES;
	}

	private function counters_table(): string {
		global $wpdb;
		return $wpdb->prefix . Tables::ADDRESS_COUNTERS;
	}
}

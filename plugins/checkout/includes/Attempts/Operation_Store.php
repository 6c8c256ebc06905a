<?php
/**
 * The plugin's three tables, where the database (not a read-then-write in PHP)
 * decides who wins a race:
 *
 * - {prefix}card2crypto_attempts: one row per payment attempt of an order
 *   (partner_operation_id UNIQUE). Its status pair and operation id sum up
 *   the attempt's operations (sum_up(): a success first, then one that may
 *   still be paid, then the latest ending), for everything that asks "where
 *   is this payment". next_check_at (indexed) is when reconciliation asks the
 *   service about it next (NULL: never); a batch claims due rows with an
 *   UPDATE that writes its claim_token and a lease (claimed_until), so two
 *   servers never take the same row; retired_at marks an attempt the service
 *   never heard of, no longer asked about.
 * - {prefix}card2crypto_operations: one row per operation the service made
 *   for an attempt (a buyer may try again inside the widget after a decline:
 *   the service makes a new operation under the same partner_operation_id),
 *   holding the operation's last applied status pair and a version counter.
 *   A transition is a compare-and-swap on that version, so two events read
 *   at the same moment cannot both move the operation.
 * - {prefix}card2crypto_events: one row per verified event (UNIQUE event_key,
 *   a hash of attempt, operation id, status and status_code). INSERT IGNORE
 *   claims an event: only the request whose insert affected a row acts on it,
 *   so the same callback delivered twenty times at once gives one note and one
 *   e-mail.
 *
 * Attempts and operations are indexed by created_at for the owner's books
 * (Books_Store: a date range read page by page).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Rules\Status_Flow;

defined( 'ABSPATH' ) || exit;

final class Operation_Store {

	const DB_VERSION        = '7';
	const DB_VERSION_OPTION = 'card2crypto_checkout_db_version';

	/** No status recorded yet. */
	const NO_CODE = Status_Flow::NO_CODE;

	public static function attempts_table(): string {
		global $wpdb;
		return $wpdb->prefix . 'card2crypto_attempts';
	}

	public static function events_table(): string {
		global $wpdb;
		return $wpdb->prefix . 'card2crypto_events';
	}

	public static function operations_table(): string {
		global $wpdb;
		return $wpdb->prefix . 'card2crypto_operations';
	}

	/**
	 * Every table of the plugin under a site's table prefix (a multisite
	 * network's site N: {base prefix}N_), for dropping them with the site.
	 *
	 * @return string[]
	 */
	public static function tables_of( string $prefix ): array {
		$names = array( 'card2crypto_events', 'card2crypto_operations', 'card2crypto_attempts', 'card2crypto_addresses', 'card2crypto_address_counters', 'card2crypto_budgets' );
		return array_map(
			static function ( string $name ) use ( $prefix ): string {
				return $prefix . $name;
			},
			$names
		);
	}

	/** Creates or upgrades the tables (activation, and once after an update). */
	public static function install(): void {
		global $wpdb;
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		$collate  = $wpdb->get_charset_collate();
		$attempts = self::attempts_table();
		$events   = self::events_table();
		$ops      = self::operations_table();
		dbDelta(
			"CREATE TABLE {$attempts} (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  order_id bigint(20) unsigned NOT NULL,
  partner_operation_id varchar(64) NOT NULL,
  operation_id varchar(191) DEFAULT NULL,
  expected_amount bigint(20) NOT NULL,
  expected_currency char(3) NOT NULL,
  expected_wallet varchar(100) NOT NULL,
  status varchar(32) NOT NULL DEFAULT '',
  status_code int(11) NOT NULL DEFAULT -1,
  version int(10) unsigned NOT NULL DEFAULT 0,
  mismatch tinyint(1) NOT NULL DEFAULT 0,
  checks int(10) unsigned NOT NULL DEFAULT 0,
  unsent tinyint(1) NOT NULL DEFAULT 0,
  next_check_at datetime DEFAULT NULL,
  claim_token char(16) DEFAULT NULL,
  claimed_until datetime DEFAULT NULL,
  retired_at datetime DEFAULT NULL,
  signed_at datetime DEFAULT NULL,
  created_at datetime NOT NULL,
  updated_at datetime NOT NULL,
  PRIMARY KEY  (id),
  UNIQUE KEY partner_operation_id (partner_operation_id),
  KEY order_id (order_id),
  KEY operation_id (operation_id),
  KEY next_check_at (next_check_at),
  KEY created_at (created_at)
) {$collate};
CREATE TABLE {$events} (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  event_key char(64) NOT NULL,
  attempt_id bigint(20) unsigned NOT NULL,
  operation_id varchar(191) NOT NULL,
  status varchar(32) NOT NULL,
  status_code int(11) NOT NULL,
  source varchar(16) NOT NULL,
  outcome varchar(32) NOT NULL DEFAULT '',
  received_at datetime NOT NULL,
  PRIMARY KEY  (id),
  UNIQUE KEY event_key (event_key),
  KEY attempt_id (attempt_id)
) {$collate};
CREATE TABLE {$ops} (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  attempt_id bigint(20) unsigned NOT NULL,
  order_id bigint(20) unsigned NOT NULL,
  operation_id varchar(191) NOT NULL,
  status varchar(32) NOT NULL DEFAULT '',
  status_code int(11) NOT NULL DEFAULT -1,
  version int(10) unsigned NOT NULL DEFAULT 0,
  created_at datetime NOT NULL,
  updated_at datetime NOT NULL,
  PRIMARY KEY  (id),
  UNIQUE KEY attempt_operation (attempt_id,operation_id),
  KEY order_id (order_id),
  KEY created_at (created_at)
) {$collate};
" . Address_Store::schema( $collate ) . "\n" . Start_Budget::schema( $collate )
		);
		update_option( self::DB_VERSION_OPTION, self::DB_VERSION, true ); // Autoloaded: read on every request by maybe_install().
	}

	/** Installs when the stored schema version differs (plugin updated without re-activation). */
	public static function maybe_install(): void {
		if ( self::DB_VERSION !== get_option( self::DB_VERSION_OPTION ) ) {
			self::install();
		}
	}

	public static function drop(): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', self::events_table() ) ); // phpcs:ignore WordPress.DB
		$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', self::operations_table() ) ); // phpcs:ignore WordPress.DB
		$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', self::attempts_table() ) ); // phpcs:ignore WordPress.DB
		Address_Store::drop();
		Start_Budget::drop();
		delete_option( self::DB_VERSION_OPTION );
	}

	/**
	 * Records a new attempt with what the order asks for (amount in minor
	 * units, currency, store wallet at that moment). The id must be fresh
	 * (random); returns the row.
	 */
	public static function create_attempt( int $order_id, string $partner_operation_id, int $amount, string $currency, string $wallet ): Attempt {
		global $wpdb;
		$now = current_time( 'mysql', true );
		$wpdb->insert( // phpcs:ignore WordPress.DB.DirectDatabaseQuery
			self::attempts_table(),
			array(
				'order_id'             => $order_id,
				'partner_operation_id' => $partner_operation_id,
				'expected_amount'      => $amount,
				'expected_currency'    => $currency,
				'expected_wallet'      => $wallet,
				'status'               => '',
				'status_code'          => self::NO_CODE,
				'version'              => 0,
				'mismatch'             => 0,
				'checks'               => 0,
				'created_at'           => $now,
				'updated_at'           => $now,
			),
			array( '%d', '%s', '%d', '%s', '%s', '%s', '%d', '%d', '%d', '%d', '%s', '%s' )
		);
		$attempt = self::attempt_by_partner_id( $partner_operation_id );
		if ( null === $attempt ) {
			throw new \RuntimeException( 'The payment attempt could not be recorded: ' . $wpdb->last_error );
		}
		return $attempt;
	}

	public static function attempt_by_partner_id( string $partner_operation_id ): ?Attempt {
		global $wpdb;
		$row = $wpdb->get_row( $wpdb->prepare( 'SELECT * FROM %i WHERE partner_operation_id = %s', self::attempts_table(), $partner_operation_id ), ARRAY_A ); // phpcs:ignore WordPress.DB
		return $row ? self::typed( $row ) : null;
	}

	/** The attempt an operation was recorded for (any of its operations, not only the one that sums it up). */
	public static function attempt_by_operation_id( string $operation_id ): ?Attempt {
		global $wpdb;
		$attempt_id = $wpdb->get_var( $wpdb->prepare( 'SELECT attempt_id FROM %i WHERE operation_id = %s ORDER BY id DESC LIMIT 1', self::operations_table(), $operation_id ) ); // phpcs:ignore WordPress.DB
		if ( null !== $attempt_id ) {
			return self::attempt( (int) $attempt_id );
		}
		$row = $wpdb->get_row( $wpdb->prepare( 'SELECT * FROM %i WHERE operation_id = %s ORDER BY id DESC LIMIT 1', self::attempts_table(), $operation_id ), ARRAY_A ); // phpcs:ignore WordPress.DB
		return $row ? self::typed( $row ) : null;
	}

	public static function attempt( int $id ): ?Attempt {
		global $wpdb;
		$row = $wpdb->get_row( $wpdb->prepare( 'SELECT * FROM %i WHERE id = %d', self::attempts_table(), $id ), ARRAY_A ); // phpcs:ignore WordPress.DB
		return $row ? self::typed( $row ) : null;
	}

	/** @return Attempt[] Every attempt of an order, newest first. */
	public static function attempts_of_order( int $order_id ): array {
		global $wpdb;
		$rows = $wpdb->get_results( $wpdb->prepare( 'SELECT * FROM %i WHERE order_id = %d ORDER BY id DESC', self::attempts_table(), $order_id ), ARRAY_A ); // phpcs:ignore WordPress.DB
		return array_map( array( self::class, 'typed' ), $rows ?: array() );
	}

	/** The id of the order's newest attempt, 0 when it has none (read from the database, never from a cache). */
	public static function newest_attempt_id( int $order_id ): int {
		global $wpdb;
		return (int) $wpdb->get_var( $wpdb->prepare( 'SELECT MAX(id) FROM %i WHERE order_id = %d', self::attempts_table(), $order_id ) ); // phpcs:ignore WordPress.DB
	}

	/** How many attempts the order started since $since (UTC, MySQL format); one never sent to the buyer (uncount()) does not count. */
	public static function attempts_started_since( int $order_id, string $since ): int {
		global $wpdb;
		return (int) $wpdb->get_var( $wpdb->prepare( 'SELECT COUNT(*) FROM %i WHERE order_id = %d AND created_at >= %s AND unsent = 0', self::attempts_table(), $order_id, $since ) ); // phpcs:ignore WordPress.DB
	}

	/**
	 * Whether the attempt was sent to the buyer: an attempt whose rate could
	 * not be fixed was not (it does not count toward the hourly cap); the
	 * next time it is sent it counts again.
	 */
	public static function mark_sent( Attempt $attempt, bool $sent ): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'UPDATE %i SET unsent = %d WHERE id = %d AND unsent <> %d', self::attempts_table(), $sent ? 0 : 1, $attempt->id(), $sent ? 0 : 1 ) ); // phpcs:ignore WordPress.DB
	}

	/**
	 * Claims an event: true for exactly one caller per event key, whatever the
	 * concurrency (the UNIQUE index decides).
	 */
	/**
	 * Runs $fn holding the database's named lock of one order, so that two
	 * different events of one order (say "awaiting confirm" 8 and success 6,
	 * delivered at once) change it one after the other: each claim and
	 * compare-and-swap is atomic on its own, but the order is a separate row
	 * written after them, and two writers could otherwise save in the reverse
	 * order of their swaps, moving a paid order back to on hold. Where the
	 * database has no named locks (SQLite in Playground, one request at a time
	 * per worker) $fn runs without one.
	 *
	 * @throws \RuntimeException When another request holds the lock for 30 s: the event is answered non-200 and sent again.
	 * @return mixed What $fn returns.
	 */
	public static function with_order_lock( int $order_id, callable $fn ) {
		return Shared_Store::locked( 'card2crypto_order_' . $order_id, $fn, sprintf( 'Order %d is being updated by another request.', $order_id ) );
	}

	/**
	 * Runs $fn holding the database's named lock of the order's payment
	 * starts: the requests that start an attempt of one order (two presses of
	 * "Pay" at once, on one web server or several) take it one after the
	 * other, so the second sees the first's attempt (Payments). Apart from
	 * with_order_lock(), which the service's events of the order take, so
	 * that a start waiting on the service never holds them up.
	 *
	 * @throws \RuntimeException When another request holds the lock for 30 s.
	 * @return mixed What $fn returns.
	 */
	public static function with_start_lock( int $order_id, callable $fn ) {
		return Shared_Store::locked( 'card2crypto_start_' . $order_id, $fn, sprintf( 'A payment of order %d is being started by another request.', $order_id ) );
	}

	public static function claim_event( Attempt $attempt, string $operation_id, string $status, int $code, string $source ): bool {
		global $wpdb;
		$key      = self::event_key( $attempt->id(), $operation_id, $status, $code );
		$affected = $wpdb->query( // phpcs:ignore WordPress.DB
			$wpdb->prepare(
				'INSERT IGNORE INTO %i (event_key, attempt_id, operation_id, status, status_code, source, outcome, received_at) VALUES (%s, %d, %s, %s, %d, %s, %s, %s)',
				self::events_table(),
				$key,
				$attempt->id(),
				$operation_id,
				$status,
				$code,
				$source,
				'claimed',
				current_time( 'mysql', true )
			)
		);
		if ( false === $affected ) {
			// A database error is not a duplicate: fail, so the callback is answered 500 and sent again.
			throw new \RuntimeException( 'The event could not be recorded: ' . $wpdb->last_error );
		}
		return 1 === (int) $affected;
	}

	/** Gives a claimed event back (processing failed), so a re-delivery is processed again. */
	public static function release_event( Attempt $attempt, string $operation_id, string $status, int $code ): void {
		global $wpdb;
		$wpdb->delete( self::events_table(), array( 'event_key' => self::event_key( $attempt->id(), $operation_id, $status, $code ) ), array( '%s' ) ); // phpcs:ignore WordPress.DB
	}

	public static function set_event_outcome( Attempt $attempt, string $operation_id, string $status, int $code, string $outcome ): void {
		global $wpdb;
		$wpdb->update( self::events_table(), array( 'outcome' => $outcome ), array( 'event_key' => self::event_key( $attempt->id(), $operation_id, $status, $code ) ), array( '%s' ), array( '%s' ) ); // phpcs:ignore WordPress.DB
	}

	/** Number of events recorded for an attempt (tests, admin). */
	public static function event_count( int $attempt_id ): int {
		global $wpdb;
		return (int) $wpdb->get_var( $wpdb->prepare( 'SELECT COUNT(*) FROM %i WHERE attempt_id = %d', self::events_table(), $attempt_id ) ); // phpcs:ignore WordPress.DB
	}

	/**
	 * The row of one operation of an attempt, made on its first event (a
	 * buyer who tries again inside the widget makes a new operation under the
	 * same partner_operation_id). An attempt whose state was kept before
	 * operations had rows of their own lends it to its bound operation, so
	 * nothing applied is forgotten.
	 */
	public static function operation_of( Attempt $attempt, string $operation_id ): array {
		global $wpdb;
		$bound = $attempt->operation_id();
		if ( '' !== $bound && self::NO_CODE !== $attempt->status_code() && array() === self::operations_of_attempt( $attempt->id() ) ) {
			self::insert_operation( $attempt, $bound, $attempt->status(), $attempt->status_code() );
		}
		self::insert_operation( $attempt, $operation_id, '', self::NO_CODE );
		$row = $wpdb->get_row( $wpdb->prepare( 'SELECT * FROM %i WHERE attempt_id = %d AND operation_id = %s', self::operations_table(), $attempt->id(), $operation_id ), ARRAY_A ); // phpcs:ignore WordPress.DB
		if ( ! $row ) {
			throw new \RuntimeException( 'The operation could not be read back: ' . $wpdb->last_error );
		}
		return self::typed_operation( $row );
	}

	/** Records an operation of an attempt unless it is recorded already (the UNIQUE key decides). */
	private static function insert_operation( Attempt $attempt, string $operation_id, string $status, int $code ): void {
		global $wpdb;
		$now  = current_time( 'mysql', true );
		$done = $wpdb->query( // phpcs:ignore WordPress.DB
			$wpdb->prepare(
				'INSERT IGNORE INTO %i (attempt_id, order_id, operation_id, status, status_code, version, created_at, updated_at) VALUES (%d, %d, %s, %s, %d, 0, %s, %s)',
				self::operations_table(),
				$attempt->id(),
				$attempt->order_id(),
				$operation_id,
				$status,
				$code,
				$now,
				$now
			)
		);
		if ( false === $done ) {
			throw new \RuntimeException( 'The operation could not be recorded: ' . $wpdb->last_error );
		}
	}

	public static function operation( int $id ): ?array {
		global $wpdb;
		$row = $wpdb->get_row( $wpdb->prepare( 'SELECT * FROM %i WHERE id = %d', self::operations_table(), $id ), ARRAY_A ); // phpcs:ignore WordPress.DB
		return $row ? self::typed_operation( $row ) : null;
	}

	/** @return array<int, array> The operations of an attempt, oldest first. */
	public static function operations_of_attempt( int $attempt_id ): array {
		global $wpdb;
		$rows = $wpdb->get_results( $wpdb->prepare( 'SELECT * FROM %i WHERE attempt_id = %d ORDER BY id', self::operations_table(), $attempt_id ), ARRAY_A ); // phpcs:ignore WordPress.DB
		return array_map( array( self::class, 'typed_operation' ), $rows ?: array() );
	}

	/** @return array<int, array> The operations of every attempt of an order, oldest first. */
	public static function operations_of_order( int $order_id ): array {
		global $wpdb;
		$rows = $wpdb->get_results( $wpdb->prepare( 'SELECT * FROM %i WHERE order_id = %d ORDER BY id', self::operations_table(), $order_id ), ARRAY_A ); // phpcs:ignore WordPress.DB
		return array_map( array( self::class, 'typed_operation' ), $rows ?: array() );
	}

	/**
	 * Compare-and-swap of an operation's state: succeeds only when nobody
	 * moved the operation since $operation was read (same version).
	 */
	public static function swap_state( array $operation, string $status, int $code ): bool {
		global $wpdb;
		$affected = $wpdb->query( // phpcs:ignore WordPress.DB
			$wpdb->prepare(
				'UPDATE %i SET status = %s, status_code = %d, version = version + 1, updated_at = %s WHERE id = %d AND version = %d',
				self::operations_table(),
				$status,
				$code,
				current_time( 'mysql', true ),
				(int) $operation['id'],
				(int) $operation['version']
			)
		);
		if ( false === $affected ) {
			throw new \RuntimeException( 'The payment state could not be saved: ' . $wpdb->last_error );
		}
		return 1 === (int) $affected;
	}

	/**
	 * Undoes swap_state() for $operation (the row as read before the swap)
	 * when the order could not follow: back to its previous pair, only if
	 * nothing moved the operation since our swap (version + 1). The version
	 * still grows, so a decision read before the undo cannot swap.
	 */
	public static function restore_state( array $operation ): void {
		global $wpdb;
		$affected = $wpdb->query( // phpcs:ignore WordPress.DB
			$wpdb->prepare(
				'UPDATE %i SET status = %s, status_code = %d, version = version + 1, updated_at = %s WHERE id = %d AND version = %d',
				self::operations_table(),
				(string) $operation['status'],
				(int) $operation['status_code'],
				current_time( 'mysql', true ),
				(int) $operation['id'],
				(int) $operation['version'] + 1
			)
		);
		if ( false === $affected ) {
			Log::error( sprintf( 'Operation %s: the payment state could not be moved back after a failed order update: %s', (string) $operation['operation_id'], $wpdb->last_error ) );
		} elseif ( 1 !== (int) $affected ) {
			// A later event moved the operation already; it stays where that event put it.
			Log::info( sprintf( 'Operation %s: not moved back after a failed order update; a later event moved it meanwhile.', (string) $operation['operation_id'] ) );
		}
	}

	/**
	 * Whether an operation of the order other than $operation_id ('' for
	 * none) may still be paid, or was paid (its last state is not an ending
	 * without payment). An attempt from before operations were recorded one
	 * by one counts by its own state.
	 */
	public static function may_be_paid_besides( int $order_id, string $operation_id ): bool {
		$recorded = array();
		foreach ( self::operations_of_order( $order_id ) as $op ) {
			$recorded[ $op['attempt_id'] ] = true;
			if ( $op['operation_id'] !== $operation_id && Status_Flow::may_be_paid( $op['status'], $op['status_code'] ) ) {
				return true;
			}
		}
		foreach ( self::attempts_of_order( $order_id ) as $attempt ) {
			if ( ! isset( $recorded[ $attempt->id() ] ) && $attempt->operation_id() !== $operation_id && Status_Flow::may_be_paid( $attempt->status(), $attempt->status_code() ) ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Writes the attempt's summary from its operations (Status_Flow::leading():
	 * a success first, then one that may still be paid, then the latest that
	 * ended). Runs under the order's lock, after an operation moved.
	 *
	 * @throws \RuntimeException When the summary could not be written.
	 */
	public static function sum_up( int $attempt_id ): void {
		global $wpdb;
		$ops      = self::operations_of_attempt( $attempt_id );
		$lead     = Status_Flow::leading( $ops );
		$op       = null === $lead ? array(
			'status'       => '',
			'status_code'  => self::NO_CODE,
			'operation_id' => '',
		) : $ops[ $lead ];
		$affected = $wpdb->query( // phpcs:ignore WordPress.DB
			$wpdb->prepare(
				"UPDATE %i SET status = %s, status_code = %d, operation_id = NULLIF(%s, ''), version = version + 1, updated_at = %s WHERE id = %d",
				self::attempts_table(),
				(string) $op['status'],
				(int) $op['status_code'],
				(string) $op['operation_id'],
				current_time( 'mysql', true ),
				$attempt_id
			)
		);
		if ( false === $affected ) {
			throw new \RuntimeException( 'The payment state could not be saved: ' . $wpdb->last_error );
		}
	}

	public static function flag_mismatch( Attempt $attempt ): void {
		global $wpdb;
		$wpdb->update( self::attempts_table(), array( 'mismatch' => 1 ), array( 'id' => $attempt->id() ), array( '%d' ), array( '%d' ) ); // phpcs:ignore WordPress.DB
	}

	/** When reconciliation asks about the attempt next (Unix time; null: never), its claim released. */
	public static function set_next_check( int $attempt_id, ?int $when ): void {
		global $wpdb;
		$at = null === $when ? null : gmdate( 'Y-m-d H:i:s', $when );
		// NULLIF: prepare() has no NULL placeholder; '' is never a date.
		$wpdb->query( $wpdb->prepare( "UPDATE %i SET next_check_at = NULLIF(%s, ''), claim_token = NULL, claimed_until = NULL WHERE id = %d AND retired_at IS NULL", self::attempts_table(), (string) $at, $attempt_id ) ); // phpcs:ignore WordPress.DB
	}

	/** Moves the attempt's next check to $when unless it is due sooner already (an old per-order action coming due). */
	public static function check_by( int $attempt_id, int $when ): void {
		global $wpdb;
		$at = gmdate( 'Y-m-d H:i:s', $when );
		$wpdb->query( $wpdb->prepare( 'UPDATE %i SET next_check_at = %s WHERE id = %d AND retired_at IS NULL AND ( next_check_at IS NULL OR next_check_at > %s )', self::attempts_table(), $at, $attempt_id, $at ) ); // phpcs:ignore WordPress.DB
	}

	/**
	 * No more checks of the order's attempts other than $attempt_id that were
	 * never signed for the buyer (the service cannot know them). One that was
	 * signed is still checked until it is paid, settled or retired: the
	 * buyer may still pay it in a tab left open.
	 */
	public static function stop_checks_besides( int $order_id, int $attempt_id ): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'UPDATE %i SET next_check_at = NULL WHERE order_id = %d AND id <> %d AND next_check_at IS NOT NULL AND signed_at IS NULL', self::attempts_table(), $order_id, $attempt_id ) ); // phpcs:ignore WordPress.DB
	}

	/**
	 * Claims up to $limit attempts due at $now, earliest first, for
	 * $lease seconds: one UPDATE writes the claim, so a second server running
	 * the same query at once takes other rows (InnoDB locks the rows it
	 * updates; a row claimed and not released is free again once its lease
	 * ends). Returns the claimed attempt ids, earliest due first.
	 *
	 * @return int[]
	 */
	public static function claim_due( string $token, int $limit, int $now, int $lease ): array {
		global $wpdb;
		$at   = gmdate( 'Y-m-d H:i:s', $now );
		$done = $wpdb->query( // phpcs:ignore WordPress.DB
			$wpdb->prepare(
				'UPDATE %i SET claim_token = %s, claimed_until = %s WHERE next_check_at <= %s AND retired_at IS NULL AND ( claimed_until IS NULL OR claimed_until < %s ) ORDER BY next_check_at LIMIT %d',
				self::attempts_table(),
				$token,
				gmdate( 'Y-m-d H:i:s', $now + $lease ),
				$at,
				$at,
				$limit
			)
		);
		if ( false === $done ) {
			// A database without UPDATE ... ORDER BY ... LIMIT (SQLite in Playground): the due rows read, then each
			// claimed by its own compare-and-set UPDATE, so still no row is taken twice.
			self::claim_one_by_one( $token, $limit, $now, $lease );
		} elseif ( 0 === (int) $done ) {
			return array();
		}
		$ids = $wpdb->get_col( $wpdb->prepare( 'SELECT id FROM %i WHERE claim_token = %s ORDER BY next_check_at, id', self::attempts_table(), $token ) ); // phpcs:ignore WordPress.DB
		return array_map( 'intval', $ids ?: array() );
	}

	private static function claim_one_by_one( string $token, int $limit, int $now, int $lease ): void {
		global $wpdb;
		$at  = gmdate( 'Y-m-d H:i:s', $now );
		$ids = $wpdb->get_col( $wpdb->prepare( 'SELECT id FROM %i WHERE next_check_at <= %s AND retired_at IS NULL AND ( claimed_until IS NULL OR claimed_until < %s ) ORDER BY next_check_at LIMIT %d', self::attempts_table(), $at, $at, $limit ) ); // phpcs:ignore WordPress.DB
		foreach ( $ids ?: array() as $id ) {
			$wpdb->query( $wpdb->prepare( 'UPDATE %i SET claim_token = %s, claimed_until = %s WHERE id = %d AND next_check_at <= %s AND retired_at IS NULL AND ( claimed_until IS NULL OR claimed_until < %s )', self::attempts_table(), $token, gmdate( 'Y-m-d H:i:s', $now + $lease ), (int) $id, $at, $at ) ); // phpcs:ignore WordPress.DB
		}
	}

	/** Gives back what a batch claimed and did not check (still due: the next batch takes it first). */
	public static function release_claims( string $token ): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'UPDATE %i SET claim_token = NULL, claimed_until = NULL WHERE claim_token = %s', self::attempts_table(), $token ) ); // phpcs:ignore WordPress.DB
	}

	/** The earliest next check of any attempt (Unix time), or null when none is planned. */
	public static function earliest_check(): ?int {
		global $wpdb;
		$at = $wpdb->get_var( $wpdb->prepare( 'SELECT MIN(next_check_at) FROM %i WHERE retired_at IS NULL', self::attempts_table() ) ); // phpcs:ignore WordPress.DB
		return null === $at ? null : (int) strtotime( $at . ' UTC' );
	}

	/**
	 * Retires the attempt: never asked about again. True for the one caller
	 * that retired it (a second retirement changes nothing).
	 */
	public static function retire( int $attempt_id ): bool {
		global $wpdb;
		$affected = $wpdb->query( $wpdb->prepare( 'UPDATE %i SET retired_at = %s, next_check_at = NULL, claim_token = NULL, claimed_until = NULL WHERE id = %d AND retired_at IS NULL', self::attempts_table(), current_time( 'mysql', true ), $attempt_id ) ); // phpcs:ignore WordPress.DB
		return 1 === (int) $affected;
	}

	/**
	 * Records that the attempt was signed for the buyer (a landing URL or
	 * widget settings): from then on the buyer may reach the service with it,
	 * so its address is never freed while it could still be paid.
	 */
	public static function mark_signed( int $attempt_id ): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'UPDATE %i SET signed_at = %s WHERE id = %d AND signed_at IS NULL', self::attempts_table(), current_time( 'mysql', true ), $attempt_id ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
	}

	/**
	 * Gives an attempt created without an address (a new address per order,
	 * taken when it is first signed) its address. Only an attempt without one
	 * is changed: true when this call gave it.
	 *
	 * @throws \RuntimeException When the database refuses the statement.
	 */
	public static function give_wallet( int $attempt_id, string $wallet ): bool {
		global $wpdb;
		$affected = $wpdb->query( $wpdb->prepare( "UPDATE %i SET expected_wallet = %s WHERE id = %d AND expected_wallet = ''", self::attempts_table(), $wallet, $attempt_id ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
		if ( false === $affected ) {
			throw new \RuntimeException( 'The payment\'s address could not be recorded: ' . $wpdb->last_error );
		}
		return 1 === (int) $affected;
	}

	/** @return Attempt[] The order's attempts that ask for $wallet, newest first. */
	public static function attempts_of_order_to( int $order_id, string $wallet ): array {
		return array_values(
			array_filter(
				self::attempts_of_order( $order_id ),
				static function ( Attempt $attempt ) use ( $wallet ): bool {
					return $attempt->wallet() === $wallet;
				}
			)
		);
	}

	public static function count_check( Attempt $attempt ): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'UPDATE %i SET checks = checks + 1 WHERE id = %d', self::attempts_table(), $attempt->id() ) ); // phpcs:ignore WordPress.DB
	}

	/** An operation's stored pair as decide() wants it, or null when nothing was applied yet. */
	public static function state_of( array $operation ): ?array {
		if ( self::NO_CODE === $operation['status_code'] ) {
			return null;
		}
		return array(
			'status'      => $operation['status'],
			'status_code' => $operation['status_code'],
		);
	}

	private static function event_key( int $attempt_id, string $operation_id, string $status, int $code ): string {
		return hash( 'sha256', $attempt_id . "\n" . $operation_id . "\n" . $status . "\n" . $code );
	}

	private static function typed_operation( array $row ): array {
		foreach ( array( 'id', 'attempt_id', 'order_id', 'status_code', 'version' ) as $int ) {
			$row[ $int ] = (int) $row[ $int ];
		}
		return $row;
	}

	/** The one place an attempt is made from its row. */
	private static function typed( array $row ): Attempt {
		return Attempt::from_row( $row );
	}
}

<?php
/**
 * The operations and the service's events of the payment attempts, where the
 * database (not a read-then-write in PHP) decides who wins a race:
 *
 * - {prefix}card2crypto_operations: one row per operation the service made
 *   for an attempt (a buyer may try again inside the widget after a decline:
 *   the service makes a new operation under the same partner_operation_id),
 *   holding the operation's last applied status pair and a version counter.
 *   A transition is a compare-and-swap on that version, so two events read
 *   at the same moment cannot both move the operation. The attempt's own
 *   status pair sums its operations up (sum_up(): a success first, then one
 *   that may still be paid, then the latest ending), for everything that
 *   asks "where is this payment".
 * - {prefix}card2crypto_events: one row per verified event (UNIQUE event_key,
 *   a hash of attempt, operation id, status and status_code). INSERT IGNORE
 *   claims an event: only the request whose insert affected a row acts on it,
 *   so the same callback delivered twenty times at once gives one note and one
 *   e-mail.
 * - the named locks of an order's events and of its payment starts.
 *
 * Built once (Plugin::build()) over the attempts' repository.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Rules\Status_Flow;

defined( 'ABSPATH' ) || exit;

final class Operation_Store {

	/** No status recorded yet. */
	const NO_CODE = Status_Flow::NO_CODE;

	/** @var Attempt_Store */
	private $attempts;

	/** @var Shared_Store */
	private $shared;

	public function __construct( Attempt_Store $attempts, Shared_Store $shared ) {
		$this->attempts = $attempts;
		$this->shared   = $shared;
	}

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
	public function with_order_lock( int $order_id, callable $fn ) {
		return $this->shared->locked( 'card2crypto_order_' . $order_id, $fn, sprintf( 'Order %d is being updated by another request.', $order_id ) );
	}

	/**
	 * Runs $fn holding the database's named lock of the order's payment
	 * starts: the requests that start an attempt of one order (two presses of
	 * "Pay" at once, on one web server or several) take it one after the
	 * other, so the second sees the first's attempt (Payment_Flows). Apart from
	 * with_order_lock(), which the service's events of the order take, so
	 * that a start waiting on the service never holds them up.
	 *
	 * @throws \RuntimeException When another request holds the lock for 30 s.
	 * @return mixed What $fn returns.
	 */
	public function with_start_lock( int $order_id, callable $fn ) {
		return $this->shared->locked( 'card2crypto_start_' . $order_id, $fn, sprintf( 'A payment of order %d is being started by another request.', $order_id ) );
	}

	/**
	 * Claims an event: true for exactly one caller per event key, whatever the
	 * concurrency (the UNIQUE index decides).
	 */
	public function claim_event( Attempt $attempt, string $operation_id, string $status, int $code, string $source ): bool {
		global $wpdb;
		$key      = $this->event_key( $attempt->id(), $operation_id, $status, $code );
		$affected = $wpdb->query( // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
			$wpdb->prepare(
				'INSERT IGNORE INTO %i (event_key, attempt_id, operation_id, status, status_code, source, outcome, received_at) VALUES (%s, %d, %s, %s, %d, %s, %s, %s)',
				$this->events_table(),
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
	public function release_event( Attempt $attempt, string $operation_id, string $status, int $code ): void {
		global $wpdb;
		$wpdb->delete( $this->events_table(), array( 'event_key' => $this->event_key( $attempt->id(), $operation_id, $status, $code ) ), array( '%s' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}

	public function set_event_outcome( Attempt $attempt, string $operation_id, string $status, int $code, string $outcome ): void {
		global $wpdb;
		$wpdb->update( $this->events_table(), array( 'outcome' => $outcome ), array( 'event_key' => $this->event_key( $attempt->id(), $operation_id, $status, $code ) ), array( '%s' ), array( '%s' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}

	/** How many operations the service made for this store's payments (0 when the table cannot be read). */
	public function operation_count(): int {
		global $wpdb;
		$suppress = $wpdb->suppress_errors( true );
		$count    = (int) $wpdb->get_var( $wpdb->prepare( 'SELECT COUNT(*) FROM %i', $this->operations_table() ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		$wpdb->suppress_errors( $suppress );
		return $count;
	}

	/**
	 * The row of one operation of an attempt, made on its first event (a
	 * buyer who tries again inside the widget makes a new operation under the
	 * same partner_operation_id). An attempt whose state was kept before
	 * operations had rows of their own lends it to its bound operation, so
	 * nothing applied is forgotten.
	 */
	public function operation_of( Attempt $attempt, string $operation_id ): array {
		global $wpdb;
		$bound = $attempt->operation_id();
		if ( '' !== $bound && self::NO_CODE !== $attempt->status_code() && array() === $this->operations_of_attempt( $attempt->id() ) ) {
			$this->insert_operation( $attempt, $bound, $attempt->status(), $attempt->status_code() );
		}
		$this->insert_operation( $attempt, $operation_id, '', self::NO_CODE );
		$row = $wpdb->get_row( $wpdb->prepare( 'SELECT * FROM %i WHERE attempt_id = %d AND operation_id = %s', $this->operations_table(), $attempt->id(), $operation_id ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		if ( ! $row ) {
			throw new \RuntimeException( 'The operation could not be read back: ' . $wpdb->last_error );
		}
		return $this->typed_operation( $row );
	}

	/** Records an operation of an attempt unless it is recorded already (the UNIQUE key decides). */
	private function insert_operation( Attempt $attempt, string $operation_id, string $status, int $code ): void {
		global $wpdb;
		$now  = current_time( 'mysql', true );
		$done = $wpdb->query( // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
			$wpdb->prepare(
				'INSERT IGNORE INTO %i (attempt_id, order_id, operation_id, status, status_code, version, created_at, updated_at) VALUES (%d, %d, %s, %s, %d, 0, %s, %s)',
				$this->operations_table(),
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

	public function operation( int $id ): ?array {
		global $wpdb;
		$row = $wpdb->get_row( $wpdb->prepare( 'SELECT * FROM %i WHERE id = %d', $this->operations_table(), $id ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		return $row ? $this->typed_operation( $row ) : null;
	}

	/** @return array<int, array> The operations of an attempt, oldest first. */
	public function operations_of_attempt( int $attempt_id ): array {
		global $wpdb;
		$rows = $wpdb->get_results( $wpdb->prepare( 'SELECT * FROM %i WHERE attempt_id = %d ORDER BY id', $this->operations_table(), $attempt_id ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		return array_map( array( $this, 'typed_operation' ), $rows ?: array() );
	}

	/** @return array<int, array> The operations of every attempt of an order, oldest first. */
	public function operations_of_order( int $order_id ): array {
		global $wpdb;
		$rows = $wpdb->get_results( $wpdb->prepare( 'SELECT * FROM %i WHERE order_id = %d ORDER BY id', $this->operations_table(), $order_id ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		return array_map( array( $this, 'typed_operation' ), $rows ?: array() );
	}

	/**
	 * Compare-and-swap of an operation's state: succeeds only when nobody
	 * moved the operation since $operation was read (same version).
	 */
	public function swap_state( array $operation, string $status, int $code ): bool {
		global $wpdb;
		$affected = $wpdb->query( // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
			$wpdb->prepare(
				'UPDATE %i SET status = %s, status_code = %d, version = version + 1, updated_at = %s WHERE id = %d AND version = %d',
				$this->operations_table(),
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
	public function restore_state( array $operation ): void {
		global $wpdb;
		$affected = $wpdb->query( // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
			$wpdb->prepare(
				'UPDATE %i SET status = %s, status_code = %d, version = version + 1, updated_at = %s WHERE id = %d AND version = %d',
				$this->operations_table(),
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
	public function may_be_paid_besides( int $order_id, string $operation_id ): bool {
		$recorded = array();
		foreach ( $this->operations_of_order( $order_id ) as $op ) {
			$recorded[ $op['attempt_id'] ] = true;
			if ( $op['operation_id'] !== $operation_id && Status_Flow::may_be_paid( $op['status'], $op['status_code'] ) ) {
				return true;
			}
		}
		foreach ( $this->attempts->attempts_of_order( $order_id ) as $attempt ) {
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
	public function sum_up( int $attempt_id ): void {
		global $wpdb;
		$ops      = $this->operations_of_attempt( $attempt_id );
		$lead     = Status_Flow::leading( $ops );
		$op       = null === $lead ? array(
			'status'       => '',
			'status_code'  => self::NO_CODE,
			'operation_id' => '',
		) : $ops[ $lead ];
		$affected = $wpdb->query( // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
			$wpdb->prepare(
				"UPDATE %i SET status = %s, status_code = %d, operation_id = NULLIF(%s, ''), version = version + 1, updated_at = %s WHERE id = %d",
				$wpdb->prefix . Tables::ATTEMPTS,
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

	private function event_key( int $attempt_id, string $operation_id, string $status, int $code ): string {
		return hash( 'sha256', $attempt_id . "\n" . $operation_id . "\n" . $status . "\n" . $code );
	}

	private function typed_operation( array $row ): array {
		foreach ( array( 'id', 'attempt_id', 'order_id', 'status_code', 'version' ) as $int ) {
			$row[ $int ] = (int) $row[ $int ];
		}
		return $row;
	}

	private function operations_table(): string {
		global $wpdb;
		return $wpdb->prefix . Tables::OPERATIONS;
	}

	private function events_table(): string {
		global $wpdb;
		return $wpdb->prefix . Tables::EVENTS;
	}
}

<?php
/**
 * The owner's books as stored: every operation the service made for the
 * store's payments, and every payment a buyer was sent to and never began,
 * read page by page from the plugin's tables (never all at once), in the
 * order the store recorded them, with the order meta each page needs in one
 * query. Built once (Plugin::build()). What the rows mean (outcome, amounts as text) is the Admin room's
 * (Admin\Books); this class only reads.
 *
 * Two streams, each in (created_at, id) order through its created_at index,
 * merged into one:
 * - the operations table, one row per operation, with its attempt (the
 *   amount, currency and wallet the payment asked for, the partner's id);
 * - the attempts that have no operation row: an attempt whose state was
 *   kept before operations had rows of their own (it stands for its one
 *   operation), and an abandoned payment: signed for the buyer (a landing
 *   URL or widget settings were made for it), no operation ever reported,
 *   and over (retired, or started before $ended_before).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

defined( 'ABSPATH' ) || exit;

final class Books_Store {

	/** A row of the operations table (or an attempt that stands for its one operation). */
	const OPERATION = 'operation';

	/** An attempt signed for the buyer that never got an operation. */
	const ABANDONED = 'abandoned';

	/** Rows read per query. */
	const PAGE = 500;

	/**
	 * The rows recorded from $from (inclusive) to $to (exclusive), UTC in
	 * MySQL format (null: no bound), in pages of at most $size rows, each
	 * row: kind (OPERATION or ABANDONED), recorded_at (UTC), order_id,
	 * partner_operation_id, operation_id ('' for ABANDONED), status,
	 * status_code (Operation_Store::NO_CODE when nothing was applied),
	 * expected_amount, expected_currency, expected_wallet.
	 *
	 * @param string $ended_before UTC, MySQL format: an attempt without an operation started before then is over.
	 * @return \Generator<int, array<int, array<string, mixed>>>
	 */
	public function pages( ?string $from, ?string $to, string $ended_before, int $size = self::PAGE ): \Generator {
		$streams = array( $this->operations( $from, $to, $size ), $this->attempts( $from, $to, $ended_before, $size ) );
		$page    = array();
		while ( true ) {
			$next = null;
			foreach ( $streams as $i => $stream ) {
				if ( $stream->valid() && ( null === $next || $this->earlier( $stream->current(), $streams[ $next ]->current() ) ) ) {
					$next = $i;
				}
			}
			if ( null === $next ) {
				break;
			}
			$page[] = $streams[ $next ]->current();
			$streams[ $next ]->next();
			if ( count( $page ) >= $size ) {
				yield $page;
				$page = array();
			}
		}
		if ( array() !== $page ) {
			yield $page;
		}
	}

	/**
	 * Whether the tables answer (checked before a download's first byte, so a
	 * store whose tables are missing gets an error, not an empty file).
	 */
	public function readable(): bool {
		global $wpdb;
		foreach ( array( Tables::OPERATIONS, Tables::ATTEMPTS ) as $name ) {
			$wpdb->get_var( $wpdb->prepare( 'SELECT 1 FROM %i LIMIT 1', $wpdb->prefix . $name ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
			if ( '' !== $wpdb->last_error ) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Meta of the orders named, straight from the order meta table WooCommerce
	 * reads orders from (its order tables or the posts tables): one query for a
	 * page of rows, no order object loaded.
	 *
	 * @param int[]    $order_ids
	 * @param string[] $keys
	 * @return array<int, array<string, mixed>> By order id, then key: the value as stored (unserialised).
	 */
	public function order_meta( array $order_ids, array $keys ): array {
		global $wpdb;
		$order_ids = array_values( array_unique( array_map( 'intval', $order_ids ) ) );
		if ( array() === $order_ids || array() === $keys ) {
			return array();
		}
		$hpos = class_exists( '\Automattic\WooCommerce\Utilities\OrderUtil' ) && \Automattic\WooCommerce\Utilities\OrderUtil::custom_orders_table_usage_is_enabled();
		// The table, its order id column and its own id column.
		list( $table, $column, $id ) = $hpos ? array( $wpdb->prefix . 'wc_orders_meta', 'order_id', 'id' ) : array( $wpdb->postmeta, 'post_id', 'meta_id' );
		$ids                         = implode( ',', array_fill( 0, count( $order_ids ), '%d' ) );
		$names                       = implode( ',', array_fill( 0, count( $keys ), '%s' ) );
		$rows                        = $wpdb->get_results( // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- placeholders built above.
			$wpdb->prepare( "SELECT %i AS order_id, meta_key, meta_value FROM %i WHERE %i IN ({$ids}) AND meta_key IN ({$names}) ORDER BY %i", array_merge( array( $column, $table, $column ), $order_ids, array_values( $keys ), array( $id ) ) ),
			ARRAY_A
		);
		$this->check_read( $rows );
		$meta = array();
		foreach ( $rows as $row ) {
			// The first value of a key, as WC_Order::get_meta( $key, true ) reads it.
			if ( ! isset( $meta[ (int) $row['order_id'] ][ $row['meta_key'] ] ) ) {
				$meta[ (int) $row['order_id'] ][ $row['meta_key'] ] = maybe_unserialize( $row['meta_value'] );
			}
		}
		return $meta;
	}

	/** Whether $a was recorded before $b: by time, then operations before attempts, then id. */
	private function earlier( array $a, array $b ): bool {
		$by_time = strcmp( (string) $a['recorded_at'], (string) $b['recorded_at'] );
		if ( 0 !== $by_time ) {
			return $by_time < 0;
		}
		if ( $a['source'] !== $b['source'] ) {
			return 'operations' === $a['source'];
		}
		return $a['row_id'] < $b['row_id'];
	}

	/** @return \Generator<int, array<string, mixed>> The operations table's rows with their attempts, in (created_at, id) order. */
	private function operations( ?string $from, ?string $to, int $size ): \Generator {
		global $wpdb;
		$after = null;
		do {
			list( $where, $args ) = $this->window( 'o', $from, $to, $after );
			$rows                 = $wpdb->get_results( // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- $where holds placeholders only.
				$wpdb->prepare(
					"SELECT o.id AS row_id, o.created_at AS recorded_at, o.order_id, o.operation_id, o.status, o.status_code,
						a.partner_operation_id, a.expected_amount, a.expected_currency, a.expected_wallet
					FROM %i o JOIN %i a ON a.id = o.attempt_id
					WHERE {$where} ORDER BY o.created_at, o.id LIMIT %d",
					array_merge( array( $wpdb->prefix . Tables::OPERATIONS, $wpdb->prefix . Tables::ATTEMPTS ), $args, array( $size ) )
				),
				ARRAY_A
			);
			$this->check_read( $rows );
			foreach ( $rows as $row ) {
				yield $this->typed( $row, 'operations', self::OPERATION );
			}
			$last  = end( $rows );
			$after = false === $last ? null : array( (string) $last['recorded_at'], (int) $last['row_id'] );
		} while ( count( $rows ) === $size );
	}

	/** @return \Generator<int, array<string, mixed>> Attempts without an operation row that belong in the books, in (created_at, id) order. */
	private function attempts( ?string $from, ?string $to, string $ended_before, int $size ): \Generator {
		global $wpdb;
		$after = null;
		do {
			list( $where, $args ) = $this->window( 'a', $from, $to, $after );
			$rows                 = $wpdb->get_results( // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- $where holds placeholders only.
				$wpdb->prepare(
					"SELECT a.id AS row_id, a.created_at AS recorded_at, a.order_id, COALESCE(a.operation_id, '') AS operation_id, a.status, a.status_code,
						a.partner_operation_id, a.expected_amount, a.expected_currency, a.expected_wallet
					FROM %i a
					WHERE {$where}
						AND NOT EXISTS ( SELECT 1 FROM %i o WHERE o.attempt_id = a.id )
						AND ( ( a.operation_id IS NOT NULL AND a.status_code <> %d )
							OR ( a.operation_id IS NULL AND a.signed_at IS NOT NULL AND ( a.retired_at IS NOT NULL OR a.created_at < %s ) ) )
					ORDER BY a.created_at, a.id LIMIT %d",
					array_merge( array( $wpdb->prefix . Tables::ATTEMPTS ), $args, array( $wpdb->prefix . Tables::OPERATIONS, Operation_Store::NO_CODE, $ended_before, $size ) )
				),
				ARRAY_A
			);
			$this->check_read( $rows );
			foreach ( $rows as $row ) {
				yield $this->typed( $row, 'attempts', '' === $row['operation_id'] ? self::ABANDONED : self::OPERATION );
			}
			$last  = end( $rows );
			$after = false === $last ? null : array( (string) $last['recorded_at'], (int) $last['row_id'] );
		} while ( count( $rows ) === $size );
	}

	/**
	 * The WHERE clause (placeholders only) and its arguments for rows of
	 * table alias $t recorded in [$from, $to) and after the row $after
	 * ([created_at, id], the last one read: keyset paging, so a page costs
	 * the same however deep it is).
	 *
	 * @param array{0: string, 1: int}|null $after
	 * @return array{0: string, 1: array<int, string|int>}
	 */
	private function window( string $t, ?string $from, ?string $to, ?array $after ): array {
		$where = array( '1 = 1' );
		$args  = array();
		if ( null !== $from ) {
			$where[] = "{$t}.created_at >= %s";
			$args[]  = $from;
		}
		if ( null !== $to ) {
			$where[] = "{$t}.created_at < %s";
			$args[]  = $to;
		}
		if ( null !== $after ) {
			$where[] = "( {$t}.created_at > %s OR ( {$t}.created_at = %s AND {$t}.id > %d ) )";
			array_push( $args, $after[0], $after[0], $after[1] );
		}
		return array( implode( ' AND ', $where ), $args );
	}

	/**
	 * @param mixed $rows What $wpdb->get_results() answered.
	 * @throws \RuntimeException When the database refused the query: the books are never cut short silently.
	 */
	private function check_read( $rows ): void {
		global $wpdb;
		if ( ! is_array( $rows ) || '' !== $wpdb->last_error ) {
			throw new \RuntimeException( 'The payments could not be read: ' . $wpdb->last_error );
		}
	}

	private function typed( array $row, string $source, string $kind ): array {
		$row['source']          = $source;
		$row['kind']            = $kind;
		$row['row_id']          = (int) $row['row_id'];
		$row['order_id']        = (int) $row['order_id'];
		$row['status_code']     = (int) $row['status_code'];
		$row['expected_amount'] = (int) $row['expected_amount'];
		$row['operation_id']    = (string) $row['operation_id'];
		return $row;
	}
}

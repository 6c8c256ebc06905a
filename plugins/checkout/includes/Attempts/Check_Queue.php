<?php
/**
 * The due-check queue: when reconciliation asks the service about each
 * attempt next, kept on the attempt's row ({prefix}card2crypto_attempts:
 * next_check_at, indexed; NULL: never). A batch claims due rows with one
 * UPDATE that writes its claim_token and a lease (claimed_until), so two
 * servers never take the same row; a retired attempt is never due.
 *
 * Built once (Plugin::build()) and given to the reconciler.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

defined( 'ABSPATH' ) || exit;

final class Check_Queue {

	/** When reconciliation asks about the attempt next (Unix time; null: never), its claim released. */
	public function set_next_check( int $attempt_id, ?int $when ): void {
		global $wpdb;
		$at = null === $when ? null : gmdate( 'Y-m-d H:i:s', $when );
		// NULLIF: prepare() has no NULL placeholder; '' is never a date.
		$wpdb->query( $wpdb->prepare( "UPDATE %i SET next_check_at = NULLIF(%s, ''), claim_token = NULL, claimed_until = NULL WHERE id = %d AND retired_at IS NULL", $this->table(), (string) $at, $attempt_id ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}

	/** Moves the attempt's next check to $when unless it is due sooner already (an old per-order action coming due). */
	public function check_by( int $attempt_id, int $when ): void {
		global $wpdb;
		$at = gmdate( 'Y-m-d H:i:s', $when );
		$wpdb->query( $wpdb->prepare( 'UPDATE %i SET next_check_at = %s WHERE id = %d AND retired_at IS NULL AND ( next_check_at IS NULL OR next_check_at > %s )', $this->table(), $at, $attempt_id, $at ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}

	/**
	 * No more checks of the order's attempts other than $attempt_id that were
	 * never signed for the buyer (the service cannot know them). One that was
	 * signed is still checked until it is paid, settled or retired: the
	 * buyer may still pay it in a tab left open.
	 */
	public function stop_checks_besides( int $order_id, int $attempt_id ): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'UPDATE %i SET next_check_at = NULL WHERE order_id = %d AND id <> %d AND next_check_at IS NOT NULL AND signed_at IS NULL', $this->table(), $order_id, $attempt_id ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
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
	public function claim_due( string $token, int $limit, int $now, int $lease ): array {
		global $wpdb;
		$at   = gmdate( 'Y-m-d H:i:s', $now );
		$done = $wpdb->query( // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
			$wpdb->prepare(
				'UPDATE %i SET claim_token = %s, claimed_until = %s WHERE next_check_at <= %s AND retired_at IS NULL AND ( claimed_until IS NULL OR claimed_until < %s ) ORDER BY next_check_at LIMIT %d',
				$this->table(),
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
			$this->claim_one_by_one( $token, $limit, $now, $lease );
		} elseif ( 0 === (int) $done ) {
			return array();
		}
		$ids = $wpdb->get_col( $wpdb->prepare( 'SELECT id FROM %i WHERE claim_token = %s ORDER BY next_check_at, id', $this->table(), $token ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		return array_map( 'intval', $ids ?: array() );
	}

	private function claim_one_by_one( string $token, int $limit, int $now, int $lease ): void {
		global $wpdb;
		$at  = gmdate( 'Y-m-d H:i:s', $now );
		$ids = $wpdb->get_col( $wpdb->prepare( 'SELECT id FROM %i WHERE next_check_at <= %s AND retired_at IS NULL AND ( claimed_until IS NULL OR claimed_until < %s ) ORDER BY next_check_at LIMIT %d', $this->table(), $at, $at, $limit ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		foreach ( $ids ?: array() as $id ) {
			$wpdb->query( $wpdb->prepare( 'UPDATE %i SET claim_token = %s, claimed_until = %s WHERE id = %d AND next_check_at <= %s AND retired_at IS NULL AND ( claimed_until IS NULL OR claimed_until < %s )', $this->table(), $token, gmdate( 'Y-m-d H:i:s', $now + $lease ), (int) $id, $at, $at ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		}
	}

	/** Gives back what a batch claimed and did not check (still due: the next batch takes it first). */
	public function release_claims( string $token ): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'UPDATE %i SET claim_token = NULL, claimed_until = NULL WHERE claim_token = %s', $this->table(), $token ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}

	/** The earliest next check of any attempt (Unix time), or null when none is planned. */
	public function earliest_check(): ?int {
		global $wpdb;
		$at = $wpdb->get_var( $wpdb->prepare( 'SELECT MIN(next_check_at) FROM %i WHERE retired_at IS NULL', $this->table() ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		return null === $at ? null : (int) strtotime( $at . ' UTC' );
	}

	private function table(): string {
		global $wpdb;
		return $wpdb->prefix . Tables::ATTEMPTS;
	}
}

<?php
/**
 * The automatic confirmation of an order that the service could not take
 * now (a 429 and its Retry-After, the store's own bucket keeping it back, a
 * 5xx, no answer in time): one row per order in the options table
 * (autoload off, read and written with SQL of our own, never cached) and one
 * Action Scheduler job (HOOK) that Confirm_Retry runs.
 *
 * The row is what every run claims first, by compare-and-swap (UPDATE ...
 * WHERE the value is still the one read), as Outage_Pay_Links claims its orders:
 * of two runs of one try, on one web server or two, one confirms and the
 * other does nothing. A claim left by a run that died is taken again after
 * CLAIM_TTL. A row whose job is gone (deleted by hand on the Scheduled
 * Actions screen, or lost) is found by the hourly sweep (orphans()) and its
 * job queued again, so no order waits on hold for a try that never comes.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Order;

use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Exception;

defined( 'ABSPATH' ) || exit;

final class Confirm_Queue {

	/** The Action Scheduler hook (arguments: order id, operation id, try) and its group. */
	const HOOK  = 'card2crypto_checkout_confirm_retry';
	const GROUP = 'card2crypto-checkout';

	/** The options row of an order's queued confirmation: this prefix and the order id. */
	const OPTION = 'card2crypto_checkout_confirm_retry_';

	/** Seconds before try N + 1 (the last one repeats), unless the service's Retry-After asks for longer. */
	const BACKOFF = array( 30, 120, 300, 900 );

	/** Seconds after the first failure after which the owner confirms by hand. */
	const GIVE_UP_AFTER = 3600;

	/** Seconds after which a run's claim is taken to be left by a run that died. */
	const CLAIM_TTL = 300;

	/** Seconds past its due time before a row without a job is taken as orphaned (a busy queue may run a try late). */
	const ORPHAN_AFTER = 600;

	/** The hourly WP-Cron event that sweeps the orphan rows (Confirm_Retry registers it). */
	const SWEEP_HOOK = 'card2crypto_checkout_confirm_sweep';

	/**
	 * Whether a failure to confirm is the service being busy or away for a
	 * while (429, 5xx, no answer) rather than a refusal of this confirmation.
	 */
	public function transient( \Throwable $e ): bool {
		if ( ! $e instanceof Partner_Api_Exception ) {
			return false;
		}
		if ( Partner_Api_Exception::NETWORK === $e->kind || Partner_Api_Exception::TIMEOUT === $e->kind ) {
			return true;
		}
		return Partner_Api_Exception::HTTP === $e->kind && ( 429 === $e->status || $e->status >= 500 );
	}

	/** The seconds before try $tries + 1: the back-off, or the service's Retry-After when longer. */
	public function delay( int $tries, ?int $retry_after ): int {
		$backoff = self::BACKOFF[ max( 0, min( $tries, count( self::BACKOFF ) - 1 ) ) ];
		return max( $backoff, null === $retry_after ? 0 : $retry_after );
	}

	/** The order's queued confirmation as stored (null: none). */
	public function read( int $order_id ): ?array {
		$raw = $this->raw( $order_id );
		$row = null === $raw ? null : json_decode( $raw, true );
		return is_array( $row ) ? $row : null;
	}

	/**
	 * Queues try $tries + 1 of the confirmation of $operation_id in $delay
	 * seconds: the row is made (first failure: answers false when another
	 * request queued one first) or, by the run holding $claim, replaced.
	 */
	public function queue( int $order_id, int $attempt_id, string $operation_id, int $tries, int $delay, int $first, ?string $claim = null ): bool {
		global $wpdb;
		$row  = (string) wp_json_encode(
			array(
				'operation' => $operation_id,
				'attempt'   => $attempt_id,
				'tries'     => $tries,
				'first'     => $first,
				'due'       => time() + $delay,
			)
		);
		$name = self::OPTION . $order_id;
		if ( null === $claim ) {
			$done = $wpdb->query( $wpdb->prepare( 'INSERT IGNORE INTO %i (option_name, option_value, autoload) VALUES (%s, %s, %s)', $wpdb->options, $name, $row, 'no' ) ); // phpcs:ignore WordPress.DB
		} else {
			$done = $wpdb->query( $wpdb->prepare( 'UPDATE %i SET option_value = %s WHERE option_name = %s AND option_value = %s', $wpdb->options, $row, $name, $claim ) ); // phpcs:ignore WordPress.DB
		}
		if ( ! is_int( $done ) || $done < 1 ) {
			return false;
		}
		if ( function_exists( 'as_schedule_single_action' ) ) {
			as_schedule_single_action( time() + $delay, self::HOOK, array( $order_id, $operation_id, $tries ), self::GROUP );
		} else {
			Log::warning( sprintf( 'Order %d: the confirmation could not be queued (no Action Scheduler).', $order_id ) );
		}
		return true;
	}

	/**
	 * Takes try $tries of the order's queued confirmation for this run: the
	 * row, still that try's, becomes a claim; answers the row read and the
	 * claim's text, or null when it is not that try's (a duplicate run, done,
	 * or another run holds it).
	 *
	 * @return array{row: array, claim: string}|null
	 */
	public function claim( int $order_id, string $operation_id, int $tries ): ?array {
		global $wpdb;
		$raw = $this->raw( $order_id );
		$row = null === $raw ? null : json_decode( $raw, true );
		if ( ! is_array( $row ) || ( $row['operation'] ?? '' ) !== $operation_id || (int) ( $row['tries'] ?? -1 ) !== $tries ) {
			return null;
		}
		if ( isset( $row['claimed'] ) && (int) $row['claimed'] > time() - self::CLAIM_TTL ) {
			return null;
		}
		$claim = (string) wp_json_encode( array_merge( $row, array( 'claimed' => time() ) ) );
		$done  = $wpdb->query( $wpdb->prepare( 'UPDATE %i SET option_value = %s WHERE option_name = %s AND option_value = %s', $wpdb->options, $claim, self::OPTION . $order_id, $raw ) ); // phpcs:ignore WordPress.DB
		return is_int( $done ) && $done > 0 ? array(
			'row'   => $row,
			'claim' => $claim,
		) : null;
	}

	/** The queued confirmation is over (confirmed, no longer needed, or handed to the owner): its row goes when still $claim. */
	public function done( int $order_id, string $claim ): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'DELETE FROM %i WHERE option_name = %s AND option_value = %s', $wpdb->options, self::OPTION . $order_id, $claim ) ); // phpcs:ignore WordPress.DB
	}

	/**
	 * The queued tries whose job is gone: rows due more than ORPHAN_AFTER
	 * seconds ago for which Action Scheduler holds no pending action.
	 *
	 * @return array<int, array{order: int, operation: string, tries: int}>
	 */
	public function orphans( int $now ): array {
		global $wpdb;
		if ( ! function_exists( 'as_has_scheduled_action' ) ) {
			return array();
		}
		$rows = $wpdb->get_results( $wpdb->prepare( 'SELECT option_name, option_value FROM %i WHERE option_name LIKE %s', $wpdb->options, $wpdb->esc_like( self::OPTION ) . '%' ), ARRAY_A ); // phpcs:ignore WordPress.DB
		$lost = array();
		foreach ( is_array( $rows ) ? $rows : array() as $raw ) {
			$order_id = (int) substr( (string) $raw['option_name'], strlen( self::OPTION ) );
			$row      = json_decode( (string) $raw['option_value'], true );
			if ( $order_id < 1 || ! is_array( $row ) || ! isset( $row['operation'], $row['tries'], $row['due'] ) || (int) $row['due'] > $now - self::ORPHAN_AFTER ) {
				continue;
			}
			$args = array( $order_id, (string) $row['operation'], (int) $row['tries'] );
			if ( ! as_has_scheduled_action( self::HOOK, $args, self::GROUP ) ) {
				$lost[] = array(
					'order'     => $order_id,
					'operation' => (string) $row['operation'],
					'tries'     => (int) $row['tries'],
				);
			}
		}
		return $lost;
	}

	/** Queues the job of each orphan row again, due now (its run claims the row as any try does); how many. */
	public function sweep( ?int $now = null ): int {
		$now  = $now ?? time();
		$lost = $this->orphans( $now );
		foreach ( $lost as $orphan ) {
			as_schedule_single_action( $now, self::HOOK, array( $orphan['order'], $orphan['operation'], $orphan['tries'] ), self::GROUP );
			Log::warning( sprintf( 'Order %d: the queued confirmation had no job (removed from the Scheduled Actions?); it was queued again.', $orphan['order'] ) );
		}
		return count( $lost );
	}

	private function raw( int $order_id ): ?string {
		global $wpdb;
		$raw = $wpdb->get_var( $wpdb->prepare( 'SELECT option_value FROM %i WHERE option_name = %s', $wpdb->options, self::OPTION . $order_id ) ); // phpcs:ignore WordPress.DB
		return null === $raw ? null : (string) $raw;
	}
}

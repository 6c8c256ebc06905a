<?php
/**
 * The payment attempts' repository: one row per payment attempt of an order
 * in {prefix}card2crypto_attempts (partner_operation_id UNIQUE), read as
 * Attempt values (made from their rows here only). Its status pair and
 * operation id sum up the attempt's operations (Operation_Store::sum_up());
 * when the service is asked about it next is the Check_Queue's; retired_at
 * marks an attempt the service never heard of, no longer asked about;
 * signed_at one sent to the buyer (a landing URL or widget settings).
 *
 * Built once (Plugin::build()) and given to the classes that read or write
 * attempts, the way WooCommerce's order data stores are.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Rules\Status_Flow;

defined( 'ABSPATH' ) || exit;

final class Attempt_Store {

	/** @var Order_Attempts */
	private $order_attempts;

	public function __construct( Order_Attempts $order_attempts ) {
		$this->order_attempts = $order_attempts;
	}

	/**
	 * Records a new attempt with what the order asks for (amount in minor
	 * units, currency, store wallet at that moment). The id must be fresh
	 * (random); returns the row.
	 */
	public function create_attempt( int $order_id, string $partner_operation_id, int $amount, string $currency, string $wallet ): Attempt {
		global $wpdb;
		$now = current_time( 'mysql', true );
		$wpdb->insert( // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery
			$this->table(),
			array(
				'order_id'             => $order_id,
				'partner_operation_id' => $partner_operation_id,
				'expected_amount'      => $amount,
				'expected_currency'    => $currency,
				'expected_wallet'      => $wallet,
				'status'               => '',
				'status_code'          => Status_Flow::NO_CODE,
				'version'              => 0,
				'mismatch'             => 0,
				'checks'               => 0,
				'created_at'           => $now,
				'updated_at'           => $now,
			),
			array( '%d', '%s', '%d', '%s', '%s', '%s', '%d', '%d', '%d', '%d', '%s', '%s' )
		);
		$attempt = $this->attempt_by_partner_id( $partner_operation_id );
		if ( null === $attempt ) {
			throw new \RuntimeException( 'The payment attempt could not be recorded: ' . $wpdb->last_error );
		}
		return $attempt;
	}

	public function attempt_by_partner_id( string $partner_operation_id ): ?Attempt {
		global $wpdb;
		$row = $wpdb->get_row( $wpdb->prepare( 'SELECT * FROM %i WHERE partner_operation_id = %s', $this->table(), $partner_operation_id ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		return $row ? Attempt::from_row( $row ) : null;
	}

	/** The attempt an operation was recorded for (any of its operations, not only the one that sums it up). */
	public function attempt_by_operation_id( string $operation_id ): ?Attempt {
		global $wpdb;
		$attempt_id = $wpdb->get_var( $wpdb->prepare( 'SELECT attempt_id FROM %i WHERE operation_id = %s ORDER BY id DESC LIMIT 1', $wpdb->prefix . Tables::OPERATIONS, $operation_id ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		if ( null !== $attempt_id ) {
			return $this->attempt( (int) $attempt_id );
		}
		$row = $wpdb->get_row( $wpdb->prepare( 'SELECT * FROM %i WHERE operation_id = %s ORDER BY id DESC LIMIT 1', $this->table(), $operation_id ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		return $row ? Attempt::from_row( $row ) : null;
	}

	public function attempt( int $id ): ?Attempt {
		global $wpdb;
		$row = $wpdb->get_row( $wpdb->prepare( 'SELECT * FROM %i WHERE id = %d', $this->table(), $id ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		return $row ? Attempt::from_row( $row ) : null;
	}

	/** The order's current attempt (the one its meta names), or null. */
	public function current_attempt( \WC_Order $order ): ?Attempt {
		$id = (string) $order->get_meta( Keys::META_ATTEMPT );
		return '' === $id ? null : $this->attempt_by_partner_id( $id );
	}

	/** @return Attempt[] Every attempt of an order, newest first. */
	public function attempts_of_order( int $order_id ): array {
		global $wpdb;
		$rows = $wpdb->get_results( $wpdb->prepare( 'SELECT * FROM %i WHERE order_id = %d ORDER BY id DESC', $this->table(), $order_id ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		return array_map( array( Attempt::class, 'from_row' ), $rows ?: array() );
	}

	/** @return Attempt[] The order's attempts that ask for $wallet, newest first. */
	public function attempts_of_order_to( int $order_id, string $wallet ): array {
		return array_values(
			array_filter(
				$this->attempts_of_order( $order_id ),
				static function ( Attempt $attempt ) use ( $wallet ): bool {
					return $attempt->wallet() === $wallet;
				}
			)
		);
	}

	/** Any attempt of the order with money moving (a new attempt could pay the order twice). */
	public function money_moving( \WC_Order $order ): bool {
		foreach ( $this->attempts_of_order( $order->get_id() ) as $attempt ) {
			if ( $attempt->in_flight() ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether WooCommerce's hold-stock timer must leave the order alone: money
	 * is moving, or the current attempt started less than payment_window()
	 * ago and has not ended (no news yet, or "created" 1: the buyer is still
	 * in the widget, about to enter the card).
	 */
	public function payment_in_progress( \WC_Order $order ): bool {
		if ( $this->money_moving( $order ) ) {
			return true;
		}
		$current = $this->current_attempt( $order );
		if ( null === $current || $current->is_final() ) {
			return false;
		}
		$now = time();
		return $now < $current->payment_started( null, $now ) + $this->order_attempts->payment_window();
	}

	/** The id of the order's newest attempt, 0 when it has none (read from the database, never from a cache). */
	public function newest_attempt_id( int $order_id ): int {
		global $wpdb;
		return (int) $wpdb->get_var( $wpdb->prepare( 'SELECT MAX(id) FROM %i WHERE order_id = %d', $this->table(), $order_id ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}

	/** How many attempts the order started since $since (UTC, MySQL format); one never sent to the buyer (mark_sent()) does not count. */
	public function attempts_started_since( int $order_id, string $since ): int {
		global $wpdb;
		return (int) $wpdb->get_var( $wpdb->prepare( 'SELECT COUNT(*) FROM %i WHERE order_id = %d AND created_at >= %s AND unsent = 0', $this->table(), $order_id, $since ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}

	/**
	 * Whether the attempt was sent to the buyer: an attempt whose rate could
	 * not be fixed was not (it does not count toward the hourly cap); the
	 * next time it is sent it counts again.
	 */
	public function mark_sent( Attempt $attempt, bool $sent ): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'UPDATE %i SET unsent = %d WHERE id = %d AND unsent <> %d', $this->table(), $sent ? 0 : 1, $attempt->id(), $sent ? 0 : 1 ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}

	/**
	 * Records that the attempt was signed for the buyer (a landing URL or
	 * widget settings): from then on the buyer may reach the service with it,
	 * so its address is never freed while it could still be paid.
	 */
	public function mark_signed( int $attempt_id ): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'UPDATE %i SET signed_at = %s WHERE id = %d AND signed_at IS NULL', $this->table(), current_time( 'mysql', true ), $attempt_id ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}

	/**
	 * Gives an attempt created without an address (a new address per order,
	 * taken when it is first signed) its address. Only an attempt without one
	 * is changed: true when this call gave it.
	 *
	 * @throws \RuntimeException When the database refuses the statement.
	 */
	public function give_wallet( int $attempt_id, string $wallet ): bool {
		global $wpdb;
		$affected = $wpdb->query( $wpdb->prepare( "UPDATE %i SET expected_wallet = %s WHERE id = %d AND expected_wallet = ''", $this->table(), $wallet, $attempt_id ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		if ( false === $affected ) {
			throw new \RuntimeException( 'The payment\'s address could not be recorded: ' . $wpdb->last_error );
		}
		return 1 === (int) $affected;
	}

	public function flag_mismatch( Attempt $attempt ): void {
		global $wpdb;
		$wpdb->update( $this->table(), array( 'mismatch' => 1 ), array( 'id' => $attempt->id() ), array( '%d' ), array( '%d' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}

	public function count_check( Attempt $attempt ): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'UPDATE %i SET checks = checks + 1 WHERE id = %d', $this->table(), $attempt->id() ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
	}

	/**
	 * Retires the attempt: never asked about again. True for the one caller
	 * that retired it (a second retirement changes nothing).
	 */
	public function retire( int $attempt_id ): bool {
		global $wpdb;
		$affected = $wpdb->query( $wpdb->prepare( 'UPDATE %i SET retired_at = %s, next_check_at = NULL, claim_token = NULL, claimed_until = NULL WHERE id = %d AND retired_at IS NULL', $this->table(), current_time( 'mysql', true ), $attempt_id ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching
		return 1 === (int) $affected;
	}

	private function table(): string {
		global $wpdb;
		return $wpdb->prefix . Tables::ATTEMPTS;
	}
}

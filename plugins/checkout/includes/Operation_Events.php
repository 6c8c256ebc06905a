<?php
/**
 * Applies a verified operation (from a callback, reconciliation or an admin
 * refresh) to its order: claim the event, decide with the status model,
 * move the attempt by compare-and-swap, then change the order.
 *
 * Mapping (README "Order states", docs/decisions.md "Checkout: order mapping"):
 * - pending 2 (funds debited) and later in-progress steps: on-hold, note;
 * - awaiting confirm 8: on-hold, owner e-mailed (or confirmed automatically
 *   when allowed and amount, currency and wallet match);
 * - success 6 / 0: payment_complete() with the transaction id, explorer link
 *   and status page, only when everything matches the order;
 * - declined 101..106: failed, with the reason;
 * - anything that does not match the order: on-hold with a note, never completed.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

use Card2Crypto\Checkout\Shared\Api\Operation;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Exception;

defined( 'ABSPATH' ) || exit;

final class Operation_Events {

	const UNKNOWN   = 'unknown';
	const DUPLICATE = 'duplicate';
	const APPLIED   = 'applied';
	const IGNORED   = 'ignored';
	const REVIEW    = 'review';

	/** Order meta: the last applied operation data (for display). */
	const META_OPERATION = '_card2crypto_operation';

	/** Order meta: partner_operation_id of the attempt that paid the order. */
	const META_PAID_BY = '_card2crypto_paid_by';

	/**
	 * @param string $source callback | reconcile | refresh
	 * @return string One of the constants.
	 * @throws \Throwable When the order could not be updated; the event is released so a re-delivery is processed again.
	 */
	public static function process( Operation $operation, string $source ): string {
		$attempt = self::find_attempt( $operation );
		if ( null === $attempt ) {
			Log::info( sprintf( 'Operation %s (partner id %s) is not an order of this store; acknowledged, nothing changed.', $operation->id(), (string) $operation->partner_operation_id() ) );
			return self::UNKNOWN;
		}
		$order = wc_get_order( $attempt['order_id'] );
		if ( ! $order instanceof \WC_Order ) {
			Log::warning( sprintf( 'Operation %s belongs to order %d, which no longer exists.', $operation->id(), $attempt['order_id'] ) );
			return self::UNKNOWN;
		}

		$status = $operation->status();
		$code   = self::int_code( $operation->status_code() );
		if ( ! Operation_Store::claim_event( $attempt, $operation->id(), $status, $code, $source ) ) {
			Log::debug( sprintf( 'Order %d: %s %d of operation %s already received (%s).', $order->get_id(), $status, $code, $operation->id(), $source ) );
			return self::DUPLICATE;
		}
		try {
			$outcome = self::apply_claimed( $order, $attempt, $operation, $status, $code, $source );
		} catch ( \Throwable $e ) {
			Operation_Store::release_event( $attempt, $operation->id(), $status, $code );
			throw $e;
		}
		Operation_Store::set_event_outcome( $attempt, $operation->id(), $status, $code, $outcome );
		return $outcome;
	}

	private static function find_attempt( Operation $operation ): ?array {
		$partner_id = $operation->partner_operation_id();
		if ( null !== $partner_id && '' !== $partner_id ) {
			return Operation_Store::attempt_by_partner_id( $partner_id );
		}
		return Operation_Store::attempt_by_operation_id( $operation->id() );
	}

	/** status_code as an int (a non-integral number can never be a known code). */
	private static function int_code( $code ): int {
		return is_int( $code ) ? $code : ( is_float( $code ) && floor( $code ) === $code && abs( $code ) < PHP_INT_MAX ? (int) $code : PHP_INT_MIN );
	}

	private static function apply_claimed( \WC_Order $order, array $attempt, Operation $operation, string $status, int $code, string $source ): string {
		$via = self::source_label( $source );

		// One attempt, one operation: a second operation under the same id is never applied.
		if ( null !== $attempt['operation_id'] && '' !== $attempt['operation_id'] && $attempt['operation_id'] !== $operation->id() ) {
			$message = sprintf(
				/* translators: 1: operation id, 2: status, 3: status code, 4: operation id already bound, 5: source */
				__( 'Card2Crypto: another operation (%1$s) reported "%2$s" %3$d for this payment, which belongs to operation %4$s (%5$s). It was not applied; check it in the partner portal.', 'card2crypto-checkout' ),
				$operation->id(),
				$status,
				$code,
				$attempt['operation_id'],
				$via
			);
			$order->add_order_note( $message );
			Owner_Notice::send( $order, __( 'A second card payment operation for one order', 'card2crypto-checkout' ), $message );
			return self::REVIEW;
		}

		for ( $try = 0; $try < 10; $try++ ) {
			$decision = Status_Flow::decide( Operation_Store::state_of( $attempt ), array( 'status' => $status, 'status_code' => $code ) );
			if ( 'apply' !== $decision['action'] ) {
				return self::not_applied( $order, $attempt, $decision, $status, $code, $via );
			}
			if ( Operation_Store::swap_state( $attempt, $operation->id(), $status, $code ) ) {
				self::apply_to_order( $order, $attempt, $operation, $status, $code, $via );
				return self::APPLIED;
			}
			// Another event moved the attempt meanwhile: decide again against its state.
			$attempt = Operation_Store::attempt( (int) $attempt['id'] );
		}
		throw new \RuntimeException( 'The payment state kept changing while this event was applied.' );
	}

	private static function not_applied( \WC_Order $order, array $attempt, array $decision, string $status, int $code, string $via ): string {
		$current = Operation_Store::state_of( $attempt );
		if ( 'review' === $decision['action'] ) {
			$message = 'conflict' === $decision['why']
				? sprintf(
					/* translators: 1: new status, 2: code, 3: stored status, 4: stored code, 5: source */
					__( 'Card2Crypto: the service reported "%1$s" %2$d after "%3$s" %4$d (%5$s). Contradicting outcomes: nothing was changed automatically; check the operation in the partner portal.', 'card2crypto-checkout' ),
					$status,
					$code,
					$current['status'] ?? '',
					$current['status_code'] ?? 0,
					$via
				)
				: sprintf(
					/* translators: 1: status, 2: code, 3: source */
					__( 'Card2Crypto: the service reported an unknown status "%1$s" %2$d (%3$s); nothing was changed automatically.', 'card2crypto-checkout' ),
					$status,
					$code,
					$via
				);
			$order->add_order_note( $message );
			Owner_Notice::send( $order, __( 'A card payment needs your review', 'card2crypto-checkout' ), $message );
			return self::REVIEW;
		}
		Log::info( sprintf( 'Order %d: %s %d ignored (%s) after %s %d (%s).', $order->get_id(), $status, $code, $decision['why'], $current['status'] ?? '-', $current['status_code'] ?? -1, $via ) );
		return self::IGNORED;
	}

	private static function apply_to_order( \WC_Order $order, array $attempt, Operation $operation, string $status, int $code, string $via ): void {
		self::store_operation_meta( $order, $operation );
		$step     = Status_Flow::find_step( $status, $code );
		$expected = Operation_Store::expected_of( $attempt );
		$match    = Payment_Match::compare(
			$expected,
			array(
				'amount'      => $operation->from_amount(),
				'currency'    => $operation->from_currency(),
				'wallet'      => $operation->to_address(),
				'to_currency' => $operation->to_currency(),
			)
		);
		$mismatch = ! $match['ok'] || 1 === $attempt['mismatch'];
		if ( ! $match['ok'] ) {
			Operation_Store::flag_mismatch( $attempt );
		}
		$label = sprintf( '"%s" %d (%s)', $status, $code, $step['meaning'] );

		$is_current = (string) $order->get_meta( Payments::META_ATTEMPT ) === $attempt['partner_operation_id'];
		if ( Status_Flow::PHASE_FAILED === $step['phase'] ) {
			if ( ! $is_current ) {
				/* translators: 1: status and meaning, 2: source */
				$order->add_order_note( sprintf( __( 'Card2Crypto: an earlier payment attempt ended: %1$s; %2$s. The newer attempt is not affected.', 'card2crypto-checkout' ), $label, $via ) );
				return;
			}
			$note = sprintf(
				/* translators: 1: status and meaning, 2: source */
				__( 'Card2Crypto: payment declined: %1$s; %2$s. The buyer can pay again from the order page.', 'card2crypto-checkout' ),
				$label,
				$via
			);
			if ( $order->is_paid() ) {
				$order->add_order_note( $note );
			} else {
				$order->update_status( 'failed', $note );
			}
			return;
		}

		if ( $mismatch ) {
			$problems = $match['problems'] ? implode( '; ', $match['problems'] ) : __( 'an earlier event of this payment did not match the order', 'card2crypto-checkout' );
			$note     = sprintf(
				/* translators: 1: status, 2: problems, 3: source */
				__( 'Card2Crypto: %1$s does NOT match this order: %2$s (%3$s). The order is on hold and will not be completed automatically.', 'card2crypto-checkout' ),
				$label,
				$problems,
				$via
			);
			self::hold( $order, $note );
			Owner_Notice::send( $order, __( 'A card payment does not match its order', 'card2crypto-checkout' ), $note );
			return;
		}

		if ( Status_Flow::PHASE_SUCCEEDED === $step['phase'] ) {
			if ( $order->is_paid() ) {
				$paid_by = (string) $order->get_meta( self::META_PAID_BY );
				if ( '' !== $paid_by && $paid_by !== $attempt['partner_operation_id'] ) {
					$note = sprintf(
						/* translators: 1: status, 2: operation id, 3: source */
						__( 'Card2Crypto: %1$s for operation %2$s, but this order was already paid by another payment (%3$s). The buyer paid twice: refund one of them.', 'card2crypto-checkout' ),
						$label,
						$operation->id(),
						$via
					);
					$order->add_order_note( $note );
					Owner_Notice::send( $order, __( 'An order was paid twice', 'card2crypto-checkout' ), $note );
					return;
				}
				$order->add_order_note( sprintf( /* translators: 1: status, 2: source */ __( 'Card2Crypto: %1$s (%2$s).', 'card2crypto-checkout' ), $label, $via ) );
				return;
			}
			if ( ! $match['complete'] ) {
				$note = sprintf(
					/* translators: 1: status, 2: missing members, 3: source */
					__( 'Card2Crypto: %1$s, but the operation does not say %2$s, so it cannot be checked against the order (%3$s). The order is on hold; refresh it from the service or check the partner portal.', 'card2crypto-checkout' ),
					$label,
					implode( ', ', $match['missing'] ),
					$via
				);
				self::hold( $order, $note );
				Owner_Notice::send( $order, __( 'A card payment needs your review', 'card2crypto-checkout' ), $note );
				return;
			}
			$tx_id = (string) $operation->tx_id();
			$order->update_meta_data( self::META_PAID_BY, $attempt['partner_operation_id'] );
			$order->save();
			$order->payment_complete( $tx_id );
			$order->add_order_note( self::success_note( $operation, $label, $via ) );
			return;
		}

		if ( Status_Flow::PHASE_NEEDS_ACTION === $step['phase'] ) {
			self::awaiting_confirmation( $order, $attempt, $operation, $label, $match, $via );
			return;
		}

		// In progress. Code 1 (created) tells nothing about money yet.
		$note = sprintf( /* translators: 1: status, 2: source */ __( 'Card2Crypto: %1$s (%2$s).', 'card2crypto-checkout' ), $label, $via );
		if ( $code >= 2 && ! $order->is_paid() ) {
			self::hold( $order, $note );
		} else {
			$order->add_order_note( $note );
		}
	}

	private static function awaiting_confirmation( \WC_Order $order, array $attempt, Operation $operation, string $label, array $match, string $via ): void {
		$config     = Config::load();
		$is_current = (string) $order->get_meta( Payments::META_ATTEMPT ) === $attempt['partner_operation_id'];
		if ( $config->auto_confirm() && $match['complete'] && $is_current && ! $order->is_paid() ) {
			try {
				$config->api_client()->confirm( $operation->id(), $attempt['partner_operation_id'] );
				self::hold(
					$order,
					sprintf(
						/* translators: 1: status, 2: source */
						__( 'Card2Crypto: %1$s (%2$s). Amount, currency and wallet match the order: confirmed automatically.', 'card2crypto-checkout' ),
						$label,
						$via
					)
				);
				return;
			} catch ( Partner_Api_Exception $e ) {
				$failure = $e->getMessage();
			} catch ( \InvalidArgumentException $e ) {
				$failure = $e->getMessage();
			}
			$note = sprintf(
				/* translators: 1: status, 2: error, 3: source */
				__( 'Card2Crypto: %1$s (%2$s). Automatic confirmation failed (%3$s): confirm or cancel it on this order.', 'card2crypto-checkout' ),
				$label,
				$via,
				$failure
			);
		} else {
			$why  = $config->auto_confirm()
				? __( 'it cannot be checked against the order', 'card2crypto-checkout' )
				: __( 'automatic confirmation is off', 'card2crypto-checkout' );
			$note = sprintf(
				/* translators: 1: status, 2: source, 3: reason */
				__( 'Card2Crypto: %1$s (%2$s). The operation waits for your confirmation (%3$s): confirm or cancel it on this order.', 'card2crypto-checkout' ),
				$label,
				$via,
				$why
			);
		}
		self::hold( $order, $note );
		Owner_Notice::send( $order, __( 'A card payment waits for your confirmation', 'card2crypto-checkout' ), $note );
	}

	private static function hold( \WC_Order $order, string $note ): void {
		if ( $order->is_paid() || $order->has_status( 'on-hold' ) ) {
			$order->add_order_note( $note );
			return;
		}
		$order->update_status( 'on-hold', $note );
	}

	private static function success_note( Operation $operation, string $label, string $via ): string {
		$parts = array(
			sprintf( /* translators: 1: status, 2: source */ __( 'Card2Crypto: %1$s (%2$s). Payment complete.', 'card2crypto-checkout' ), $label, $via ),
		);
		if ( null !== $operation->tx_id() ) {
			/* translators: %s: blockchain transaction id */
			$parts[] = sprintf( __( 'BTC transaction: %s.', 'card2crypto-checkout' ), $operation->tx_id() );
		}
		if ( null !== $operation->explorer_url() ) {
			/* translators: %s: URL */
			$parts[] = sprintf( __( 'Explorer: %s', 'card2crypto-checkout' ), esc_url_raw( $operation->explorer_url() ) );
		}
		if ( null !== $operation->status_url() ) {
			/* translators: %s: URL */
			$parts[] = sprintf( __( 'Status page: %s', 'card2crypto-checkout' ), esc_url_raw( $operation->status_url() ) );
		}
		return implode( ' ', $parts );
	}

	/** Keeps what the order screens show, from the latest applied event. */
	private static function store_operation_meta( \WC_Order $order, Operation $operation ): void {
		$data     = $operation->to_array();
		$previous = $order->get_meta( self::META_OPERATION );
		$previous = is_array( $previous ) ? $previous : array();
		$fresh    = array_filter(
			array(
				'id'            => $operation->id(),
				'status'        => $operation->status(),
				'status_code'   => self::int_code( $operation->status_code() ),
				'from_amount'   => $operation->from_amount(),
				'from_currency' => $operation->from_currency(),
				'to_amount'     => $operation->to_amount(),
				'to_currency'   => $operation->to_currency(),
				'wallet'        => $operation->to_address(),
				'tx_id'         => $operation->tx_id(),
				'explorer_url'  => $operation->explorer_url(),
				'status_url'    => $operation->status_url(),
				'card_country'  => $data['operation_info']['from']['payment_method_info']['country']['name'] ?? null,
				'card_type'     => $data['operation_info']['from']['payment_method_info']['type'] ?? null,
				'card_number'   => $data['operation_info']['from']['payment_method_info']['number'] ?? null,
			),
			static function ( $value ): bool {
				return null !== $value;
			}
		);
		$order->update_meta_data( self::META_OPERATION, array_merge( $previous, $fresh, array( 'updated_at' => time() ) ) );
		$order->save();
	}

	private static function source_label( string $source ): string {
		switch ( $source ) {
			case 'callback':
				return __( 'callback', 'card2crypto-checkout' );
			case 'reconcile':
				return __( 'found by reconciliation', 'card2crypto-checkout' );
			default:
				return __( 'refreshed from the service', 'card2crypto-checkout' );
		}
	}
}

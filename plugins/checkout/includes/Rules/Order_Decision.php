<?php
/**
 * What one verified operation event does to its order: a pure function of
 * the event and the facts about the attempt and the order, with no WordPress
 * or WooCommerce call, so every branch is unit-tested without them
 * (test/order-decision.test.ts). Order_Actions performs the answer on the
 * WC_Order; Operation_Events claims the event, moves the attempt and calls
 * both.
 *
 * Mapping (README "Order states", docs/decisions.md "Checkout: order mapping"):
 * pending 2 and later in-progress steps hold the order; pending 1 is a note;
 * awaiting confirm 8 holds and asks the owner (or is confirmed automatically
 * when allowed and everything matches); success 6 / 0 completes the order only
 * when amount, currency, wallet and asset match what the attempt asked for and
 * the order still asks for what the attempt was started with; declined
 * 101..106 fails the current attempt's order unless another operation of the
 * order may still be paid. One attempt may have several operations (the buyer
 * tried again inside the widget): each is decided against its own state, a
 * confirmed, matching success of any of them pays the order, and a second
 * success is "paid twice". Anything that does not match is held and never
 * completed.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Order_Decision {

	/** Outcomes, recorded with the event. */
	const APPLIED = 'applied';
	const IGNORED = 'ignored';
	const REVIEW  = 'review';

	/** What to do to the order. */
	const ORDER_NONE     = 'none';
	const ORDER_NOTE     = 'note';
	const ORDER_HOLD     = 'hold';
	const ORDER_FAIL     = 'fail';
	const ORDER_COMPLETE = 'complete';
	/** The buyer started a new operation of a failed order's payment: the order waits for payment again. */
	const ORDER_PENDING = 'pending';
	/** A decline inside the embedded widget, where the buyer may still try again: a note, and the order waits for that outcome. */
	const ORDER_WAIT = 'wait';
	/** Confirm the operation at the service, then hold (Order_Actions notes a failure to confirm). */
	const ORDER_CONFIRM = 'confirm';

	/**
	 * @param array $facts {
	 *     @type array|null $state    The operation's last applied pair (status, status_code), null when none yet.
	 *     @type array      $event    status (string), status_code (int; PHP_INT_MIN when not an integer), operation_id (string).
	 *     @type array      $attempt  mismatch (bool, an earlier event of the attempt did not match), current (bool, the order's
	 *                                current attempt), partner_operation_id (string, the attempt's own id, compared with the
	 *                                order's paid_by for orders paid before operations were recorded).
	 *     @type bool       $others_live Another operation of the order (of this attempt or another) may still be paid, or was.
	 *     @type bool       $widget_retry The attempt runs in the embedded widget, where the buyer may try again after a decline (optional).
	 *     @type array      $expected What the attempt asked for: amount (int, minor units), currency, wallet.
	 *     @type array      $received What the operation says: amount, currency, wallet, to_currency (each may be null).
	 *     @type array      $order    paid (bool), failed (bool, its status is "failed"), paid_by (string, partner_operation_id
	 *                                that paid it, '' when none), paid_by_operation (string, the operation id that paid it, '' when
	 *                                none or not recorded), amount (?int, the order's total now in minor units; null when it cannot be expressed), currency (string).
	 *     @type bool       $auto_confirm The owner allows automatic confirmation.
	 *     @type int        $address_elsewhere With a new address per order: the other order the attempt's address now
	 *                                belongs to (it was freed and given again), 0 when none (optional).
	 * }
	 * @return Decision advance: move the attempt to the event's pair; reason: which note (Order_Actions words it);
	 *         notify: e-mail the owner; flag_mismatch: mark the attempt as not matching for good.
	 */
	public static function decide( array $facts ): Decision {
		$event   = $facts['event'];
		$about   = $facts['attempt'];

		$transition = Status_Flow::decide( $facts['state'], array( 'status' => $event['status'], 'status_code' => $event['status_code'] ) );
		if ( 'review' === $transition['action'] ) {
			return new Decision( self::REVIEW, false, self::ORDER_NOTE, 'conflict' === $transition['why'] ? Decision::CONFLICT : Decision::UNKNOWN_PAIR, true, false, $transition['why'] );
		}
		if ( 'apply' !== $transition['action'] ) {
			return new Decision( self::IGNORED, false, self::ORDER_NONE, Decision::IGNORED, false, false, $transition['why'] ?? '' );
		}

		$step  = Status_Flow::find_step( $event['status'], $event['status_code'] );
		$order = $facts['order'];
		$paid  = (bool) $order['paid'];

		if ( Status_Flow::PHASE_FAILED === $step['phase'] ) {
			if ( ! $about['current'] ) {
				return new Decision( self::APPLIED, true, self::ORDER_NOTE, Decision::EARLIER_ATTEMPT_DECLINED );
			}
			if ( ! $paid && ! empty( $facts['others_live'] ) ) {
				// The buyer tried again (another operation is under way or paid): this ending does not fail the order.
				return new Decision( self::APPLIED, true, self::ORDER_NOTE, Decision::DECLINED_OTHER_LIVE );
			}
			if ( ! $paid && ! empty( $facts['widget_retry'] ) ) {
				// Inside the widget the buyer may try again under this payment: the order is not failed (no "failed" mails)
				// until that outcome is known (Widget_Retry). Each decline is noted for the owner.
				return new Decision( self::APPLIED, true, self::ORDER_WAIT, Decision::DECLINED_MAY_RETRY );
			}
			return $paid
				? new Decision( self::APPLIED, true, self::ORDER_NOTE, Decision::DECLINED_AFTER_PAID )
				: new Decision( self::APPLIED, true, self::ORDER_FAIL, Decision::DECLINED );
		}

		$match    = Payment_Match::compare( $facts['expected'], $facts['received'] );
		$problems = $match['problems'];
		$changed  = self::order_changed( $facts['expected'], $order );
		if ( null !== $changed ) {
			$problems[] = $changed;
		}
		$elsewhere = (int) ( $facts['address_elsewhere'] ?? 0 );
		if ( 0 !== $elsewhere ) {
			// Each address on chain belongs to one order: money to an address given to another order is never this order's alone.
			$problems[] = sprintf( 'wallet: the address %s now belongs to order %d', (string) $facts['expected']['wallet'], $elsewhere );
		}
		$flag = array() !== $problems;
		if ( $flag || $about['mismatch'] ) {
			return new Decision( self::APPLIED, true, self::ORDER_HOLD, Decision::MISMATCH, true, $flag, '', $problems );
		}

		if ( Status_Flow::PHASE_SUCCEEDED === $step['phase'] ) {
			if ( $paid ) {
				return self::paid_by_another( $order, $about, $event )
					? new Decision( self::APPLIED, true, self::ORDER_NOTE, Decision::PAID_TWICE, true )
					: new Decision( self::APPLIED, true, self::ORDER_NOTE, Decision::ALREADY_PAID );
			}
			if ( ! $match['complete'] ) {
				return new Decision( self::APPLIED, true, self::ORDER_HOLD, Decision::INCOMPLETE, true, false, '', array(), $match['missing'] );
			}
			return new Decision( self::APPLIED, true, self::ORDER_COMPLETE, Decision::COMPLETE );
		}

		if ( Status_Flow::PHASE_NEEDS_ACTION === $step['phase'] ) {
			if ( ! $facts['auto_confirm'] ) {
				return new Decision( self::APPLIED, true, self::ORDER_HOLD, Decision::AWAIT_CONFIRMATION, true, false, Decision::WHY_AUTO_CONFIRM_OFF );
			}
			if ( $match['complete'] && $about['current'] && ! $paid ) {
				return new Decision( self::APPLIED, true, self::ORDER_CONFIRM, Decision::CONFIRM );
			}
			return new Decision( self::APPLIED, true, self::ORDER_HOLD, Decision::AWAIT_CONFIRMATION, true, false, 'unchecked', array(), $match['missing'] );
		}

		// In progress. Code 1 (created) tells nothing about money yet; after a decline it means the buyer tries again.
		if ( 1 === $event['status_code'] && ! $paid && ! empty( $order['failed'] ) && $about['current'] ) {
			return new Decision( self::APPLIED, true, self::ORDER_PENDING, Decision::RETRIED );
		}
		return $event['status_code'] >= 2 && ! $paid
			? new Decision( self::APPLIED, true, self::ORDER_HOLD, Decision::PROGRESS )
			: new Decision( self::APPLIED, true, self::ORDER_NOTE, Decision::PROGRESS );
	}

	/**
	 * Whether a paid order was paid by another operation than the event's:
	 * the operation that paid it when recorded, else (orders paid before
	 * operations were recorded) another attempt.
	 */
	private static function paid_by_another( array $order, array $about, array $event ): bool {
		$operation = (string) ( $order['paid_by_operation'] ?? '' );
		if ( '' !== $operation ) {
			return $operation !== $event['operation_id'];
		}
		$paid_by = (string) ( $order['paid_by'] ?? '' );
		return '' !== $paid_by && $paid_by !== $about['partner_operation_id'];
	}

	/**
	 * A problem when the order no longer asks for what the attempt was
	 * started with (edited after the buyer was sent to pay), else null.
	 */
	private static function order_changed( array $expected, array $order ): ?string {
		$amount = $order['amount'] ?? null;
		if ( ! is_int( $amount ) ) {
			return sprintf( 'order: its total can no longer be expressed exactly in %s', (string) ( $order['currency'] ?? '' ) );
		}
		if ( $amount !== $expected['amount'] || ( $order['currency'] ?? '' ) !== $expected['currency'] ) {
			return sprintf( 'order: it now asks for %s; this payment was started for %s', Order_Words::money( $amount, (string) ( $order['currency'] ?? '' ) ), Order_Words::money( $expected['amount'], $expected['currency'] ) );
		}
		return null;
	}
}

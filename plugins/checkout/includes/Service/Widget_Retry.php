<?php
/**
 * A decline inside the embedded widget, where the buyer may try again under
 * the same payment (the widget's own "Try again" makes a new operation of
 * the attempt), does not fail the order at once: Order_Decision waits,
 * Order_Actions notes the decline and marks the order (META_RETRY_UNTIL) for
 * Order_Actions::retry_window() seconds from the latest decline. The outcome
 * is then known, and mailed by WooCommerce's own status e-mails once:
 *
 * - a new try is paid: the order completes ("processing"), no "failed" mail;
 * - the buyer closes the widget, or it stops (the order-pay page reports
 *   it): the order is failed then (settle());
 * - the window ends (the Action Scheduler action below): the service is
 *   asked first, so a new try it has not reported yet keeps the order
 *   waiting for that try; otherwise the order is failed;
 * - a new payment started from the order page: the order is left pending
 *   for it.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Service;

use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Order\Order_Actions;
use Card2Crypto\Checkout\Rules\Order_Words;
use Card2Crypto\Checkout\Rules\Status_Flow;
use Card2Crypto\Checkout\Attempts\Attempt_Store;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Widget_Retry implements Hooks {

	/** @var Reconciler */
	private $reconciler;

	/** @var Attempt_Store */
	private $attempts;

	/** @var Operation_Store */
	private $operations;

	/** @var Order_Attempts */
	private $order_attempts;

	/** @var Order_Actions */
	private $actions;

	public function __construct( Reconciler $reconciler, Attempt_Store $attempts, Operation_Store $operations, Order_Attempts $order_attempts, Order_Actions $actions ) {
		$this->reconciler     = $reconciler;
		$this->attempts       = $attempts;
		$this->operations     = $operations;
		$this->order_attempts = $order_attempts;
		$this->actions        = $actions;
	}

	public function register(): void {
		add_action( Order_Actions::RETRY_HOOK, array( $this, 'window_over' ) );
	}

	/**
	 * The retry window of a decline ended (Action Scheduler).
	 *
	 * @param mixed $order_id The order.
	 */
	public function window_over( $order_id ): void {
		$order = wc_get_order( (int) $order_id );
		if ( ! $order instanceof \WC_Order ) {
			return;
		}
		$until = (string) $order->get_meta( Keys::META_RETRY_UNTIL );
		if ( '' === $until || (int) $until > time() + 5 ) {
			// Nothing waits, or a later decline moved the end (its own action comes then).
			return;
		}
		$attempt = $this->attempts->current_attempt( $order );
		if ( null !== $attempt && ! $order->is_paid() && ! $this->reconciler->settled( $attempt, time() ) ) {
			try {
				// A new try inside the widget is an operation the service reports no callback for until it is paid.
				$this->reconciler->check( $order, $attempt, 'reconcile' );
			} catch ( \Throwable $e ) {
				Log::error( sprintf( 'Order %d: the service could not be asked when the widget\'s retry window ended: %s', $order->get_id(), $e->getMessage() ) );
			}
		}
		$this->settle( $this->order_attempts->reloaded( $order ), false );
	}

	/**
	 * The outcome of the waiting decline is known: the order is failed when
	 * its current payment still ends declined and nothing else of the order
	 * may be paid; otherwise (paid, a new try or a new payment under way)
	 * it is left as it is. The mark is removed either way.
	 *
	 * @param bool $closed The buyer closed the widget (or it stopped), rather than the window ending.
	 */
	public function settle( \WC_Order $order, bool $closed ): void {
		if ( '' === (string) $order->get_meta( Keys::META_RETRY_UNTIL ) ) {
			return;
		}
		$this->operations->with_order_lock(
			$order->get_id(),
			function () use ( $order, $closed ): void {
				$order = $this->order_attempts->reloaded( $order );
				if ( '' === (string) $order->get_meta( Keys::META_RETRY_UNTIL ) ) {
					return;
				}
				$order->delete_meta_data( Keys::META_RETRY_UNTIL );
				$order->save();
				if ( $order->is_paid() || ! $order->needs_payment() || $order->has_status( 'failed' ) ) {
					return;
				}
				$attempt = $this->attempts->current_attempt( $order );
				$step    = null === $attempt || Operation_Store::NO_CODE === $attempt->status_code() ? null : Status_Flow::find_step( $attempt->status(), $attempt->status_code() );
				if ( null === $step || ! $step['final'] || Status_Flow::PHASE_FAILED !== $step['phase'] ) {
					// A new try, or a new payment, is under way: its own outcome decides.
					return;
				}
				if ( $this->operations->may_be_paid_besides( $order->get_id(), $attempt->operation_id() ) ) {
					return;
				}
				$label = Order_Words::status( $attempt->status(), $attempt->status_code() );
				$note  = $closed
					/* translators: %s: status and meaning */
					? sprintf( __( 'Card2Crypto: the card payment did not go through (%s) and the buyer closed the payment window without trying again. The buyer can pay again from the order page.', 'card2crypto-checkout' ), $label )
					/* translators: 1: status and meaning, 2: minutes */
					: sprintf( __( 'Card2Crypto: the card payment did not go through (%1$s) and the buyer did not try again within %2$d minutes. The buyer can pay again from the order page.', 'card2crypto-checkout' ), $label, (int) round( $this->actions->retry_window() / MINUTE_IN_SECONDS ) );
				// WooCommerce's own failed-order e-mails (owner and buyer) go now, once: the outcome is known.
				if ( false === $order->update_status( 'failed', $note ) ) {
					Log::error( sprintf( 'Order %d: the order could not be marked failed after the widget\'s retry window.', $order->get_id() ) );
				}
			}
		);
	}
}

<?php
/**
 * Performs an Order_Decision on the WC_Order: words the note, changes the
 * status, completes the payment, confirms at the service, e-mails the owner.
 *
 * Every failure to change the order throws (payment_complete() answering
 * false included), so Operation_Events can give the attempt's state and the
 * event's claim back and answer the service non-200: it then sends the event
 * again and the order is not left behind its payment.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Order;

use Card2Crypto\Checkout\Attempts\Address_Store;
use Card2Crypto\Checkout\Attempts\Attempt;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Partner\Service_Door;
use Card2Crypto\Checkout\Rules\Decision;
use Card2Crypto\Checkout\Rules\Order_Decision;
use Card2Crypto\Checkout\Rules\Order_Words;
use Card2Crypto\Checkout\Rules\Service_Lanes;
use Card2Crypto\Checkout\Rules\Status_Flow;
use Card2Crypto\Checkout\Shared\Api\Operation;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Exception;

defined( 'ABSPATH' ) || exit;

final class Order_Actions {

	/** The Action Scheduler hook that ends a widget's retry window (Widget_Retry), its one argument the order id, and its group. */
	const RETRY_HOOK  = 'card2crypto_checkout_widget_retry_over';
	const RETRY_GROUP = 'card2crypto-checkout';

	/** @var Config */
	private $config;

	/** @var Service_Door */
	private $gateway;

	/** @var Address_Store */
	private $addresses;

	/** @var Confirm_Queue */
	private $queue;

	/** @var Buyer_Mail */
	private $mail;

	/** @var Owner_Notice */
	private $notices;

	public function __construct( Config $config, Service_Door $gateway, Address_Store $addresses, Confirm_Queue $queue, Buyer_Mail $mail, Owner_Notice $notices ) {
		$this->config    = $config;
		$this->gateway   = $gateway;
		$this->addresses = $addresses;
		$this->queue     = $queue;
		$this->mail      = $mail;
		$this->notices   = $notices;
	}

	/**
	 * @param Decision  $action    Order_Decision::decide()'s answer.
	 * @param Attempt   $attempt   The attempt (Operation_Store) as it was before the event.
	 * @param ?array    $state     The attempt's pair before the event (for conflict notes).
	 * @param string    $via       Where the event came from, for notes.
	 * @throws \RuntimeException When the order could not be changed.
	 */
	public function perform( \WC_Order $order, Decision $action, Attempt $attempt, ?array $state, Operation $operation, string $via ): void {
		$status = $operation->status();
		$code   = Status_Flow::int_code( $operation->status_code() );
		$label  = Order_Words::status( $status, $code );
		$step   = Status_Flow::find_step( $status, $code );
		if ( null !== $step && Status_Flow::PHASE_SUCCEEDED === $step['phase'] ) {
			// Bitcoin went to the attempt's address (and to the one the service reports): with a new address per order,
			// neither is handed out again, whichever attempt or order it was given to.
			$this->addresses->mark_paid( $attempt->wallet() );
			$this->addresses->mark_paid( (string) $operation->to_address() );
		}

		switch ( $action->reason() ) {
			case Decision::IGNORED:
				Log::info( sprintf( 'Order %d: %s %d ignored (%s) after %s %d (%s).', $order->get_id(), $status, $code, $action->why(), $state['status'] ?? '-', $state['status_code'] ?? -1, $via ) );
				return;
			case Decision::COMPLETE:
				$this->complete( $order, $attempt, $operation, $label, $via );
				return;
			case Decision::CONFIRM:
				$this->confirm( $order, $attempt, $operation, $label, $via );
				return;
		}
		$words = Order_Words::decision( $action, $label, $state, $via, (string) $operation->id() );
		$note  = $words['note'];
		switch ( $action->reason() ) {
			case Decision::DECLINED_OTHER_LIVE:
			case Decision::EARLIER_ATTEMPT_DECLINED:
				$order->add_order_note( $note );
				return;
			case Decision::RETRIED:
				$this->checked( $order->update_status( 'pending', $note ), 'the order could not be set to pending payment' );
				return;
			case Decision::DECLINED_MAY_RETRY:
				$this->wait_for_retry( $order, $note );
				return;
			case Decision::DECLINED:
			case Decision::DECLINED_AFTER_PAID:
				if ( Order_Decision::ORDER_FAIL === $action->order() && $order->has_status( 'failed' ) ) {
					// Already failed (an earlier decline): WooCommerce keeps no note for an unchanged status.
					$order->add_order_note( $note );
				} elseif ( Order_Decision::ORDER_FAIL === $action->order() ) {
					$this->checked( $order->update_status( 'failed', $note ), 'the order could not be marked failed' );
				} else {
					$order->add_order_note( $note );
				}
				return;
		}

		if ( Order_Decision::ORDER_HOLD === $action->order() ) {
			// Money moving is told on the buyer's pages; a hold that needs the owner mails the buyer as WooCommerce does.
			$this->mail->quiet_hold( $order, $action->is( Decision::PROGRESS ) );
			$this->hold( $order, $note );
		} else {
			$order->add_order_note( $note );
		}
		if ( $action->notify() && '' !== $words['subject'] ) {
			$this->notices->send( $order, $words['subject'], $note, $operation->id() );
		}
	}

	/**
	 * A decline inside the widget while the buyer may still try again there:
	 * the note, and the order waits RETRY_WINDOW seconds from now (from the
	 * latest decline) before Widget_Retry fails it, unless the buyer's next
	 * try, a close of the widget or a new payment tells the outcome first.
	 */
	private function wait_for_retry( \WC_Order $order, string $note ): void {
		$until = time() + $this->retry_window();
		$order->update_meta_data( Keys::META_RETRY_UNTIL, (string) $until );
		$order->save();
		$order->add_order_note( $note );
		if ( function_exists( 'as_schedule_single_action' ) ) {
			try {
				as_schedule_single_action( $until, self::RETRY_HOOK, array( $order->get_id() ), self::RETRY_GROUP );
			} catch ( \Throwable $e ) {
				Log::error( sprintf( 'Order %d: the end of the widget\'s retry window could not be queued: %s', $order->get_id(), $e->getMessage() ) );
			}
		}
	}

	/** Seconds a decline inside the widget waits for the buyer's next try before the order is failed. */
	public function retry_window(): int {
		/**
		 * Filters how long, in seconds, a decline inside the embedded widget
		 * leaves the order waiting for the buyer's next try there before it is
		 * marked failed (and WooCommerce's failed-order e-mails are sent).
		 *
		 * @since 0.1.0
		 *
		 * @param int $seconds Default 900 (15 minutes).
		 */
		return max( 0, (int) apply_filters( 'card2crypto_checkout_widget_retry_window', 15 * MINUTE_IN_SECONDS ) );
	}

	private function complete( \WC_Order $order, Attempt $attempt, Operation $operation, string $label, string $via ): void {
		$order->update_meta_data( Keys::META_PAID_BY, $attempt->partner_operation_id() );
		$order->update_meta_data( Keys::META_PAID_BY_OPERATION, $operation->id() );
		$order->save();
		if ( ! $order->payment_complete( (string) $operation->tx_id() ) ) {
			// A hook failed (WooCommerce noted it). A failure before the status changed leaves the order unpaid: it was not
			// paid by this operation. After it, the order is paid by this operation and the re-delivery only notes it.
			if ( ! $order->is_paid() ) {
				$this->forget_paid_by( $order );
			}
			throw new \RuntimeException( 'The order was not updated: payment_complete() failed.' );
		}
		if ( ! $order->is_paid() ) {
			// The order is in a status WooCommerce does not complete from (e.g. refunded): tell the owner, never force it.
			$this->forget_paid_by( $order );
			$note = sprintf(
				/* translators: 1: status, 2: source, 3: order status */
				__( 'Card2Crypto: %1$s — %2$s, but the order is "%3$s", which WooCommerce does not mark paid: check the payment and the order by hand.', 'card2crypto-checkout' ),
				$label,
				$via,
				$order->get_status()
			);
			$order->add_order_note( $note );
			$this->notices->send( $order, __( 'A card payment needs your review', 'card2crypto-checkout' ), $note, $operation->id() );
			return;
		}
		$order->add_order_note( $this->success_note( $order, $operation, $label, $via ) );
		$current = $this->config->wallet();
		if ( '' !== $current && $attempt->wallet() !== $current ) {
			$order->add_order_note(
				sprintf(
					/* translators: 1: the wallet the payment went to, 2: the store's wallet now */
					__( 'Card2Crypto: this payment went to %1$s, the wallet the store used when the buyer was sent to pay; the store\'s wallet has since been changed to %2$s. Make sure you still control the earlier wallet.', 'card2crypto-checkout' ),
					$attempt->wallet(),
					$current
				)
			);
		}
	}

	private function forget_paid_by( \WC_Order $order ): void {
		$order->delete_meta_data( Keys::META_PAID_BY );
		$order->delete_meta_data( Keys::META_PAID_BY_OPERATION );
		$order->save();
	}

	/**
	 * Confirms at the service and holds the order until the payment's next
	 * step. When the service is busy or away ($this->queue->transient()),
	 * the confirmation is queued for a later try (Confirm_Retry), noted once;
	 * only a refusal, or tries running out, asks the owner to confirm by hand.
	 *
	 * @param array|null $retry A later try (Confirm_Retry): {tries, first, claim} of the claimed queue row; null the first time.
	 */
	private function confirm( \WC_Order $order, Attempt $attempt, Operation $operation, string $label, string $via, ?array $retry = null ): void {
		try {
			$this->gateway->client( Service_Lanes::PAYING )->confirm( $operation->id(), $attempt->partner_operation_id() );
			$this->hold(
				$order,
				sprintf(
					/* translators: 1: status, 2: source */
					__( 'Card2Crypto: %1$s — %2$s. Amount, currency and wallet match the order: confirmed automatically.', 'card2crypto-checkout' ),
					$label,
					$via
				)
			);
			if ( null !== $retry ) {
				$this->queue->done( $order->get_id(), $retry['claim'] );
			}
			return;
		} catch ( Partner_Api_Exception $e ) {
			$failure = $e->getMessage();
			if ( $this->queue->transient( $e ) && $this->queue_again( $order, $attempt, $operation, $e, $retry ) ) {
				return;
			}
		} catch ( \InvalidArgumentException $e ) {
			$failure = $e->getMessage();
		}
		$note = sprintf(
			/* translators: 1: status, 2: source, 3: error */
			__( 'Card2Crypto: %1$s — %2$s. Automatic confirmation failed (%3$s): confirm or cancel it on this order.', 'card2crypto-checkout' ),
			$label,
			$via,
			$failure
		);
		$this->hold( $order, $note );
		$this->notices->send( $order, __( 'A card payment waits for your confirmation', 'card2crypto-checkout' ), $note, $operation->id() );
		if ( null !== $retry ) {
			$this->queue->done( $order->get_id(), $retry['claim'] );
		}
	}

	/**
	 * A later try (Confirm_Retry) of a queued confirmation, once the service
	 * reported the operation still awaiting it and Order_Decision decided to
	 * confirm it again.
	 *
	 * @param array $retry {tries, first, claim} of the claimed queue row.
	 */
	public function confirm_again( \WC_Order $order, Attempt $attempt, Operation $operation, string $via, array $retry ): void {
		$label = Order_Words::status( $operation->status(), Status_Flow::int_code( $operation->status_code() ) );
		$this->confirm( $order, $attempt, $operation, $label, $via, $retry );
	}

	/**
	 * Queues the next try of a confirmation the service could not take now;
	 * false when the tries ran out (the owner confirms by hand). The first
	 * time, the order is held with one note; a later try adds none.
	 */
	private function queue_again( \WC_Order $order, Attempt $attempt, Operation $operation, Partner_Api_Exception $e, ?array $retry ): bool {
		$tries = null === $retry ? 0 : (int) $retry['tries'] + 1;
		$first = null === $retry ? time() : (int) $retry['first'];
		$delay = $this->queue->delay( $tries, $e->retry_after );
		if ( time() + $delay > $first + Confirm_Queue::GIVE_UP_AFTER ) {
			Log::warning( sprintf( 'Order %d: the service could not take the confirmation of operation %s for an hour (%s); the owner is asked to confirm it.', $order->get_id(), $operation->id(), $e->getMessage() ) );
			return false;
		}
		if ( ! $this->queue->queue( $order->get_id(), $attempt->id(), $operation->id(), $tries, $delay, $first, null === $retry ? null : $retry['claim'] ) ) {
			$queued = null === $retry ? $this->queue->read( $order->get_id() ) : null;
			if ( null !== $queued && ( $queued['operation'] ?? '' ) === $operation->id() ) {
				return true; // Another request queued this confirmation first: it is confirmed once, by that one.
			}
			// The claim was taken over (this run took too long): the run that holds it goes on. Another
			// operation's confirmation queued for the order: this one is the owner's.
			return null !== $retry;
		}
		Log::info( sprintf( 'Order %d: the service could not take the confirmation of operation %s now (%s); try %d in %d s.', $order->get_id(), $operation->id(), $e->getMessage(), $tries + 1, $delay ) );
		if ( null === $retry ) {
			$this->hold( $order, __( 'Card2Crypto: confirmation delayed: the service is busy, retrying. The order is confirmed automatically as soon as the service takes it; you are told should it not.', 'card2crypto-checkout' ) );
		}
		return true;
	}

	private function hold( \WC_Order $order, string $note ): void {
		if ( $order->is_paid() || $order->has_status( 'on-hold' ) ) {
			$order->add_order_note( $note );
			return;
		}
		$this->checked( $order->update_status( 'on-hold', $note ), 'the order could not be put on hold' );
	}

	/** update_status() and payment_complete() answer false when they did not do it. */
	private function checked( $result, string $what ): void {
		if ( false === $result ) {
			throw new \RuntimeException( 'The order was not updated: ' . $what . '.' );
		}
	}

	private function success_note( \WC_Order $order, Operation $operation, string $label, string $via ): string {
		$parts = array(
			sprintf( /* translators: 1: status, 2: source */ __( 'Card2Crypto: %1$s — %2$s. Payment complete.', 'card2crypto-checkout' ), $label, $via ),
		);
		if ( null !== $operation->tx_id() ) {
			/* translators: %s: blockchain transaction id */
			$parts[] = sprintf( __( 'BTC transaction: %s.', 'card2crypto-checkout' ), $operation->tx_id() );
		}
		if ( null !== $operation->explorer_url() && 'yes' === (string) $order->get_meta( Keys::META_TEST_MODE ) ) {
			// The sandbox makes up its transaction ids: no explorer link, on either network.
			$parts[] = __( 'Test payment: the sandbox simulated this transaction; it is not on the blockchain.', 'card2crypto-checkout' );
		} elseif ( null !== $operation->explorer_url() ) {
			/* translators: %s: URL */
			$parts[] = sprintf( __( 'Explorer: %s', 'card2crypto-checkout' ), esc_url_raw( $operation->explorer_url() ) );
		}
		if ( null !== $operation->status_url() ) {
			/* translators: %s: URL */
			$parts[] = sprintf( __( 'Status page: %s', 'card2crypto-checkout' ), esc_url_raw( $operation->status_url() ) );
		}
		return implode( ' ', $parts );
	}
}

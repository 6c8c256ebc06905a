<?php
/**
 * Runs a later try of a confirmation the service could not take
 * (Confirm_Queue::HOOK, queued by Order_Actions): claims the try, asks the
 * service about the operation first (the service is the truth), and hands
 * its answer to Operation_Events::confirm_again(), which confirms only an
 * operation still awaiting it for an unpaid order whose payment still
 * matches. The service busy again queues the next try; a refusal, or the
 * tries running out, asks the owner as before.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Order;

use Card2Crypto\Checkout\Attempts\Attempt;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Partner\Service_Door;
use Card2Crypto\Checkout\Rules\Service_Lanes;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Exception;
use Card2Crypto\Checkout\Attempts\Attempt_Store;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Confirm_Retry implements Hooks {

	/** @var Operation_Events */
	private $events;

	/** @var Service_Door */
	private $gateway;

	/** @var Attempt_Store */
	private $attempts;

	/** @var Confirm_Queue */
	private $queue;

	/** @var Owner_Notice */
	private $notices;

	public function __construct( Operation_Events $events, Service_Door $gateway, Attempt_Store $attempts, Confirm_Queue $queue, Owner_Notice $notices ) {
		$this->events   = $events;
		$this->gateway  = $gateway;
		$this->attempts = $attempts;
		$this->queue    = $queue;
		$this->notices  = $notices;
	}

	public function register(): void {
		add_action( Confirm_Queue::HOOK, array( $this, 'run' ), 10, 3 );
		// The hourly sweep of queued tries whose job is gone (Confirm_Queue::orphans()).
		add_action(
			Confirm_Queue::SWEEP_HOOK,
			function (): void {
				$this->queue->sweep();
			}
		);
		add_action(
			'init',
			static function (): void {
				if ( function_exists( 'wp_next_scheduled' ) && ! wp_next_scheduled( Confirm_Queue::SWEEP_HOOK ) ) {
					wp_schedule_event( time() + HOUR_IN_SECONDS, 'hourly', Confirm_Queue::SWEEP_HOOK );
				}
			}
		);
	}

	/**
	 * The job (Action Scheduler): one try. A duplicate run, or a try no longer
	 * queued, does nothing.
	 *
	 * @param mixed $order_id
	 * @param mixed $operation_id
	 * @param mixed $tries
	 * @return string What was done (for the tests and the log).
	 */
	public function run( $order_id = 0, $operation_id = '', $tries = 0 ): string {
		$order_id     = (int) $order_id;
		$operation_id = (string) $operation_id;
		$claimed      = $this->queue->claim( $order_id, $operation_id, (int) $tries );
		if ( null === $claimed ) {
			return 'not_queued';
		}
		$retry   = array(
			'tries' => (int) $claimed['row']['tries'],
			'first' => (int) $claimed['row']['first'],
			'claim' => $claimed['claim'],
		);
		$order   = wc_get_order( $order_id );
		$attempt = $this->attempts->attempt( (int) $claimed['row']['attempt'] );
		if ( ! $order instanceof \WC_Order || null === $attempt || $attempt->order_id() !== $order_id ) {
			$this->queue->done( $order_id, $retry['claim'] );
			return 'gone';
		}
		try {
			$answer = $this->gateway->client( Service_Lanes::PAYING )->operation( $operation_id, $attempt->partner_operation_id() );
		} catch ( Partner_Api_Exception $e ) {
			return $this->not_asked( $order, $attempt, $operation_id, $e, $retry );
		} catch ( \InvalidArgumentException $e ) {
			Log::warning( sprintf( 'Order %d: the queued confirmation could not ask the service: %s', $order_id, $e->getMessage() ) );
			return $this->give_up( $order, $operation_id, $e->getMessage(), $retry );
		}
		if ( ! $this->events->answers_for( $answer, $attempt, $operation_id ) ) {
			$this->events->hold_foreign_answer( $order, $attempt, $answer );
			$this->queue->done( $order_id, $retry['claim'] );
			return 'foreign';
		}
		try {
			$done = $this->events->confirm_again( $order, $attempt, $answer, $retry );
		} catch ( \Throwable $e ) {
			// The order could not be changed (its lock, the database): the try is given back for a run after CLAIM_TTL.
			Log::error( sprintf( 'Order %d: the queued confirmation failed: %s', $order_id, $e->getMessage() ) );
			throw $e;
		}
		if ( 'confirm' !== $done ) {
			$this->queue->done( $order_id, $retry['claim'] );
			if ( 'moved' === $done ) {
				// The payment moved on at the service (confirmed by hand, declined...): applied as any news of it.
				$this->events->process( $answer, 'reconcile' );
			}
		}
		return $done;
	}

	/** The service could not be asked about the operation: busy again (next try), or refusing (the owner). */
	private function not_asked( \WC_Order $order, Attempt $attempt, string $operation_id, Partner_Api_Exception $e, array $retry ): string {
		if ( $this->queue->transient( $e ) ) {
			$tries = $retry['tries'] + 1;
			$delay = $this->queue->delay( $tries, $e->retry_after );
			if ( time() + $delay <= $retry['first'] + Confirm_Queue::GIVE_UP_AFTER ) {
				$this->queue->queue( $order->get_id(), $attempt->id(), $operation_id, $tries, $delay, $retry['first'], $retry['claim'] );
				return 'later';
			}
		}
		return $this->give_up( $order, $operation_id, $e->getMessage(), $retry );
	}

	private function give_up( \WC_Order $order, string $operation_id, string $failure, array $retry ): string {
		$note = sprintf(
			/* translators: 1: operation id, 2: error */
			__( 'Card2Crypto: the payment %1$s awaits your confirmation; confirming it automatically failed (%2$s): confirm or cancel it on this order.', 'card2crypto-checkout' ),
			$operation_id,
			$failure
		);
		$order->add_order_note( $note );
		$this->notices->send( $order, __( 'A card payment waits for your confirmation', 'card2crypto-checkout' ), $note, $operation_id );
		$this->queue->done( $order->get_id(), $retry['claim'] );
		return 'owner';
	}
}

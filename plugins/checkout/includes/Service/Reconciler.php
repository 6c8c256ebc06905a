<?php
/**
 * Reconciliation: asks the operation-info endpoint about payments that have
 * waited too long for a callback, with growing delays, and stops at a final
 * state (or when the delays run out, matching the service's own 11-day
 * callback schedule).
 *
 * Each attempt keeps its due time (next_check_at, indexed). One Action
 * Scheduler action at a time (BATCH_HOOK, never one per order) claims the due
 * attempts in the database, checks them at the owner's background rate
 * (every partner API request a check makes waits its turn), stops well inside
 * Action Scheduler's time limit and queues the next batch: at once while more
 * are due, else at the earliest due time; on a 429 after the service's
 * Retry-After. An attempt the service never heard of, once its payment
 * window has passed, is retired: never asked about again.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Service;

use Card2Crypto\Checkout\Attempts\Address_Store;
use Card2Crypto\Checkout\Attempts\Attempt;
use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Attempts\Start_Budget;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Request_Deadline;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Order\Operation_Events;
use Card2Crypto\Checkout\Partner\Service_Door;
use Card2Crypto\Checkout\Rules\Clock_Refusal;
use Card2Crypto\Checkout\Rules\Order_Words;
use Card2Crypto\Checkout\Rules\Reconcile_Pace;
use Card2Crypto\Checkout\Rules\Service_Lanes;
use Card2Crypto\Checkout\Rules\Status_Flow;
use Card2Crypto\Checkout\Shared\Api\Http_Transport;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Exception;
use Card2Crypto\Checkout\Attempts\Attempt_Store;
use Card2Crypto\Checkout\Attempts\Check_Queue;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Reconciler implements Hooks {

	/** The per-order action of versions before the batch (args [order_id]): still handled, never queued again. */
	const HOOK = 'card2crypto_checkout_reconcile';

	/** The one batch action (no args). */
	const BATCH_HOOK = 'card2crypto_checkout_reconcile_batch';

	const GROUP = 'card2crypto-checkout';

	/** The database's named lock one batch holds while it runs (one batch at a time, whatever the servers), per site (Shared_Store->lock_name()). */
	const BATCH_LOCK = 'card2crypto_checkout_reconcile_batch';

	/** Seconds before the next batch when the service refused this server's timestamps (its clock is off). */
	const CLOCK_WAIT = 300;

	/** Seconds after which a batch that found the lock busy runs again. */
	const BUSY_RETRY = 10;

	/** @var Config */
	private $config;

	/** @var Operation_Events */
	private $events;

	/** @var Service_Door */
	private $gateway;

	/** @var int|null When this batch's last request left (ms). */
	private $last_send_ms = null;

	/** @var int Partner API requests this batch made. */
	private $requests = 0;

	/** @var Attempt_Store */
	private $attempts;

	/** @var Operation_Store */
	private $operations;

	/** @var Check_Queue */
	private $queue;

	/** @var Address_Store */
	private $addresses;

	/** @var callable|null While a batch runs: its pacing around the gateway's transport (pacing()), else null. */
	private $pacing = null;

	/** @var Service_Health */
	private $health;

	/** @var Clock_Offset */
	private $clock;

	/** @var Order_Attempts */
	private $order_attempts;

	/** @var Start_Budget */
	private $budget;

	/** @var Shared_Store */
	private $shared;

	public function __construct( Config $config, Operation_Events $events, Service_Door $gateway, Attempt_Store $attempts, Operation_Store $operations, Check_Queue $queue, Address_Store $addresses, Service_Health $health, Clock_Offset $clock, Order_Attempts $order_attempts, Start_Budget $budget, Shared_Store $shared ) {
		$this->config         = $config;
		$this->events         = $events;
		$this->gateway        = $gateway;
		$this->attempts       = $attempts;
		$this->operations     = $operations;
		$this->queue          = $queue;
		$this->addresses      = $addresses;
		$this->health         = $health;
		$this->clock          = $clock;
		$this->order_attempts = $order_attempts;
		$this->budget         = $budget;
		$this->shared         = $shared;
	}

	public function register(): void {
		add_action( self::HOOK, array( $this, 'run' ), 10, 1 );
		add_action( self::BATCH_HOOK, array( $this, 'run_batch' ), 10, 0 );
	}

	/**
	 * Seconds to wait before each check, counted from the last news of the
	 * payment: 15 min, 30 min, 1 h, 2 h, 4 h, then every 12 h up to 11 days.
	 *
	 * @return int[]
	 */
	public function delays(): array {
		$delays = array( 900, 1800, 3600, 7200, 14400 );
		for ( $total = array_sum( $delays ); $total < 11 * DAY_IN_SECONDS; $total += 12 * HOUR_IN_SECONDS ) {
			$delays[] = 12 * HOUR_IN_SECONDS;
		}
		/**
		 * Filters the waits before each reconciliation check of a payment that
		 * has had no news (seconds, counted from the last news). An empty or
		 * non-array answer keeps the default.
		 *
		 * @since 0.1.0
		 *
		 * @param int[] $delays 900, 1800, 3600, 7200, 14400, then 43200 up to 11 days.
		 */
		$filtered = apply_filters( 'card2crypto_checkout_reconcile_delays', $delays );
		return is_array( $filtered ) && array() !== $filtered ? array_values( array_map( 'intval', $filtered ) ) : $delays;
	}

	/**
	 * Seconds one batch may spend checking: well inside Action Scheduler's
	 * 30 s per queue run.
	 */
	public function batch_seconds(): int {
		/**
		 * Filters how long one reconciliation batch may spend checking payments
		 * (seconds, 1 to 25); Action Scheduler gives a queue run 30 s.
		 *
		 * @since 0.2.0
		 *
		 * @param int $seconds Default 20.
		 */
		return max( 1, min( 25, (int) apply_filters( 'card2crypto_checkout_reconcile_batch_seconds', 20 ) ) );
	}

	/**
	 * Plans the next check of an order's current attempt (replacing a planned
	 * one; the order's other attempts are no longer checked) and makes sure
	 * the batch action runs by then.
	 */
	public function schedule( int $order_id, int $checks_done = 0 ): void {
		if ( ! function_exists( 'as_schedule_single_action' ) ) {
			return;
		}
		$order   = wc_get_order( $order_id );
		$attempt = $order instanceof \WC_Order ? $this->attempts->current_attempt( $order ) : null;
		if ( null === $attempt ) {
			return;
		}
		$this->queue->stop_checks_besides( $order_id, $attempt->id() );
		$this->plan( $attempt->id(), $this->due_after( $checks_done ) );
	}

	/** When the check after $checks_done checks is due (Unix time), or null when the delays have run out. */
	private function due_after( int $checks_done ): ?int {
		$delays = $this->delays();
		return $checks_done >= count( $delays ) ? null : time() + max( 0, $delays[ $checks_done ] );
	}

	/** Sets the attempt's next check (null: none) and makes sure a batch runs by then. */
	private function plan( int $attempt_id, ?int $when ): void {
		$this->queue->set_next_check( $attempt_id, $when );
		if ( null !== $when ) {
			$this->ensure_batch( $when );
		}
	}

	/**
	 * Makes sure one batch action is pending at $when or sooner: a later one
	 * is moved to $when. Two requests doing this at once may queue two; the
	 * second finds nothing due or waits for the named lock's holder, and the
	 * next batch queues one again.
	 */
	public function ensure_batch( int $when ): void {
		if ( ! function_exists( 'as_get_scheduled_actions' ) ) {
			return;
		}
		$pending = as_get_scheduled_actions(
			array(
				'hook'     => self::BATCH_HOOK,
				'group'    => self::GROUP,
				'status'   => \ActionScheduler_Store::STATUS_PENDING,
				'orderby'  => 'date',
				'order'    => 'ASC',
				'per_page' => 1,
			),
			'objects'
		);
		$first = is_array( $pending ) ? reset( $pending ) : false;
		if ( $first instanceof \ActionScheduler_Action ) {
			$date = $first->get_schedule()->get_date();
			if ( null === $date || (int) $date->format( 'U' ) <= $when ) {
				return;
			}
			as_unschedule_action( self::BATCH_HOOK, array(), self::GROUP );
		}
		as_schedule_single_action( $when, self::BATCH_HOOK, array(), self::GROUP );
	}

	/**
	 * The per-order action of earlier versions, still queued in stores that
	 * updated: its order's current attempt becomes due now and the batch
	 * checks it. Nothing queues this action any more, so they do not pile up.
	 */
	public function run( $order_id ): void {
		$order = wc_get_order( (int) $order_id );
		if ( ! $order instanceof \WC_Order ) {
			return;
		}
		$attempt = $this->attempts->current_attempt( $order );
		if ( null === $attempt ) {
			return;
		}
		$this->queue->check_by( $attempt->id(), time() );
		$this->ensure_batch( time() );
	}

	/**
	 * The batch action: claims the due attempts (as many as its time allows
	 * at the background rate), checks each, gives back what it did not reach,
	 * and queues the next batch.
	 */
	public function run_batch(): void {
		$retry = null;
		$ran   = $this->shared->when_free(
			self::BATCH_LOCK,
			function () use ( &$retry ): void {
				$retry = $this->batch();
			}
		);
		if ( ! $ran ) {
			// Another server runs a batch now. It queues the next one when it ends, but it may have claimed before
			// this batch's attempts came due, or die: one batch a few seconds later (at most one pending) makes sure.
			$this->ensure_batch( time() + self::BUSY_RETRY );
			return;
		}
		if ( null !== $retry ) {
			// Action Scheduler keeps whole seconds: from the next one, or a Retry-After of 1 s could come due at once.
			$this->ensure_batch( (int) ceil( microtime( true ) ) + $retry );
			return;
		}
		$next = $this->queue->earliest_check();
		if ( null !== $next ) {
			$this->ensure_batch( max( time(), $next ) );
		}
	}

	/** @return int|null Seconds to wait before the next batch when the service said 429, else null. */
	private function batch(): ?int {
		$started = microtime( true );
		$seconds = $this->batch_seconds();
		$rate    = $this->config->reconcile_rate();
		$token   = bin2hex( random_bytes( 8 ) );
		$claimed = $this->queue->claim_due( $token, Reconcile_Pace::batch_size( $rate, $seconds ), time(), $seconds + 60 );
		if ( array() === $claimed ) {
			return null;
		}
		// As if a request had just left: the previous batch's last one (this process's or another's) may have, and the
		// pacing must hold across batches too (the sandbox counted 4 in one second at a rate of 3 without this).
		$this->last_send_ms = (int) floor( microtime( true ) * 1000 );
		$this->requests     = 0;
		$retry              = null;
		try {
			$this->pacing = $this->pacing( $rate );
			foreach ( $claimed as $attempt_id ) {
				// The next request may have to wait its turn: stop while there is time to give the rest back.
				if ( microtime( true ) - $started + Reconcile_Pace::interval_ms( $rate ) / 1000 >= $seconds ) {
					break;
				}
				$retry = $this->reconcile( $attempt_id );
				if ( null !== $retry ) {
					break;
				}
			}
		} finally {
			$this->pacing = null;
			$this->queue->release_claims( $token );
		}
		Log::debug( sprintf( 'Reconciliation batch: %d payments claimed, %d requests to the service in %.1f s%s.', count( $claimed ), $this->requests, microtime( true ) - $started, null === $retry ? '' : sprintf( '; the service asked to slow down, next batch in %d s', $retry ) ) );
		return $retry;
	}

	/**
	 * The batch's pacing around the service gateway's transport: every
	 * request the batch's checks make (in the background lane of the
	 * store-wide budget, where an empty bucket answers 429 and the next batch
	 * waits) waits its turn at $rate a second.
	 *
	 * @return callable(Http_Transport): Http_Transport
	 */
	private function pacing( int $rate ): callable {
		return function ( Http_Transport $inner ) use ( $rate ): Http_Transport {
			return new Paced_Transport(
				$inner,
				function () use ( $rate ): void {
					$now  = (int) floor( microtime( true ) * 1000 );
					$wait = Reconcile_Pace::next_send_ms( $this->last_send_ms, $rate, $now ) - $now;
					if ( $wait > 0 ) {
						usleep( $wait * 1000 );
					}
					$this->last_send_ms = (int) floor( microtime( true ) * 1000 );
					++$this->requests;
				}
			);
		};
	}

	/**
	 * Checks one claimed attempt as the per-order action did and plans its
	 * next check. A payment that ended without payment gets one last look
	 * when its payment window has passed: the buyer may have tried again
	 * inside the widget, which makes a new operation under the same attempt
	 * whose callbacks may be lost too.
	 *
	 * @return int|null Seconds to wait when the service said 429 (the attempt stays due), else null.
	 */
	private function reconcile( int $attempt_id ): ?int {
		$attempt = $this->attempts->attempt( $attempt_id );
		$order   = null === $attempt ? null : wc_get_order( $attempt->order_id() );
		$current = $order instanceof \WC_Order ? $this->attempts->current_attempt( $order ) : null;
		if ( null === $attempt || ! $order instanceof \WC_Order ) {
			$this->queue->set_next_check( $attempt_id, null );
			return null;
		}
		$is_current = null !== $current && $current->id() === $attempt->id();
		if ( ! $is_current && ! $attempt->is_signed() ) {
			// An earlier attempt never signed for the buyer: the service cannot know it. Dead, and its order's address
			// free once nothing else may pay it.
			$this->attempts->retire( $attempt_id );
			$this->release_dead( $order );
			return null;
		}
		if ( $this->settled( $attempt, time() ) && ! $this->ended_unpaid( $attempt ) ) {
			$this->queue->set_next_check( $attempt_id, null );
			return null;
		}
		$delays = $this->delays();
		$quiet  = time() - (int) strtotime( $attempt->updated_at() . ' UTC' );
		if ( $this->ended_unpaid( $attempt ) ) {
			if ( $quiet < $this->order_attempts->payment_window() ) {
				$this->queue->set_next_check( $attempt_id, time() + $this->order_attempts->payment_window() - $quiet );
				return null;
			}
		} else {
			$wait = $delays[ min( $attempt->checks(), count( $delays ) - 1 ) ];
			if ( $quiet < $wait && Operation_Store::NO_CODE !== $attempt->status_code() ) {
				// A callback arrived meanwhile: wait again from that news.
				$this->queue->set_next_check( $attempt_id, time() + ( $wait - $quiet ) );
				return null;
			}
		}
		try {
			$result = $this->check( $order, $attempt, 'reconcile' );
		} catch ( \Throwable $e ) {
			// The answer could not be applied (a database error): asked again at the next delay.
			Log::error( sprintf( 'Order %d (reconcile): the answer could not be applied: %s', $order->get_id(), $e->getMessage() ) );
			$result = Check_Result::unreachable( $e->getMessage() );
		}
		if ( null !== $result->retry_after() ) {
			return $result->retry_after(); // Not asked: the attempt stays due, given back with the batch's claim.
		}
		if ( $result->clock() ) {
			// The service refused this server's timestamps: every check would be refused alike. The batch stops, this
			// payment stays due (not counted as a check) and the next batch tries again in CLOCK_WAIT seconds.
			return self::CLOCK_WAIT;
		}
		$this->attempts->count_check( $attempt );
		$attempt = $this->attempts->attempt( $attempt_id );
		if ( null === $attempt ) {
			return null;
		}
		// The service says it never heard of this payment (it names the payment's id as unknown), and its payment window
		// has passed: the buyer never started paying. Retired: never asked again, never signed again.
		if ( ! $result->ok() && $result->is_unknown() && time() - (int) strtotime( $attempt->created_at() . ' UTC' ) >= $this->order_attempts->payment_window() ) {
			$this->retire( $order, $attempt, $is_current );
			$this->release_dead( $order );
			return null;
		}
		// The service confirmed, after the payment window, that this payment ended without payment: with a new address
		// per order, the order's address may serve the next order once none of its payments can still be paid.
		if ( $this->settled( $attempt, time() ) && $this->ended_unpaid( $attempt ) ) {
			$this->release_dead( $this->order_attempts->reloaded( $order ) );
		}
		$this->queue->set_next_check( $attempt_id, $attempt->is_final() ? null : $this->due_after( $attempt->checks() ) );
		return null;
	}

	/** Frees the order's addresses none of whose payments can still be paid ($this->addresses->release_dead()), with a log line. */
	private function release_dead( \WC_Order $order ): void {
		$freed = $this->addresses->release_dead(
			$order,
			function ( Attempt $attempt ): bool {
				return $this->settled( $attempt, time() ) && $this->ended_unpaid( $attempt );
			}
		);
		foreach ( $freed as $address ) {
			Log::info( sprintf( 'Order %d (reconcile): address %s freed for another order: every payment to it ended unpaid or was never started.', $order->get_id(), $address ) );
		}
	}

	/**
	 * Retires an attempt the service never heard of: no more checks, one log
	 * line and, for the order's current attempt, one note (an earlier one the
	 * buyer left for a newer one needs none). The order is left to WooCommerce.
	 */
	private function retire( \WC_Order $order, Attempt $attempt, bool $is_current ): void {
		if ( ! $this->attempts->retire( $attempt->id() ) ) {
			return;
		}
		Log::info( sprintf( 'Order %d (reconcile): payment %s retired: the service never heard of it and its payment window has passed; it is no longer checked.', $order->get_id(), $attempt->partner_operation_id() ) );
		if ( ! $is_current ) {
			return;
		}
		$order->add_order_note( __( 'Card payment: the buyer never started paying (the service has no record of this payment), and the time to pay has passed. The store no longer checks it. If the order stays unpaid, WooCommerce cancels it when its hold stock time runs out.', 'card2crypto-checkout' ) );
	}

	/** The attempt's payment ended without payment (a final decline). */
	private function ended_unpaid( Attempt $attempt ): bool {
		$step = Status_Flow::find_step( $attempt->status(), $attempt->status_code() );
		return null !== $step && $step['final'] && Status_Flow::PHASE_FAILED === $step['phase'];
	}

	/**
	 * Asks the service about an attempt and applies the answers: first by the
	 * attempt's partner_operation_id alone, which names its latest operation
	 * (a buyer who tried again inside the widget made a new one, which the
	 * store may not have heard of), then about each other operation of the
	 * attempt that is not final here, by its id. An answer about another
	 * payment than the one asked about is never applied (the order is held).
	 *
	 * The service is asked in the lane of $source (lane()).
	 *
	 * @return Check_Result
	 * @throws \Throwable When the answer could not be applied (Operation_Events::process()).
	 */
	public function check( \WC_Order $order, Attempt $attempt, string $source ): Check_Result {
		$result = $this->ask( $order, $attempt, null, $source );
		if ( ! $result->ok() ) {
			return $result;
		}
		$latest = $result->operation()->id();
		foreach ( $this->operations->operations_of_attempt( $attempt->id() ) as $known ) {
			if ( $known['operation_id'] === $latest || Operation_Store::NO_CODE === $known['status_code'] || Status_Flow::is_final( $known['status'], $known['status_code'] ) ) {
				continue;
			}
			$other = $this->ask( $order, $attempt, $known['operation_id'], $source );
			if ( ! $other->ok() ) {
				return $other;
			}
		}
		return $result;
	}

	/**
	 * The lane of the service gateway a check for $source travels in: a
	 * buyer back from paying first, a buyer starting a payment, the owner's
	 * refresh, then the background.
	 */
	public function lane( string $source ): string {
		switch ( $source ) {
			case 'return':
				return Service_Lanes::PAYING;
			case 'start':
				return Service_Lanes::START;
			case 'refresh':
				return Service_Lanes::ADMIN;
			default:
				return Service_Lanes::BACKGROUND;
		}
	}

	/**
	 * One operation-info question about the attempt ($operation_id null: its
	 * latest operation), asked through the service gateway in the lane of
	 * $source (paced while a batch runs: pacing()), and, when answered, the
	 * answer applied.
	 *
	 * @throws \Throwable When the answer could not be applied.
	 */
	private function ask( \WC_Order $order, Attempt $attempt, ?string $operation_id, string $source ): Check_Result {
		// A visitor's request (a payment start, a return) stops asking once it has spent its time on the service
		// (Start_Budget); reconciliation and the owner's refresh always ask.
		$visitor = in_array( $source, array( 'start', 'return' ), true );
		if ( $visitor && ! $this->budget->time_left() ) {
			return Check_Result::unreachable( __( 'The service was not asked again: this request has waited on it long enough.', 'card2crypto-checkout' ) );
		}
		try {
			// The client's own lines as debug: the outcome is logged below at its true level
			// (an attempt the buyer never started paying, or abandoned, is ordinary, not an error).
			$client    = $this->gateway->client( $this->lane( $source ), array( $this, 'client_log' ), $this->pacing );
			$operation = $client->operation( $operation_id, $attempt->partner_operation_id() );
		} catch ( Partner_Api_Exception $e ) {
			// A refusal of the store itself withdraws the method at once (Service_Health).
			$this->health->saw( $e );
			$unknown = false;
			if ( 429 === $e->status ) {
				Log::info( sprintf( 'Order %d (%s): the service asked to slow down (429).', $order->get_id(), $source ) );
				return Check_Result::slowed(
					/* translators: %s: error */
					sprintf( __( 'The service could not be asked about this payment: %s', 'card2crypto-checkout' ), $e->getMessage() ),
					Reconcile_Pace::retry_wait( $e->retry_after )
				);
			}
			if ( Clock_Refusal::is( $e ) ) {
				// Not news about the payment: this server's clock is off. Nothing is retired; background checks back off.
				$this->clock->saw_refusal( $e, time() );
				return Check_Result::clock_refused(
					/* translators: %s: how far the clock is off */
					sprintf( __( 'The service was not asked about this payment: %s', 'card2crypto-checkout' ), Clock_Refusal::words( $e->clock_offset_ms ) )
				);
			}
			if ( 400 === $e->status ) {
				// The service judged the request past its timestamp: this server's clock is within its window again.
				$this->clock->saw_answer();
			}
			// Only an answer that names this payment's own id as unknown means the service never heard of it.
			if ( 'invalid_parameter' === $e->error_code && 'partner_operation_id' === $e->field && null === $operation_id && Operation_Store::NO_CODE === $attempt->status_code() ) {
				$unknown = true;
				$message = __( 'The service has no operation for this payment yet: the buyer has not started paying.', 'card2crypto-checkout' );
			} else {
				/* translators: %s: error */
				$message = sprintf( __( 'The service could not be asked about this payment: %s', 'card2crypto-checkout' ), $e->getMessage() );
			}
			Log::write( $unknown ? 'info' : 'error', sprintf( 'Order %d (%s): %s', $order->get_id(), $source, $message ) );
			return $unknown ? Check_Result::unknown( $message ) : Check_Result::unreachable( $message );
		} catch ( \InvalidArgumentException $e ) {
			return Check_Result::unreachable( $e->getMessage() );
		}
		$this->clock->saw_answer();
		if ( ! $this->events->answers_for( $operation, $attempt, $operation_id ) ) {
			$this->events->hold_foreign_answer( $order, $attempt, $operation );
			return Check_Result::unreachable( __( 'The service answered about another payment; nothing was applied.', 'card2crypto-checkout' ) );
		}
		$outcome = $this->events->process( $operation, $source );
		return Check_Result::answered(
			$outcome,
			$operation,
			/* translators: 1: state in words, 2: outcome */
			sprintf( __( 'The service reports "%1$s" (%2$s).', 'card2crypto-checkout' ), Order_Words::status( $operation->status(), Status_Flow::int_code( $operation->status_code() ) ), $outcome )
		);
	}

	/** The partner API client's lines during a check, as debug (check() logs the outcome). */
	public function client_log( string $level, string $message ): void {
		Log::debug( $message );
	}

	/**
	 * Whether nothing more can happen to an attempt's payment: it completed,
	 * or it ended without payment longer ago than a payment stays open (until
	 * then the buyer may still try again inside the widget, which makes a new
	 * operation under the same attempt, and the service is asked again).
	 */
	public function settled( Attempt $attempt, int $now ): bool {
		$step = Status_Flow::find_step( $attempt->status(), $attempt->status_code() );
		if ( null === $step || ! $step['final'] ) {
			return false;
		}
		return Status_Flow::PHASE_SUCCEEDED === $step['phase']
			|| $now - (int) strtotime( $attempt->updated_at() . ' UTC' ) >= $this->order_attempts->payment_window();
	}
}

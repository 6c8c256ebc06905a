<?php
/**
 * Reconciliation: an Action Scheduler job asks the operation-info endpoint
 * about an order whose payment has waited too long for a callback, with
 * growing delays, and stops at a final state (or when the delays run out,
 * matching the service's own 11-day callback schedule).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Service;

use Card2Crypto\Checkout\Attempts\Address_Store;
use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Attempts\Start_Budget;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Order\Operation_Events;
use Card2Crypto\Checkout\Rules\Order_Words;
use Card2Crypto\Checkout\Rules\Status_Flow;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Client;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Exception;

defined( 'ABSPATH' ) || exit;

final class Reconciler {

	const HOOK  = 'card2crypto_checkout_reconcile';
	const GROUP = 'card2crypto-checkout';

	/** @var Config */
	private $config;

	/** @var Operation_Events */
	private $events;

	public function __construct( Config $config, Operation_Events $events ) {
		$this->config = $config;
		$this->events = $events;
	}

	public function register(): void {
		add_action( self::HOOK, array( $this, 'run' ), 10, 1 );
	}

	/**
	 * Seconds to wait before each check, counted from the last news of the
	 * payment: 15 min, 30 min, 1 h, 2 h, 4 h, then every 12 h up to 11 days.
	 *
	 * @return int[]
	 */
	public static function delays(): array {
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

	/** Schedules the next check of an order (replacing a pending one). */
	public static function schedule( int $order_id, int $checks_done = 0 ): void {
		if ( ! function_exists( 'as_schedule_single_action' ) ) {
			return;
		}
		$delays = self::delays();
		if ( $checks_done >= count( $delays ) ) {
			return;
		}
		as_unschedule_all_actions( self::HOOK, array( $order_id ), self::GROUP );
		as_schedule_single_action( time() + max( 0, $delays[ $checks_done ] ), self::HOOK, array( $order_id ), self::GROUP );
	}

	/**
	 * The Action Scheduler callback. A payment that ended without payment
	 * gets one last look when its payment window has passed: the buyer may
	 * have tried again inside the widget, which makes a new operation under
	 * the same attempt whose callbacks may be lost too.
	 */
	public function run( $order_id ): void {
		$order = wc_get_order( (int) $order_id );
		if ( ! $order instanceof \WC_Order ) {
			return;
		}
		$attempt = Order_Attempts::current_attempt( $order );
		if ( null === $attempt || self::settled( $attempt, time() ) && ! self::ended_unpaid( $attempt ) ) {
			return;
		}
		$delays = self::delays();
		$quiet  = time() - (int) strtotime( $attempt['updated_at'] . ' UTC' );
		if ( self::ended_unpaid( $attempt ) ) {
			if ( $quiet < Order_Attempts::payment_window() ) {
				self::schedule_at( $order->get_id(), time() + Order_Attempts::payment_window() - $quiet );
				return;
			}
		} else {
			$wait = $delays[ min( $attempt['checks'], count( $delays ) - 1 ) ];
			if ( $quiet < $wait && Operation_Store::NO_CODE !== $attempt['status_code'] ) {
				// A callback arrived meanwhile: wait again from that news.
				self::schedule_at( $order->get_id(), time() + ( $wait - $quiet ) );
				return;
			}
		}
		$result = $this->check( $order, $attempt, 'reconcile' );
		Operation_Store::count_check( $attempt );
		$attempt = Operation_Store::attempt( (int) $attempt['id'] );
		// The service confirmed, after the payment window, that this payment ended without payment, or that the buyer
		// never started it: with a new address per order, its index may serve the next order (the wallet's gap limit).
		$never = null !== $attempt && ! $result['ok'] && 'unknown' === ( $result['reason'] ?? '' ) && time() - (int) strtotime( $attempt['created_at'] . ' UTC' ) >= Order_Attempts::payment_window();
		if ( null !== $attempt && ( $never || self::settled( $attempt, time() ) && self::ended_unpaid( $attempt ) ) ) {
			Address_Store::mark_free( (int) $attempt['id'] );
		}
		if ( null !== $attempt && ! Order_Attempts::is_final( $attempt ) ) {
			self::schedule( $order->get_id(), $attempt['checks'] );
		}
	}

	private static function schedule_at( int $order_id, int $when ): void {
		if ( function_exists( 'as_schedule_single_action' ) ) {
			as_schedule_single_action( $when, self::HOOK, array( $order_id ), self::GROUP );
		}
	}

	/** The attempt's payment ended without payment (a final decline). */
	private static function ended_unpaid( array $attempt ): bool {
		$step = Status_Flow::find_step( $attempt['status'], $attempt['status_code'] );
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
	 * @param Partner_Api_Client|null $client The client to ask; the configured one when null.
	 * @return array{ok: bool, outcome?: string, operation?: \Card2Crypto\Checkout\Shared\Api\Operation, reason?: string, message: string} reason when not ok: "unknown" (the service has no
	 *                                                                     operation for the attempt yet) or "unreachable". operation: the latest.
	 * @throws \Throwable When the answer could not be applied (Operation_Events::process()).
	 */
	public function check( \WC_Order $order, array $attempt, string $source, ?Partner_Api_Client $client = null ): array {
		$result = $this->ask( $order, $attempt, null, $source, $client );
		if ( ! $result['ok'] ) {
			return $result;
		}
		$latest = $result['operation']->id();
		foreach ( Operation_Store::operations_of_attempt( (int) $attempt['id'] ) as $known ) {
			if ( $known['operation_id'] === $latest || Operation_Store::NO_CODE === $known['status_code'] || Order_Attempts::is_final( $known ) ) {
				continue;
			}
			$other = $this->ask( $order, $attempt, $known['operation_id'], $source, $client );
			if ( ! $other['ok'] ) {
				return $other;
			}
		}
		return $result;
	}

	/**
	 * One operation-info question about the attempt ($operation_id null: its
	 * latest operation) and, when answered, the answer applied.
	 *
	 * @throws \Throwable When the answer could not be applied.
	 */
	private function ask( \WC_Order $order, array $attempt, ?string $operation_id, string $source, ?Partner_Api_Client $client ): array {
		// A visitor's request (a payment start, a return) stops asking once it has spent its time on the service
		// (Start_Budget); reconciliation and the owner's refresh always ask.
		$visitor = in_array( $source, array( 'start', 'return' ), true );
		if ( $visitor && ! Start_Budget::time_left() ) {
			return array(
				'ok'      => false,
				'reason'  => 'unreachable',
				'message' => __( 'The service was not asked again: this request has waited on it long enough.', 'card2crypto-checkout' ),
			);
		}
		try {
			// The client's own lines as debug: the outcome is logged below at its true level
			// (an attempt the buyer never started paying, or abandoned, is ordinary, not an error).
			$client    = $client ?? $this->config->api_client( array( self::class, 'client_log' ) );
			$operation = $client->operation( $operation_id, $attempt['partner_operation_id'] );
		} catch ( Partner_Api_Exception $e ) {
			// A refusal of the store itself withdraws the method at once (Service_Health).
			Service_Health::saw( $this->config, $e );
			$reason = 'unreachable';
			if ( 'invalid_parameter' === $e->error_code && null === $operation_id && Operation_Store::NO_CODE === $attempt['status_code'] ) {
				$reason  = 'unknown';
				$message = __( 'The service has no operation for this payment yet: the buyer has not started paying.', 'card2crypto-checkout' );
			} else {
				/* translators: %s: error */
				$message = sprintf( __( 'The service could not be asked about this payment: %s', 'card2crypto-checkout' ), $e->getMessage() );
			}
			Log::write( 'unknown' === $reason ? 'info' : 'error', sprintf( 'Order %d (%s): %s', $order->get_id(), $source, $message ) );
			return array(
				'ok'      => false,
				'reason'  => $reason,
				'message' => $message,
			);
		} catch ( \InvalidArgumentException $e ) {
			return array(
				'ok'      => false,
				'reason'  => 'unreachable',
				'message' => $e->getMessage(),
			);
		}
		if ( ! Operation_Events::answers_for( $operation, $attempt, $operation_id ) ) {
			Operation_Events::hold_foreign_answer( $order, $attempt, $operation );
			return array(
				'ok'      => false,
				'reason'  => 'unreachable',
				'message' => __( 'The service answered about another payment; nothing was applied.', 'card2crypto-checkout' ),
			);
		}
		$outcome = $this->events->process( $operation, $source );
		return array(
			'ok'        => true,
			'outcome'   => $outcome,
			'operation' => $operation,
			/* translators: 1: state in words, 2: outcome */
			'message'   => sprintf( __( 'The service reports "%1$s" (%2$s).', 'card2crypto-checkout' ), Order_Words::status( $operation->status(), Status_Flow::int_code( $operation->status_code() ) ), $outcome ),
		);
	}

	/** The partner API client's lines during a check, as debug (check() logs the outcome). */
	public static function client_log( string $level, string $message ): void {
		Log::debug( $message );
	}

	/**
	 * Whether nothing more can happen to an attempt's payment: it completed,
	 * or it ended without payment longer ago than a payment stays open (until
	 * then the buyer may still try again inside the widget, which makes a new
	 * operation under the same attempt, and the service is asked again).
	 */
	public static function settled( array $attempt, int $now ): bool {
		$step = Status_Flow::find_step( $attempt['status'], $attempt['status_code'] );
		if ( null === $step || ! $step['final'] ) {
			return false;
		}
		return Status_Flow::PHASE_SUCCEEDED === $step['phase']
			|| $now - (int) strtotime( $attempt['updated_at'] . ' UTC' ) >= Order_Attempts::payment_window();
	}
}

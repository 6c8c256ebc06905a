<?php
/**
 * The one way a payment of an order starts. Every request that starts a
 * payment or signs one again ("Place order" and "Pay", the landing route,
 * the widget-settings route) passes it exactly once, before anything asks
 * the service, through pass():
 *
 * 1. the order is not paid already;
 * 2. the visitor's budget, per order and per client address (Start_Budget);
 * 3. the service accepts the store (Service_Health) and, when the order is
 *    placed or paid, serves the buyer's billing country;
 * 4. for a new attempt, the order's hourly cap of attempts (Attempt_Policy::over_cap());
 * 5. the order's earlier attempts that are not final are asked about, their
 *    answers applied (Reconciler::check(): a success completes the order),
 *    and the pure rule (Attempt_Policy::before_new_payment()) decides.
 *
 * It refuses with the typed exceptions; what the buyer is told is
 * Buyer_Words', and the order note says it too.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Payment;

use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Attempts\Payment_Held;
use Card2Crypto\Checkout\Attempts\Payment_Refused;
use Card2Crypto\Checkout\Attempts\Service_Refused;
use Card2Crypto\Checkout\Attempts\Start_Budget;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Request_Deadline;
use Card2Crypto\Checkout\Partner\Service_Door;
use Card2Crypto\Checkout\Rules\Attempt_Policy;
use Card2Crypto\Checkout\Rules\Buyer_Words;
use Card2Crypto\Checkout\Rules\Order_Words;
use Card2Crypto\Checkout\Rules\Service_Lanes;
use Card2Crypto\Checkout\Rules\Status_Flow;
use Card2Crypto\Checkout\Service\Check_Result;
use Card2Crypto\Checkout\Service\Reconciler;
use Card2Crypto\Checkout\Service\Outage_Pay_Links;
use Card2Crypto\Checkout\Service\Service_Health;
use Card2Crypto\Checkout\Attempts\Attempt_Store;

defined( 'ABSPATH' ) || exit;

final class Start_Gate {

	/** Placing the order or pressing "Pay": a refusal of the store keeps the order and mails the buyer later (Outage_Pay_Links). */
	const AT_CHECKOUT = 'checkout';

	/** A route that signs the payment (landing, widget settings): the service must accept the store now. */
	const SIGNING = 'signing';

	/** @var Config */
	private $config;

	/** @var Reconciler */
	private $reconciler;

	/** @var Service_Door */
	private $gateway;

	/** @var Attempt_Store */
	private $attempts;

	/** @var Service_Health */
	private $health;

	/** @var Availability */
	private $availability;

	/** @var Outage_Pay_Links */
	private $back;

	/** @var Order_Attempts */
	private $order_attempts;

	/** @var Start_Budget */
	private $budget;

	public function __construct( Config $config, Reconciler $reconciler, Service_Door $gateway, Attempt_Store $attempts, Service_Health $health, Availability $availability, Outage_Pay_Links $back, Order_Attempts $order_attempts, Start_Budget $budget ) {
		$this->config         = $config;
		$this->reconciler     = $reconciler;
		$this->gateway        = $gateway;
		$this->attempts       = $attempts;
		$this->health         = $health;
		$this->availability   = $availability;
		$this->back           = $back;
		$this->order_attempts = $order_attempts;
		$this->budget         = $budget;
	}

	/**
	 * The pass (see the file's header). $only: the current attempt's id when
	 * it is to be signed again (no new attempt: the cap does not apply, and
	 * only that attempt is asked about).
	 *
	 * @param string $address The visitor's address (Client_Address::of()).
	 * @param string $where   AT_CHECKOUT or SIGNING.
	 * @throws Payment_Held    An earlier payment is paid, under way, created and unpaid within its window, or could not be checked.
	 * @throws Service_Refused The service refuses the store (Service_Health): its own plain words.
	 * @throws Payment_Refused The order is paid, the visitor is over the budget, or the order over the cap.
	 * @return \WC_Order The order as stored once the earlier attempts' answers are applied.
	 */
	public function pass( \WC_Order $order, string $address, string $where, ?int $only = null ): \WC_Order {
		if ( $order->is_paid() ) {
			throw new Payment_Refused( __( 'This order is already paid.', 'card2crypto-checkout' ) );
		}
		$this->budget->charge( $order, $address );
		if ( self::AT_CHECKOUT === $where ) {
			// The service refused the store since the page was shown: the buyer stays here and is told (Service_Health).
			if ( ! $this->health->confirm( Service_Health::CHECKOUT_AGE ) ) {
				throw new Service_Refused( $this->back->keep( $order ) );
			}
			$country   = $order->get_billing_country();
			$countries = '' !== $country ? $this->availability->countries() : null;
			if ( null !== $countries && ! in_array( strtoupper( $country ), $countries, true ) ) {
				throw new Payment_Refused( __( 'Card payments are not available in your billing country.', 'card2crypto-checkout' ) );
			}
		} else {
			$this->health->before_sending();
		}
		if ( null === $only ) {
			$this->refuse_over_cap( $order );
		}
		$earlier = $this->bring_up_to_date( $order, $only );
		$this->before_new_payment( $earlier );
		return $earlier->order();
	}

	/**
	 * The order's starts in the last hour are counted before the service is
	 * asked anything: a request over the cap costs the service no call.
	 *
	 * Each start is a row and a signature: a page reloaded in a loop must not make them without end.
	 *
	 * @throws Payment_Refused Over the cap.
	 */
	public function refuse_over_cap( \WC_Order $order ): void {
		if ( Attempt_Policy::over_cap( $this->attempts->attempts_started_since( $order->get_id(), gmdate( 'Y-m-d H:i:s', time() - Attempt_Policy::CAP_WINDOW ) ) ) ) {
			throw new Payment_Refused( __( 'Too many card payments were started for this order in the last hour. Please try again later.', 'card2crypto-checkout' ) );
		}
	}

	/**
	 * Brings the order's earlier attempts up to date: asks the service about
	 * every attempt of the order that is not settled here and that the
	 * service can have an operation for (the current one, or one it reported
	 * on), only the current one ($only) when it is to be signed again, one
	 * operation-info call each (Reconciler::check(), which applies the answer
	 * idempotently: a success completes the order). Returns the order as
	 * stored afterwards and what each answer said, for the verdict.
	 */
	private function bring_up_to_date( \WC_Order $order, ?int $only ): Earlier_Payments {
		$answers = array();
		$current  = (string) $order->get_meta( Keys::META_ATTEMPT );
		$unsigned = (string) $order->get_meta( Keys::META_UNSIGNED );
		foreach ( $this->attempts->attempts_of_order( $order->get_id() ) as $attempt ) {
			if ( $this->reconciler->settled( $attempt, time() ) || ( null !== $only && $attempt->id() !== $only ) ) {
				continue;
			}
			if ( Operation_Store::NO_CODE === $attempt->status_code() && $attempt->partner_operation_id() === $unsigned ) {
				// Never signed for the buyer (placed a moment ago, the landing link not yet followed): the service cannot know it.
				continue;
			}
			if ( Operation_Store::NO_CODE === $attempt->status_code() && $attempt->partner_operation_id() !== $current ) {
				// The service never reported on it, and a newer attempt replaced it (it was asked about then): not asked again.
				continue;
			}
			$asked     = 'answered';
			$operation = null;
			try {
				$result = $this->reconciler->check( $order, $attempt, 'start' );
				if ( ! $result->ok() ) {
					$asked = $result->reason() ?? Check_Result::UNREACHABLE;
				} else {
					$operation = $result->operation();
				}
			} catch ( \Throwable $e ) {
				Log::error( sprintf( 'Order %d: the service\'s answer could not be applied before a new payment: %s', $order->get_id(), $e->getMessage() ) );
				$asked = 'unreachable';
			}
			$fresh     = $this->attempts->attempt( $attempt->id() ) ?? $attempt;
			$known     = Operation_Store::NO_CODE !== $fresh->status_code();
			$answers[] = array(
				'asked'        => $asked,
				'status'       => $known ? $fresh->status() : ( null !== $operation ? $operation->status() : null ),
				'status_code'  => $known ? $fresh->status_code() : ( null !== $operation ? Status_Flow::int_code( $operation->status_code() ) : null ),
				'started'      => $fresh->payment_started( null !== $operation ? $operation->created_at() : null, time() ),
				'mismatch'     => $fresh->mismatch(),
				'card'         => null === $operation || $this->card_entered( $operation ),
				'operation_id' => null !== $operation ? $operation->id() : null,
				'status_url'   => null !== $operation ? $operation->status_url() : null,
				'attempt'      => $fresh,
			);
		}
		return new Earlier_Payments( $this->order_attempts->reloaded( $order ), $answers );
	}

	/**
	 * The pure rule (Attempt_Policy::before_new_payment()) on what the
	 * earlier attempts said. Returns when nothing stands in the way: unused
	 * operations the buyer left are ended at the service first. Otherwise
	 * notes on the order what the buyer is told (Buyer_Words::before_new_payment())
	 * and throws.
	 *
	 * @throws Payment_Held    An earlier payment is paid, under way, created and unpaid within its window, or could not be checked.
	 * @throws Service_Refused The service refuses the store (Service_Health): its own plain words.
	 */
	private function before_new_payment( Earlier_Payments $earlier ): void {
		$order   = $earlier->order();
		$answers = $earlier->answers();
		$verdict = Attempt_Policy::before_new_payment( $order->is_paid(), $answers, time(), $this->order_attempts->payment_window() );
		foreach ( $verdict['cancel'] ?? array() as $index ) {
			$this->end_unused( $order, $answers[ $index ] );
		}
		$outcome = Buyer_Words::before_new_payment( $verdict + ( isset( $verdict['answer'] ) ? array( 'status_url' => $answers[ $verdict['answer'] ]['status_url'] ) : array() ) );
		if ( null === $outcome ) {
			return;
		}
		foreach ( Attempt_Policy::UNDER_WAY === $verdict['verdict'] ? $answers : array() as $answer ) {
			if ( $answer['mismatch'] ) {
				// A payment that does not match the order holds it: told as such, never "under way".
				$outcome = Buyer_Words::outcome( array( 'paid' => false ) + $answer );
				break;
			}
		}
		if ( Attempt_Policy::UNCONFIRMED === $verdict['verdict'] ) {
			if ( Service_Health::REFUSED === $this->health->decide( $this->health->state(), $this->health->fingerprint(), time() ) ) {
				// The service refuses the store itself: its path, its words (the method is withdrawn).
				throw new Service_Refused( $this->back->keep( $order ) );
			}
		}
		// The attempt that stands in the way, for the note.
		$blocking = isset( $verdict['answer'] ) ? $answers[ $verdict['answer'] ] : null;
		$state    = null !== $blocking ? Order_Words::attempt_state( $blocking['status'], $blocking['status_code'], $blocking['asked'] ) : '';
		$order->add_order_note(
			Order_Words::told(
				__( 'the buyer asked to pay again while an earlier payment of this order was not final', 'card2crypto-checkout' ),
				'' !== $state ? $state : __( 'paid', 'card2crypto-checkout' ),
				$outcome['message']
			)
		);
		throw new Payment_Held( $outcome );
	}

	/**
	 * Whether the buyer entered card data in an operation: its
	 * payment_method_info holds something (the service leaves it empty until
	 * the card is entered). Not said at all: taken as entered.
	 */
	private function card_entered( \Card2Crypto\Checkout\Shared\Api\Operation $operation ): bool {
		$data = $operation->to_array();
		if ( ! isset( $data['operation_info']['from'] ) || ! array_key_exists( 'payment_method_info', (array) $data['operation_info']['from'] ) ) {
			return true;
		}
		$info = $data['operation_info']['from']['payment_method_info'];
		return ! ( is_array( $info ) && array() === $info ) && ! ( is_object( $info ) && array() === get_object_vars( $info ) );
	}

	/**
	 * An earlier operation in which no card was entered, left in a window the
	 * buyer closed: ended at the service (cancellation) so that it cannot be
	 * paid later beside the new payment. Best effort: a service that refuses
	 * is noted; nothing was charged in it either way.
	 */
	private function end_unused( \WC_Order $order, array $answer ): void {
		$operation_id = (string) ( $answer['operation_id'] ?? '' );
		if ( '' === $operation_id ) {
			return;
		}
		try {
			$this->gateway->client( Service_Lanes::START )->cancel( $operation_id, $answer['attempt']->partner_operation_id() );
			/* translators: %s: operation id */
			$order->add_order_note( sprintf( __( 'Card2Crypto: the buyer started paying again; the earlier payment (operation %s), in which no card had been entered, was cancelled at the service.', 'card2crypto-checkout' ), $operation_id ) );
		} catch ( \Throwable $e ) {
			Log::warning( sprintf( 'Order %d: operation %s could not be cancelled: %s', $order->get_id(), $operation_id, $e->getMessage() ) );
			/* translators: 1: operation id, 2: the service's answer */
			$order->add_order_note( sprintf( __( 'Card2Crypto: the buyer started paying again; the earlier payment (operation %1$s), in which no card had been entered, could not be cancelled at the service (%2$s). If the buyer pays both, the order is marked "paid twice".', 'card2crypto-checkout' ), $operation_id, $e->getMessage() ) );
		}
	}
}

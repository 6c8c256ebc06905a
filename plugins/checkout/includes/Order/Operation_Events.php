<?php
/**
 * Applies a verified operation (from a callback, reconciliation or an admin
 * refresh) to its order: claim the event (Operation_Store), decide
 * (Order_Decision, pure), move the operation by compare-and-swap and sum up
 * its attempt, then change the order (Order_Actions). One attempt may have
 * several operations (a buyer who tries again inside the widget after a
 * decline): each has its own state, and a confirmed success of any of them
 * pays the order when it matches. The operation's move and the order's change
 * stand or fall together: when changing the order fails, the operation is
 * moved back and the claim released, so the service's next delivery is
 * applied again.
 *
 * A callback that would complete the order is confirmed with the service's
 * operation-info endpoint first, and the service's answer is what is applied.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Order;

use Card2Crypto\Checkout\Attempts\Address_Store;
use Card2Crypto\Checkout\Attempts\Attempt;
use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Attempts\Payment_Refused;
use Card2Crypto\Checkout\Attempts\Success_Unconfirmed;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Partner\Service_Door;
use Card2Crypto\Checkout\Rules\Order_Decision;
use Card2Crypto\Checkout\Rules\Order_Words;
use Card2Crypto\Checkout\Rules\Service_Lanes;
use Card2Crypto\Checkout\Rules\Status_Flow;
use Card2Crypto\Checkout\Shared\Api\Operation;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Exception;
use Card2Crypto\Checkout\Attempts\Attempt_Store;

defined( 'ABSPATH' ) || exit;

final class Operation_Events {

	const UNKNOWN   = 'unknown';
	const DUPLICATE = 'duplicate';
	const APPLIED   = Order_Decision::APPLIED;
	const IGNORED   = Order_Decision::IGNORED;
	const REVIEW    = Order_Decision::REVIEW;

	/** @var Config */
	private $config;

	/** @var Order_Actions */
	private $actions;

	/** @var Service_Door */
	private $gateway;

	/** @var Attempt_Store */
	private $attempts;

	/** @var Operation_Store */
	private $operations;

	/** @var Address_Store */
	private $addresses;

	/** @var Order_Attempts */
	private $order_attempts;

	/** @var Owner_Notice */
	private $notices;

	public function __construct( Config $config, Order_Actions $actions, Service_Door $gateway, Attempt_Store $attempts, Operation_Store $operations, Address_Store $addresses, Order_Attempts $order_attempts, Owner_Notice $notices ) {
		$this->config         = $config;
		$this->actions        = $actions;
		$this->gateway        = $gateway;
		$this->attempts       = $attempts;
		$this->operations     = $operations;
		$this->addresses      = $addresses;
		$this->order_attempts = $order_attempts;
		$this->notices        = $notices;
	}

	/**
	 * @param string $source callback | reconcile | refresh | return | start
	 * @return string One of the constants.
	 * @throws Success_Unconfirmed When a success callback is not (yet) what the service reports: the service's answer was applied,
	 *                        the callback is to be answered non-200 so that it is sent again.
	 * @throws \Throwable     When the order could not be updated, or the service could not be asked to confirm a success: the
	 *                        event is released and the attempt left as it was, so a re-delivery is processed again.
	 */
	public function process( Operation $operation, string $source ): string {
		$attempt = $this->find_attempt( $operation );
		if ( null === $attempt ) {
			Log::info( sprintf( 'Operation %s (partner id %s) is not an order of this store; acknowledged, nothing changed.', $operation->id(), (string) $operation->partner_operation_id() ) );
			return self::UNKNOWN;
		}
		$order = wc_get_order( $attempt->order_id() );
		if ( ! $order instanceof \WC_Order ) {
			Log::warning( sprintf( 'Operation %s belongs to order %d, which no longer exists.', $operation->id(), $attempt->order_id() ) );
			return self::UNKNOWN;
		}

		$behind = null;
		if ( 'callback' === $source && $this->needs_service_answer( $operation, $attempt ) ) {
			$truth = $this->ask_service( $order, $attempt, $operation );
			if ( null === $truth ) {
				return self::REVIEW;
			}
			if ( ! $this->reports_success( $truth ) ) {
				$behind = sprintf( 'the callback reported "%s" %d, the service reports "%s" %d', $operation->status(), Status_Flow::int_code( $operation->status_code() ), $truth->status(), Status_Flow::int_code( $truth->status_code() ) );
			}
			$operation = $truth;
			$source    = 'confirmed';
		}

		$outcome = $this->apply( $order, $attempt, $operation, $source );
		if ( null !== $behind ) {
			// What the service reports was applied; the success was not: the service is asked to send it again.
			throw new Success_Unconfirmed( $behind );
		}
		return $outcome;
	}

	/**
	 * A later try of a confirmation the service could not take
	 * (Confirm_Retry), with the service's fresh answer about the operation:
	 * under the order's lock, it is confirmed only while the operation the
	 * store applied is still the one awaiting confirmation, the order unpaid,
	 * and Order_Decision (the same facts as an event's) still decides to
	 * confirm it; when the order or payment changed meanwhile, what it decides
	 * now is done instead (a hold that asks the owner). Answers what was done:
	 * confirm (tried: Order_Actions noted, queued again or told the owner),
	 * decided, moved (the operation is no longer where the confirmation was
	 * queued: nothing to confirm) or paid.
	 *
	 * @param array $retry {tries, first, claim} of the claimed queue row (Confirm_Queue).
	 */
	public function confirm_again( \WC_Order $order, Attempt $attempt, Operation $answer, array $retry ): string {
		return $this->operations->with_order_lock(
			$order->get_id(),
			function () use ( $order, $attempt, $answer, $retry ): string {
				$order   = $this->order_attempts->reloaded( $order );
				$attempt = $this->attempts->attempt( $attempt->id() ) ?? $attempt;
				$state   = Status_Flow::state_of( $this->operations->operation_of( $attempt, $answer->id() ) );
				$code    = Status_Flow::int_code( $answer->status_code() );
				if ( null === $state || $state['status'] !== $answer->status() || $state['status_code'] !== $code ) {
					return 'moved';
				}
				if ( $order->is_paid() ) {
					return 'paid';
				}
				$via    = __( 'confirmed on a later try, the service having been busy', 'card2crypto-checkout' );
				$action = Order_Decision::decide( $this->facts( $order, $attempt, null, $answer ) );
				if ( Order_Decision::ORDER_CONFIRM !== $action->order() ) {
					$this->actions->perform( $order, $action, $attempt, null, $answer, $via );
					return 'decided';
				}
				$this->actions->confirm_again( $order, $attempt, $answer, $via, $retry );
				return 'confirm';
			}
		);
	}

	/**
	 * Claims the event and applies it; a duplicate is not applied again (and
	 * never waits). Applying holds the order's lock, and reads the order and
	 * the attempt again under it: another event may have changed them since
	 * they were loaded.
	 */
	private function apply( \WC_Order $order, Attempt $attempt, Operation $operation, string $source ): string {
		$status = $operation->status();
		$code   = Status_Flow::int_code( $operation->status_code() );
		if ( ! $this->operations->claim_event( $attempt, $operation->id(), $status, $code, $source ) ) {
			Log::debug( sprintf( 'Order %d: %s %d of operation %s already received (%s).', $order->get_id(), $status, $code, $operation->id(), $source ) );
			return self::DUPLICATE;
		}
		try {
			$outcome = $this->operations->with_order_lock(
				$order->get_id(),
				function () use ( $order, $attempt, $operation, $source ): string {
					$attempt = $this->attempts->attempt( $attempt->id() ) ?? $attempt;
					return $this->apply_claimed( $this->order_attempts->reloaded( $order ), $attempt, $this->operations->operation_of( $attempt, $operation->id() ), $operation, $this->source_label( $source ) );
				}
			);
		} catch ( \Throwable $e ) {
			$this->operations->release_event( $attempt, $operation->id(), $status, $code );
			throw $e;
		}
		$this->operations->set_event_outcome( $attempt, $operation->id(), $status, $code, $outcome );
		return $outcome;
	}

	private function reports_success( Operation $operation ): bool {
		$step = Status_Flow::find_step( $operation->status(), Status_Flow::int_code( $operation->status_code() ) );
		return null !== $step && Status_Flow::PHASE_SUCCEEDED === $step['phase'];
	}

	/** The attempt an operation belongs to: by its partner_operation_id, else by the operation's own id. */
	private function find_attempt( Operation $operation ): ?Attempt {
		$partner_id = $operation->partner_operation_id();
		if ( null !== $partner_id && '' !== $partner_id ) {
			return $this->attempts->attempt_by_partner_id( $partner_id );
		}
		return $this->attempts->attempt_by_operation_id( $operation->id() );
	}

	/**
	 * A callback that would complete an order is only a trigger: the signed
	 * canonical string cannot be trusted alone (docs/decisions.md, "Callbacks:
	 * ambiguous bodies and the service's word"), so a success that would move
	 * the attempt is confirmed with the operation-info endpoint first.
	 */
	private function needs_service_answer( Operation $operation, Attempt $attempt ): bool {
		if ( ! $this->reports_success( $operation ) ) {
			return false;
		}
		$known      = $this->operations->operation_of( $attempt, $operation->id() );
		$transition = Status_Flow::decide( Status_Flow::state_of( $known ), array( 'status' => $operation->status(), 'status_code' => Status_Flow::int_code( $operation->status_code() ) ) );
		return 'apply' === $transition['action'];
	}

	/**
	 * The service's answer about the callback's operation, or null when the
	 * service says it has no such operation for this attempt, or answers
	 * about another payment (noted, the owner told; nothing is applied).
	 *
	 * Asked first in line (a callback's confirmation: Service_Lanes::PAYING).
	 *
	 * @throws \RuntimeException When the service cannot be asked (the callback is answered 500 and sent again).
	 */
	private function ask_service( \WC_Order $order, Attempt $attempt, Operation $callback ): ?Operation {
		try {
			$truth = $this->gateway->client( Service_Lanes::PAYING )->operation( $callback->id(), $attempt->partner_operation_id() );
		} catch ( Partner_Api_Exception $e ) {
			if ( Partner_Api_Exception::HTTP === $e->kind && 400 === $e->status ) {
				$note = sprintf(
					/* translators: 1: state in words, 2: operation id, 3: error */
					__( 'Card2Crypto: a callback reported "%1$s" for operation %2$s, but the service does not confirm it (%3$s). Nothing was changed.', 'card2crypto-checkout' ),
					Order_Words::status( $callback->status(), Status_Flow::int_code( $callback->status_code() ) ),
					$callback->id(),
					$e->getMessage()
				);
				$order->add_order_note( $note );
				$this->notices->send( $order, __( 'A card payment needs your review', 'card2crypto-checkout' ), $note, $callback->id() );
				return null;
			}
			throw new \RuntimeException( 'The service could not confirm the callback: ' . $e->getMessage(), 0, $e );
		} catch ( \InvalidArgumentException $e ) {
			throw new \RuntimeException( 'The service could not be asked to confirm the callback: ' . $e->getMessage(), 0, $e );
		}
		if ( ! $this->answers_for( $truth, $attempt, $callback->id() ) ) {
			$this->hold_foreign_answer( $order, $attempt, $truth );
			return null;
		}
		$order->add_order_note(
			sprintf(
				/* translators: 1: callback's state in words, 2: operation id, 3: service's state in words */
				__( 'Card2Crypto: a callback reported "%1$s"; asked about operation %2$s, the service answers "%3$s". The service\'s answer is applied.', 'card2crypto-checkout' ),
				Order_Words::status( $callback->status(), Status_Flow::int_code( $callback->status_code() ) ),
				$truth->id(),
				Order_Words::status( $truth->status(), Status_Flow::int_code( $truth->status_code() ) )
			)
		);
		return $truth;
	}

	/**
	 * Whether the service's answer is about this attempt (its
	 * partner_operation_id) and, when one was asked about, this operation.
	 */
	public function answers_for( Operation $answer, Attempt $attempt, ?string $operation_id = null ): bool {
		return (string) $answer->partner_operation_id() === $attempt->partner_operation_id()
			&& ( null === $operation_id || $answer->id() === $operation_id );
	}

	/**
	 * An answer of the service about another payment than the one asked
	 * about is never applied: the order is held (unless paid), the attempt
	 * flagged, the owner told.
	 *
	 * @throws \RuntimeException When the order could not be held.
	 */
	public function hold_foreign_answer( \WC_Order $order, Attempt $attempt, Operation $answer ): void {
		$note = sprintf(
			/* translators: 1: the payment's reference at the service, 2: the operation id answered, 3: the reference the answer names */
			__( 'Card2Crypto: asked about payment %1$s, the service answered about operation %2$s of payment "%3$s", which is not this one. Nothing was applied; the order is on hold until you check the payment in the partner portal.', 'card2crypto-checkout' ),
			$attempt->partner_operation_id(),
			$answer->id(),
			(string) $answer->partner_operation_id()
		);
		Log::warning( sprintf( 'Order %d: %s', $order->get_id(), $note ) );
		$this->attempts->flag_mismatch( $attempt );
		if ( $order->is_paid() || $order->has_status( 'on-hold' ) ) {
			$order->add_order_note( $note );
		} elseif ( false === $order->update_status( 'on-hold', $note ) ) {
			throw new \RuntimeException( 'The order was not updated: it could not be put on hold.' );
		}
		$this->notices->send( $order, __( 'A card payment needs your review', 'card2crypto-checkout' ), $note, $answer->id() );
	}

	private function apply_claimed( \WC_Order $order, Attempt $attempt, array $known, Operation $operation, string $via ): string {
		for ( $try = 0; $try < 10; $try++ ) {
			$state  = Status_Flow::state_of( $known );
			$action = Order_Decision::decide( $this->facts( $order, $attempt, $state, $operation ) );
			if ( ! $action->advance() ) {
				$this->actions->perform( $order, $action, $attempt, $state, $operation, $via );
				return $action->outcome();
			}
			if ( $this->operations->swap_state( $known, $operation->status(), Status_Flow::int_code( $operation->status_code() ) ) ) {
				// The operation moved: the order must move too, or the operation goes back (a re-delivery then finds it where it was).
				try {
					$this->operations->sum_up( $attempt->id() );
					$summed = $this->attempts->attempt( $attempt->id() );
					if ( null === $summed || $summed->operation_id() === $operation->id() ) {
						// What the order screens show follows the operation that speaks for the attempt (a late decline of
						// an earlier operation does not hide the payment of the one after it).
						$this->store_operation_meta( $order, $operation );
					}
					$this->actions->perform( $order, $action, $attempt, $state, $operation, $via );
				} catch ( \Throwable $e ) {
					$this->operations->restore_state( $known );
					$this->operations->sum_up( $attempt->id() );
					throw $e;
				}
				if ( $action->flag_mismatch() ) {
					$this->attempts->flag_mismatch( $attempt );
				}
				return $action->outcome();
			}
			// Another event moved the operation meanwhile: decide again against its state.
			$known = $this->operations->operation( (int) $known['id'] ) ?? $known;
		}
		throw new \RuntimeException( 'The payment state kept changing while this event was applied.' );
	}

	/** What Order_Decision needs to know, read from the attempt, the order and the operation. */
	private function facts( \WC_Order $order, Attempt $attempt, ?array $state, Operation $operation ): array {
		try {
			$order_amount = $this->order_attempts->order_amount( $order );
		} catch ( Payment_Refused $e ) {
			$order_amount = null;
		}
		return array(
			'state'        => $state,
			'event'        => array(
				'status'       => $operation->status(),
				'status_code'  => Status_Flow::int_code( $operation->status_code() ),
				'operation_id' => $operation->id(),
			),
			'attempt'      => array(
				'partner_operation_id' => $attempt->partner_operation_id(),
				'mismatch'             => $attempt->mismatch(),
				'current'              => (string) $order->get_meta( Keys::META_ATTEMPT ) === $attempt->partner_operation_id(),
			),
			'expected'     => $attempt->expected(),
			'received'     => array(
				'amount'      => $operation->from_amount(),
				'currency'    => $operation->from_currency(),
				'wallet'      => $operation->to_address(),
				'to_currency' => $operation->to_currency(),
			),
			'others_live'  => $this->operations->may_be_paid_besides( $order->get_id(), $operation->id() ),
			// Signed for the embedded widget: after a decline the buyer may try again there, under this attempt.
			'widget_retry' => (string) $order->get_meta( Keys::META_WIDGET_ATTEMPT ) === $attempt->partner_operation_id(),
			'order'        => array(
				'paid'              => $order->is_paid(),
				'failed'            => $order->has_status( 'failed' ),
				'paid_by'           => (string) $order->get_meta( Keys::META_PAID_BY ),
				'paid_by_operation' => (string) $order->get_meta( Keys::META_PAID_BY_OPERATION ),
				'amount'            => $order_amount,
				'currency'          => (string) $order->get_currency(),
			),
			'auto_confirm' => $this->config->auto_confirm(),
			'address_elsewhere' => $this->address_elsewhere( $order, $attempt ),
		);
	}

	/** The other order the attempt's address was given to since (a new address per order), 0 when none. */
	private function address_elsewhere( \WC_Order $order, Attempt $attempt ): int {
		$row = $this->addresses->of_address( $attempt->wallet() );
		return null !== $row && $row['order_id'] !== $order->get_id() ? $row['order_id'] : 0;
	}

	/** Keeps what the order screens show, from the latest applied event. */
	private function store_operation_meta( \WC_Order $order, Operation $operation ): void {
		$data     = $operation->to_array();
		$previous = $order->get_meta( Keys::META_OPERATION );
		// Another operation's details (its card, its transaction) never stay beside this one's.
		$previous = is_array( $previous ) && ( $previous['id'] ?? null ) === $operation->id() ? $previous : array();
		$fresh    = array_filter(
			array(
				'id'            => $operation->id(),
				'status'        => $operation->status(),
				'status_code'   => Status_Flow::int_code( $operation->status_code() ),
				'from_amount'   => $operation->from_amount(),
				'from_currency' => $operation->from_currency(),
				'to_amount'     => $operation->to_amount(),
				'to_currency'   => $operation->to_currency(),
				// The service's rate (fiat per whole coin) as checked (an int or a float), for the owner's books.
				'currency_rate' => $data['operation_info']['currency_rate'] ?? null,
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
		$order->update_meta_data( Keys::META_OPERATION, array_merge( $previous, $fresh, array( 'updated_at' => time() ) ) );
		$order->save();
	}

	/** Where the news came from, in the owner's words (order notes). */
	private function source_label( string $source ): string {
		switch ( $source ) {
			case 'callback':
				return __( 'reported by the service', 'card2crypto-checkout' );
			case 'confirmed':
				return __( 'reported by the service and confirmed with it', 'card2crypto-checkout' );
			case 'reconcile':
				return __( 'found when the store checked with the service (no report had come)', 'card2crypto-checkout' );
			case 'return':
				return __( 'found when the buyer came back to the store', 'card2crypto-checkout' );
			case 'start':
				return __( 'found when the buyer asked to pay again', 'card2crypto-checkout' );
			default:
				return __( 'found when the order was refreshed from the service', 'card2crypto-checkout' );
		}
	}
}

<?php
/**
 * The buyer comes back from a card payment that did not end on the success
 * page: the landing page's fail redirect (redirect flow, block or classic
 * checkout) or the embedded widget's onOperationFail / onExit. The store asks
 * the service about the order's current attempt at once (the operation-info
 * path of reconciliation, Reconciler::check()), applies the answer through
 * Operation_Events (idempotent: an order never moves backwards, a success
 * completes it), notes on the order what the buyer was told, and tells the
 * buyer in plain words (Buyer_Words) what happened and what they can do.
 *
 * Redirect flow: the fail address is the order-pay page with RETURN_ARG; on
 * template_redirect the order key is checked, the answer applied, a
 * WooCommerce notice added, and the buyer redirected to the order-pay page
 * (its "Pay" starts a fresh attempt) or, when paid, the thank-you page.
 * Embedded flow: Order_Pay::rest_returned() answers the same as JSON.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

use Card2Crypto\Checkout\Shared\Api\Partner_Api_Client;

defined( 'ABSPATH' ) || exit;

final class Buyer_Return {

	/** Query argument on the order-pay URL that marks the landing page's fail redirect. */
	const RETURN_ARG = 'card2crypto-return';

	/** Query argument on the order-pay URL: the service refused the store when the payment was to start (Service_Health). */
	const UNAVAILABLE_ARG = 'card2crypto-unavailable';

	/** Query argument on the order-pay URL: the landing link was followed and no payment started; the words why are kept for the order (told_url()). */
	const TOLD_ARG = 'card2crypto-told';

	public static function register(): void {
		add_action( 'template_redirect', array( self::class, 'on_template_redirect' ), 5 );
	}

	/** The fail address given to the landing page. */
	public static function fail_url( \WC_Order $order ): string {
		return add_query_arg( self::RETURN_ARG, '1', $order->get_checkout_payment_url() );
	}

	/**
	 * Where a buyer goes when the service refuses the store as their payment
	 * was to start (the landing route, the widget settings): the order's
	 * order-pay page, where the method is withdrawn and a notice says why.
	 */
	public static function unavailable_url( \WC_Order $order ): string {
		return add_query_arg( self::UNAVAILABLE_ARG, '1', $order->get_checkout_payment_url() );
	}

	/**
	 * Where a buyer goes when the landing link was followed and no payment
	 * started (an earlier payment stands in the way, the rate could not be
	 * fixed, too many attempts): the order's payment page, where the words
	 * they are told (kept a few minutes for the order, read once after the
	 * order key is checked) become a notice.
	 *
	 * @param string $type WooCommerce notice type: "notice" or "error".
	 */
	public static function told_url( \WC_Order $order, string $message, string $type, ?array $link = null ): string {
		set_transient(
			self::told_key( $order ),
			array(
				'message' => $message,
				'type'    => 'error' === $type ? 'error' : 'notice',
				'link'    => $link,
			),
			5 * MINUTE_IN_SECONDS
		);
		return add_query_arg( self::TOLD_ARG, '1', $order->get_checkout_payment_url() );
	}

	private static function told_key( \WC_Order $order ): string {
		return 'card2crypto_checkout_told_' . $order->get_id();
	}

	/** The landing page's fail redirect: ask, apply, tell (notice), redirect. */
	public static function on_template_redirect(): void {
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- shows words the store itself kept for this order, once, after the order key is checked.
		if ( isset( $_GET[ self::TOLD_ARG ], $_GET['key'] ) && function_exists( 'is_wc_endpoint_url' ) && is_wc_endpoint_url( 'order-pay' ) ) {
			$order = wc_get_order( absint( get_query_var( 'order-pay' ) ) );
			$key   = sanitize_text_field( wp_unslash( (string) $_GET['key'] ) ); // phpcs:ignore WordPress.Security.NonceVerification.Recommended
			if ( $order instanceof \WC_Order && '' !== $key && hash_equals( $order->get_order_key(), $key ) ) {
				$told = get_transient( self::told_key( $order ) );
				delete_transient( self::told_key( $order ) );
				if ( is_array( $told ) && isset( $told['message'], $told['type'] ) && '' !== $told['message'] ) {
					self::start_session();
					wc_add_notice( Buyer_Words::notice_html( $told ), (string) $told['type'] );
				}
			}
			wp_safe_redirect( remove_query_arg( self::TOLD_ARG ) );
			exit;
		}
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- only adds a fixed notice and drops the argument.
		if ( isset( $_GET[ self::UNAVAILABLE_ARG ] ) && function_exists( 'is_wc_endpoint_url' ) && is_wc_endpoint_url( 'order-pay' ) ) {
			self::start_session();
			// Plain words, never the service's message: the order is kept, and the buyer hears when card payment is back.
			$order = wc_get_order( absint( get_query_var( 'order-pay' ) ) );
			$key   = isset( $_GET['key'] ) ? sanitize_text_field( wp_unslash( (string) $_GET['key'] ) ) : ''; // phpcs:ignore WordPress.Security.NonceVerification.Recommended
			$mine  = $order instanceof \WC_Order && '' !== $key && hash_equals( $order->get_order_key(), $key ) && Keys::GATEWAY_ID === $order->get_payment_method();
			wc_add_notice( esc_html( $mine ? Service_Back::keep( $order ) : Service_Health::buyer_message() ), 'error' );
			wp_safe_redirect( remove_query_arg( self::UNAVAILABLE_ARG ) );
			exit;
		}
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- a GET redirect from the service's page; the order key is the proof, and it only asks the service.
		if ( ! isset( $_GET[ self::RETURN_ARG ], $_GET['key'] ) || ! function_exists( 'is_wc_endpoint_url' ) || ! is_wc_endpoint_url( 'order-pay' ) ) {
			return;
		}
		$order = wc_get_order( absint( get_query_var( 'order-pay' ) ) );
		$key   = sanitize_text_field( wp_unslash( (string) $_GET['key'] ) ); // phpcs:ignore WordPress.Security.NonceVerification.Recommended
		if ( ! $order instanceof \WC_Order || '' === $key || ! hash_equals( $order->get_order_key(), $key ) || Keys::GATEWAY_ID !== $order->get_payment_method() ) {
			// Not ours to answer: WooCommerce's own order-pay page handles it (and its errors).
			return;
		}
		$outcome = self::tell( $order, 'fail' );
		if ( Buyer_Words::PAID === $outcome['kind'] ) {
			wp_safe_redirect( $order->get_checkout_order_received_url() );
			exit;
		}
		self::start_session();
		wc_add_notice( esc_html( $outcome['message'] ), $outcome['type'] );
		wp_safe_redirect( $order->get_checkout_payment_url() );
		exit;
	}

	/** A guest's notice must survive the redirect: it needs a session cookie. */
	private static function start_session(): void {
		if ( function_exists( 'WC' ) && WC()->session && ! WC()->session->has_session() ) {
			WC()->session->set_customer_session_cookie( true );
		}
	}

	/**
	 * Asks the service about the order's current attempt, applies the answer,
	 * notes what the buyer is told; returns Buyer_Words::outcome().
	 *
	 * @param string                  $event  "fail" (landing fail redirect, onOperationFail) or "exit" (onExit).
	 * @param Partner_Api_Client|null $client The client to ask; the configured one when null.
	 */
	public static function tell( \WC_Order $order, string $event, ?Partner_Api_Client $client = null ): array {
		$asked   = 'answered';
		$attempt = Order_Attempts::current_attempt( $order );
		if ( ! $order->is_paid() && null !== $attempt && ! Reconciler::settled( $attempt, time() ) ) {
			try {
				// Budgeted before the call (Start_Budget): over it, the buyer is told it could not be confirmed yet.
				Start_Budget::charge( $order, Client_Address::current() );
				$result = Reconciler::check( $order, $attempt, 'return', $client );
				if ( ! $result['ok'] ) {
					$asked = $result['reason'] ?? 'unreachable';
				}
			} catch ( \Throwable $e ) {
				Log::error( sprintf( 'Order %d: the service\'s answer could not be applied when the buyer came back: %s', $order->get_id(), $e->getMessage() ) );
				$asked = 'unreachable';
			}
			$attempt = Operation_Store::attempt( (int) $attempt['id'] ) ?? $attempt;
		} elseif ( null === $attempt ) {
			$asked = 'unknown';
		}
		$order = Order_Attempts::reloaded( $order );
		$known = null !== $attempt && Operation_Store::NO_CODE !== $attempt['status_code'];
		if ( 'answered' === $asked && ! $known ) {
			$asked = 'unknown';
		}
		$outcome = Buyer_Words::outcome(
			array(
				'paid'        => $order->is_paid(),
				'asked'       => $asked,
				'status'      => $known ? $attempt['status'] : null,
				'status_code' => $known ? $attempt['status_code'] : null,
				'event'       => $event,
				'mismatch'    => null !== $attempt && 1 === (int) ( $attempt['mismatch'] ?? 0 ),
				// A payment of the order in another window (another operation) may be under way.
				'others_live' => Operation_Store::may_be_paid_besides( $order->get_id(), null === $attempt ? '' : (string) $attempt['operation_id'] ),
			)
		);
		self::note_told(
			$order,
			'exit' === $event ? __( 'the buyer closed the payment window', 'card2crypto-checkout' ) : __( 'the buyer came back from a payment that did not succeed', 'card2crypto-checkout' ),
			self::state_words( $known ? $attempt['status'] : null, $known ? $attempt['status_code'] : null, $asked ),
			$outcome['message']
		);
		return $outcome;
	}

	/**
	 * Before a new payment of the order starts (Payments::start_attempt(),
	 * Payments::fitting_attempt()): asks the service about every attempt of
	 * the order that is not settled here and that the service can have an
	 * operation for (the current one, or one it reported on), only the
	 * current one ($only) when it is to be signed again, one operation-info
	 * call each
	 * (Reconciler::check(), which applies the answer idempotently: a success
	 * completes the order), and decides (Attempt_Policy::before_new_payment()).
	 * Returns when nothing stands in the way; otherwise notes on the order
	 * what the buyer is told (Buyer_Words::before_new_payment()) and throws.
	 *
	 * @param Partner_Api_Client|null $client The client to ask; the configured one when null.
	 * @throws Payment_Held    An earlier payment is paid, under way, created and unpaid within its window, or could not be checked.
	 * @throws Service_Refused The service refuses the store (Service_Health): its own plain words.
	 */
	public static function before_new_payment( \WC_Order $order, ?Partner_Api_Client $client = null, ?int $only = null ): void {
		$answers = array();
		$current = (string) $order->get_meta( Keys::META_ATTEMPT );
		foreach ( Operation_Store::attempts_of_order( $order->get_id() ) as $attempt ) {
			if ( Reconciler::settled( $attempt, time() ) || ( null !== $only && (int) $attempt['id'] !== $only ) ) {
				continue;
			}
			if ( Operation_Store::NO_CODE === $attempt['status_code'] && $attempt['partner_operation_id'] !== $current ) {
				// The service never reported on it, and a newer attempt replaced it (it was asked about then): not asked again.
				continue;
			}
			$asked     = 'answered';
			$operation = null;
			try {
				$result = Reconciler::check( $order, $attempt, 'start', $client );
				if ( ! $result['ok'] ) {
					$asked = $result['reason'] ?? 'unreachable';
				} else {
					$operation = $result['operation'] ?? null;
				}
			} catch ( \Throwable $e ) {
				Log::error( sprintf( 'Order %d: the service\'s answer could not be applied before a new payment: %s', $order->get_id(), $e->getMessage() ) );
				$asked = 'unreachable';
			}
			$fresh     = Operation_Store::attempt( (int) $attempt['id'] ) ?? $attempt;
			$known     = Operation_Store::NO_CODE !== $fresh['status_code'];
			$answers[] = array(
				'asked'        => $asked,
				'status'       => $known ? $fresh['status'] : ( null !== $operation ? $operation->status() : null ),
				'status_code'  => $known ? $fresh['status_code'] : ( null !== $operation ? Status_Flow::int_code( $operation->status_code() ) : null ),
				'started'      => Order_Attempts::window_start( $fresh, null !== $operation ? $operation->created_at() : null ),
				'mismatch'     => 1 === (int) ( $fresh['mismatch'] ?? 0 ),
				'card'         => null === $operation || self::card_entered( $operation ),
				'operation_id' => null !== $operation ? $operation->id() : null,
				'status_url'   => null !== $operation ? $operation->status_url() : null,
				'attempt'      => $fresh,
			);
		}
		$order   = Order_Attempts::reloaded( $order );
		$verdict = Attempt_Policy::before_new_payment( $order->is_paid(), $answers, time(), Order_Attempts::payment_window() );
		foreach ( $verdict['cancel'] ?? array() as $index ) {
			self::end_unused( $order, $answers[ $index ], $client );
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
			$config = Config::load();
			if ( Service_Health::REFUSED === Service_Health::decide( Service_Health::state(), Service_Health::fingerprint( $config ), time() ) ) {
				// The service refuses the store itself: its path, its words (the method is withdrawn).
				throw new Service_Refused( Service_Back::keep( $order ) );
			}
		}
		// The attempt that stands in the way, for the note.
		$blocking = isset( $verdict['answer'] ) ? $answers[ $verdict['answer'] ] : null;
		$state    = null !== $blocking ? self::state_words( $blocking['status'], $blocking['status_code'], $blocking['asked'] ) : '';
		self::note_told(
			$order,
			__( 'the buyer asked to pay again while an earlier payment of this order was not final', 'card2crypto-checkout' ),
			'' !== $state ? $state : __( 'paid', 'card2crypto-checkout' ),
			$outcome['message']
		);
		throw new Payment_Held( $outcome );
	}

	/**
	 * Whether the buyer entered card data in an operation: its
	 * payment_method_info holds something (the service leaves it empty until
	 * the card is entered). Not said at all: taken as entered.
	 */
	private static function card_entered( \Card2Crypto\Checkout\Shared\Api\Operation $operation ): bool {
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
	private static function end_unused( \WC_Order $order, array $answer, ?Partner_Api_Client $client ): void {
		$operation_id = (string) ( $answer['operation_id'] ?? '' );
		if ( '' === $operation_id ) {
			return;
		}
		try {
			( $client ?? Config::load()->api_client() )->cancel( $operation_id, (string) $answer['attempt']['partner_operation_id'] );
			/* translators: %s: operation id */
			$order->add_order_note( sprintf( __( 'Card2Crypto: the buyer started paying again; the earlier payment (operation %s), in which no card had been entered, was cancelled at the service.', 'card2crypto-checkout' ), $operation_id ) );
		} catch ( \Throwable $e ) {
			Log::warning( sprintf( 'Order %d: operation %s could not be cancelled: %s', $order->get_id(), $operation_id, $e->getMessage() ) );
			/* translators: 1: operation id, 2: the service's answer */
			$order->add_order_note( sprintf( __( 'Card2Crypto: the buyer started paying again; the earlier payment (operation %1$s), in which no card had been entered, could not be cancelled at the service (%2$s). If the buyer pays both, the order is marked "paid twice".', 'card2crypto-checkout' ), $operation_id, $e->getMessage() ) );
		}
	}

	/** An attempt's state for an order note, or why it is not known. */
	private static function state_words( $status, $status_code, string $asked ): string {
		if ( null !== $status_code && Operation_Store::NO_CODE !== $status_code ) {
			return Order_Words::status( $status, $status_code );
		}
		return 'unreachable' === $asked ? __( 'not confirmed: the service could not be asked', 'card2crypto-checkout' ) : __( 'not known to the service yet', 'card2crypto-checkout' );
	}

	/** The order note saying what the buyer was told, and why. */
	private static function note_told( \WC_Order $order, string $what, string $state, string $message ): void {
		$order->add_order_note(
			sprintf(
				/* translators: 1: what the buyer did, 2: the state in words, 3: what the buyer was told */
				__( 'Card2Crypto: %1$s; the payment is "%2$s". The buyer was told: "%3$s"', 'card2crypto-checkout' ),
				$what,
				$state,
				$message
			)
		);
	}
}

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
 * Redirect flow: the fail address is the order-pay page with Return_Pages::RETURN_ARG; on
 * template_redirect the order key is checked, the answer applied, a
 * WooCommerce notice added, and the buyer redirected to the order-pay page
 * (its "Pay" starts a fresh attempt) or, when paid, the thank-you page.
 * Embedded flow: Order_Pay::rest_returned() answers the same as JSON.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Buyer;

use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Attempts\Start_Budget;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Other_Methods;
use Card2Crypto\Checkout\Base\Request_Deadline;
use Card2Crypto\Checkout\Callback\Client_Address;
use Card2Crypto\Checkout\Payment\Return_Pages;
use Card2Crypto\Checkout\Rules\Buyer_Words;
use Card2Crypto\Checkout\Rules\Order_Words;
use Card2Crypto\Checkout\Rules\Status_Flow;
use Card2Crypto\Checkout\Service\Check_Result;
use Card2Crypto\Checkout\Service\Reconciler;
use Card2Crypto\Checkout\Service\Outage_Pay_Links;
use Card2Crypto\Checkout\Service\Service_Health;
use Card2Crypto\Checkout\Attempts\Attempt_Store;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Buyer_Return implements Hooks {

	/** Order meta: a hash of the last note saying what the buyer was told on coming back (one note per change). */
	const META_TOLD = '_card2crypto_told_note';

	/** @var Config */
	private $config;

	/** @var Reconciler */
	private $reconciler;

	/** @var Service_Health */
	private $health;

	/** @var Outage_Pay_Links */
	private $back;

	/** @var Attempt_Store */
	private $attempts;

	/** @var Operation_Store */
	private $operations;

	/** @var Return_Pages */
	private $pages;

	/** @var Order_Attempts */
	private $order_attempts;

	/** @var Start_Budget */
	private $budget;

	/** @var Order_Routes */
	private $routes;

	/** @var Client_Address */
	private $client_address;

	public function __construct( Config $config, Reconciler $reconciler, Service_Health $health, Outage_Pay_Links $back, Attempt_Store $attempts, Operation_Store $operations, Return_Pages $pages, Order_Attempts $order_attempts, Start_Budget $budget, Order_Routes $routes, Client_Address $client_address ) {
		$this->config         = $config;
		$this->reconciler     = $reconciler;
		$this->health         = $health;
		$this->back           = $back;
		$this->attempts       = $attempts;
		$this->operations     = $operations;
		$this->pages          = $pages;
		$this->order_attempts = $order_attempts;
		$this->budget         = $budget;
		$this->routes         = $routes;
		$this->client_address = $client_address;
	}

	public function register(): void {
		add_action( 'template_redirect', array( $this, 'on_template_redirect' ), 5 );
	}

	/** The landing page's fail redirect: ask, apply, tell (notice), redirect. */
	public function on_template_redirect(): void {
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- shows words the store itself kept for this order, once, after the order key is checked.
		if ( isset( $_GET[ Return_Pages::TOLD_ARG ], $_GET['key'] ) && function_exists( 'is_wc_endpoint_url' ) && is_wc_endpoint_url( 'order-pay' ) ) {
			$order = wc_get_order( absint( get_query_var( 'order-pay' ) ) );
			$key   = sanitize_text_field( wp_unslash( (string) $_GET['key'] ) ); // phpcs:ignore WordPress.Security.NonceVerification.Recommended
			// Only the order's owner reads them: a registered customer's order asks its customer to log in, as WooCommerce does.
			if ( $order instanceof \WC_Order && '' !== $key && hash_equals( $order->get_order_key(), $key ) && $this->routes->owner_may_act( $order ) ) {
				$told = $this->pages->take_told( $order );
				if ( null !== $told ) {
					$this->start_session();
					wc_add_notice( Buyer_Words::notice_html( $told ), $told['type'] );
				}
			}
			wp_safe_redirect( remove_query_arg( Return_Pages::TOLD_ARG ) );
			exit;
		}
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- only adds a fixed notice and drops the argument.
		if ( isset( $_GET[ Return_Pages::UNAVAILABLE_ARG ] ) && function_exists( 'is_wc_endpoint_url' ) && is_wc_endpoint_url( 'order-pay' ) ) {
			$this->start_session();
			// Plain words, never the service's message: the order is kept, and the buyer hears when card payment is back.
			$order = wc_get_order( absint( get_query_var( 'order-pay' ) ) );
			$key   = isset( $_GET['key'] ) ? sanitize_text_field( wp_unslash( (string) $_GET['key'] ) ) : ''; // phpcs:ignore WordPress.Security.NonceVerification.Recommended
			$mine  = $order instanceof \WC_Order && '' !== $key && hash_equals( $order->get_order_key(), $key ) && Keys::GATEWAY_ID === $order->get_payment_method() && $this->routes->owner_may_act( $order );
			wc_add_notice( esc_html( $mine ? $this->back->keep( $order ) : $this->health->buyer_message() ), 'error' );
			wp_safe_redirect( remove_query_arg( Return_Pages::UNAVAILABLE_ARG ) );
			exit;
		}
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- only redirects the order's owner to the order's own page.
		if ( ! isset( $_GET['pay_for_order'] ) && ! isset( $_GET[ Return_Pages::RETURN_ARG ] ) && isset( $_GET['key'] ) && function_exists( 'is_wc_endpoint_url' ) && is_wc_endpoint_url( 'order-pay' ) ) {
			$order = wc_get_order( absint( get_query_var( 'order-pay' ) ) );
			$key   = sanitize_text_field( wp_unslash( (string) $_GET['key'] ) ); // phpcs:ignore WordPress.Security.NonceVerification.Recommended
			if ( $order instanceof \WC_Order && '' !== $key && hash_equals( $order->get_order_key(), $key ) && Keys::GATEWAY_ID === $order->get_payment_method() && ! $order->needs_payment() && $this->routes->owner_may_act( $order ) ) {
				// The embedded flow's payment page opened again (a second tab, a link from an e-mail) once the order can no longer
				// be paid (a payment under way holds it, or it is paid): not WooCommerce's "cannot be paid for" but the order's
				// own page, which says in the store's words how the payment stands, offers no Pay, and follows it to its end.
				wp_safe_redirect( $order->get_checkout_order_received_url() );
				exit;
			}
		}
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- a GET redirect from the service's page; the order key is the proof, and it only asks the service.
		if ( ! isset( $_GET[ Return_Pages::RETURN_ARG ], $_GET['key'] ) || ! function_exists( 'is_wc_endpoint_url' ) || ! is_wc_endpoint_url( 'order-pay' ) ) {
			return;
		}
		$order = wc_get_order( absint( get_query_var( 'order-pay' ) ) );
		$key   = sanitize_text_field( wp_unslash( (string) $_GET['key'] ) ); // phpcs:ignore WordPress.Security.NonceVerification.Recommended
		if ( ! $order instanceof \WC_Order || '' === $key || ! hash_equals( $order->get_order_key(), $key ) || Keys::GATEWAY_ID !== $order->get_payment_method() || ! $this->routes->owner_may_act( $order ) ) {
			// Not ours to answer: WooCommerce's own order-pay page handles it (and its errors; a registered customer's
			// order asks its customer to log in, and the key alone asks the service nothing and notes nothing).
			return;
		}
		$outcome = $this->tell( $order, 'fail' );
		if ( Buyer_Words::PAID === $outcome['kind'] ) {
			wp_safe_redirect( $order->get_checkout_order_received_url() );
			exit;
		}
		$this->start_session();
		wc_add_notice( esc_html( $outcome['message'] ), $outcome['type'] );
		wp_safe_redirect( $order->get_checkout_payment_url() );
		exit;
	}

	/** A guest's notice must survive the redirect: it needs a session cookie. */
	private function start_session(): void {
		if ( function_exists( 'WC' ) && WC()->session && ! WC()->session->has_session() ) {
			WC()->session->set_customer_session_cookie( true );
		}
	}

	/**
	 * Whether the service accepts the store now, asked with one fresh signed
	 * request (Service_Health) when the embedded widget stopped with an error
	 * while open: a service that began refusing the store (a blocked partner)
	 * is found then, marked, and the owner told (Refusal_Mail). Within the
	 * visitor's budget (Start_Budget); over it, the state as last found.
	 */
	public function service_accepts( \WC_Order $order ): bool {
		try {
			$this->budget->charge( $order, $this->client_address->of( $this->config->trust_proxy_header() ) );
		} catch ( \Throwable $e ) {
			return $this->health->available();
		}
		return $this->health->confirm( 0 );
	}

	/**
	 * Asks the service about the order's current attempt, applies the answer,
	 * notes what the buyer is told; returns Buyer_Words::outcome().
	 *
	 * @param string $event "fail" (landing fail redirect, onOperationFail), "exit" (onExit) or "error" (onError: the widget stopped).
	 */
	public function tell( \WC_Order $order, string $event ): array {
		$asked   = 'answered';
		$answer  = null;
		$attempt = $this->attempts->current_attempt( $order );
		if ( ! $order->is_paid() && null !== $attempt && ! $this->reconciler->settled( $attempt, time() ) ) {
			try {
				// Budgeted before the call (Start_Budget): over it, the buyer is told it could not be confirmed yet.
				$this->budget->charge( $order, $this->client_address->of( $this->config->trust_proxy_header() ) );
				$result = $this->reconciler->check( $order, $attempt, 'return' );
				if ( ! $result->ok() ) {
					$asked = $result->reason() ?? Check_Result::UNREACHABLE;
				} else {
					$answer = $result->operation();
				}
			} catch ( \Throwable $e ) {
				Log::error( sprintf( 'Order %d: the service\'s answer could not be applied when the buyer came back: %s', $order->get_id(), $e->getMessage() ) );
				$asked = 'unreachable';
			}
			$attempt = $this->attempts->attempt( $attempt->id() ) ?? $attempt;
		} elseif ( null === $attempt ) {
			$asked = 'unknown';
		}
		$order  = $this->order_attempts->reloaded( $order );
		$known  = null !== $attempt && Operation_Store::NO_CODE !== $attempt->status_code();
		$status = $known ? $attempt->status() : null;
		$code   = $known ? $attempt->status_code() : null;
		if ( null !== $answer ) {
			// The service's signed answer, just given, is what the buyer is told: the callback of the same news may
			// have claimed it a moment earlier and still be applying it (the answer is then a duplicate here).
			$status = $answer->status();
			$code   = Status_Flow::int_code( $answer->status_code() );
			$known  = true;
		}
		if ( 'answered' === $asked && ! $known ) {
			$asked = 'unknown';
		}
		$outcome = Buyer_Words::outcome(
			array(
				'paid'        => $order->is_paid(),
				'asked'       => $asked,
				'status'      => $status,
				'status_code' => $code,
				// A widget that stopped is told as one the buyer closed: whatever it said, the store says what it knows.
				'event'       => 'error' === $event ? 'exit' : $event,
				'mismatch'    => null !== $attempt && $attempt->mismatch(),
				// A payment of the order in another window (another operation) may be under way.
				'others_live' => $this->operations->may_be_paid_besides( $order->get_id(), null === $attempt ? '' : $attempt->operation_id() ),
				// "Or choose another payment method" only where there is one.
				'others'      => Other_Methods::exist(),
			)
		);
		$note = Order_Words::told(
			'exit' === $event ? __( 'the buyer closed the payment window', 'card2crypto-checkout' ) : ( 'error' === $event ? __( 'the payment window stopped with an error', 'card2crypto-checkout' ) : __( 'the buyer came back from a payment that did not succeed', 'card2crypto-checkout' ) ),
			Order_Words::attempt_state( $status, $code, $asked ),
			$outcome['message']
		);
		// One note per change of what the buyer is told: a buyer (or anyone with the link) coming back again and again
		// to the same state adds nothing more.
		$said = hash( 'sha256', $note );
		if ( (string) $order->get_meta( self::META_TOLD ) !== $said ) {
			$order->add_order_note( $note );
			$order->update_meta_data( self::META_TOLD, $said );
			$order->save_meta_data();
		}
		return $outcome;
	}

}

<?php
/**
 * The buyer's view of the payment: on the order-received page and in the
 * customer's order view, the payment's state in words and the status-page
 * link. While the state is not final, the order-received page keeps itself
 * up to date (build/order-received.js): it asks the read-only route below,
 * which answers with the same words the page was rendered with (answer()),
 * until the payment is paid, failed or on hold.
 *
 * The route reads only what the store already knows: it never asks the
 * service (so it cannot be used to hammer the service) and writes nothing.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Buyer;

use Card2Crypto\Checkout\Attempts\Attempt;
use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Other_Methods;
use Card2Crypto\Checkout\Base\Script_Asset;
use Card2Crypto\Checkout\Rules\Payment_State;
use Card2Crypto\Checkout\Attempts\Attempt_Store;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Order_View implements Hooks {

	const HANDLE = 'card2crypto-order-received';

	/** @var Attempt_Store */
	private $attempts;

	/** @var Script_Asset */
	private $scripts;

	/** @var Order_Routes */
	private $routes;

	/** @var State_Poll */
	private $poll;

	public function __construct( Attempt_Store $attempts, Script_Asset $scripts, Order_Routes $routes, State_Poll $poll ) {
		$this->attempts = $attempts;
		$this->scripts  = $scripts;
		$this->routes   = $routes;
		$this->poll     = $poll;
	}

	public function register(): void {
		add_action( 'woocommerce_order_details_after_order_table', array( $this, 'render' ), 10, 1 );
		add_action( 'rest_api_init', array( $this, 'register_route' ) );
	}

	public function register_route(): void {
		register_rest_route(
			Keys::REST_NAMESPACE,
			Keys::STATE_ROUTE,
			array(
				'methods'             => 'GET',
				'callback'            => array( $this, 'rest_state' ),
				// Guests pay too: the order key is the buyer's proof, checked in the callback.
				'permission_callback' => '__return_true',
				'args'                => Order_Pay::ORDER_ARGS,
			)
		);
	}

	/**
	 * GET: this order's payment state for the buyer, in words (answer()).
	 * Read-only: no service call, nothing written. An ask naming the state
	 * it shows (since) was already answered, cheaply, when that state is
	 * unchanged (State_Poll); it gets here when it changed.
	 */
	public function rest_state( \WP_REST_Request $request ) {
		$order = $this->routes->our_order( $request, null, false );
		if ( $order instanceof \WP_Error ) {
			return $order;
		}
		return $this->routes->answer( $this->answer( $order ) );
	}

	public function render( $order ): void {
		if ( ! $order instanceof \WC_Order || Keys::GATEWAY_ID !== $order->get_payment_method() ) {
			return;
		}
		$answer    = $this->answer( $order );
		$operation = $order->get_meta( Keys::META_OPERATION );
		$operation = is_array( $operation ) ? $operation : array();
		$live      = ! $answer['final'] && function_exists( 'is_order_received_page' ) && is_order_received_page() && $this->enqueue( $order, $answer['v'] );
		echo '<section class="card2crypto-payment-state"><h2>' . esc_html__( 'Card payment', 'card2crypto-checkout' ) . '</h2>';
		echo '<p class="card2crypto-payment-words" data-state="' . esc_attr( $answer['state'] ) . '"' . ( $live ? ' role="status" aria-live="polite"' : '' ) . '>';
		echo esc_html( $answer['message'] );
		echo '</p>';
		echo '<p class="card2crypto-payment-pay"' . ( isset( $answer['pay_url'] ) ? '' : ' hidden' ) . '>';
		if ( isset( $answer['pay_url'] ) ) {
			echo '<a class="button" href="' . esc_url( $answer['pay_url'] ) . '">' . esc_html( $this->pay_label() ) . '</a>';
		}
		echo '</p>';
		if ( ! empty( $operation['status_url'] ) ) {
			echo '<p><a href="' . esc_url( $operation['status_url'] ) . '" target="_blank" rel="noopener noreferrer">' . esc_html__( 'Follow the payment on its status page', 'card2crypto-checkout' ) . '</a></p>';
		}
		echo '</section>';
	}

	/**
	 * What the buyer is told about the order's payment, as the page prints it
	 * and the route answers it: words(), plus the order's pay link when the
	 * payment failed and the order can still be paid, and the state's
	 * version (v: the page names it when it asks again, State_Poll).
	 *
	 * @return array{state: string, final: bool, message: string, pay_url?: string, v: string}
	 */
	public function answer( \WC_Order $order ): array {
		$attempt = $this->attempts->current_attempt( $order );
		$answer  = Payment_State::words( $this->facts( $order, $attempt ) );
		if ( Payment_State::FAILED === $answer['state'] && $order->needs_payment() ) {
			$answer['pay_url'] = $order->get_checkout_payment_url();
		}
		$answer['v'] = $this->poll->version( (string) $order->get_status(), $attempt );
		// Which payment is the order's own now: a window running another one (the order-pay page's widget) was replaced.
		$answer['attempt'] = null !== $attempt ? $attempt->partner_operation_id() : null;
		return $answer;
	}

	/**
	 * The facts words() needs, read from the order and its current attempt
	 * (an order from before attempts were kept: the last operation stored on
	 * the order). Reads only.
	 */
	private function facts( \WC_Order $order, ?Attempt $attempt ): array {
		$status   = null;
		$code     = null;
		$mismatch = false;
		if ( null !== $attempt ) {
			if ( Operation_Store::NO_CODE !== $attempt->status_code() ) {
				$status = $attempt->status();
				$code   = $attempt->status_code();
			}
			$mismatch = $attempt->mismatch();
		} else {
			$operation = $order->get_meta( Keys::META_OPERATION );
			if ( is_array( $operation ) ) {
				$status = $operation['status'] ?? null;
				$code   = $operation['status_code'] ?? null;
			}
		}
		return array(
			'paid'         => $order->is_paid(),
			'order_status' => (string) $order->get_status(),
			'status'       => $status,
			'status_code'  => $code,
			'mismatch'     => $mismatch,
			'others'       => Other_Methods::exist(),
		);
	}

	/** The pay-again link's text. */
	private function pay_label(): string {
		return __( 'Pay again', 'card2crypto-checkout' );
	}

	/** The live script, only while the state is not final; false when the plugin was not built. */
	private function enqueue( \WC_Order $order, string $version ): bool {
		if ( ! $this->scripts->register( self::HANDLE, 'order-received' ) ) {
			return false;
		}
		wp_enqueue_script( self::HANDLE );
		// Its texts come translated in the data below and in the route's answers, so it needs no script translations.
		$this->scripts->data(
			self::HANDLE,
			'card2cryptoOrderReceived',
			array(
				'rest' => esc_url_raw( add_query_arg( 'key', rawurlencode( $order->get_order_key() ), rest_url( Keys::REST_NAMESPACE . '/orders/' . $order->get_id() . '/payment-state' ) ) ),
				// The state the page shows: asked again with it (since), an unchanged state is answered cheaply (State_Poll).
				'v'    => $version,
				'i18n' => array(
					'pay'     => $this->pay_label(),
					'stopped' => __( 'This page has stopped checking for updates. Reload it later to see how the payment ended, or check your e-mail: the store writes to you when the payment completes.', 'card2crypto-checkout' ),
				),
			)
		);
		return true;
	}
}

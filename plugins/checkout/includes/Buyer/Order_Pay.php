<?php
/**
 * Embedded flow: the order-pay page holds the widget. Its starter script
 * (build/order-pay.js, loaded only there) asks the REST route below for
 * settings signed just before the widget runs, then loads the widget script
 * and calls its run function. The route checks the nonce and the order key,
 * starts a fresh attempt (never while money for the order is moving) and
 * signs only what the server decides.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Buyer;

use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Script_Asset;
use Card2Crypto\Checkout\Payment\Payment_Flows;
use Card2Crypto\Checkout\Payment\Return_Pages;
use Card2Crypto\Checkout\Rules\Buyer_Words;
use Card2Crypto\Checkout\Rules\Wallet_Words;
use Card2Crypto\Checkout\Service\Outage_Pay_Links;
use Card2Crypto\Checkout\Service\Widget_Retry;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Order_Pay implements Hooks {

	const ROUTE        = '/orders/(?P<order_id>\d+)/widget-settings';
	const NONCE_ACTION = 'card2crypto-widget-settings';
	const HANDLE       = 'card2crypto-order-pay';

	/** The order a request is about and its key, which both routes need (the key is the buyer's proof). */
	const ORDER_ARGS = array(
		'order_id' => array(
			'type'     => 'integer',
			'required' => true,
		),
		'key'      => array(
			'type'     => 'string',
			'required' => true,
		),
	);

	/** @var Config */
	private $config;

	/** @var Payment_Flows */
	private $payments;

	/** @var Buyer_Return */
	private $buyer_return;

	/** @var Widget_Retry */
	private $widget_retry;

	/** @var Return_Pages */
	private $pages;

	/** @var Outage_Pay_Links */
	private $back;

	/** @var Script_Asset */
	private $scripts;

	/** @var Order_Attempts */
	private $order_attempts;

	/** @var Order_Routes */
	private $routes;

	public function __construct( Config $config, Payment_Flows $payments, Buyer_Return $buyer_return, Widget_Retry $widget_retry, Return_Pages $pages, Outage_Pay_Links $back, Script_Asset $scripts, Order_Attempts $order_attempts, Order_Routes $routes ) {
		$this->config         = $config;
		$this->payments       = $payments;
		$this->buyer_return   = $buyer_return;
		$this->widget_retry   = $widget_retry;
		$this->pages          = $pages;
		$this->back           = $back;
		$this->scripts        = $scripts;
		$this->order_attempts = $order_attempts;
		$this->routes         = $routes;
	}

	/** Global name of the widget's run function (docs/decisions.md, "Widget run function"). */
	private function run_function(): string {
		/**
		 * Filters the global name of the widget's run function that the
		 * order-pay page calls (a dotted path from window).
		 *
		 * @since 0.1.0
		 *
		 * @param string $name Default "Card2CryptoWidget.run".
		 */
		return (string) apply_filters( 'card2crypto_checkout_widget_run_function', 'Card2CryptoWidget.run' );
	}

	/** The order-pay page's routes and its receipt. */
	public function register(): void {
		add_action( 'rest_api_init', array( $this, 'register_route' ) );
		add_action( 'woocommerce_receipt_' . Keys::GATEWAY_ID, array( $this, 'render' ) );
	}

	public function register_route(): void {
		register_rest_route(
			Keys::REST_NAMESPACE,
			'/orders/(?P<order_id>\d+)/landing',
			array(
				'methods'             => 'GET',
				'callback'            => array( $this, 'rest_landing' ),
				// The buyer's browser follows this link; the order key is the proof.
				'permission_callback' => '__return_true',
				'args'                => self::ORDER_ARGS,
			)
		);
		register_rest_route(
			Keys::REST_NAMESPACE,
			'/orders/(?P<order_id>\d+)/returned',
			array(
				'methods'             => 'POST',
				'callback'            => array( $this, 'rest_returned' ),
				// Guests pay too: the order key and the nonce are the proof, checked in the callback.
				'permission_callback' => '__return_true',
				'args'                => self::ORDER_ARGS + array(
					'nonce' => array(
						'type'     => 'string',
						'required' => true,
					),
					'event'   => array(
						'type'    => 'string',
						'enum'    => array( 'fail', 'exit', 'error' ),
						'default' => 'fail',
					),
					// The payment the page's widget runs (its partner_operation_id): another window may have replaced it.
					'attempt' => array(
						'type'    => 'string',
						'pattern' => '^wc-[0-9]+-[0-9a-f]{24}$',
					),
				),
			)
		);
		register_rest_route(
			Keys::REST_NAMESPACE,
			self::ROUTE,
			array(
				'methods'             => 'POST',
				'callback'            => array( $this, 'rest_settings' ),
				// Guests pay too: the order key and the nonce are the proof, checked in the callback.
				'permission_callback' => '__return_true',
				'args'                => self::ORDER_ARGS + array(
					'nonce' => array(
						'type'     => 'string',
						'required' => true,
					),
				),
			)
		);
	}

	/**
	 * Embedded flow: the widget reported a failure (onOperationFail) or was
	 * closed (onExit). The store asks the service at once, applies the answer
	 * and says what to tell the buyer ($this->buyer_return->tell()).
	 */
	public function rest_returned( \WP_REST_Request $request ) {
		$order = $this->routes->our_order( $request, self::NONCE_ACTION, false );
		if ( $order instanceof \WP_Error ) {
			return $order;
		}
		$event = in_array( $request['event'], array( 'exit', 'error' ), true ) ? (string) $request['event'] : 'fail';
		$mine  = (string) $request['attempt'];
		if ( '' !== $mine && ! $order->is_paid() && $mine !== (string) $order->get_meta( Keys::META_ATTEMPT ) ) {
			// Another window started paying this order since: this window's payment was ended for it (Start_Gate).
			return $this->routes->answer( Buyer_Words::replaced() );
		}
		if ( 'error' === $event && ! $order->is_paid() && ! $this->buyer_return->service_accepts( $order ) ) {
			// The widget stopped because the service refuses the store: the store's words, never the widget's
			// ("Partner blocked."); the order is kept and its buyer e-mailed when card payment is back.
			return $this->routes->answer(
				array(
					'code'     => 'card2crypto_service_refused',
					'kind'     => 'unavailable',
					'message'  => $this->back->keep( $order ),
					'redirect' => $this->pages->unavailable_url( $order ),
				)
			);
		}
		$outcome = $this->buyer_return->tell( $order, $event );
		if ( 'fail' !== $event ) {
			// The widget was closed (or stopped): a decline it showed is the outcome now (Widget_Retry), mailed once.
			$this->widget_retry->settle( $this->order_attempts->reloaded( $order ), true );
		}
		$order  = $this->order_attempts->reloaded( $order );
		$answer = array(
			'kind'    => $outcome['kind'],
			'code'    => $outcome['code'],
			'type'    => $outcome['type'],
			'message' => $outcome['message'],
			'retry'   => $outcome['retry'] && $order->needs_payment(),
		);
		if ( Buyer_Words::PAID === $outcome['kind'] ) {
			$answer['redirect'] = $order->get_checkout_order_received_url();
		}
		return $this->routes->answer( $answer );
	}

	/** The embedded widget asks for settings signed now (Payment_Flows::widget()). */
	public function rest_settings( \WP_REST_Request $request ) {
		$order = $this->routes->our_order( $request, self::NONCE_ACTION, true );
		if ( $order instanceof \WP_Error ) {
			return $order;
		}
		$step = $this->payments->widget( $order );
		return $step->is_error()
			? new \WP_Error( $step->code(), $step->message(), array( 'status' => $step->http_status() ) )
			: $this->routes->answer( $step->rest_body(), $step->http_status() );
	}

	/**
	 * Redirect flow: 302 to where Payment_Flows::landing() sends the browser (the
	 * landing page with settings signed now, or the order's page, told why).
	 */
	public function rest_landing( \WP_REST_Request $request ) {
		$order = $this->routes->keyed_order( $request );
		if ( $order instanceof \WP_Error && 'card2crypto_login' === $order->get_error_code() ) {
			// A browser follows this link: to WooCommerce's order-pay page, which asks the customer to log in.
			$found = wc_get_order( (int) $request['order_id'] );
			return $this->redirect( $found instanceof \WC_Order ? $found->get_checkout_payment_url() : home_url( '/' ) );
		}
		return $order instanceof \WP_Error ? $order : $this->redirect( $this->payments->landing( $order ) );
	}

	private function redirect( string $location ): \WP_REST_Response {
		$response = new \WP_REST_Response( null, 302 );
		$response->header( 'Location', $location );
		$response->header( 'Cache-Control', 'no-store' );
		return $response;
	}

	/** The order-pay (receipt) page content. */
	public function render( int $order_id ): void {
		$order = wc_get_order( $order_id );
		if ( ! $order instanceof \WC_Order || ! $order->needs_payment() ) {
			return;
		}
		$config = $this->config;
		// Its texts come translated in the data below, so it needs no script translations.
		$this->scripts->register( self::HANDLE, 'order-pay' );
		wp_enqueue_script( self::HANDLE );
		$this->scripts->data(
			self::HANDLE,
			'card2cryptoOrderPay',
			array(
				'rest'      => esc_url_raw( rest_url( Keys::REST_NAMESPACE . '/orders/' . $order->get_id() . '/widget-settings' ) ),
				'key'       => $order->get_order_key(),
				'nonce'     => wp_create_nonce( self::NONCE_ACTION . $order->get_id() ),
				// The REST API runs a cookie request as a guest unless it carries this nonce.
				'restNonce' => wp_create_nonce( 'wp_rest' ),
				'script'    => esc_url_raw( $config->widget_script_url() ),
				'run'       => $this->run_function(),
				'element'   => Keys::WIDGET_ELEMENT,
				'success'   => esc_url_raw( $order->get_checkout_order_received_url() ),
				'returned'  => esc_url_raw( rest_url( Keys::REST_NAMESPACE . '/orders/' . $order->get_id() . '/returned' ) ),
				// Read-only, cheap while nothing changed (State_Poll): another window's payment, or the end of one that holds this page.
				'state'     => esc_url_raw( add_query_arg( 'key', rawurlencode( $order->get_order_key() ), rest_url( Keys::REST_NAMESPACE . '/orders/' . $order->get_id() . '/payment-state' ) ) ),
				'i18n'      => array(
					'loading'  => __( 'Preparing your secure card payment…', 'card2crypto-checkout' ),
					'failed'   => __( 'The payment did not go through.', 'card2crypto-checkout' ),
					'retry'    => __( 'Try again', 'card2crypto-checkout' ),
					'error'    => __( 'The payment form could not be loaded.', 'card2crypto-checkout' ),
					// Not "received": the store has not checked the payment yet (it may not match); the order's page says what it found.
					'done'     => __( 'Taking you to your order…', 'card2crypto-checkout' ),
					'asking'   => __( 'Checking your payment with the payment service…', 'card2crypto-checkout' ),
					'replaced' => Buyer_Words::replaced()['message'],
				),
			)
		);
		echo '<div class="card2crypto-order-pay">';
		echo '<p class="card2crypto-wallet-line">' . esc_html( Wallet_Words::wallet_line() ) . '</p>';
		echo '<p class="card2crypto-status" role="status" aria-live="polite"></p>';
		echo '<div id="' . esc_attr( Keys::WIDGET_ELEMENT ) . '"></div>';
		echo '</div>';
	}
}

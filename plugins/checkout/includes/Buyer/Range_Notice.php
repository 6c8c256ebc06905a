<?php
/**
 * Tells the buyer why card payment is not offered when the cart total is
 * outside the service's range for the currency, or while the service
 * refuses the store (Service_Health: the method is withdrawn), where
 * WooCommerce otherwise only says "There are no payment methods available":
 * on the cart page, in the classic checkout's payment section (which
 * WooCommerce refreshes with the totals) and on the order's payment page.
 * When the store has no other method, our words take the place of
 * WooCommerce's, and the order button, which could only answer "Invalid
 * payment method.", is not shown. The block checkout shows the same words
 * (Range_Words::messages(), through Blocks_Integration) from src/blocks.ts.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Buyer;

use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Rules\Currencies;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Other_Methods;
use Card2Crypto\Checkout\Payment\Availability;
use Card2Crypto\Checkout\Rules\Range_Words;
use Card2Crypto\Checkout\Service\Outage_Pay_Links;
use Card2Crypto\Checkout\Service\Service_Health;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Range_Notice implements Hooks {

	/** @var Config */
	private $config;

	/** @var Service_Health */
	private $health;

	/** @var Availability */
	private $availability;

	/** @var Outage_Pay_Links */
	private $back;

	public function __construct( Config $config, Service_Health $health, Availability $availability, Outage_Pay_Links $back ) {
		$this->config       = $config;
		$this->health       = $health;
		$this->availability = $availability;
		$this->back         = $back;
	}

	public function register(): void {
		add_action( 'woocommerce_before_cart', array( $this, 'cart' ) );
		add_action( 'woocommerce_review_order_before_payment', array( $this, 'checkout' ) );
		add_filter( 'woocommerce_no_available_payment_methods_message', array( $this, 'no_methods' ) );
		add_filter( 'woocommerce_order_button_html', array( $this, 'order_button' ) );
		add_filter( 'woocommerce_pay_order_button_html', array( $this, 'order_button' ) );
		// Before WooCommerce prints the notices on the order's payment page (woocommerce_output_all_notices, priority 10).
		add_action( 'before_woocommerce_pay', array( $this, 'one_message' ), 5 );
		// Pay pressed on a page shown before the method was withdrawn: our words, never WooCommerce's "Invalid payment method.".
		add_action( 'wp', array( $this, 'withdrawn_pay' ), 19 );
		add_action( 'woocommerce_after_checkout_validation', array( $this, 'withdrawn_checkout' ), 10, 2 );
		add_action( 'wp_enqueue_scripts', array( $this, 'block_style' ) );
	}

	/**
	 * The block checkout's own "There are no payment methods available",
	 * hidden while our range message stands in for it (src/blocks.ts marks
	 * the page with card2crypto-range-alone when the store has no other
	 * method and the total is outside the range, or the method is
	 * withdrawn): one message that fits, and no order button that could
	 * only answer "Invalid payment method.".
	 */
	public function block_style(): void {
		if ( ! function_exists( 'is_checkout' ) || ! is_checkout() || $this->other_methods() ) {
			return;
		}
		wp_register_style( 'card2crypto-range', false, array(), CARD2CRYPTO_CHECKOUT_VERSION );
		wp_enqueue_style( 'card2crypto-range' );
		wp_add_inline_style( 'card2crypto-range', '.card2crypto-range-alone .wc-block-checkout__no-payment-methods-notice,.card2crypto-range-alone .wc-block-components-checkout-place-order-button{display:none}' );
	}

	/** Whether the store offers a payment method other than this one right now (enabled and available). */
	private function other_methods(): bool {
		return Other_Methods::exist();
	}

	/**
	 * While the service refuses the store (the method is withdrawn), what
	 * the buyer is told instead of the method, else null. On the payment
	 * page of an order kept for the buyer (Outage_Pay_Links), that it is kept
	 * and a link comes by e-mail.
	 */
	public function withdrawn_message(): ?string {
		$config = $this->config;
		if ( ! $this->health->withdrawn() ) {
			return null;
		}
		$others = $this->other_methods();
		if ( function_exists( 'is_wc_endpoint_url' ) && is_wc_endpoint_url( 'order-pay' ) ) {
			$order = wc_get_order( absint( get_query_var( 'order-pay' ) ) );
			if ( $order instanceof \WC_Order && Keys::GATEWAY_ID === $order->get_payment_method() && ! $order->is_paid() && '' !== (string) $order->get_meta( Outage_Pay_Links::META ) ) {
				return $this->back->message( $others );
			}
		}
		return $this->health->buyer_message( $others );
	}

	/**
	 * "Pay for order" pressed with this method on a payment page shown while
	 * the method was still offered, after the store learnt that the service
	 * refuses it (another request's refresh, a minute's re-check): the order
	 * is kept for the buyer and they are told so (Outage_Pay_Links), exactly as
	 * when the refusal is found while starting the payment. WooCommerce's own
	 * handler (WC_Form_Handler::pay_action, 'wp' priority 20) would only say
	 * "Invalid payment method." for a method it no longer lists; it is left
	 * out of this request, and the page is shown with our notice.
	 */
	public function withdrawn_pay(): void {
		// phpcs:disable WordPress.Security.NonceVerification.Missing -- checked below, as WooCommerce's handler does.
		if ( ! isset( $_POST['woocommerce_pay'], $_POST['payment_method'], $_GET['key'] ) || Keys::GATEWAY_ID !== sanitize_text_field( wp_unslash( $_POST['payment_method'] ) ) ) {
			return;
		}
		$nonce = isset( $_POST['woocommerce-pay-nonce'] ) ? sanitize_text_field( wp_unslash( $_POST['woocommerce-pay-nonce'] ) ) : '';
		// phpcs:enable WordPress.Security.NonceVerification.Missing
		if ( ! wp_verify_nonce( $nonce, 'woocommerce-pay' ) || ! $this->health->withdrawn() ) {
			return;
		}
		global $wp;
		$order = wc_get_order( absint( $wp->query_vars['order-pay'] ?? 0 ) );
		$key   = sanitize_text_field( wp_unslash( $_GET['key'] ) ); // phpcs:ignore WordPress.Security.NonceVerification.Recommended -- the order key, compared below.
		if ( ! $order instanceof \WC_Order || ! hash_equals( $order->get_order_key(), $key ) || ! $order->needs_payment() ) {
			return; // WooCommerce's handler says what is wrong with the order.
		}
		wc_add_notice( $this->back->keep( $order ), 'error' );
		remove_action( 'wp', array( 'WC_Form_Handler', 'pay_action' ), 20 );
	}

	/**
	 * The classic checkout's "Place order" with this method after it was
	 * withdrawn (the page was shown before): the store's words in the place
	 * of WooCommerce's "Invalid payment method.".
	 *
	 * @param mixed $data
	 * @param mixed $errors
	 */
	public function withdrawn_checkout( $data, $errors ): void {
		if ( ! is_array( $data ) || ! $errors instanceof \WP_Error || Keys::GATEWAY_ID !== ( $data['payment_method'] ?? '' ) || ! $this->health->withdrawn() ) {
			return;
		}
		$errors->remove( 'payment' );
		$errors->add( 'payment', esc_html( $this->health->buyer_message( $this->other_methods() ) ) );
	}

	/**
	 * WooCommerce's "no available payment methods" at the classic checkout
	 * and on the order's payment page, when the only method is this one and
	 * the total is outside its range or the method is withdrawn: one
	 * message, ours, which says why and what to do.
	 *
	 * @param mixed $message
	 * @return mixed
	 */
	public function no_methods( $message ) {
		$ours = $this->for_cart();
		return null !== $ours && ! $this->other_methods() ? '<span class="card2crypto-range-notice">' . esc_html( $ours ) . '</span>' : $message;
	}

	/**
	 * The message for the current cart (or, on its payment page, the
	 * order), when the method is otherwise usable.
	 */
	private function for_cart(): ?string {
		$config   = $this->config;
		$currency = $config->currency();
		if ( null !== $this->availability->problem( $currency, null, null ) ) {
			return null; // Disabled, not configured or another currency: nothing the buyer can change.
		}
		return $this->withdrawn_message() ?? Range_Words::message( $currency, $this->availability->paying_total_minor( $currency ), $this->other_methods() );
	}

	/**
	 * The classic checkout's "Place order" and the order page's "Pay for
	 * order" button: not shown while our words stand for the only method
	 * (pressing it could only answer "Invalid payment method.").
	 *
	 * @param mixed $html
	 * @return mixed
	 */
	public function order_button( $html ) {
		return null !== $this->for_cart() && ! $this->other_methods() ? '' : $html;
	}

	/**
	 * On the order's payment page, where our words stand in the place of
	 * WooCommerce's "no available payment methods" (no_methods()), the same
	 * words waiting as a notice (the buyer was just brought back, or pressed
	 * Pay as the method was withdrawn) are not said a second time above it.
	 */
	public function one_message(): void {
		if ( ! function_exists( 'WC' ) || null === WC()->session || $this->other_methods() ) {
			return;
		}
		$ours = $this->for_cart();
		if ( null === $ours ) {
			return;
		}
		$notices = WC()->session->get( 'wc_notices', array() );
		if ( ! is_array( $notices ) ) {
			return;
		}
		$changed = false;
		foreach ( $notices as $type => $list ) {
			foreach ( (array) $list as $i => $notice ) {
				$text = is_array( $notice ) ? ( $notice['notice'] ?? '' ) : $notice;
				if ( is_string( $text ) && html_entity_decode( wp_strip_all_tags( $text ), ENT_QUOTES, 'UTF-8' ) === $ours ) {
					unset( $notices[ $type ][ $i ] );
					$changed = true;
				}
			}
		}
		if ( $changed ) {
			WC()->session->set( 'wc_notices', array_filter( $notices ) );
		}
	}

	public function cart(): void {
		$message = $this->for_cart();
		if ( null !== $message ) {
			wc_print_notice( esc_html( $message ), 'notice' );
		}
	}

	public function checkout(): void {
		$message = $this->for_cart();
		// With no other method, WooCommerce's own "no payment methods" place carries it (no_methods()): said once.
		if ( null !== $message && $this->other_methods() ) {
			echo '<div class="woocommerce-info card2crypto-range-notice">' . esc_html( $message ) . '</div>';
		}
	}
}

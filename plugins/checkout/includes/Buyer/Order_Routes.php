<?php
/**
 * What the buyer's REST routes (Order_Pay's widget settings, landing and
 * return routes, Order_View's payment state) share: the order of a request
 * by its key (and the logged-in customer it belongs to), the page's nonce
 * for the order-pay page's own requests, the refusal of an order that is
 * not this method's (409), and answers that no cache keeps. Built once
 * (Plugin::build()) and given to the routes' classes.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Buyer;

use Card2Crypto\Checkout\Base\Keys;

defined( 'ABSPATH' ) || exit;

final class Order_Routes {

	/**
	 * The order of a buyer's request when it is this method's: by key
	 * (keyed_order()), with the page's nonce when $nonce_action is not null
	 * (page_order()), and, when $needs_payment, still to be paid. A WP_Error
	 * (404, 403, or 409 card2crypto_state) otherwise.
	 *
	 * @return \WC_Order|\WP_Error
	 */
	public function our_order( \WP_REST_Request $request, ?string $nonce_action, bool $needs_payment ) {
		$order = null === $nonce_action ? $this->keyed_order( $request ) : $this->page_order( $request, $nonce_action );
		if ( $order instanceof \WP_Error ) {
			return $order;
		}
		if ( Keys::GATEWAY_ID !== $order->get_payment_method() || ( $needs_payment && ! $order->needs_payment() ) ) {
			return new \WP_Error( 'card2crypto_state', __( 'This order does not need a card payment.', 'card2crypto-checkout' ), array( 'status' => 409 ) );
		}
		return $order;
	}

	/** A JSON answer that no browser or proxy keeps (it is about one buyer's order, now). */
	public function answer( $data, int $status = 200 ): \WP_REST_Response {
		$response = new \WP_REST_Response( $data, $status );
		$response->header( 'Cache-Control', 'no-store' );
		return $response;
	}

	/**
	 * The order of a request from the order-pay page's script: its key (the
	 * buyer's proof) and the page's nonce ($nonce_action and the order id) checked; a WP_Error otherwise.
	 *
	 * @return \WC_Order|\WP_Error
	 */
	public function page_order( \WP_REST_Request $request, string $nonce_action ) {
		$order = $this->keyed_order( $request );
		if ( $order instanceof \WP_Error ) {
			return $order;
		}
		if ( ! wp_verify_nonce( (string) $request['nonce'], $nonce_action . $order->get_id() ) ) {
			return new \WP_Error( 'card2crypto_nonce', __( 'This page has expired. Please reload it.', 'card2crypto-checkout' ), array( 'status' => 403 ) );
		}
		return $order;
	}

	/**
	 * The order of a request that carries the order's key (the buyer's
	 * proof), compared in constant time; a WP_Error (404) otherwise. An
	 * order that belongs to a customer account also needs that customer
	 * logged in, as WooCommerce's own order-pay page does (its
	 * pay_for_order capability): the key alone is a guest's proof (403
	 * card2crypto_login otherwise).
	 *
	 * @return \WC_Order|\WP_Error
	 */
	public function keyed_order( \WP_REST_Request $request ) {
		$order = wc_get_order( (int) $request['order_id'] );
		$key   = (string) $request['key'];
		if ( ! $order instanceof \WC_Order || '' === $key || ! hash_equals( $order->get_order_key(), $key ) ) {
			return new \WP_Error( 'card2crypto_order', __( 'This order cannot be found.', 'card2crypto-checkout' ), array( 'status' => 404 ) );
		}
		if ( ! $this->owner_may_act( $order ) ) {
			return new \WP_Error( 'card2crypto_login', __( 'This order belongs to a customer account: log in to that account to pay for it or to see its payment.', 'card2crypto-checkout' ), array( 'status' => 403 ) );
		}
		return $order;
	}

	/**
	 * Whether the visitor may act on an order whose key they showed: a guest
	 * order, or the logged-in customer it belongs to. The REST API runs a
	 * cookie request without its nonce as a guest (the landing link is
	 * followed by the browser, the order-received page's script sends no
	 * nonce), so the logged-in cookie itself names the visitor; it only ever
	 * narrows what the key allows.
	 */
	public function owner_may_act( \WC_Order $order ): bool {
		$customer = (int) $order->get_customer_id();
		if ( 0 === $customer ) {
			return true;
		}
		$user = get_current_user_id();
		if ( 0 === $user ) {
			$user = (int) wp_validate_auth_cookie( '', 'logged_in' );
		}
		return $customer === $user;
	}
}

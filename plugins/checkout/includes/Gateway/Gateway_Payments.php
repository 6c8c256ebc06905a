<?php
/**
 * The payment behaviour of the gateway class (the class itself, with its
 * schema-driven settings form, is Gateway in includes/Gateway/Gateway.php, which uses
 * this trait): whether this cart or order can be paid (can_take_payment(),
 * for Gateway::is_available()), the lines shown at the classic checkout
 * (payment_fields()), and placing the order (start_payment(), for
 * Gateway::process_payment()), which sends the buyer to the landing page or,
 * in the embedded flow, to the order-pay page that Order_Pay serves.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Gateway;

use Card2Crypto\Checkout\Payment\Payment_Step;

defined( 'ABSPATH' ) || exit;

trait Gateway_Payments {

	/**
	 * Whether this cart or order can be paid: store currency supported, total
	 * within the currency's limits, billing country among the service's.
	 */
	protected function can_take_payment(): bool {
		$config   = $this->config;
		$currency = function_exists( 'get_woocommerce_currency' ) ? (string) get_woocommerce_currency() : '';
		$total    = null;
		$country  = null;
		$order_id = absint( get_query_var( 'order-pay' ) );
		if ( $order_id > 0 ) {
			$order = wc_get_order( $order_id );
			if ( $order instanceof \WC_Order ) {
				$currency = $order->get_currency();
				$country  = $order->get_billing_country();
				$total = $this->offer->order_total_minor( $order );
				if ( null === $total ) {
					return false;
				}
			}
		} elseif ( function_exists( 'WC' ) && null !== WC()->cart ) {
			$total   = $this->offer->cart_total_minor( $currency );
			$country = null !== WC()->customer ? WC()->customer->get_billing_country() : null;
		}
		return null === $this->offer->problem( $currency, $total, $country );
	}

	/** Classic checkout: what will happen, accepted methods, the BTC estimate. */
	public function payment_fields() {
		$config = $this->config;
		echo '<div class="card2crypto-payment-fields">';
		foreach ( $this->offer->lines( $this->offer->paying_total_minor( $config->currency() ) ) as $line ) {
			echo '<p>' . esc_html( $line ) . '</p>';
		}
		echo '</div>';
	}

	/**
	 * Keeps the order pending and sends the buyer to pay, or keeps them here,
	 * told why (Payment_Flows::place()).
	 */
	protected function start_payment( int $order_id ): array {
		$order = wc_get_order( $order_id );
		if ( ! $order instanceof \WC_Order ) {
			wc_add_notice( __( 'The order could not be found.', 'card2crypto-checkout' ), 'error' );
			return array( 'result' => 'failure' );
		}
		$step = $this->payments->place( $order );
		if ( Payment_Step::GO === $step->kind() ) {
			return array(
				'result'   => 'success',
				'redirect' => $step->url(),
			);
		}
		wc_add_notice( $step->notice_html(), 'error' );
		return array( 'result' => 'failure' );
	}
}

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

use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Attempts\Payment_Held;
use Card2Crypto\Checkout\Attempts\Payment_Refused;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Other_Methods;
use Card2Crypto\Checkout\Buyer\Order_Pay;
use Card2Crypto\Checkout\Callback\Client_Address;
use Card2Crypto\Checkout\Payment\Start_Gate;
use Card2Crypto\Checkout\Rules\Buyer_Words;

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
				try {
					$total = Order_Attempts::order_amount( $order );
				} catch ( Payment_Refused $e ) {
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
	 * Keeps the order pending and sends the buyer to pay: to the landing page
	 * (redirect flow) or to the order-pay page with the widget (embedded flow).
	 */
	protected function start_payment( int $order_id ): array {
		$order = wc_get_order( $order_id );
		if ( ! $order instanceof \WC_Order ) {
			wc_add_notice( __( 'The order could not be found.', 'card2crypto-checkout' ), 'error' );
			return array( 'result' => 'failure' );
		}
		try {
			$address = Client_Address::of( $this->config->trust_proxy_header() );
			if ( 'embedded' === $this->config->flow() ) {
				// Pay pressed (again): the gate is passed here, so the buyer is told on this page; the attempt starts
				// when the widget does (Order_Pay::rest_settings), signed at that moment.
				$this->gate->pass( $order, $address, Start_Gate::AT_CHECKOUT );
				return array(
					'result'   => 'success',
					'redirect' => $order->get_checkout_payment_url( true ),
				);
			}
			// The attempt starts now; the landing URL is signed when the browser follows the link.
			$this->payments->start( $order, $address, Start_Gate::AT_CHECKOUT );
			$url = Order_Pay::landing_link( $order );
		} catch ( Payment_Held $e ) {
			if ( $e->paid() ) {
				// The service had taken the payment already: the order is recorded paid, and its page says so.
				return array(
					'result'   => 'success',
					'redirect' => $order->get_checkout_order_received_url(),
				);
			}
			wc_add_notice( Buyer_Words::notice_html( $e->outcome ), 'error' );
			return array( 'result' => 'failure' );
		} catch ( Payment_Refused $e ) {
			wc_add_notice( $e->getMessage(), 'error' );
			return array( 'result' => 'failure' );
		} catch ( \Throwable $e ) {
			Log::error( sprintf( 'Order %d: the payment could not start: %s', $order->get_id(), $e->getMessage() ) );
			wc_add_notice(
				Other_Methods::exist()
					? __( 'The card payment could not start. Please try again in a moment or choose another payment method.', 'card2crypto-checkout' )
					: __( 'The card payment could not start. Please try again in a moment.', 'card2crypto-checkout' ),
				'error'
			);
			return array( 'result' => 'failure' );
		}
		$order->add_order_note( __( 'Card2Crypto: the buyer was sent to the payment page.', 'card2crypto-checkout' ) );
		return array(
			'result'   => 'success',
			'redirect' => $url,
		);
	}
}

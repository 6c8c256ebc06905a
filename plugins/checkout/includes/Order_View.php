<?php
/**
 * The buyer's view of the payment: on the order-received page and in the
 * customer's order view, the payment's state and the status-page link.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

defined( 'ABSPATH' ) || exit;

final class Order_View {

	public static function register(): void {
		add_action( 'woocommerce_order_details_after_order_table', array( self::class, 'render' ), 10, 1 );
	}

	public static function render( $order ): void {
		if ( ! $order instanceof \WC_Order || Gateway::ID !== $order->get_payment_method() ) {
			return;
		}
		$operation = $order->get_meta( Operation_Events::META_OPERATION );
		$operation = is_array( $operation ) ? $operation : array();
		echo '<section class="card2crypto-payment-state"><h2>' . esc_html__( 'Card payment', 'card2crypto-checkout' ) . '</h2><p>';
		echo esc_html( self::state_text( $order, $operation ) );
		echo '</p>';
		if ( ! empty( $operation['status_url'] ) ) {
			echo '<p><a href="' . esc_url( $operation['status_url'] ) . '" target="_blank" rel="noopener noreferrer">' . esc_html__( 'Follow the payment on its status page', 'card2crypto-checkout' ) . '</a></p>';
		}
		echo '</section>';
	}

	private static function state_text( \WC_Order $order, array $operation ): string {
		if ( $order->is_paid() ) {
			return __( 'Paid. The bitcoin was sent to the store.', 'card2crypto-checkout' );
		}
		if ( ! isset( $operation['status'], $operation['status_code'] ) ) {
			return __( 'Waiting for the payment. This page shows the result once the service reports it.', 'card2crypto-checkout' );
		}
		$step = Status_Flow::find_step( $operation['status'], $operation['status_code'] );
		if ( null === $step ) {
			return __( 'The payment is being reviewed by the store.', 'card2crypto-checkout' );
		}
		switch ( $step['phase'] ) {
			case Status_Flow::PHASE_FAILED:
				return __( 'The payment did not go through. You can pay again from your account or the payment link.', 'card2crypto-checkout' );
			case Status_Flow::PHASE_NEEDS_ACTION:
				return __( 'Your card was charged; the store is confirming the payment.', 'card2crypto-checkout' );
			case Status_Flow::PHASE_SUCCEEDED:
				return __( 'Your payment was received and is being checked by the store.', 'card2crypto-checkout' );
			default:
				return __( 'Your payment is being processed.', 'card2crypto-checkout' );
		}
	}
}

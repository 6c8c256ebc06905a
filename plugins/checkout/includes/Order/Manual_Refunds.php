<?php
/**
 * Refunds: the service has no refund endpoint, so the gateway does not
 * declare 'refunds' and WooCommerce offers only "Refund … manually". The
 * order screen says so next to the refund button, and every refund recorded
 * on one of our orders gets a note saying the money still has to be
 * returned by the store itself.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Order;

use Card2Crypto\Checkout\Rules\Currencies;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Rules\Refund_Words;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Manual_Refunds implements Hooks {

	public function register(): void {
		add_action( 'woocommerce_admin_order_totals_after_total', array( $this, 'explain' ) );
		add_action( 'woocommerce_order_refunded', array( $this, 'record' ), 10, 2 );
		add_filter( 'woocommerce_admin_order_should_render_refunds', array( $this, 'render_refunds' ), 10, 3 );
	}

	/** Whether the order took money: paid now, or once (refunded since, or completed and edited). */
	private function took_money( \WC_Order $order ): bool {
		return $order->is_paid() || null !== $order->get_date_paid() || $order->has_status( 'refunded' ) || 0 < (float) $order->get_total_refunded();
	}

	/**
	 * No refund box on an order of this method that never took money (failed,
	 * pending, cancelled before payment): there is nothing to give back.
	 *
	 * @param mixed $render
	 * @param mixed $order_id
	 * @param mixed $order
	 * @return mixed
	 */
	public function render_refunds( $render, $order_id = 0, $order = null ) {
		$order = $order instanceof \WC_Order ? $order : wc_get_order( $order_id );
		if ( $order instanceof \WC_Order && Keys::GATEWAY_ID === $order->get_payment_method() && ! $this->took_money( $order ) ) {
			return false;
		}
		return $render;
	}

	/** A row under the order totals, just above WooCommerce's "Refund" button. */
	public function explain( $order_id ): void {
		$order = wc_get_order( $order_id );
		if ( ! $order instanceof \WC_Order || Keys::GATEWAY_ID !== $order->get_payment_method() || ! $this->took_money( $order ) ) {
			return;
		}
		echo '<tr class="card2crypto-refund-help"><td colspan="3" style="text-align:left;white-space:normal">' . esc_html( Refund_Words::explanation() ) . '</td></tr>';
	}

	/**
	 * Notes a refund recorded on one of our orders.
	 *
	 * @param int|string $order_id
	 * @param int|string $refund_id
	 */
	public function record( $order_id, $refund_id ): void {
		$order  = wc_get_order( $order_id );
		$refund = wc_get_order( $refund_id );
		if ( ! $order instanceof \WC_Order || Keys::GATEWAY_ID !== $order->get_payment_method() || ! $refund instanceof \WC_Order_Refund ) {
			return;
		}
		$order->add_order_note( Refund_Words::note( (string) $refund->get_amount(), (string) $order->get_currency(), (string) $refund->get_reason() ) );
	}
}

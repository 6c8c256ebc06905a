<?php
/**
 * A buyer's "Cancel" and "Pay" on an order whose card payment may be under
 * way: WooCommerce offers both for every pending or failed order (the
 * thank-you page's order actions, My account), and a buyer who pressed Cancel
 * while on the service's confirm step had the order cancelled, then paid.
 *
 * While a payment may be under way (Attempt_Store::payment_in_progress(): money
 * moving, or the current attempt started within its payment window and not
 * ended) the order offers neither, WooCommerce's cancel handler refuses it
 * (the statuses a buyer may cancel from are filtered, as WooCommerce lets a
 * gateway do), and a cancel link followed anyway (an older page, another tab)
 * is answered with a plain message instead of WooCommerce's generic one.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Buyer;

use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Attempts\Attempt_Store;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Buyer_Cancel implements Hooks {

	/** @var Attempt_Store */
	private $attempts;

	/** @var Order_Attempts */
	private $order_attempts;

	public function __construct( Attempt_Store $attempts, Order_Attempts $order_attempts ) {
		$this->attempts       = $attempts;
		$this->order_attempts = $order_attempts;
	}

	public function register(): void {
		add_filter( 'woocommerce_valid_order_statuses_for_cancel', array( $this, 'statuses' ), 10, 2 );
		add_filter( 'woocommerce_my_account_my_orders_actions', array( $this, 'actions' ), 10, 2 );
		// Before WC_Form_Handler::cancel_order() (wp_loaded, 20).
		add_action( 'wp_loaded', array( $this, 'refuse' ), 19 );
	}

	/**
	 * No status may be cancelled from while the order's payment may be under way.
	 *
	 * @param mixed $statuses
	 * @param mixed $order
	 * @return mixed
	 */
	public function statuses( $statuses, $order = null ) {
		return $this->paying( $order ) ? array() : $statuses;
	}

	/**
	 * Neither "Pay" nor "Cancel" among the order's actions while its payment may be under way.
	 *
	 * @param mixed $actions
	 * @param mixed $order
	 * @return mixed
	 */
	public function actions( $actions, $order = null ) {
		if ( is_array( $actions ) && $this->paying( $order ) ) {
			unset( $actions['pay'], $actions['cancel'] );
		}
		return $actions;
	}

	/** A cancel link of such an order, followed anyway: said plainly, nothing cancelled. */
	public function refuse(): void {
		// phpcs:disable WordPress.Security.NonceVerification.Recommended -- the nonce is checked below, as WooCommerce checks it.
		if ( ! isset( $_GET['cancel_order'], $_GET['order'], $_GET['order_id'], $_GET['_wpnonce'] ) ) {
			return;
		}
		if ( ! wp_verify_nonce( sanitize_text_field( wp_unslash( $_GET['_wpnonce'] ) ), 'woocommerce-cancel_order' ) ) {
			return;
		}
		$order = wc_get_order( absint( $_GET['order_id'] ) );
		if ( ! $order instanceof \WC_Order || ! hash_equals( $order->get_order_key(), sanitize_text_field( wp_unslash( $_GET['order'] ) ) ) || ! $this->paying( $order ) ) {
			return;
		}
		$redirect = isset( $_GET['redirect'] ) ? esc_url_raw( wp_unslash( $_GET['redirect'] ) ) : '';
		// phpcs:enable WordPress.Security.NonceVerification.Recommended
		wc_nocache_headers();
		wc_add_notice( esc_html( $this->message( $order ) ), 'error' );
		$order->add_order_note(
			sprintf(
				/* translators: %s: what the buyer was told */
				__( 'Card2Crypto: the buyer asked to cancel the order while its card payment may be under way; nothing was cancelled. The buyer was told: "%s"', 'card2crypto-checkout' ),
				$this->message( $order )
			)
		);
		wp_safe_redirect( '' !== $redirect ? $redirect : $order->get_view_order_url() );
		exit;
	}

	/** What the buyer is told when cancelling is refused. */
	public function message( \WC_Order $order ): string {
		if ( $this->attempts->money_moving( $order ) ) {
			return __( 'A card payment for this order is under way, so the order cannot be cancelled now. Please contact the store if you need help.', 'card2crypto-checkout' );
		}
		$current = $this->attempts->current_attempt( $order );
		$until   = null === $current ? time() : $current->payment_started( null, time() ) + $this->order_attempts->payment_window();
		return sprintf(
			/* translators: %s: a time of day in the site's format */
			__( 'A card payment for this order was started and may still go through, so the order cannot be cancelled now. If you do not finish the payment, you can cancel the order after %s.', 'card2crypto-checkout' ),
			wp_date( (string) get_option( 'time_format', 'H:i' ), $until )
		);
	}

	/** Whether the order is paid with this method and its payment may be under way. */
	private function paying( $order ): bool {
		return $order instanceof \WC_Order && Keys::GATEWAY_ID === $order->get_payment_method() && ! $order->is_paid() && $this->attempts->payment_in_progress( $order );
	}
}

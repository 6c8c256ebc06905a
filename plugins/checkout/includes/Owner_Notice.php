<?php
/**
 * Tells the store owner by e-mail when a payment needs them (confirmation,
 * mismatch, conflict). Called only by the request that claimed the event, so
 * each situation sends one e-mail.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

defined( 'ABSPATH' ) || exit;

final class Owner_Notice {

	public static function send( \WC_Order $order, string $subject, string $message ): void {
		/**
		 * Filters who is e-mailed when a card payment needs the store owner
		 * (confirmation, mismatch, conflict). An empty string sends nothing.
		 *
		 * @since 0.1.0
		 *
		 * @param string    $to    Default the site's admin e-mail.
		 * @param \WC_Order $order The order concerned.
		 */
		$to = (string) apply_filters( 'card2crypto_checkout_owner_email', get_option( 'admin_email' ), $order );
		if ( '' === $to ) {
			return;
		}
		$body = $message . "\n\n" . sprintf(
			/* translators: %s: order admin URL */
			__( 'Order: %s', 'card2crypto-checkout' ),
			$order->get_edit_order_url()
		);
		/* translators: 1: site name, 2: order number, 3: subject */
		$title = sprintf( __( '[%1$s] Order #%2$s: %3$s', 'card2crypto-checkout' ), wp_specialchars_decode( get_bloginfo( 'name' ), ENT_QUOTES ), $order->get_order_number(), $subject );
		if ( ! wp_mail( $to, $title, $body ) ) {
			Log::warning( sprintf( 'Order %d: the e-mail to the owner ("%s") could not be sent.', $order->get_id(), $subject ) );
		}
	}
}

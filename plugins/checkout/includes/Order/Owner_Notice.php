<?php
/**
 * Tells the store owner by e-mail when a payment needs them (confirmation,
 * mismatch, conflict), through WooCommerce's mailer (the store's sender and
 * WooCommerce's template). Called only by the request that claimed the event,
 * and once per situation and payment: a mismatch reported at pending 2 and
 * again at success is one e-mail. Built once and passed in.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Order;

use Card2Crypto\Checkout\Base\Log;

defined( 'ABSPATH' ) || exit;

final class Owner_Notice {

	/** Order meta: which notices the owner was sent about the order (one per situation and payment). */
	const META_SENT = '_card2crypto_owner_notices';

	/**
	 * @param string $payment The payment the notice is about (an operation id): the same situation of the same payment is
	 *                        mailed once, however many events report it (a mismatch is seen at pending 2 and again at success).
	 */
	public function send( \WC_Order $order, string $subject, string $message, string $payment = '' ): void {
		/**
		 * Filters who is e-mailed when a card payment needs the store owner
		 * (confirmation, mismatch, conflict). An empty string sends nothing.
		 *
		 * @since 0.1.0
		 *
		 * @param string    $to    Default the site's admin e-mail.
		 * @param \WC_Order|null $order The order concerned (null for a notice about the store: the service refuses it).
		 */
		$to = (string) apply_filters( 'card2crypto_checkout_owner_email', get_option( 'admin_email' ), $order );
		if ( '' === $to ) {
			return;
		}
		$key  = md5( $subject . "\n" . $payment );
		$sent = $order->get_meta( self::META_SENT );
		$sent = is_array( $sent ) ? $sent : array();
		if ( '' !== $payment && in_array( $key, $sent, true ) ) {
			return;
		}
		/* translators: 1: site name, 2: order number, 3: subject */
		$title = sprintf( __( '[%1$s] Order #%2$s: %3$s', 'card2crypto-checkout' ), wp_specialchars_decode( get_bloginfo( 'name' ), ENT_QUOTES ), $order->get_order_number(), $subject );
		if ( ! $this->mail( $order, $to, $title, $subject, $message ) ) {
			Log::warning( sprintf( 'Order %d: the e-mail to the owner ("%s") could not be sent.', $order->get_id(), $subject ) );
			return;
		}
		if ( '' !== $payment ) {
			$sent[] = $key;
			$order->update_meta_data( self::META_SENT, array_slice( $sent, -20 ) );
			$order->save();
		}
	}

	/**
	 * An e-mail to the owner about the store rather than one order (the
	 * service refuses the store), through the same filter and mailer.
	 *
	 * @param string $link      Where the owner acts (an admin page).
	 * @param string $link_text The link's words.
	 */
	public function to_owner( string $subject, string $message, string $link, string $link_text ): bool {
		/** This filter is documented in includes/Order/Owner_Notice.php (send()); the order is null here. */
		$to = (string) apply_filters( 'card2crypto_checkout_owner_email', get_option( 'admin_email' ), null );
		if ( '' === $to ) {
			return true;
		}
		/* translators: 1: site name, 2: subject */
		$title = sprintf( __( '[%1$s] %2$s', 'card2crypto-checkout' ), wp_specialchars_decode( get_bloginfo( 'name' ), ENT_QUOTES ), $subject );
		return $this->deliver( $to, $title, $subject, $message, $link, $link_text );
	}

	/** Through WooCommerce's mailer: the store's sender and WooCommerce's e-mail template (plain wp_mail() without it). */
	private function mail( \WC_Order $order, string $to, string $title, string $heading, string $message ): bool {
		return $this->deliver( $to, $title, $heading, $message, $order->get_edit_order_url(), __( 'Open the order', 'card2crypto-checkout' ) );
	}

	private function deliver( string $to, string $title, string $heading, string $message, string $link, string $link_text ): bool {
		if ( function_exists( 'WC' ) && WC()->mailer() ) {
			$mailer = WC()->mailer();
			$body   = wpautop( esc_html( $message ) ) . '<p><a href="' . esc_url( $link ) . '">' . esc_html( $link_text ) . '</a></p>';
			return (bool) $mailer->send( $to, $title, $mailer->wrap_message( $heading, $body ) );
		}
		return wp_mail( $to, $title, $message . "\n\n" . $link_text . ': ' . $link );
	}
}

<?php
/**
 * What WooCommerce mails the buyer about a card payment, kept to what a
 * card gateway's buyer expects:
 *
 * - No "on hold until we confirm payment" mail while the service is only
 *   moving the money (pending 2 onwards puts the order on hold): the
 *   "processing" mail follows seconds later, and two mails for one payment
 *   read as a problem. A hold because the payment does not match the order
 *   still mails the buyer (WooCommerce's on-hold mail), as it should.
 * - WooCommerce's "failed order" mail says what happened to the card
 *   payment, in the same words as the store's pages, and carries the
 *   order's pay link.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Order;

use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Other_Methods;
use Card2Crypto\Checkout\Rules\Buyer_Words;
use Card2Crypto\Checkout\Attempts\Attempt_Store;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Buyer_Mail implements Hooks {

	/** Order meta: the order is on hold only while the service moves the money ("1"), so the buyer gets no on-hold mail. */
	const META_QUIET_HOLD = '_card2crypto_quiet_hold';

	/** @var Attempt_Store */
	private $attempts;

	public function __construct( Attempt_Store $attempts ) {
		$this->attempts = $attempts;
	}

	public function register(): void {
		add_filter( 'woocommerce_email_enabled_customer_on_hold_order', array( $this, 'on_hold_enabled' ), 10, 2 );
		add_filter( 'woocommerce_email_additional_content_customer_failed_order', array( $this, 'failed_content' ), 10, 2 );
	}

	/**
	 * Marks (or clears) an order's coming hold as the service moving the
	 * money. Saved with the order before its status changes.
	 */
	public function quiet_hold( \WC_Order $order, bool $quiet ): void {
		if ( $quiet ) {
			$order->update_meta_data( self::META_QUIET_HOLD, '1' );
		} else {
			$order->delete_meta_data( self::META_QUIET_HOLD );
		}
	}

	/**
	 * @param mixed $enabled
	 * @param mixed $order
	 * @return mixed
	 */
	public function on_hold_enabled( $enabled, $order = null ) {
		if ( $order instanceof \WC_Order && Keys::GATEWAY_ID === $order->get_payment_method() && '1' === (string) $order->get_meta( self::META_QUIET_HOLD ) ) {
			return false;
		}
		return $enabled;
	}

	/**
	 * The failed-order mail's closing words: what happened to the payment
	 * (the decline's own words) and the order's pay link.
	 *
	 * @param mixed $content
	 * @param mixed $order
	 * @return mixed
	 */
	public function failed_content( $content, $order = null ) {
		if ( ! $order instanceof \WC_Order || Keys::GATEWAY_ID !== $order->get_payment_method() ) {
			return $content;
		}
		$attempt = $this->attempts->current_attempt( $order );
		$code    = null !== $attempt && Operation_Store::NO_CODE !== $attempt->status_code() ? $attempt->status_code() : 0;
		$words   = Buyer_Words::failure( $code, Other_Methods::exist() );
		if ( $order->needs_payment() ) {
			/* translators: %s: the order's payment page */
			$words .= "\n\n" . sprintf( __( 'Pay for this order: %s', 'card2crypto-checkout' ), $order->get_checkout_payment_url() );
		}
		return $words;
	}
}

<?php
/**
 * Where a payment flow sends the buyer back to: the order's payment page
 * (order-pay), marked with why. Buyer_Return reads the marks when the page
 * is asked for; the payment flows (Payment_Flows) and the embedded widget's
 * return route write them.
 *
 * - RETURN_ARG: the landing page's fail redirect (the store asks the service, then tells).
 * - UNAVAILABLE_ARG: the service refused the store as the payment was to start.
 * - TOLD_ARG: no payment started; the words why are kept for the order a few
 *   minutes in the shared database (the next page may be served by another
 *   web server) and read once, after the order key is checked.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Payment;

use Card2Crypto\Checkout\Base\Shared_Store;

defined( 'ABSPATH' ) || exit;

final class Return_Pages {

	/** Query argument on the order-pay URL that marks the landing page's fail redirect. */
	const RETURN_ARG = 'card2crypto-return';

	/** Query argument on the order-pay URL: the service refused the store when the payment was to start (Service_Health). */
	const UNAVAILABLE_ARG = 'card2crypto-unavailable';

	/** Query argument on the order-pay URL: the landing link was followed and no payment started; the words why are kept for the order (told_url()). */
	const TOLD_ARG = 'card2crypto-told';

	/** How long the words of told_url() wait for the page to be asked for. */
	const TOLD_TTL = 5 * 60;

	/** @var Shared_Store */
	private $shared;

	public function __construct( Shared_Store $shared ) {
		$this->shared = $shared;
	}

	/** The fail address given to the landing page. */
	public function fail_url( \WC_Order $order ): string {
		return add_query_arg( self::RETURN_ARG, '1', $order->get_checkout_payment_url() );
	}

	/**
	 * Where a buyer goes when the service refuses the store as their payment
	 * was to start (the landing route, the widget settings): the order's
	 * order-pay page, where the method is withdrawn and a notice says why.
	 */
	public function unavailable_url( \WC_Order $order ): string {
		return add_query_arg( self::UNAVAILABLE_ARG, '1', $order->get_checkout_payment_url() );
	}

	/**
	 * Where a buyer goes when the landing link was followed and no payment
	 * started (an earlier payment stands in the way, the rate could not be
	 * fixed, too many attempts): the order's payment page, where the words
	 * they are told become a notice (take_told()).
	 *
	 * @param string     $type WooCommerce notice type: "notice" or "error".
	 * @param array|null $link A link the words offer (Buyer_Words), or null.
	 */
	public function told_url( \WC_Order $order, string $message, string $type, ?array $link = null ): string {
		$this->shared->put(
			$this->told_key( $order ),
			array(
				'message' => $message,
				'type'    => 'error' === $type ? 'error' : 'notice',
				'link'    => $link,
			),
			self::TOLD_TTL
		);
		return add_query_arg( self::TOLD_ARG, '1', $order->get_checkout_payment_url() );
	}

	/**
	 * The words told_url() kept for the order, once: read and forgotten.
	 *
	 * @return array{message: string, type: string, link: array|null}|null
	 */
	public function take_told( \WC_Order $order ): ?array {
		$told = $this->shared->get( $this->told_key( $order ) );
		$this->shared->delete( $this->told_key( $order ) );
		if ( ! is_array( $told ) || ! isset( $told['message'], $told['type'] ) || '' === $told['message'] ) {
			return null;
		}
		return array(
			'message' => (string) $told['message'],
			'type'    => 'error' === $told['type'] ? 'error' : 'notice',
			'link'    => isset( $told['link'] ) && is_array( $told['link'] ) ? $told['link'] : null,
		);
	}

	private function told_key( \WC_Order $order ): string {
		return 'card2crypto_checkout_told_' . $order->get_id();
	}
}

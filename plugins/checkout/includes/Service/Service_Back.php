<?php
/**
 * A buyer whose payment could not start because the service refused the
 * store (Service_Health) is not left at a dead end: the order is kept and
 * marked as waiting for card payment, the buyer is told so, and when the
 * health check next sees the service accept the store, every such order
 * still unpaid gets WooCommerce's own "pay for this order" e-mail (the
 * customer invoice: WooCommerce's mailer, sender and template, with the pay
 * link), once per order.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Service;

use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;

defined( 'ABSPATH' ) || exit;

final class Service_Back {

	/** Order meta: when the order began waiting for card payment to come back (Unix time). */
	const META = '_card2crypto_waits_for_service';

	/** The Action Scheduler hook that mails the waiting orders, and its group. */
	const HOOK  = 'card2crypto_checkout_service_back';
	const GROUP = 'card2crypto-checkout';

	/** Orders mailed per run; a longer list queues another run. */
	const BATCH = 50;

	/** @var Config */
	private $config;

	public function __construct( Config $config ) {
		$this->config = $config;
	}

	public function register(): void {
		add_action( self::HOOK, array( $this, 'mail_waiting' ) );
		add_action( Service_Health::CAME_BACK, array( self::class, 'came_back' ) );
	}

	/**
	 * The order waits for card payment to come back (noted once); answers
	 * what the buyer is told.
	 */
	public static function keep( \WC_Order $order ): string {
		if ( ! $order->is_paid() && '' === (string) $order->get_meta( self::META ) ) {
			$order->update_meta_data( self::META, (string) time() );
			$order->add_order_note( __( 'Card2Crypto: card payment was unavailable when the buyer tried to pay (the service refuses the store). The order is kept; the buyer is e-mailed a link to pay it as soon as card payment is back.', 'card2crypto-checkout' ) );
			$order->save();
		}
		return self::message( self::other_methods() );
	}

	/** What the buyer is told: the order is kept, and how they will hear. */
	public static function message( bool $other_methods = false ): string {
		$message = __( 'Card payment is unavailable right now. Your order is kept: we will e-mail you a link to pay it as soon as card payment is back.', 'card2crypto-checkout' );
		if ( $other_methods ) {
			$message .= ' ' . __( 'You can also pay it now with another payment method.', 'card2crypto-checkout' );
		}
		return $message;
	}

	/** Whether the store offers another payment method now. */
	private static function other_methods(): bool {
		if ( ! function_exists( 'WC' ) || ! WC()->payment_gateways() ) {
			return false;
		}
		$available = WC()->payment_gateways()->get_available_payment_gateways();
		unset( $available[ Keys::GATEWAY_ID ] );
		return array() !== $available;
	}

	/** The service accepts the store again: the waiting orders are mailed in the background. */
	public static function came_back(): void {
		Service_Health::queue_once( self::HOOK, 'error', 'The orders waiting for card payment could not be queued for their e-mail' );
	}

	/**
	 * The background run: each waiting order of this method that still needs
	 * payment gets WooCommerce's customer invoice (its pay link) once; the
	 * mark is removed first, so a failing mail is never sent twice.
	 */
	public function mail_waiting(): void {
		if ( ! Service_Health::available( $this->config ) ) {
			return; // Refused again meanwhile: the next time it comes back.
		}
		$orders = wc_get_orders(
			array(
				'limit'          => self::BATCH,
				'payment_method' => Keys::GATEWAY_ID,
				'meta_query'     => array( // phpcs:ignore WordPress.DB.SlowDBQuery -- a handful of orders, once per return of the service.
					array(
						'key'     => self::META,
						'compare' => 'EXISTS',
					),
				),
			)
		);
		$emails  = function_exists( 'WC' ) && WC()->mailer() ? WC()->mailer()->get_emails() : array();
		$invoice = $emails['WC_Email_Customer_Invoice'] ?? null;
		foreach ( $orders as $order ) {
			if ( ! $order instanceof \WC_Order ) {
				continue;
			}
			$order->delete_meta_data( self::META );
			$order->save();
			if ( $order->is_paid() || ! $order->needs_payment() ) {
				continue;
			}
			if ( null === $invoice || '' === (string) $order->get_billing_email() ) {
				$order->add_order_note( __( 'Card2Crypto: card payment is back, but the buyer could not be e-mailed (no customer invoice e-mail or no address): send them the payment link yourself.', 'card2crypto-checkout' ) );
				continue;
			}
			$invoice->trigger( $order->get_id(), $order );
			$order->add_order_note( __( 'Card2Crypto: card payment is back; the buyer was e-mailed a link to pay this order.', 'card2crypto-checkout' ) );
		}
		if ( count( $orders ) >= self::BATCH && function_exists( 'as_enqueue_async_action' ) ) {
			// More may wait: another run (this one is still listed as running, so came_back() would not queue it).
			as_enqueue_async_action( self::HOOK, array(), self::GROUP );
		}
	}
}

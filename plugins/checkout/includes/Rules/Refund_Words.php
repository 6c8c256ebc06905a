<?php
/**
 * What the owner reads about refunds of a card payment: the service has no
 * refunds, so the store returns the money itself and records it with
 * WooCommerce's "Refund manually" (Order\Manual_Refunds prints and notes
 * these words; the order's payment panel shows the explanation too). Pure.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;


defined( 'ABSPATH' ) || exit;

final class Refund_Words {

	/** The row under the order totals, beside WooCommerce's "Refund" button. */
	public static function explanation(): string {
		return __( 'Card2Crypto cannot refund through the service (it has no refunds). To refund, return the money to the buyer yourself (for example by bank transfer), then record it here with "Refund manually" so the order shows it.', 'card2crypto-checkout' );
	}

	/**
	 * The note of a manual refund: the amount as money (exact; as WooCommerce
	 * stored it when it cannot be read exactly), the reason, what to do.
	 */
	public static function note( string $amount, string $currency, string $reason ): string {
		try {
			$money = Order_Words::money( Currencies::to_minor( $amount, $currency ), $currency );
		} catch ( \DomainException $e ) {
			$money = trim( $amount . ' ' . $currency );
		}
		$text = '' === trim( $reason )
			/* translators: %s: refunded amount */
			? sprintf( __( 'Card2Crypto: refunded %s manually.', 'card2crypto-checkout' ), $money )
			/* translators: 1: refunded amount, 2: reason */
			: sprintf( __( 'Card2Crypto: refunded %1$s manually (reason: %2$s).', 'card2crypto-checkout' ), $money, trim( $reason ) );
		return $text . ' ' . __( 'The card2crypto service cannot refund: return the money to the buyer yourself if you have not already.', 'card2crypto-checkout' );
	}
}

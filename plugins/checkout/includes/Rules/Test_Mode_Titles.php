<?php
/**
 * The payment method's titles in the sandbox (Settings\Test_Mode): "(test
 * mode)" after the title buyers see, "– Test mode" after the name in
 * WooCommerce's payments list, and the buyer's mark taken off again so an
 * order keeps one title. Pure: the environment in, the words out;
 * table-tested in test/order-words.test.ts.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Test_Mode_Titles {

	/** The title buyers see: marked in the sandbox. */
	public static function buyer_title( string $title, string $environment ): string {
		/* translators: %s: payment method title */
		return 'sandbox' === $environment ? sprintf( __( '%s (test mode)', 'card2crypto-checkout' ), $title ) : $title;
	}

	/**
	 * The name in WooCommerce's payments list: "Card2Crypto – Test mode" in the sandbox.
	 */
	public static function admin_title( string $method_title, string $environment ): string {
		/* translators: %s: payment method name */
		return 'sandbox' === $environment ? sprintf( __( '%s – Test mode', 'card2crypto-checkout' ), $method_title ) : $method_title;
	}

	/** A title with the test-mode mark buyer_title() adds taken off again. */
	public static function plain_title( string $title ): string {
		$marked = self::buyer_title( '%%TITLE%%', 'sandbox' );
		$parts  = explode( '%%TITLE%%', $marked, 2 );
		if ( 2 !== count( $parts ) ) {
			return $title;
		}
		$starts = '' === $parts[0] || 0 === strpos( $title, $parts[0] );
		$ends   = '' === $parts[1] || ( strlen( $title ) >= strlen( $parts[1] ) && substr( $title, -strlen( $parts[1] ) ) === $parts[1] );
		if ( ! $starts || ! $ends || strlen( $title ) <= strlen( $parts[0] ) + strlen( $parts[1] ) ) {
			return $title;
		}
		return substr( $title, strlen( $parts[0] ), strlen( $title ) - strlen( $parts[0] ) - strlen( $parts[1] ) );
	}
}

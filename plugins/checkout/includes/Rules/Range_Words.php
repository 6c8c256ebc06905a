<?php
/**
 * What a buyer reads when the order total is outside the card range the
 * service takes for the currency (the cart, the checkout, the order's
 * payment page, the block checkout's script: Range_Notice and
 * Blocks_Integration). Pure but for the store's price format
 * (Order_Words::money()); unit-tested in test/php/words.php.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;


defined( 'ABSPATH' ) || exit;

final class Range_Words {

	/**
	 * "Card payment is available for orders from €50.00 to €5,000.00." when
	 * the total is outside the range; null when it is inside or unknown.
	 */
	public static function message( string $currency, ?int $total_minor, bool $others = true ): ?string {
		if ( null === $total_minor || ! Currencies::is_supported( $currency ) ) {
			return null;
		}
		$problem = Currencies::limit_problem( $total_minor, $currency );
		if ( null === $problem ) {
			return null;
		}
		$limits = Currencies::limits( $currency );
		/* translators: 1: smallest order total, 2: largest order total */
		$range = sprintf( __( 'Card payment is available for orders from %1$s to %2$s.', 'card2crypto-checkout' ), Order_Words::money( $limits[1], $currency ), Order_Words::money( $limits[2], $currency ) );
		if ( ! $others ) {
			// The store has no other method: nothing to choose, and nothing that contradicts WooCommerce's own words.
			return $range . ' ' . ( 'min' === $problem['rule']
				? __( 'Add to your order to pay by card.', 'card2crypto-checkout' )
				: __( 'Split your order to pay by card.', 'card2crypto-checkout' ) );
		}
		return $range . ' ' . ( 'min' === $problem['rule']
			? __( 'Add to your order to pay by card, or choose another payment method.', 'card2crypto-checkout' )
			: __( 'Split your order to pay by card, or choose another payment method.', 'card2crypto-checkout' ) );
	}

	/**
	 * The messages for the currency, for the block checkout's script, which
	 * knows the total as the buyer changes the cart, by its outside() value:
	 * 0 within the range (nothing to say), 1 below it, 2 above it. A list,
	 * of empty strings for a currency the service does not take: the script
	 * stays within its size budget.
	 *
	 * @return array{0: string, 1: string, 2: string}
	 */
	public static function messages( string $currency, bool $others = true ): array {
		$limits = Currencies::limits( $currency );
		if ( null === $limits ) {
			return array( '', '', '' );
		}
		return array(
			'',
			(string) self::message( $currency, $limits[1] - 1, $others ),
			(string) self::message( $currency, $limits[2] + 1, $others ),
		);
	}
}

<?php
/**
 * What the store says about the bitcoin side of a payment: an amount in
 * BTC, the buyer's line about the wallet address on the payment page, a
 * block explorer's page of an address, and the wallet's gap limit (the
 * owner's words, and the buyer's when no address is free). Pure;
 * unit-tested in test/php/words.php.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Wallet_Words {

	/** "0.00123456" for 123456 satoshis. */
	public static function btc( int $sats ): string {
		return intdiv( $sats, 100000000 ) . '.' . str_pad( (string) ( $sats % 100000000 ), 8, '0', STR_PAD_LEFT );
	}

	/** One line for the buyer: the bitcoin address on the payment page is the store's and must stay as it is. */
	public static function wallet_line(): string {
		return __( "On the payment page, leave the bitcoin address as it is: it is the store's wallet, and a payment sent to another address cannot be matched to your order.", 'card2crypto-checkout' );
	}

	/** What a buyer is told when no address inside the wallet's gap limit is free. */
	public static function exhausted(): string {
		return __( 'Card payment cannot take new orders right now. Please try again in an hour.', 'card2crypto-checkout' );
	}

	/**
	 * The gap in words, for the settings page and the admin notice: how many
	 * addresses past the last paid one are in use, against the gap limit,
	 * and, when it matters, what happens next and the one thing to do.
	 *
	 * @param array{gap: int, limit: int, standing: string, cap: int, highest: int|null} $gap Order_Address::gap().
	 */
	public static function gap_text( array $gap ): string {
		$text = sprintf(
			/* translators: 1: addresses in use past the last paid one, 2: the wallet's gap limit */
			_n( '%1$d address past the last paid one is in use; your wallet looks %2$d addresses ahead (its gap limit).', '%1$d addresses past the last paid one are in use; your wallet looks %2$d addresses ahead (its gap limit).', $gap['gap'], 'card2crypto-checkout' ),
			$gap['gap'],
			$gap['limit']
		);
		$raise = __( 'To take more orders at once, raise your wallet\'s gap limit (in Electrum: wallet.change_gap_limit(…) in the console; in Sparrow: Settings → Advanced → Gap limit) and set the same number here.', 'card2crypto-checkout' );
		switch ( $gap['standing'] ) {
			case Address_Policy::PAST:
				return $text . ' ' . sprintf(
					/* translators: 1: the highest address index in use, 2: the gap limit the wallet needs */
					__( 'Some addresses are already past it (up to index %1$d): payments to them do not show in your wallet until you raise its gap limit to at least %2$d.', 'card2crypto-checkout' ),
					(int) $gap['highest'],
					(int) $gap['highest'] - (int) $gap['cap'] + (int) $gap['limit']
				) . ' ' . $raise;
			case Address_Policy::FULL:
				return $text . ' ' . __( 'Every address your wallet sees is held by an order that may still be paid: new orders cannot be paid by card until one is paid, or freed an hour after its payment ended unpaid.', 'card2crypto-checkout' ) . ' ' . $raise;
			case Address_Policy::NEAR:
				return $text . ' ' . __( 'When every address your wallet sees is held by an unpaid order, new orders cannot be paid by card until one is paid or freed; the store never hands out an address your wallet would not show.', 'card2crypto-checkout' ) . ' ' . $raise;
		}
		return $text;
	}

	/** A block explorer's page of an address (mempool.space; its testnet pages for testnet addresses). */
	public static function explorer_url( string $address ): string {
		$testnet = 1 === preg_match( '/^(tb1|bcrt1|[mn2])/i', $address );
		return 'https://mempool.space/' . ( $testnet ? 'testnet/' : '' ) . 'address/' . rawurlencode( $address );
	}
}

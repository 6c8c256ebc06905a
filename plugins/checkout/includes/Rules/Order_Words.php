<?php
/**
 * How the order panel and the order notes word a payment for the store
 * owner: amounts as money (exact, from minor units; never through a float),
 * an operation's state in words with the service's status in brackets, and
 * which amounts an operation has actually received.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;


defined( 'ABSPATH' ) || exit;

final class Order_Words {

	/**
	 * Status codes at which the buyer's card has been charged (spec: code 2
	 * "Money received from the user" and every later step of a payment).
	 */
	const RECEIVED_CODES = array( 2, 3, 8, 9, 4, 7, 6, 0 );

	/** Status codes at which the service has bought the crypto (code 4 "Order executed on the exchange" and later). */
	const BOUGHT_CODES = array( 4, 7, 6, 0 );

	/**
	 * Money as WooCommerce writes it (symbol, thousands and decimal
	 * separators of the store), from exact minor units: 5000 EUR => "€50.00".
	 * The currency's own decimals are used, not the store's price decimals,
	 * so no digit is invented or rounded away.
	 */
	public static function money( int $minor, string $currency ): string {
		if ( ! Currencies::is_supported( $currency ) ) {
			// Its decimals are unknown here: say plainly what the number is rather than guess.
			return sprintf( '%d %s (minor units)', $minor, $currency );
		}
		$decimal  = Currencies::to_decimal( $minor, $currency );
		$negative = '-' === substr( $decimal, 0, 1 );
		$decimal  = ltrim( $decimal, '-' );
		$parts    = explode( '.', $decimal, 2 );
		$thousand = function_exists( 'wc_get_price_thousand_separator' ) ? wc_get_price_thousand_separator() : ',';
		$point    = function_exists( 'wc_get_price_decimal_separator' ) ? wc_get_price_decimal_separator() : '.';
		$whole    = implode( $thousand, str_split( strrev( $parts[0] ), 3 ) );
		$number   = strrev( $whole ) . ( isset( $parts[1] ) ? $point . $parts[1] : '' );
		$symbol   = function_exists( 'get_woocommerce_currency_symbol' ) ? html_entity_decode( get_woocommerce_currency_symbol( $currency ), ENT_QUOTES, 'UTF-8' ) : '';
		if ( '' === $symbol ) {
			$text = $number . ' ' . $currency;
		} else {
			$format = function_exists( 'get_woocommerce_price_format' ) ? get_woocommerce_price_format() : '%1$s%2$s';
			// WooCommerce's formats carry &nbsp; (right_space, left_space): notes and e-mails are plain text.
			$text = str_replace( "\xC2\xA0", ' ', html_entity_decode( sprintf( $format, $symbol, $number ), ENT_QUOTES, 'UTF-8' ) );
		}
		return ( $negative ? '-' : '' ) . $text;
	}

	/**
	 * An operation's state in words for the owner, the service's status in
	 * brackets: "Card payment received (pending)".
	 *
	 * @param mixed $status
	 * @param mixed $code
	 */
	public static function status( $status, $code ): string {
		$words = array(
			1   => __( 'Payment started', 'card2crypto-checkout' ),
			2   => __( 'Card payment received', 'card2crypto-checkout' ),
			3   => __( 'Buyer verified', 'card2crypto-checkout' ),
			8   => __( 'Waiting for your confirmation', 'card2crypto-checkout' ),
			9   => __( 'Confirmed by the store', 'card2crypto-checkout' ),
			4   => __( 'Crypto bought', 'card2crypto-checkout' ),
			7   => __( 'Crypto withdrawal requested', 'card2crypto-checkout' ),
			6   => __( 'Crypto sent to the wallet', 'card2crypto-checkout' ),
			0   => __( 'Payment complete', 'card2crypto-checkout' ),
			101 => __( 'The card payment was refused', 'card2crypto-checkout' ),
			102 => __( 'The buyer left or the payment page timed out', 'card2crypto-checkout' ),
			103 => __( 'The buyer failed verification', 'card2crypto-checkout' ),
			104 => __( 'The bank card failed verification', 'card2crypto-checkout' ),
			105 => __( 'The exchange rate expired before payment', 'card2crypto-checkout' ),
			106 => __( 'Cancelled by the store', 'card2crypto-checkout' ),
		);
		$step = self::step( $status, $code );
		if ( null === $step ) {
			/* translators: 1: status, 2: status code */
			return sprintf( __( 'Unknown state (%1$s, code %2$s)', 'card2crypto-checkout' ), is_scalar( $status ) ? (string) $status : '?', is_scalar( $code ) ? (string) $code : '?' );
		}
		return sprintf( '%s (%s)', $words[ $step['status_code'] ], $step['status'] );
	}

	/** Whether an operation in this state has taken the buyer's money. */
	public static function received( $status, $code ): bool {
		$step = self::step( $status, $code );
		return null !== $step && in_array( $step['status_code'], self::RECEIVED_CODES, true );
	}

	/** Whether an operation in this state has bought the crypto. */
	public static function bought( $status, $code ): bool {
		$step = self::step( $status, $code );
		return null !== $step && in_array( $step['status_code'], self::BOUGHT_CODES, true );
	}

	/** Status_Flow's row of a pair; a code stored as digits ("2") counts as the number. */
	private static function step( $status, $code ): ?array {
		if ( is_string( $code ) && 1 === preg_match( '/^(0|[1-9][0-9]{0,2})$/', $code ) ) {
			$code = (int) $code;
		}
		return Status_Flow::find_step( $status, $code );
	}

	/** An attempt's state for an order note, or why it is not known ($asked: how the service was asked). */
	public static function attempt_state( $status, $status_code, string $asked ): string {
		if ( null !== $status_code && Status_Flow::NO_CODE !== $status_code ) {
			return self::status( $status, $status_code );
		}
		return 'unreachable' === $asked ? __( 'not confirmed: the service could not be asked', 'card2crypto-checkout' ) : __( 'not known to the service yet', 'card2crypto-checkout' );
	}

	/** The order note saying what the buyer did, the payment's state and what the buyer was told. */
	public static function told( string $what, string $state, string $message ): string {
		return sprintf(
			/* translators: 1: what the buyer did, 2: the state in words, 3: what the buyer was told */
			__( 'Card2Crypto: %1$s; the payment is "%2$s". The buyer was told: "%3$s"', 'card2crypto-checkout' ),
			$what,
			$state,
			$message
		);
	}

	/**
	 * The order note (and, for the owner's e-mail, its subject: '' for none)
	 * of an Order_Decision that Order_Actions::perform() words rather than
	 * performs itself (every reason but ignored, complete and confirm).
	 *
	 * @param Decision    $action       Order_Decision::decide()'s answer.
	 * @param string      $label        The reported state in words (status()).
	 * @param array|null  $state        The attempt's state before the event (for a conflict).
	 * @param string      $via          Where the news came from.
	 * @param string      $operation_id The service's operation id.
	 * @return array{note: string, subject: string}
	 */
	public static function decision( Decision $action, string $label, ?array $state, string $via, string $operation_id ): array {
		$review = __( 'A card payment needs your review', 'card2crypto-checkout' );
		switch ( $action->reason() ) {
			case Decision::CONFLICT:
				return array(
					'note'    => sprintf(
						/* translators: 1: new state in words, 2: stored state in words, 3: source */
						__( 'Card2Crypto: the service reported "%1$s" after "%2$s" — %3$s. Contradicting outcomes: nothing was changed automatically; check the operation in the partner portal.', 'card2crypto-checkout' ),
						$label,
						self::status( $state['status'] ?? '', $state['status_code'] ?? -1 ),
						$via
					),
					'subject' => $review,
				);
			case Decision::UNKNOWN_PAIR:
				return array(
					'note'    => sprintf(
						/* translators: 1: the unknown state, 2: source */
						__( 'Card2Crypto: the service reported a state this plugin does not know, %1$s — %2$s; nothing was changed automatically.', 'card2crypto-checkout' ),
						$label,
						$via
					),
					'subject' => $review,
				);
			case Decision::DECLINED_OTHER_LIVE:
				return array(
					/* translators: 1: status and meaning, 2: where the news came from */
					'note'    => sprintf( __( 'Card2Crypto: one card payment of this order ended: %1$s — %2$s. The buyer started another one, which is still under way, so the order was not marked failed.', 'card2crypto-checkout' ), $label, $via ),
					'subject' => '',
				);
			case Decision::RETRIED:
				return array(
					'note'    => sprintf(
						/* translators: 1: status and meaning, 2: where the news came from */
						__( 'Card2Crypto: the buyer tried again after the declined payment: %1$s — %2$s. The order waits for payment again.', 'card2crypto-checkout' ),
						$label,
						$via
					),
					'subject' => '',
				);
			case Decision::DECLINED_MAY_RETRY:
				return array(
					/* translators: 1: status and meaning, 2: where the news came from */
					'note'    => sprintf( __( 'Card2Crypto: the card payment did not go through: %1$s — %2$s. The buyer can try again in the payment window still open on the order page, so the order is marked failed only if no new try succeeds.', 'card2crypto-checkout' ), $label, $via ),
					'subject' => '',
				);
			case Decision::EARLIER_ATTEMPT_DECLINED:
				return array(
					/* translators: 1: status and meaning, 2: source */
					'note'    => sprintf( __( 'Card2Crypto: an earlier payment attempt ended: %1$s — %2$s. The newer attempt is not affected.', 'card2crypto-checkout' ), $label, $via ),
					'subject' => '',
				);
			case Decision::DECLINED:
			case Decision::DECLINED_AFTER_PAID:
				return array(
					'note'    => sprintf(
						/* translators: 1: status and meaning, 2: source */
						__( 'Card2Crypto: the card payment did not go through: %1$s — %2$s. The buyer can pay again from the order page.', 'card2crypto-checkout' ),
						$label,
						$via
					),
					'subject' => '',
				);
			case Decision::MISMATCH:
				$problems = array() !== $action->problems() ? implode( '; ', $action->problems() ) : __( 'an earlier event of this payment did not match the order', 'card2crypto-checkout' );
				return array(
					'note'    => sprintf(
						/* translators: 1: status, 2: problems, 3: source */
						__( 'Card2Crypto: %1$s does NOT match this order: %2$s — %3$s. The order is on hold and will not be completed automatically.', 'card2crypto-checkout' ),
						$label,
						$problems,
						$via
					),
					'subject' => __( 'A card payment does not match its order', 'card2crypto-checkout' ),
				);
			case Decision::PAID_TWICE:
				return array(
					'note'    => sprintf(
						/* translators: 1: status, 2: operation id, 3: source */
						__( 'Card2Crypto: %1$s for operation %2$s, but this order was already paid by another payment — %3$s. The buyer paid twice: refund one of them.', 'card2crypto-checkout' ),
						$label,
						$operation_id,
						$via
					),
					'subject' => __( 'An order was paid twice', 'card2crypto-checkout' ),
				);
			case Decision::INCOMPLETE:
				return array(
					'note'    => sprintf(
						/* translators: 1: status, 2: missing members, 3: source */
						__( 'Card2Crypto: %1$s, but the operation does not say %2$s, so it cannot be checked against the order — %3$s. The order is on hold; refresh it from the service or check the partner portal.', 'card2crypto-checkout' ),
						$label,
						implode( ', ', $action->missing() ),
						$via
					),
					'subject' => $review,
				);
			case Decision::AWAIT_CONFIRMATION:
				$why = Decision::WHY_AUTO_CONFIRM_OFF === $action->why()
					? __( 'automatic confirmation is off', 'card2crypto-checkout' )
					: __( 'it cannot be checked against the order', 'card2crypto-checkout' );
				return array(
					'note'    => sprintf(
						/* translators: 1: status, 2: source, 3: reason */
						__( 'Card2Crypto: %1$s — %2$s. The operation waits for your confirmation (%3$s): confirm or cancel it on this order.', 'card2crypto-checkout' ),
						$label,
						$via,
						$why
					),
					'subject' => __( 'A card payment waits for your confirmation', 'card2crypto-checkout' ),
				);
			default: // already_paid, progress.
				return array(
					/* translators: 1: status, 2: source */
					'note'    => sprintf( __( 'Card2Crypto: %1$s — %2$s.', 'card2crypto-checkout' ), $label, $via ),
					'subject' => '',
				);
		}
	}
}

<?php
/**
 * What the buyer is told when they come back from a card payment that did
 * not end on the success page (the landing page's fail redirect, or the
 * embedded widget's onOperationFail / onExit), or when they press Pay while
 * an earlier payment of the order stands in the way, decided from what the
 * service answered about the attempts just now. Pure: the same facts give the same
 * words, in one place for the redirect and the embedded flow.
 *
 * The texts are plain (no markup): escape them where they are printed.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Buyer_Words {

	/** The buyer is sent to the thank-you page: the order is paid. */
	const PAID = 'paid';
	/** The payment failed (a declined code 101-106): pay again or choose another method. */
	const FAILED = 'failed';
	/** Money may be moving: the buyer must not pay again. */
	const IN_PROGRESS = 'in_progress';
	/** The payment was not finished (the service has no payment yet, or it was only created). */
	const NOT_FINISHED = 'not_finished';
	/** The service could not tell (unknown to it, unreachable, a state we do not know): reconciliation finishes. */
	const UNCONFIRMED = 'unconfirmed';
	/** An earlier payment was created and not paid, and may still be finished: finish it, or start again after its window. */
	const OPEN = 'open';
	/** The payment does not match the order (amount, currency, wallet): the order is held for the store; the buyer must not pay again. */
	const ON_HOLD = 'on_hold';
	/** Another window started paying the order since: this window's payment was ended for it. */
	const REPLACED = 'replaced';

	/**
	 * The outcome for the buyer.
	 *
	 * @param array $facts {
	 *     @type bool        $paid        The order is paid (after the answer was applied).
	 *     @type string      $asked       "answered", "unknown" (the service has no operation for the attempt) or "unreachable".
	 *     @type string|null $status      The attempt's status after the answer was applied.
	 *     @type int|null    $status_code The attempt's status code after the answer was applied.
	 *     @type string      $event       "fail" (the service said the payment failed) or "exit" (the buyer closed the widget).
	 *     @type bool        $mismatch    The payment did not match the order (the attempt is flagged; the order is held).
	 *     @type bool        $others_live Another operation of the order (another window's payment) may be under way or paid.
	 *     @type bool        $others      The store offers another payment method now (Other_Methods); absent: as if it did.
	 * }
	 * @return array{kind: string, code: int|null, type: string, message: string, retry: bool}
	 */
	public static function outcome( array $facts ): array {
		// "… or choose another payment method" only where the store offers one.
		$others = ! isset( $facts['others'] ) || (bool) $facts['others'];

		if ( ! empty( $facts['paid'] ) ) {
			return self::result( self::PAID, null, 'success', __( 'Your payment was received. Thank you!', 'card2crypto-checkout' ), false );
		}
		$asked = (string) ( $facts['asked'] ?? 'unreachable' );
		$step  = 'answered' === $asked ? Status_Flow::find_step( $facts['status'] ?? null, $facts['status_code'] ?? null ) : null;
		if ( ! empty( $facts['mismatch'] ) && ( null === $step || Status_Flow::PHASE_FAILED !== $step['phase'] ) ) {
			// The store knows it does not match, whatever the service says now: the truth, never "being processed".
			return self::result( self::ON_HOLD, null === $step ? null : $step['status_code'], 'notice', self::on_hold(), false );
		}
		if ( 'unknown' === $asked && 'exit' === ( $facts['event'] ?? '' ) ) {
			if ( ! empty( $facts['others_live'] ) ) {
				// This window made no payment, but another window's may be moving money: never "pay again".
				return self::result( self::IN_PROGRESS, null, 'notice', self::under_way(), false );
			}
			// Closed before a payment existed: nothing to confirm, and nothing the service said about a card.
			return self::result(
				self::NOT_FINISHED,
				null,
				'notice',
				$others
					? __( 'The payment was not finished. You can pay again, or choose another payment method.', 'card2crypto-checkout' )
					: __( 'The payment was not finished. You can pay again.', 'card2crypto-checkout' ),
				true
			);
		}
		if ( null === $step ) {
			$why = 'unreachable' === $asked
				? __( 'We could not reach the payment service to confirm your payment yet.', 'card2crypto-checkout' )
				: __( 'We could not confirm your payment yet.', 'card2crypto-checkout' );
			return self::result(
				self::UNCONFIRMED,
				null,
				'notice',
				$why . ' ' . ( $others
					? __( 'If your card was charged, this order is updated automatically and you receive an e-mail: do not pay again. If it was not, you can pay again or choose another payment method.', 'card2crypto-checkout' )
					: __( 'If your card was charged, this order is updated automatically and you receive an e-mail: do not pay again. If it was not, you can pay again.', 'card2crypto-checkout' ) ),
				true
			);
		}
		if ( Status_Flow::PHASE_FAILED === $step['phase'] ) {
			return self::result( self::FAILED, $step['status_code'], 'error', self::failure( $step['status_code'], $others ), true );
		}
		if ( 1 === $step['status_code'] ) {
			return self::not_finished( $others );
		}
		return self::result(
			self::IN_PROGRESS,
			$step['status_code'],
			'notice',
			__( 'Your payment is being processed. You receive an e-mail when it completes: please do not pay again.', 'card2crypto-checkout' ),
			false
		);
	}

	/**
	 * What the buyer is told when they press Pay while an earlier payment of
	 * the order stands in the way (Attempt_Policy::before_new_payment()'s
	 * verdict); null when nothing does.
	 *
	 * @param array $verdict {verdict, started?, until?} (Unix times).
	 * @return array{kind: string, code: int|null, type: string, message: string, retry: bool}|null
	 */
	public static function before_new_payment( array $verdict ): ?array {
		switch ( $verdict['verdict'] ?? '' ) {
			case Attempt_Policy::PAID:
				return self::outcome( array( 'paid' => true ) );
			case Attempt_Policy::UNDER_WAY:
				return self::result( self::IN_PROGRESS, null, 'notice', self::under_way(), false );
			case Attempt_Policy::OPEN:
				$open = self::result(
					self::OPEN,
					1,
					'notice',
					sprintf(
						/* translators: 1: time the payment was started (e.g. 14:05), 2: time from which a new payment can start */
						__( 'A payment for this order was started at %1$s and card details were entered, so it may still go through. Finish it in the window where you started it, or start again after %2$s, when it ends.', 'card2crypto-checkout' ),
						self::clock( (int) ( $verdict['started'] ?? 0 ) ),
						self::clock( (int) ( $verdict['until'] ?? 0 ) )
					),
					false
				);
				$status_url = (string) ( $verdict['status_url'] ?? '' );
				if ( '' !== $status_url && preg_match( '#^https?://#i', $status_url ) ) {
					// The service's public status page of that payment: where the buyer sees how it stands.
					$open['link'] = array(
						'url'  => $status_url,
						'text' => __( 'See how that payment stands', 'card2crypto-checkout' ),
					);
				}
				return $open;
			case Attempt_Policy::UNCONFIRMED:
				return self::result(
					self::UNCONFIRMED,
					null,
					'error',
					__( 'We could not check with the payment service whether the card payment already started for this order went through, so a new one cannot start yet. Please try again in a few minutes.', 'card2crypto-checkout' ),
					true
				);
			default:
				return null;
		}
	}

	/**
	 * An outcome as a WooCommerce notice's HTML: its words, escaped, and its
	 * link (the service's status page of a payment that stands in the way),
	 * when it has one.
	 */
	public static function notice_html( array $outcome ): string {
		$html = esc_html( (string) ( $outcome['message'] ?? '' ) );
		$link = $outcome['link'] ?? null;
		if ( is_array( $link ) && isset( $link['url'], $link['text'] ) ) {
			$html .= ' <a href="' . esc_url( (string) $link['url'] ) . '" target="_blank" rel="noopener noreferrer">' . esc_html( (string) $link['text'] ) . '</a>';
		}
		return $html;
	}

	/**
	 * What a window whose payment was replaced is told: another window (a
	 * second tab, the pay link opened again) started paying the order, and
	 * this window's payment was ended at the service when no card had been
	 * entered in it (Start_Gate), so it can no longer be paid here.
	 */
	public static function replaced(): array {
		return self::result(
			self::REPLACED,
			null,
			'notice',
			__( 'This payment window is no longer in use: the payment of this order was started again in another window or tab, and this one was ended without charging your card. Finish paying in the other window, or start again here.', 'card2crypto-checkout' ),
			true
		);
	}

	/** A payment of the order is in progress: no second one. */
	public static function under_way(): string {
		return __( 'A card payment for this order is already under way. You receive an e-mail when it completes: please do not pay again.', 'card2crypto-checkout' );
	}

	/** A time of day as the site writes times (its time zone and time format; 14:05 without WordPress). */
	private static function clock( int $time ): string {
		if ( ! function_exists( 'wp_date' ) ) {
			return gmdate( 'H:i', $time );
		}
		$format = (string) get_option( 'time_format' );
		return (string) wp_date( '' !== $format ? $format : 'H:i', $time );
	}

	/**
	 * What happened and what the buyer can do, for a failure code (101-106);
	 * "choose another payment method" only when $others says there is one.
	 * Whole translated sentences, so that each language keeps its own words.
	 */
	public static function failure( int $code, bool $others = true ): string {
		switch ( $code ) {
			case 101:
				return $others
					? __( 'Your card payment was declined. You can pay again with another card, or choose another payment method.', 'card2crypto-checkout' )
					: __( 'Your card payment was declined. You can pay again with another card.', 'card2crypto-checkout' );
			case 102:
				return $others
					? __( 'The card payment was not completed: it was cancelled or timed out before your card was charged. You can pay again, or choose another payment method.', 'card2crypto-checkout' )
					: __( 'The card payment was not completed: it was cancelled or timed out before your card was charged. You can pay again.', 'card2crypto-checkout' );
			case 103:
				return $others
					? __( 'The payment did not go through because the identity verification was not passed. You can try again, or choose another payment method.', 'card2crypto-checkout' )
					: __( 'The payment did not go through because the identity verification was not passed. You can try again.', 'card2crypto-checkout' );
			case 104:
				return $others
					? __( 'Your bank card could not be verified. You can pay again with another card, or choose another payment method.', 'card2crypto-checkout' )
					: __( 'Your bank card could not be verified. You can pay again with another card.', 'card2crypto-checkout' );
			case 105:
				return $others
					? __( 'The exchange rate reserved for your payment expired before the payment was made. You can pay again at a fresh rate, or choose another payment method.', 'card2crypto-checkout' )
					: __( 'The exchange rate reserved for your payment expired before the payment was made. You can pay again at a fresh rate.', 'card2crypto-checkout' );
			case 106:
				return $others
					? __( 'This card payment was cancelled by the store. You can pay again, choose another payment method, or contact the store.', 'card2crypto-checkout' )
					: __( 'This card payment was cancelled by the store. You can pay again, or contact the store.', 'card2crypto-checkout' );
			default:
				return $others
					? __( 'The payment did not go through. You can pay again with another card, or choose another payment method.', 'card2crypto-checkout' )
					: __( 'The payment did not go through. You can pay again with another card.', 'card2crypto-checkout' );
		}
	}

	/** A payment that does not match the order, for the buyer (Order_View says the same). */
	public static function on_hold(): string {
		return __( 'Your payment is on hold: it does not match this order, so the store checks it by hand and will contact you. Please do not pay again.', 'card2crypto-checkout' );
	}

	/** The service says the payment was created and no card was entered: nothing was charged by it. */
	private static function not_finished( bool $others ): array {
		return self::result(
			self::NOT_FINISHED,
			null,
			'notice',
			$others
				? __( 'The payment was not finished and your card was not charged by it. You can pay again, or choose another payment method.', 'card2crypto-checkout' )
				: __( 'The payment was not finished and your card was not charged by it. You can pay again.', 'card2crypto-checkout' ),
			true
		);
	}

	private static function result( string $kind, ?int $code, string $type, string $message, bool $retry ): array {
		return array(
			'kind'    => $kind,
			'code'    => $code,
			'type'    => $type,
			'message' => $message,
			'retry'   => $retry,
		);
	}
}

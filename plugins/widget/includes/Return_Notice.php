<?php
/**
 * The page the "Buy crypto" button's landing sends a visitor back to (the
 * home page with ?card2crypto=success|fail, Go_Route::callback()): a short
 * message at the top of the page saying what happened. Only those two
 * values show anything; the query string is never printed.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget;

defined( 'ABSPATH' ) || exit;

final class Return_Notice {

	/** On wp_enqueue_scripts: the block's stylesheet holds the notice's few rules. */
	public static function enqueue(): void {
		if ( null !== self::outcome() ) {
			wp_enqueue_style( Assets::VIEW_STYLE );
		}
	}

	/** On wp_body_open (classic and block themes both fire it), first thing in the page. */
	public static function render(): void {
		$outcome = self::outcome();
		if ( 'success' === $outcome ) {
			$title   = __( 'Your purchase went through.', 'card2crypto-widget' );
			$message = __( 'The payment was accepted and your crypto is on its way to your wallet. It may take a few minutes to arrive.', 'card2crypto-widget' );
		} elseif ( 'fail' === $outcome ) {
			$title   = __( 'Your purchase did not go through.', 'card2crypto-widget' );
			$message = __( 'No crypto was bought. Check the card details or try another card, then try again.', 'card2crypto-widget' );
		} else {
			return;
		}
		printf(
			'<div class="c2c-return c2c-return--%1$s" role="%2$s"><p><strong>%3$s</strong></p><p>%4$s</p></div>',
			esc_attr( $outcome ),
			esc_attr( 'fail' === $outcome ? 'alert' : 'status' ),
			esc_html( $title ),
			esc_html( $message )
		);
	}

	/** 'success' or 'fail' from ?card2crypto=, exactly, else null (any other value is ignored). */
	private static function outcome(): ?string {
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- a read-only redirect target from the landing page; nothing is changed.
		$value = isset( $_GET['card2crypto'] ) && is_string( $_GET['card2crypto'] ) ? sanitize_text_field( wp_unslash( $_GET['card2crypto'] ) ) : '';
		return in_array( $value, array( 'success', 'fail' ), true ) && ! is_admin() ? $value : null;
	}
}

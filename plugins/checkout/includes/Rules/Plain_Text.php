<?php
/**
 * Texts for the block checkout's script, which renders text, never markup
 * (React escapes what it is given): a title or description saved with
 * entities or markup ("Card &amp; crypto", "<strong>now</strong>") must reach
 * the buyer as the words it stands for, decided here so that the script
 * needs no decoder of its own (its budget is 600 B gzipped).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Plain_Text {

	/** The words of an HTML fragment: tags dropped (scripts and styles with their content), entities decoded. */
	public static function from_html( string $html ): string {
		return html_entity_decode( wp_strip_all_tags( $html ), ENT_QUOTES | ENT_HTML5, 'UTF-8' );
	}
}

<?php
/**
 * The widget plugin's suggested privacy-policy text (Settings → Privacy →
 * the policy guide), as WordPress asks of a plugin that sends data to a
 * third party: what the visitor's browser and the site send the
 * card-to-crypto service, what the visitor types into the service's widget
 * or page (never into the site), and what the site keeps (no purchase, no
 * card, no e-mail: a hashed request count for a minute, and the button's
 * return cookie for two hours).
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Admin;

use Card2Crypto\Widget\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Privacy_Policy implements Hooks {

	/** The privacy policy guide's suggested text. */
	public function register(): void {
		add_action( 'admin_init', array( $this, 'add' ) );
	}

	/** On admin_init. */
	public function add(): void {
		if ( function_exists( 'wp_add_privacy_policy_content' ) ) {
			wp_add_privacy_policy_content( __( 'Card2Crypto Widget', 'card2crypto-widget' ), $this->text() );
		}
	}

	/** The suggested text (HTML; the guide's own classes mark the notes for the site owner). */
	public function text(): string {
		$paragraphs = array(
			'<p class="privacy-policy-tutorial">' . esc_html__( 'Card2Crypto Widget embeds an outside card-to-crypto service\'s purchase widget and "Buy crypto" button in your pages: visitors buy crypto from that service, not from your site. The text below says what reaches the service and what your site keeps; adapt it, name the service, and link to the service\'s own privacy policy.', 'card2crypto-widget' ) . '</p>',
			'<p><strong class="privacy-policy-tutorial">' . esc_html__( 'Suggested text:', 'card2crypto-widget' ) . ' </strong>'
				. esc_html__( 'Some of our pages let you buy cryptocurrency with a bank card from a card-to-crypto service. When you view such a page, your browser loads the service\'s purchase widget from the service, which receives your IP address and browser details, and our site gives it the purchase\'s settings: the amount, the currencies and the language shown, and our partner reference. The "Buy crypto" button takes you to the service\'s own purchase page with the same settings and the addresses of our pages to come back to.', 'card2crypto-widget' ) . '</p>',
			'<p>' . esc_html__( 'Everything you enter in the widget or on the service\'s page (your card details, e-mail address, wallet address, verification codes and identity documents) goes to the service, never to us. The service\'s privacy policy says how it uses them.', 'card2crypto-widget' ) . '</p>',
			'<p>' . esc_html__( 'We keep no record of your purchase. To stop abuse, our site counts the requests each IP address makes for widget settings, stored as a one-way hash and deleted within the hour. When you use the "Buy crypto" button, our site sets a cookie (card2crypto_return, for two hours) so that only your own browser sees the message about how your purchase went when you come back.', 'card2crypto-widget' ) . '</p>',
		);
		return implode( '', $paragraphs );
	}
}

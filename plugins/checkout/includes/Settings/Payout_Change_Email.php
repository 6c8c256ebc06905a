<?php
/**
 * The e-mail to the site's administration address when where the money goes
 * changed (Payout_Change_Notice): a WooCommerce e-mail, so it has the store's
 * sender, WooCommerce's header, footer and styles, and templates a theme may
 * override (templates/emails/card2crypto-payout-change.php and its plain
 * twin, as woocommerce/emails/… in the theme).
 *
 * It is not listed among WooCommerce's e-mails (Settings > Emails), where a
 * shop manager could switch it off or send it elsewhere: it is always sent,
 * always to the administration address. Built only once WooCommerce's
 * mailer has loaded WC_Email.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Settings;

defined( 'ABSPATH' ) || exit;

final class Payout_Change_Email extends \WC_Email {

	/** @var array<string, mixed> The message's words (Payout_Change_Notice::parts()). */
	public $parts = array();

	public function __construct() {
		$this->id             = 'card2crypto_payout_change';
		$this->title          = __( 'Card payments: where the money goes was changed', 'card2crypto-checkout' );
		$this->description    = __( 'Sent to the site\'s administration address whenever the wallet address, the address mode, the extended public key or the partner credentials of the card payment method change. It cannot be turned off.', 'card2crypto-checkout' );
		$this->template_html  = 'emails/card2crypto-payout-change.php';
		$this->template_plain = 'emails/plain/card2crypto-payout-change.php';
		$this->template_base  = dirname( __DIR__, 2 ) . '/templates/';
		$this->customer_email = false;
		parent::__construct();
	}

	public function get_default_subject() {
		return __( '[{site_title}] Where card payments go was changed', 'card2crypto-checkout' );
	}

	public function get_default_heading() {
		return __( 'Where card payments go was changed', 'card2crypto-checkout' );
	}

	/** Always: no setting switches it off. */
	public function is_enabled() {
		return true;
	}

	/** The address deliver_to() was given (the site's administration address), never a setting. */
	public function get_recipient() {
		return $this->recipient;
	}

	public function get_content_html() {
		return wc_get_template_html( $this->template_html, $this->template_args( false ), '', $this->template_base );
	}

	public function get_content_plain() {
		return wc_get_template_html( $this->template_plain, $this->template_args( true ), '', $this->template_base );
	}

	/** @return array<string, mixed> */
	private function template_args( bool $plain ): array {
		return array(
			'email_heading'      => $this->get_heading(),
			'parts'              => $this->parts,
			'additional_content' => $this->get_additional_content(),
			'sent_to_admin'      => true,
			'plain_text'         => $plain,
			'email'              => $this,
		);
	}

	/**
	 * Sends the message in the site's language.
	 *
	 * @param callable(): array<string, mixed> $parts The message's words, asked once the language is switched.
	 */
	public function deliver_to( string $to, callable $parts ): bool {
		$this->setup_locale();
		try {
			$this->recipient = $to;
			$this->parts     = $parts();
			return (bool) $this->send( $to, $this->get_subject(), $this->get_content(), $this->get_headers(), $this->get_attachments() );
		} finally {
			$this->restore_locale();
		}
	}
}

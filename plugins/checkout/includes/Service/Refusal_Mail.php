<?php
/**
 * The owner is e-mailed when the service starts refusing the store (a
 * blocked partner, a wrong secret or token, an address that does not
 * answer): card payment is withdrawn from the checkout from that moment, and
 * buyers who were paying meet the store's "unavailable" words (a landing
 * route, the widget-settings route, a widget that stopped while open).
 * Service_Health fires WENT_AWAY when its state turns to refused; this
 * mails once for it, through WooCommerce's mailer (Owner_Notice): one claim
 * in the shared database per hour, so two requests that see the turn at
 * once, on one web server or two, or a service that flaps, send one e-mail.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Service;

use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Order\Owner_Notice;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Refusal_Mail implements Hooks {

	/** The shared value that says the owner was e-mailed (kept MAIL_GAP seconds), and its lock. */
	const CLAIM = 'card2crypto_checkout_refusal_mailed';

	/** At most one e-mail in this many seconds, however often the service flaps. */
	const MAIL_GAP = HOUR_IN_SECONDS;

	/** @var Config */
	private $config;

	/** @var Service_Health */
	private $health;

	/** @var Owner_Notice */
	private $notices;

	/** @var Shared_Store */
	private $shared;

	public function __construct( Config $config, Service_Health $health, Owner_Notice $notices, Shared_Store $shared ) {
		$this->config  = $config;
		$this->health  = $health;
		$this->notices = $notices;
		$this->shared  = $shared;
	}

	public function register(): void {
		add_action( Service_Health::WENT_AWAY, array( $this, 'refused' ) );
	}

	/**
	 * @param mixed $reason Why the service refuses the store.
	 */
	public function refused( $reason = '' ): void {
		$state = $this->health->state();
		if ( null === $state || ( $state['key'] ?? '' ) !== $this->health->fingerprint() ) {
			// Credentials being tried on the settings page, not the ones in use: the owner reads the answer there.
			return;
		}
		try {
			$claimed = $this->shared->locked(
				self::CLAIM,
				function (): bool {
					if ( null !== $this->shared->get( self::CLAIM ) ) {
						return false;
					}
					$this->shared->put( self::CLAIM, time(), self::MAIL_GAP );
					return true;
				},
				'another request holds the lock'
			);
		} catch ( \Throwable $e ) {
			Log::warning( 'The e-mail telling the owner that the service refuses the store was not sent: ' . $e->getMessage() );
			return;
		}
		if ( ! $claimed ) {
			return;
		}
		$reason = rtrim( trim( (string) $reason ), '.' );
		$text   = __( 'Card payment is withdrawn from the checkout: the service refuses this store.', 'card2crypto-checkout' );
		if ( '' !== $reason ) {
			/* translators: %s: why the service refuses the store, e.g. "the service has blocked this partner; contact the service (...)" */
			$text .= ' ' . sprintf( __( 'Why: %s.', 'card2crypto-checkout' ), $reason );
		}
		$text .= ' ' . __( 'The store asks again every minute and offers card payment again as soon as the service accepts it.', 'card2crypto-checkout' );
		$text .= "\n\n" . __( 'Buyers who were paying are told in the store\'s words that card payment is unavailable; their orders are kept, and they are e-mailed a link to pay as soon as card payment is back.', 'card2crypto-checkout' );
		$subject = __( 'Card payment is withdrawn: the service refuses your store', 'card2crypto-checkout' );
		$button  = __( 'Open the card payment settings', 'card2crypto-checkout' );
		if ( ! $this->notices->to_owner( $subject, $text, admin_url( 'admin.php?page=wc-settings&tab=checkout&section=' . Keys::GATEWAY_ID ), $button ) ) {
			Log::warning( 'The e-mail telling the owner that the service refuses the store could not be sent.' );
		}
	}
}

<?php
/**
 * With a new address for each order: an admin notice, for those who manage
 * the store, when the addresses in use past the last paid one come close to
 * the wallet's gap limit (Order_Address::gap()), with the one thing to do.
 * The settings page says the same in its box (Gateway), and, on a multisite
 * network, when another shop of the network uses the same wallet.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Admin;

use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Payment\Order_Address;
use Card2Crypto\Checkout\Rules\Address_Policy;
use Card2Crypto\Checkout\Rules\Wallet_Words;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Address_Gap_Notice implements Hooks {

	/** @var Order_Address */
	private $addresses;

	public function __construct( Order_Address $addresses ) {
		$this->addresses = $addresses;
	}

	public function register(): void {
		// The owner's screens only.
		if ( ! is_admin() ) {
			return;
		}
		add_action( 'admin_notices', array( $this, 'notice' ) );
	}

	public function notice(): void {
		if ( ! current_user_can( 'manage_woocommerce' ) || ! $this->addresses->active() ) {
			return;
		}
		if ( is_multisite() && self::on_settings_page() ) {
			$this->shared_notice();
		}
		try {
			$gap = $this->addresses->gap();
		} catch ( \Throwable $e ) {
			return; // The settings page says why the key cannot be used.
		}
		if ( ! $gap['warn'] ) {
			return;
		}
		$url = admin_url( 'admin.php?page=wc-settings&tab=checkout&section=' . Keys::GATEWAY_ID );
		$headlines = array(
			Address_Policy::NEAR => __( 'Card2Crypto: new orders may soon wait for a wallet address.', 'card2crypto-checkout' ),
			Address_Policy::FULL => __( 'Card2Crypto: new orders cannot be paid by card now: every address your wallet sees is in use.', 'card2crypto-checkout' ),
			Address_Policy::PAST => __( 'Card2Crypto: your wallet does not show payments to some addresses.', 'card2crypto-checkout' ),
		);
		$class     = Address_Policy::NEAR === $gap['standing'] ? 'notice-warning' : 'notice-error';
		echo '<div class="notice ' . esc_attr( $class ) . ' card2crypto-address-gap"><p><strong>' . esc_html( $headlines[ $gap['standing'] ] ?? '' ) . '</strong> '
			. esc_html( Wallet_Words::gap_text( $gap ) )
			. ' <a href="' . esc_url( $url ) . '">' . esc_html__( 'Payment settings', 'card2crypto-checkout' ) . '</a></p></div>';
	}

	/** The payment method's settings page (WooCommerce → Settings → Payments → Card2Crypto). */
	private static function on_settings_page(): bool {
		// phpcs:disable WordPress.Security.NonceVerification.Recommended -- Which page is shown; nothing is changed.
		$page    = isset( $_GET['page'] ) ? sanitize_key( wp_unslash( $_GET['page'] ) ) : '';
		$section = isset( $_GET['section'] ) ? sanitize_key( wp_unslash( $_GET['section'] ) ) : '';
		// phpcs:enable WordPress.Security.NonceVerification.Recommended
		return 'wc-settings' === $page && Keys::GATEWAY_ID === $section;
	}

	/**
	 * On a multisite network, the settings page says when another shop of
	 * the network gives out addresses of the wallet in the settings: this
	 * shop then takes none (Address_Store::claim()). Asked on this page
	 * only: it reads every site's counter table.
	 */
	private function shared_notice(): void {
		try {
			$shops = $this->addresses->shared_with();
		} catch ( \Throwable $e ) {
			return; // The settings page says why the key cannot be used.
		}
		if ( array() === $shops ) {
			return;
		}
		echo '<div class="notice notice-error card2crypto-wallet-shared"><p><strong>' . esc_html__( 'Card2Crypto: another shop of this network already uses this wallet.', 'card2crypto-checkout' ) . '</strong> '
			. esc_html(
				sprintf(
					/* translators: %s: the addresses of the other shops, comma-separated */
					__( 'The shop at %s gives out addresses of the same extended public key. Two shops with one key would give one address to two orders, so this shop refuses card payments until you enter the key of another wallet (or of another account of your wallet) here.', 'card2crypto-checkout' ),
					implode( ', ', $shops )
				)
			) . '</p></div>';
	}
}

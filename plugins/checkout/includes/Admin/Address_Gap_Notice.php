<?php
/**
 * With a new address for each order: an admin notice, for those who manage
 * the store, when the addresses in use past the last paid one come close to
 * the wallet's gap limit (Order_Address::gap()), with the one thing to do.
 * The settings page says the same in its box (Gateway).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Admin;

use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Payment\Order_Address;
use Card2Crypto\Checkout\Rules\Address_Policy;

defined( 'ABSPATH' ) || exit;

final class Address_Gap_Notice {

	/** @var Order_Address */
	private $addresses;

	public function __construct( Order_Address $addresses ) {
		$this->addresses = $addresses;
	}

	public function register(): void {
		add_action( 'admin_notices', array( $this, 'notice' ) );
	}

	public function notice(): void {
		if ( ! current_user_can( 'manage_woocommerce' ) || ! $this->addresses->active() ) {
			return;
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
			. esc_html( Order_Address::gap_text( $gap ) )
			. ' <a href="' . esc_url( $url ) . '">' . esc_html__( 'Payment settings', 'card2crypto-checkout' ) . '</a></p></div>';
	}
}

<?php
/**
 * The sandbox environment is obvious: "(test mode)" after the method's
 * title for buyers (classic and block checkout), "Test mode" in
 * WooCommerce's payments list, and a notice on WooCommerce's admin screens.
 * Filters only, so the gateway class itself is untouched.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

defined( 'ABSPATH' ) || exit;

final class Test_Mode {

	public static function register(): void {
		add_filter( 'woocommerce_gateway_title', array( self::class, 'filter_title' ), 10, 2 );
		add_filter( 'woocommerce_gateway_method_title', array( self::class, 'filter_method_title' ), 10, 2 );
		add_filter( 'woocommerce_gateway_method_description', array( self::class, 'filter_method_description' ), 10, 2 );
		add_action( 'admin_notices', array( self::class, 'notice' ) );
	}

	public static function active(): bool {
		return 'sandbox' === Config::load()->environment();
	}

	/** The title buyers see: marked in the sandbox. */
	public static function buyer_title( string $title, string $environment ): string {
		/* translators: %s: payment method title */
		return 'sandbox' === $environment ? sprintf( __( '%s (test mode)', 'card2crypto-checkout' ), $title ) : $title;
	}

	/**
	 * The name in WooCommerce's payments list: "Card2Crypto – Test mode" in the sandbox.
	 */
	public static function admin_title( string $method_title, string $environment ): string {
		/* translators: %s: payment method name */
		return 'sandbox' === $environment ? sprintf( __( '%s – Test mode', 'card2crypto-checkout' ), $method_title ) : $method_title;
	}

	/** @param mixed $title */
	public static function filter_title( $title, $gateway_id ) {
		// Buyers only: WooCommerce's own screens show the method name (admin_title()), not this title.
		if ( Gateway::ID !== $gateway_id || ! is_string( $title ) || is_admin() ) {
			return $title;
		}
		return self::buyer_title( $title, Config::load()->environment() );
	}

	/** @param mixed $method_title */
	public static function filter_method_title( $method_title, $gateway ) {
		if ( ! $gateway instanceof Gateway || ! is_string( $method_title ) ) {
			return $method_title;
		}
		return self::admin_title( $method_title, Config::load()->environment() );
	}

	/** @param mixed $description */
	public static function filter_method_description( $description, $gateway ) {
		if ( ! $gateway instanceof Gateway || ! is_string( $description ) || ! self::active() ) {
			return $description;
		}
		return __( 'Test mode: payments go to the sandbox service and move no real money.', 'card2crypto-checkout' ) . ' ' . $description;
	}

	/** On WooCommerce's screens (settings, orders, reports), while the method is enabled in the sandbox. */
	public static function notice(): void {
		if ( ! current_user_can( 'manage_woocommerce' ) || ! function_exists( 'get_current_screen' ) ) {
			return;
		}
		$screen = get_current_screen();
		$id     = null === $screen ? '' : (string) $screen->id;
		$ours   = false !== strpos( $id, 'woocommerce' ) || false !== strpos( $id, 'wc-' ) || in_array( $id, array( 'shop_order', 'edit-shop_order' ), true );
		$config = Config::load();
		if ( ! $ours || ! $config->enabled() || 'sandbox' !== $config->environment() ) {
			return;
		}
		$url = admin_url( 'admin.php?page=wc-settings&tab=checkout&section=' . Gateway::ID );
		echo '<div class="notice notice-warning card2crypto-test-mode"><p><strong>' . esc_html__( 'Card2Crypto is in test mode.', 'card2crypto-checkout' ) . '</strong> '
			. esc_html__( 'Payments go to the sandbox service and move no real money; orders paid this way are not paid.', 'card2crypto-checkout' )
			. ' <a href="' . esc_url( $url ) . '">' . esc_html__( 'Switch to production in the payment settings', 'card2crypto-checkout' ) . '</a></p></div>';
	}
}

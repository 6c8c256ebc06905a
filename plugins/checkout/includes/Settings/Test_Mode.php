<?php
/**
 * The sandbox environment is obvious: "(test mode)" after the method's
 * title for buyers (classic and block checkout), "Test mode" in
 * WooCommerce's payments list, and a notice on WooCommerce's admin screens.
 * Orders keep one title (the mark is never saved into the order's payment
 * method title, which WooCommerce copies from the gateway on a
 * pay-for-order submission); an order whose payment started in the sandbox
 * is marked instead (order meta), and shown as a test payment in the
 * orders list. Filters only, so the gateway class itself is untouched.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Settings;

use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Test_Mode implements Hooks {

	/** @var Config */
	private $config;

	public function __construct( Config $config ) {
		$this->config = $config;
	}

	public function register(): void {
		add_filter( 'woocommerce_gateway_title', array( $this, 'filter_title' ), 10, 2 );
		add_filter( 'woocommerce_gateway_method_title', array( $this, 'filter_method_title' ), 10, 2 );
		add_filter( 'woocommerce_gateway_method_description', array( $this, 'filter_method_description' ), 10, 2 );
		add_action( 'admin_notices', array( $this, 'notice' ) );
		add_action( 'woocommerce_before_order_object_save', array( self::class, 'one_title' ) );
		add_filter( 'manage_woocommerce_page_wc-orders_columns', array( self::class, 'columns' ) );
		add_filter( 'manage_edit-shop_order_columns', array( self::class, 'columns' ) );
		add_action( 'manage_woocommerce_page_wc-orders_custom_column', array( self::class, 'column' ), 10, 2 );
		add_action( 'manage_shop_order_posts_custom_column', array( self::class, 'column' ), 10, 2 );
	}

	/** Order meta: "yes" when the order's payment was started in the sandbox environment. */
	const META = Keys::META_TEST_MODE;

	/** Marks an order whose payment starts now, in $environment. */
	public static function mark( \WC_Order $order, string $environment ): void {
		if ( 'sandbox' === $environment ) {
			$order->update_meta_data( self::META, 'yes' );
		}
	}

	public static function is_test_order( \WC_Order $order ): bool {
		return 'yes' === (string) $order->get_meta( self::META );
	}

	/** The order's payment method title without the buyer's test-mode mark (one title per order). */
	public static function one_title( $order ): void {
		if ( ! $order instanceof \WC_Order || Keys::GATEWAY_ID !== $order->get_payment_method() ) {
			return;
		}
		$title = (string) $order->get_payment_method_title();
		$plain = self::plain_title( $title );
		if ( $plain !== $title ) {
			$order->set_payment_method_title( $plain );
		}
	}

	/** A title with the test-mode mark buyer_title() adds taken off again. */
	public static function plain_title( string $title ): string {
		$marked = self::buyer_title( '%%TITLE%%', 'sandbox' );
		$parts  = explode( '%%TITLE%%', $marked, 2 );
		if ( 2 !== count( $parts ) ) {
			return $title;
		}
		$starts = '' === $parts[0] || 0 === strpos( $title, $parts[0] );
		$ends   = '' === $parts[1] || ( strlen( $title ) >= strlen( $parts[1] ) && substr( $title, -strlen( $parts[1] ) ) === $parts[1] );
		if ( ! $starts || ! $ends || strlen( $title ) <= strlen( $parts[0] ) + strlen( $parts[1] ) ) {
			return $title;
		}
		return substr( $title, strlen( $parts[0] ), strlen( $title ) - strlen( $parts[0] ) - strlen( $parts[1] ) );
	}

	/**
	 * A column for the orders list (HPOS and legacy): "Test payment" on
	 * orders paid in the sandbox.
	 *
	 * @param mixed $columns
	 * @return mixed
	 */
	public static function columns( $columns ) {
		if ( is_array( $columns ) ) {
			$columns['card2crypto_test'] = __( 'Card2Crypto', 'card2crypto-checkout' );
		}
		return $columns;
	}

	/**
	 * @param mixed $column
	 * @param mixed $order_or_id The order (HPOS) or its post id (legacy).
	 */
	public static function column( $column, $order_or_id ): void {
		if ( 'card2crypto_test' !== $column ) {
			return;
		}
		$order = $order_or_id instanceof \WC_Order ? $order_or_id : wc_get_order( (int) $order_or_id );
		if ( $order instanceof \WC_Order && self::is_test_order( $order ) ) {
			echo '<mark class="order-status status-on-hold card2crypto-test-order"><span>' . esc_html__( 'Test payment', 'card2crypto-checkout' ) . '</span></mark>';
		}
	}

	public function active(): bool {
		return 'sandbox' === $this->config->environment();
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
	public function filter_title( $title, $gateway_id ) {
		// Buyers only: WooCommerce's own screens show the method name (admin_title()), not this title.
		if ( Keys::GATEWAY_ID !== $gateway_id || ! is_string( $title ) || is_admin() ) {
			return $title;
		}
		return self::buyer_title( $title, $this->config->environment() );
	}

	/** @param mixed $method_title */
	public function filter_method_title( $method_title, $gateway ) {
		if ( ! self::is_ours( $gateway ) || ! is_string( $method_title ) ) {
			return $method_title;
		}
		return self::admin_title( $method_title, $this->config->environment() );
	}

	/** @param mixed $description */
	public function filter_method_description( $description, $gateway ) {
		if ( ! self::is_ours( $gateway ) || ! is_string( $description ) || ! $this->active() ) {
			return $description;
		}
		return __( 'Test mode: payments go to the sandbox service and move no real money.', 'card2crypto-checkout' ) . ' ' . $description;
	}

	/** @param mixed $gateway A WooCommerce payment gateway, as its filters pass it. */
	private static function is_ours( $gateway ): bool {
		return $gateway instanceof \WC_Payment_Gateway && Keys::GATEWAY_ID === $gateway->id;
	}

	/** On WooCommerce's screens (settings, orders, reports), while the method is enabled in the sandbox. */
	public function notice(): void {
		if ( ! current_user_can( 'manage_woocommerce' ) || ! function_exists( 'get_current_screen' ) ) {
			return;
		}
		$screen = get_current_screen();
		$id     = null === $screen ? '' : (string) $screen->id;
		$ours   = false !== strpos( $id, 'woocommerce' ) || false !== strpos( $id, 'wc-' ) || in_array( $id, array( 'shop_order', 'edit-shop_order' ), true );
		$config = $this->config;
		if ( ! $ours || ! $config->enabled() || 'sandbox' !== $config->environment() ) {
			return;
		}
		$url = admin_url( 'admin.php?page=wc-settings&tab=checkout&section=' . Keys::GATEWAY_ID );
		echo '<div class="notice notice-warning card2crypto-test-mode"><p><strong>' . esc_html__( 'Card2Crypto is in test mode.', 'card2crypto-checkout' ) . '</strong> '
			. esc_html__( 'Payments go to the sandbox service and move no real money; orders paid this way are not paid.', 'card2crypto-checkout' )
			. ' <a href="' . esc_url( $url ) . '">' . esc_html__( 'Switch to production in the payment settings', 'card2crypto-checkout' ) . '</a></p></div>';
	}
}

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
use Card2Crypto\Checkout\Rules\Test_Mode_Titles;
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
		add_action( 'woocommerce_before_order_object_save', array( $this, 'one_title' ) );
		add_filter( 'manage_woocommerce_page_wc-orders_columns', array( $this, 'columns' ) );
		add_filter( 'manage_edit-shop_order_columns', array( $this, 'columns' ) );
		add_action( 'manage_woocommerce_page_wc-orders_custom_column', array( $this, 'column' ), 10, 2 );
		add_action( 'manage_shop_order_posts_custom_column', array( $this, 'column' ), 10, 2 );
	}

	/** Order meta: "yes" when the order's payment was started in the sandbox environment. */
	const META = Keys::META_TEST_MODE;

	/** Marks an order whose payment starts now, in $environment. */
	public function mark( \WC_Order $order, string $environment ): void {
		if ( 'sandbox' === $environment ) {
			$order->update_meta_data( self::META, 'yes' );
		}
	}

	public function is_test_order( \WC_Order $order ): bool {
		return 'yes' === (string) $order->get_meta( self::META );
	}

	/** The order's payment method title without the buyer's test-mode mark (one title per order). */
	public function one_title( $order ): void {
		if ( ! $order instanceof \WC_Order || Keys::GATEWAY_ID !== $order->get_payment_method() ) {
			return;
		}
		$title = (string) $order->get_payment_method_title();
		$plain = Test_Mode_Titles::plain_title( $title );
		if ( $plain !== $title ) {
			$order->set_payment_method_title( $plain );
		}
	}

	/**
	 * A column for the orders list (HPOS and legacy): "Test payment" on
	 * orders paid in the sandbox.
	 *
	 * @param mixed $columns
	 * @return mixed
	 */
	public function columns( $columns ) {
		if ( is_array( $columns ) ) {
			$columns['card2crypto_test'] = __( 'Card2Crypto', 'card2crypto-checkout' );
		}
		return $columns;
	}

	/**
	 * @param mixed $column
	 * @param mixed $order_or_id The order (HPOS) or its post id (legacy).
	 */
	public function column( $column, $order_or_id ): void {
		if ( 'card2crypto_test' !== $column ) {
			return;
		}
		$order = $order_or_id instanceof \WC_Order ? $order_or_id : wc_get_order( (int) $order_or_id );
		if ( $order instanceof \WC_Order && $this->is_test_order( $order ) ) {
			echo '<mark class="order-status status-on-hold card2crypto-test-order"><span>' . esc_html__( 'Test payment', 'card2crypto-checkout' ) . '</span></mark>';
		}
	}

	public function active(): bool {
		return 'sandbox' === $this->config->environment();
	}

	/** @param mixed $title */
	public function filter_title( $title, $gateway_id ) {
		// Buyers only: WooCommerce's own screens show the method name (Test_Mode_Titles::admin_title()), not this title.
		if ( Keys::GATEWAY_ID !== $gateway_id || ! is_string( $title ) || is_admin() ) {
			return $title;
		}
		return Test_Mode_Titles::buyer_title( $title, $this->config->environment() );
	}

	/** @param mixed $method_title */
	public function filter_method_title( $method_title, $gateway ) {
		if ( ! $this->is_ours( $gateway ) || ! is_string( $method_title ) ) {
			return $method_title;
		}
		return Test_Mode_Titles::admin_title( $method_title, $this->config->environment() );
	}

	/** @param mixed $description */
	public function filter_method_description( $description, $gateway ) {
		if ( ! $this->is_ours( $gateway ) || ! is_string( $description ) || ! $this->active() ) {
			return $description;
		}
		return __( 'Test mode: payments go to the sandbox service and move no real money.', 'card2crypto-checkout' ) . ' ' . $description;
	}

	/** @param mixed $gateway A WooCommerce payment gateway, as its filters pass it. */
	private function is_ours( $gateway ): bool {
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

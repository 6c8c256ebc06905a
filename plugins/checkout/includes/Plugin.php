<?php
/**
 * Wires the plugin into WordPress and WooCommerce.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Callback\Callback_Controller;
use Card2Crypto\Checkout\Callback\Callback_Guard;
use Card2Crypto\Checkout\Gateway\Gateway;
use Card2Crypto\Checkout\Shared\Plugin_Bootstrap;
use Card2Crypto\Checkout\Shared\Settings\Field_View;
use Card2Crypto\Checkout\Shared\Settings\Settings_Store;

defined( 'ABSPATH' ) || exit;

final class Plugin {

	/** @var string */
	private static $file = '';

	/** @var Settings_Store|null */
	private static $settings;

	/** Registers every hook of the plugin (called once by Plugin_Bootstrap::start() from the main file). */
	public static function boot( string $file ): void {
		self::$file = $file;
		// Before anything can save the settings: the secret kept apart, title and description sanitised.
		add_action( 'init', array( self::class, 'protect_settings' ), 0 );
		// A proxy header saved before the list of forwarding headers, spelt in another case, reads as the listed one.
		add_filter( 'option_' . Keys::SETTINGS_OPTION, array( Callback_Guard::class, 'canonical_settings' ) );
		add_action( 'before_woocommerce_init', array( self::class, 'declare_compatibility' ) );
		add_action( 'plugins_loaded', array( self::class, 'on_plugins_loaded' ) );
		add_action( 'rest_api_init', array( Callback_Controller::class, 'register_routes' ) );
		add_filter( 'plugin_action_links_' . plugin_basename( $file ), array( self::class, 'action_links' ) );
		register_activation_hook( $file, array( Payment_Hooks::class, 'activate' ) );
	}

	public static function file(): string {
		return self::$file;
	}

	/** HPOS (custom order tables) and the block checkout. */
	public static function declare_compatibility(): void {
		if ( class_exists( \Automattic\WooCommerce\Utilities\FeaturesUtil::class ) ) {
			\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'custom_order_tables', self::$file, true );
			\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'cart_checkout_blocks', self::$file, true );
		}
	}

	public static function on_plugins_loaded(): void {
		if ( ! class_exists( 'WC_Payment_Gateway' ) ) {
			add_action( 'admin_notices', array( self::class, 'woocommerce_missing_notice' ) );
			return;
		}
		add_filter(
			'woocommerce_payment_gateways',
			static function ( array $gateways ): array {
				$gateways[] = Gateway::class;
				return $gateways;
			}
		);
		Payment_Hooks::register();
	}

	public static function woocommerce_missing_notice(): void {
		if ( ! current_user_can( 'activate_plugins' ) ) {
			return;
		}
		echo '<div class="notice notice-error"><p>' . esc_html__( 'Card2Crypto Checkout needs WooCommerce: install and activate WooCommerce to offer card payments.', 'card2crypto-checkout' ) . '</p></div>';
	}

	/**
	 * @param string[] $links
	 * @return string[]
	 */
	public static function action_links( array $links ): array {
		if ( class_exists( 'WC_Payment_Gateway' ) ) {
			$url = admin_url( 'admin.php?page=wc-settings&tab=checkout&section=' . Keys::GATEWAY_ID );
			array_unshift( $links, '<a href="' . esc_url( $url ) . '">' . esc_html__( 'Settings', 'card2crypto-checkout' ) . '</a>' );
		}
		return $links;
	}

	/** The gateway's settings, read through the schema (constants and sandbox defaults applied). */
	public static function settings(): Settings_Store {
		if ( null === self::$settings ) {
			self::$settings = new Settings_Store( Plugin_Bootstrap::schema(), 'checkout', Keys::SETTINGS_OPTION );
		}
		return self::$settings;
	}

	public static function protect_settings(): void {
		self::settings()->protect();
	}

	public static function field_view(): Field_View {
		return new Field_View( self::settings() );
	}
}

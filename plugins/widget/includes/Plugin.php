<?php
/**
 * Wires the plugin into WordPress: the settings page (Settings →
 * Card2Crypto Widget), generated from the shared settings schema.
 * The block itself comes in a later version.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget;

use Card2Crypto\Widget\Shared\Settings\Field_View;
use Card2Crypto\Widget\Shared\Settings\Schema;
use Card2Crypto\Widget\Shared\Settings\Settings_Page;
use Card2Crypto\Widget\Shared\Settings\Settings_Store;

defined( 'ABSPATH' ) || exit;

final class Plugin {

	const TEXT_DOMAIN = 'card2crypto-widget';
	const OPTION      = 'card2crypto_widget_settings';
	const PAGE_SLUG   = 'card2crypto-widget';

	/** @var string */
	private static $file = '';

	/** @var Settings_Store|null */
	private static $settings;

	public static function boot( string $file ): void {
		self::$file = $file;
		add_action( 'init', array( self::class, 'load_textdomain' ) );
		// Keeps the partner secret out of the settings option (Settings_Store::protect()).
		add_action( 'init', array( self::settings(), 'protect' ), 0 );
		$page = new Settings_Page( new Field_View( self::settings() ), self::PAGE_SLUG, 'manage_options' );
		$page->hook( __( 'Card2Crypto Widget', 'card2crypto-widget' ), __( 'Card2Crypto Widget settings', 'card2crypto-widget' ) );
		add_filter( 'plugin_action_links_' . plugin_basename( $file ), array( self::class, 'action_links' ) );
	}

	public static function load_textdomain(): void {
		load_plugin_textdomain( self::TEXT_DOMAIN, false, dirname( plugin_basename( self::$file ) ) . '/languages' );
	}

	/**
	 * @param string[] $links
	 * @return string[]
	 */
	public static function action_links( array $links ): array {
		$url = admin_url( 'options-general.php?page=' . self::PAGE_SLUG );
		array_unshift( $links, '<a href="' . esc_url( $url ) . '">' . esc_html__( 'Settings', 'card2crypto-widget' ) . '</a>' );
		return $links;
	}

	/** The widget's settings, read through the schema (constants and sandbox defaults applied). */
	public static function settings(): Settings_Store {
		if ( null === self::$settings ) {
			self::$settings = new Settings_Store( Schema::from_file( dirname( self::$file ) . '/lib/settings-schema.json' ), 'widget', self::OPTION );
		}
		return self::$settings;
	}
}

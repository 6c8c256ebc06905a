<?php
/**
 * Wires the plugin into WordPress: every hook is registered here, in one
 * place, and each points at a class with one job. Also the plugin's shared
 * state: its main file, its settings (read once per request, only when
 * something asks) and the site's block references.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget;

use Card2Crypto\Widget\Admin\Color_Pickers;
use Card2Crypto\Widget\Admin\Privacy_Policy;
use Card2Crypto\Widget\Admin\Settings_Screen;
use Card2Crypto\Widget\Base\Assets;
use Card2Crypto\Widget\Blocks\Block_Types;
use Card2Crypto\Widget\Blocks\Classic_Widget;
use Card2Crypto\Widget\Blocks\Editor_Data;
use Card2Crypto\Widget\Connection\Connection_Check;
use Card2Crypto\Widget\Connection\Site_Health;
use Card2Crypto\Widget\Routes\Return_Notice;
use Card2Crypto\Widget\Routes\Route_Output;
use Card2Crypto\Widget\Routes\Routes;
use Card2Crypto\Widget\Rules\Block_Reference;
use Card2Crypto\Widget\Settings\Widget_Config;
use Card2Crypto\Widget\Shared\Assets\Build_Assets;
use Card2Crypto\Widget\Shared\Plugin_Bootstrap;
use Card2Crypto\Widget\Shared\Settings\Settings_Store;

defined( 'ABSPATH' ) || exit;

final class Plugin {

	const OPTION = 'card2crypto_widget_settings';

	/** @var string */
	private static $file = '';

	/** @var Settings_Store|null */
	private static $settings;

	/** @var Widget_Config|null */
	private static $config;

	/** @var Connection_Check|null */
	private static $connection;

	/** @var Build_Assets|null */
	private static $assets;

	/** Registers every hook of the plugin (called once by Plugin_Bootstrap::start() from the main file). */
	public static function boot( string $file ): void {
		self::$file = $file;

		// Scripts and styles first: block.json names them.
		add_action( 'init', array( Assets::class, 'register' ) );
		add_action( 'init', array( Block_Types::class, 'register' ) );
		add_action( 'enqueue_block_editor_assets', array( Editor_Data::class, 'add' ) );
		add_action( 'widgets_init', array( Classic_Widget::class, 'register' ) );
		add_filter( 'widget_types_to_hide_from_legacy_widget_block', array( Classic_Widget::class, 'hide_from_legacy_block' ) );

		// What the "Buy crypto" button's landing page reports on the visitor's own way back (?card2crypto=…, proven).
		add_action( 'template_redirect', array( Return_Notice::class, 'no_cache' ) );
		add_action( 'wp_enqueue_scripts', array( Return_Notice::class, 'enqueue' ) );
		add_action( 'wp_footer', array( Return_Notice::class, 'in_footer' ) );

		add_action( 'rest_api_init', array( Routes::class, 'register' ) );
		add_filter( 'rest_post_dispatch', array( Route_Output::class, 'refusal_headers' ), 10, 3 );
		add_filter( 'rest_pre_serve_request', array( Route_Output::class, 'serve_raw' ), 10, 4 );

		// The partner secret is kept out of the settings option (Settings_Store::protect(),
		// hooked so that a request which touches no settings builds none): every save
		// is sanitised, WooCommerce's options route refuses the secret's option, and
		// a secret an older version kept in the settings moves on the next request,
		// before any route or page can read the option.
		add_filter( 'sanitize_option_' . self::OPTION, array( self::class, 'sanitize_saved' ), 20 );
		add_filter( 'rest_request_before_callbacks', array( self::class, 'refuse_secret_options' ), 10, 3 );
		// Every save is judged by the schema and by who may change the service's addresses; a REST
		// write that was refused is answered with the reasons (Settings_Store::report_refused_write()).
		add_filter( 'rest_request_after_callbacks', array( self::class, 'report_refused_write' ), 10, 3 );
		add_action( 'init', array( self::class, 'migrate_settings' ), 0 );

		// The settings page is built on admin screens only, never on a visitor's request.
		add_action( 'admin_menu', array( Settings_Screen::class, 'add_page' ) );
		add_action( 'admin_init', array( Settings_Screen::class, 'register' ) );
		add_action( 'admin_enqueue_scripts', array( Color_Pickers::class, 'enqueue' ) );
		add_filter( 'plugin_action_links_' . plugin_basename( $file ), array( Settings_Screen::class, 'action_links' ) );

		// Whether the service accepts the widget's credentials: told to the site admin, asked again in the background.
		add_action(
			'admin_notices',
			static function (): void {
				self::connection()->notice();
			}
		);
		add_action(
			'admin_post_' . Connection_Check::ACTION,
			static function (): void {
				self::connection()->check_now();
			}
		);
		add_action(
			Connection_Check::CRON_HOOK,
			static function (): void {
				self::connection()->run_scheduled();
			}
		);

		// The privacy policy guide's suggested text; Tools → Site Health's check of the credentials (the last answer, never a new call).
		add_action( 'admin_init', array( Privacy_Policy::class, 'add' ) );
		add_filter(
			'site_status_tests',
			static function ( $tests ) {
				return ( new Site_Health( self::connection(), self::settings() ) )->add_tests( $tests );
			}
		);
	}

	/** The plugin's built scripts and styles (build/), and the one way data reaches them. */
	public static function assets(): Build_Assets {
		if ( null === self::$assets ) {
			self::$assets = new Build_Assets( self::$file );
		}
		return self::$assets;
	}

	/** The check of the widget's credentials with the service. */
	public static function connection(): Connection_Check {
		if ( null === self::$connection ) {
			self::$connection = new Connection_Check( self::settings() );
		}
		return self::$connection;
	}

	/** An address inside the plugin (build/view.js ...). */
	public static function url( string $path ): string {
		return plugins_url( $path, self::$file );
	}

	/** A file inside the plugin. */
	public static function path( string $path ): string {
		return dirname( self::$file ) . '/' . $path;
	}

	/**
	 * @param mixed $value The settings option being saved.
	 * @return mixed
	 */
	public static function sanitize_saved( $value ) {
		return self::settings()->sanitize_saved( $value );
	}

	/**
	 * @param mixed            $response
	 * @param mixed            $handler
	 * @param \WP_REST_Request $request
	 * @return mixed
	 */
	public static function refuse_secret_options( $response, $handler, $request ) {
		if ( ! $request instanceof \WP_REST_Request || '/wc-admin/options' !== rtrim( $request->get_route(), '/' ) ) {
			return $response;
		}
		return self::settings()->refuse_secret_options( $response, $handler, $request );
	}

	/**
	 * @param mixed $response
	 * @param mixed $handler
	 * @param mixed $request
	 * @return mixed
	 */
	public static function report_refused_write( $response, $handler, $request ) {
		// No settings built in this request: nothing saved them, so nothing was refused.
		return null === self::$settings ? $response : self::$settings->report_refused_write( $response, $handler, $request );
	}

	/**
	 * On every request: the option is autoloaded, so the look costs no query,
	 * and the settings (the schema) are built only when it holds something to clean.
	 */
	public static function migrate_settings(): void {
		if ( Settings_Store::may_need_migration( get_option( self::OPTION, null ) ) ) {
			self::settings()->migrate();
		}
	}

	/** The widget's settings, read through the schema (constants and sandbox defaults applied). */
	public static function settings(): Settings_Store {
		if ( null === self::$settings ) {
			self::$settings = new Settings_Store( Plugin_Bootstrap::schema(), 'widget', self::OPTION );
		}
		return self::$settings;
	}

	/** The settings as the blocks and routes read them, once per request. */
	public static function config(): Widget_Config {
		if ( null === self::$config ) {
			self::$config = Widget_Config::from_store( self::settings() );
		}
		return self::$config;
	}

	/** The site's block references: keyed by a salt only this site knows. */
	public static function references(): Block_Reference {
		return new Block_Reference( wp_salt( 'nonce' ) );
	}
}

<?php
/**
 * The widget's settings, built once and only when something asks: the
 * store (read through the shared schema, constants and sandbox defaults
 * applied) and the values as the blocks and routes read them. A request
 * that touches no settings builds neither, so it reads no schema.
 *
 * Its hooks keep the partner secret out of the settings option
 * (Settings_Store::protect()): every save is sanitised, WooCommerce's
 * options route refuses the secret's option, a REST write that was refused
 * is answered with the reasons, and a secret an older version kept in the
 * settings moves on the next request, before any route or page can read it.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Settings;

use Card2Crypto\Widget\Shared\Hooks;
use Card2Crypto\Widget\Shared\Plugin_Bootstrap;
use Card2Crypto\Widget\Shared\Settings\Settings_Store;

defined( 'ABSPATH' ) || exit;

final class Widget_Settings implements Hooks {

	const OPTION = 'card2crypto_widget_settings';

	/** @var Settings_Store|null */
	private $store;

	/** @var Widget_Config|null */
	private $config;

	public function register(): void {
		add_filter( 'sanitize_option_' . self::OPTION, array( $this, 'sanitize_saved' ), 20 );
		add_filter( 'rest_request_before_callbacks', array( $this, 'refuse_secret_options' ), 10, 3 );
		add_filter( 'rest_request_after_callbacks', array( $this, 'report_refused_write' ), 10, 3 );
		add_action( 'init', array( $this, 'migrate' ), 0 );
	}

	/** The settings, read through the schema (constants and sandbox defaults applied). */
	public function store(): Settings_Store {
		if ( null === $this->store ) {
			$this->store = new Settings_Store( Plugin_Bootstrap::schema(), 'widget', self::OPTION );
		}
		return $this->store;
	}

	/** The settings as the blocks and routes read them, once per request. */
	public function config(): Widget_Config {
		if ( null === $this->config ) {
			$this->config = Widget_Config::from_store( $this->store() );
		}
		return $this->config;
	}

	/**
	 * @param mixed $value The settings option being saved.
	 * @return mixed
	 */
	public function sanitize_saved( $value ) {
		return $this->store()->sanitize_saved( $value );
	}

	/**
	 * @param mixed            $response
	 * @param mixed            $handler
	 * @param \WP_REST_Request $request
	 * @return mixed
	 */
	public function refuse_secret_options( $response, $handler, $request ) {
		if ( ! $request instanceof \WP_REST_Request || '/wc-admin/options' !== rtrim( $request->get_route(), '/' ) ) {
			return $response;
		}
		return $this->store()->refuse_secret_options( $response, $handler, $request );
	}

	/**
	 * @param mixed $response
	 * @param mixed $handler
	 * @param mixed $request
	 * @return mixed
	 */
	public function report_refused_write( $response, $handler, $request ) {
		// No settings built in this request: nothing saved them, so nothing was refused.
		return null === $this->store ? $response : $this->store->report_refused_write( $response, $handler, $request );
	}

	/**
	 * On every request: the option is autoloaded, so the look costs no query,
	 * and the settings (the schema) are built only when it holds something to clean.
	 */
	public function migrate(): void {
		if ( Settings_Store::may_need_migration( get_option( self::OPTION, null ) ) ) {
			$this->store()->migrate();
		}
	}
}

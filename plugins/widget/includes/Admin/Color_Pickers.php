<?php
/**
 * Colour pickers on the settings page: the schema's colour fields (rendered
 * as text inputs by the shared settings page) get WordPress's own
 * wp-color-picker, with the widget's default colour behind its "Default"
 * button. The text input stays the value that is saved and validated, so
 * rgba() values (the shadow's default) can still be typed.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Admin;

use Card2Crypto\Widget\Rules\Partner_Css;
use Card2Crypto\Widget\Settings\Settings_Address;
use Card2Crypto\Widget\Settings\Widget_Settings;
use Card2Crypto\Widget\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Color_Pickers implements Hooks {

	/** The settings page's hook suffix (Settings → Card2Crypto Widget). */
	const PAGE_HOOK = 'settings_page_' . Settings_Address::PAGE_SLUG;

	/**
	 * On admin_enqueue_scripts; only the settings page reads the settings.
	 *
	 * @param string $hook_suffix
	 */
	/** @var Widget_Settings */
	private $settings;

	public function __construct( Widget_Settings $settings ) {
		$this->settings = $settings;
	}

	public function register(): void {
		add_action( 'admin_enqueue_scripts', array( $this, 'enqueue' ) );
	}

	public function enqueue( $hook_suffix ): void {
		if ( self::PAGE_HOOK !== $hook_suffix ) {
			return;
		}
		$store  = $this->settings->store();
		$inputs = array();
		foreach ( Partner_Css::color_fields( $store->fields() ) as $id => $field ) {
			// The element id the settings page gives each field: "<option>-<field id>".
			$inputs[ $store->option_name() . '-' . $id ] = (string) $field['default'];
		}
		wp_enqueue_style( 'wp-color-picker' );
		wp_enqueue_script( 'wp-color-picker' );
		wp_add_inline_script(
			'wp-color-picker',
			'jQuery(function($){$.each(' . wp_json_encode( $inputs ) . ',function(id,def){$(document.getElementById(id)).not(":disabled").wpColorPicker({defaultColor:def});});});'
		);
	}
}

<?php
/**
 * Colour pickers on the settings page: the schema's colour fields (rendered
 * as text inputs by the shared settings page) get WordPress's own
 * wp-color-picker, with the widget's default colour behind its "Default"
 * button. The text input stays the value that is saved and validated, so
 * rgba() values (the shadow's default) can still be typed.
 *
 * @package Card2Crypto\Widget
 */

namespace Card2Crypto\Widget;

use Card2Crypto\Widget\Shared\Settings\Settings_Store;

final class Color_Pickers {

	/** The settings page's hook suffix (Settings → Card2Crypto Widget). */
	const PAGE_HOOK = 'settings_page_card2crypto-widget';

	/** @var Settings_Store */
	private $store;

	public function __construct( Settings_Store $store ) {
		$this->store = $store;
	}

	public function hook(): void {
		add_action( 'admin_enqueue_scripts', array( $this, 'enqueue' ) );
	}

	/** @param string $hook_suffix */
	public function enqueue( $hook_suffix ): void {
		if ( self::PAGE_HOOK !== $hook_suffix ) {
			return;
		}
		$inputs = array();
		foreach ( Partner_Css::color_fields( $this->store->fields() ) as $id => $field ) {
			// The element id the settings page gives each field: "<option>-<field id>".
			$inputs[ $this->store->option_name() . '-' . $id ] = (string) $field['default'];
		}
		wp_enqueue_style( 'wp-color-picker' );
		wp_enqueue_script( 'wp-color-picker' );
		wp_add_inline_script(
			'wp-color-picker',
			'jQuery(function($){$.each(' . wp_json_encode( $inputs ) . ',function(id,def){$(document.getElementById(id)).not(":disabled").wpColorPicker({defaultColor:def});});});'
		);
	}
}

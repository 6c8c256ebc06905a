<?php
/**
 * A plugin's browser files built by `wp-scripts build`, registered from the
 * asset file written beside each (build/<name>.asset.php: the script handles
 * it imports and a version that changes with its content), so no dependency
 * list or version is kept by hand. Both plugins register their scripts and
 * styles here, and pass data from PHP to a script one way: data().
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Assets;

defined( 'ABSPATH' ) || exit;

final class Build_Assets {

	/** @var string The plugin's main file (plugins_url() resolves build/ against it). */
	private $main_file;

	public function __construct( string $main_file ) {
		$this->main_file = $main_file;
	}

	/**
	 * What build/<name>.asset.php says, or null when the plugin was not built.
	 *
	 * @return array{dependencies: string[], version: string|false}|null
	 */
	public function asset( string $name ): ?array {
		$file = dirname( $this->main_file ) . '/build/' . $name . '.asset.php';
		if ( ! is_readable( $file ) ) {
			return null;
		}
		$asset = require $file;
		return array(
			'dependencies' => is_array( $asset['dependencies'] ?? null ) ? $asset['dependencies'] : array(),
			'version'      => $asset['version'] ?? false,
		);
	}

	/**
	 * Registers build/<name>.js under $handle (in the footer unless $args
	 * says otherwise). True when the handle is registered (already, or now);
	 * false when the plugin was not built: the script does not exist either.
	 *
	 * @param array<string, mixed> $args wp_register_script()'s $args (in_footer, strategy).
	 */
	public function script( string $handle, string $name, array $args = array( 'in_footer' => true ) ): bool {
		// WooCommerce asks a payment method for its handles more than once per page;
		// wp_register_script() answers false for a handle it already has.
		if ( wp_script_is( $handle, 'registered' ) ) {
			return true;
		}
		$asset = $this->asset( $name );
		if ( null === $asset ) {
			return false;
		}
		return wp_register_script( $handle, plugins_url( 'build/' . $name . '.js', $this->main_file ), $asset['dependencies'], $asset['version'], $args );
	}

	/**
	 * Registers build/<name>.css under $handle, with the right-to-left copy
	 * wp-scripts writes beside it (<name>-rtl.css), versioned as the script
	 * of the same name.
	 */
	public function style( string $handle, string $name ): bool {
		if ( wp_style_is( $handle, 'registered' ) ) {
			return true;
		}
		$asset = $this->asset( $name );
		if ( null === $asset ) {
			return false;
		}
		$registered = wp_register_style( $handle, plugins_url( 'build/' . $name . '.css', $this->main_file ), array(), $asset['version'] );
		wp_style_add_data( $handle, 'rtl', 'replace' );
		return $registered;
	}

	/**
	 * Data from PHP for a script, the one way both plugins pass it: the
	 * global window.<$name> set to $data as JSON before the script runs
	 * (types kept, unlike wp_localize_script(), which makes every top-level
	 * value a string). Texts a script shows come translated in $data where a
	 * size budget counts every byte (the buyer's scripts); the editor's
	 * scripts use @wordpress/i18n with wp_set_script_translations().
	 *
	 * @param array<string, mixed> $data
	 */
	public function data( string $handle, string $name, array $data ): bool {
		return wp_add_inline_script( $handle, 'window.' . $name . '=' . wp_json_encode( $data ) . ';', 'before' );
	}
}

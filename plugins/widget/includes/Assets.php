<?php
/**
 * The block's scripts and styles, registered by handle (block.json names
 * them): the editor script and style, and the front-end view script and
 * style. Versions and dependencies come from the build's *.asset.php files.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget;

defined( 'ABSPATH' ) || exit;

final class Assets {

	const EDITOR_SCRIPT = 'card2crypto-widget-editor';
	const EDITOR_STYLE  = 'card2crypto-widget-editor';
	const VIEW_SCRIPT   = 'card2crypto-widget-view';
	const VIEW_STYLE    = 'card2crypto-widget-view';

	/** On init, before the block types. */
	public static function register(): void {
		$editor = self::asset( 'editor' );
		wp_register_script( self::EDITOR_SCRIPT, Plugin::url( 'build/editor.js' ), $editor['dependencies'], $editor['version'], true );
		wp_set_script_translations( self::EDITOR_SCRIPT, 'card2crypto-widget', Plugin::path( 'languages' ) );
		wp_register_style( self::EDITOR_STYLE, Plugin::url( 'build/editor.css' ), array(), $editor['version'] );
		// wp-scripts writes editor-rtl.css and view-rtl.css beside each stylesheet.
		wp_style_add_data( self::EDITOR_STYLE, 'rtl', 'replace' );
		$view = self::asset( 'view' );
		wp_register_script(
			self::VIEW_SCRIPT,
			Plugin::url( 'build/view.js' ),
			$view['dependencies'],
			$view['version'],
			array(
				'in_footer' => true,
				'strategy'  => 'defer',
			)
		);
		wp_register_style( self::VIEW_STYLE, Plugin::url( 'build/view.css' ), array(), $view['version'] );
		wp_style_add_data( self::VIEW_STYLE, 'rtl', 'replace' );
	}

	/**
	 * What build/<name>.asset.php says (none when the scripts were not built).
	 *
	 * @return array{dependencies: string[], version: string|false}
	 */
	private static function asset( string $name ): array {
		$file  = Plugin::path( 'build/' . $name . '.asset.php' );
		$asset = is_readable( $file ) ? require $file : array();
		return array(
			'dependencies' => $asset['dependencies'] ?? array(),
			'version'      => $asset['version'] ?? false,
		);
	}
}

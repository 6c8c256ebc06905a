<?php
/**
 * The block's scripts and styles, registered by handle (block.json names
 * them): the editor script and style, and the front-end view script and
 * style. Versions and dependencies come from the build's *.asset.php files
 * (the shared Build_Assets, as the checkout's scripts).
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Base;

use Card2Crypto\Widget\Shared\Assets\Build_Assets;
use Card2Crypto\Widget\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Assets implements Hooks {

	const EDITOR_SCRIPT = 'card2crypto-widget-editor';
	const EDITOR_STYLE  = 'card2crypto-widget-editor';
	const VIEW_SCRIPT   = 'card2crypto-widget-view';
	const VIEW_STYLE    = 'card2crypto-widget-view';

	/** @var Build_Assets */
	private $build;

	/** @var string */
	private $languages;

	/**
	 * @param Build_Assets $build     The plugin's built scripts and styles (build/).
	 * @param string       $languages The plugin's languages folder (the editor script's translations).
	 */
	public function __construct( Build_Assets $build, string $languages ) {
		$this->build     = $build;
		$this->languages = $languages;
	}

	/** Scripts and styles first, at init: block.json names them. */
	public function register(): void {
		add_action( 'init', array( $this, 'register_handles' ) );
	}

	/** On init, before the block types. */
	public function register_handles(): void {
		$build = $this->build;
		$build->script( self::EDITOR_SCRIPT, 'editor' );
		wp_set_script_translations( self::EDITOR_SCRIPT, 'card2crypto-widget', $this->languages );
		// wp-scripts writes editor-rtl.css and view-rtl.css beside each stylesheet (Build_Assets::style()).
		$build->style( self::EDITOR_STYLE, 'editor' );
		$build->script(
			self::VIEW_SCRIPT,
			'view',
			array(
				'in_footer' => true,
				'strategy'  => 'defer',
			)
		);
		$build->style( self::VIEW_STYLE, 'view' );
	}
}

<?php
/**
 * Registers the two blocks from their block.json (build/blocks/): the
 * purchase widget (card2crypto/widget) and the "Buy crypto" link
 * (card2crypto/buy-button), each with its server-side render.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Blocks;

use Card2Crypto\Widget\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Block_Types implements Hooks {

	/** @var Widget_Render */
	private $widget;

	/** @var Buy_Button_Render */
	private $button;

	/** @var string */
	private $blocks;

	/**
	 * @param Widget_Render     $widget The widget block's render.
	 * @param Buy_Button_Render $button The "Buy crypto" block's render.
	 * @param string            $blocks The built blocks' folder (build/blocks).
	 */
	public function __construct( Widget_Render $widget, Buy_Button_Render $button, string $blocks ) {
		$this->widget = $widget;
		$this->button = $button;
		$this->blocks = $blocks;
	}

	public function register(): void {
		add_action( 'init', array( $this, 'register_types' ) );
	}

	/** On init, after Assets::register_handles() (block.json names the script handles). */
	public function register_types(): void {
		register_block_type( $this->blocks . '/widget', array( 'render_callback' => array( $this->widget, 'render' ) ) );
		register_block_type( $this->blocks . '/buy-button', array( 'render_callback' => array( $this->button, 'render' ) ) );
	}
}

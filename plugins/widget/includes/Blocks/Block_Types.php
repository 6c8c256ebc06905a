<?php
/**
 * Registers the two blocks from their block.json (build/blocks/): the
 * purchase widget (card2crypto/widget) and the "Buy crypto" link
 * (card2crypto/buy-button), each with its server-side render.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Blocks;

use Card2Crypto\Widget\Plugin;

defined( 'ABSPATH' ) || exit;

final class Block_Types {

	/** On init, after Assets::register() (block.json names the script handles). */
	public static function register(): void {
		register_block_type( Plugin::path( 'build/blocks/widget' ), array( 'render_callback' => array( Widget_Render::class, 'render' ) ) );
		register_block_type( Plugin::path( 'build/blocks/buy-button' ), array( 'render_callback' => array( Buy_Button_Render::class, 'render' ) ) );
	}
}

<?php
/**
 * The "Buy crypto" block's markup: a link to the go route, which signs
 * when the visitor clicks. Styled as a core button so it follows the theme.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Blocks;

use Card2Crypto\Widget\Base\Route_Address;
use Card2Crypto\Widget\Routes\Return_Notice;
use Card2Crypto\Widget\Rules\Block_Reference;
use Card2Crypto\Widget\Settings\Site_Keys;

defined( 'ABSPATH' ) || exit;

final class Buy_Button_Render {

	/** @var Site_Keys */
	private $keys;

	/** @var Return_Notice */
	private $returns;

	public function __construct( Site_Keys $keys, Return_Notice $returns ) {
		$this->keys    = $keys;
		$this->returns = $returns;
	}

	/**
	 * The render_callback of card2crypto/buy-button.
	 *
	 * @param array<string, mixed> $attributes
	 */
	public function render( array $attributes ): string {
		$payload = Block_Reference::payload( $attributes );
		$ref     = $this->keys->references()->ref( $payload );
		$href    = add_query_arg(
			array(
				'b' => rawurlencode( $payload ),
				'r' => $ref,
			),
			Route_Address::url( 'go' )
		);
		$text    = isset( $attributes['text'] ) && is_string( $attributes['text'] ) && '' !== trim( $attributes['text'] ) ? $attributes['text'] : __( 'Buy crypto', 'card2crypto-widget' );
		return sprintf(
			// What this block's landing page reported on the visitor's own way back, above the button (Return_Notice).
			'<div %1$s>%4$s<div class="wp-block-button"><a class="wp-block-button__link wp-element-button" href="%2$s" rel="nofollow">%3$s</a></div></div>',
			get_block_wrapper_attributes( array( 'class' => 'wp-block-buttons c2c-buy-button' ) ),
			esc_url( $href ),
			wp_kses(
				$text,
				array(
					'strong' => array(),
					'em'     => array(),
					'br'     => array(),
				)
			),
			$this->returns->in_block( $ref )
		);
	}
}

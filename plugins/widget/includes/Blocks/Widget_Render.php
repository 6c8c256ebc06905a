<?php
/**
 * The widget block's markup: a container the view script fills. The page
 * carries the block's reference and attributes, never a signature or the
 * secret, so it may be cached for as long as the site likes.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Blocks;

use Card2Crypto\Widget\Base\Route_Address;
use Card2Crypto\Widget\Rules\Block_Reference;
use Card2Crypto\Widget\Settings\Site_Keys;
use Card2Crypto\Widget\Settings\Widget_Settings;

defined( 'ABSPATH' ) || exit;

final class Widget_Render {

	/** @var array<string, int> Instances rendered per reference in this request. */
	private $instances = array();

	/** @var Site_Keys */
	private $keys;

	/** @var Widget_Settings */
	private $settings;

	public function __construct( Site_Keys $keys, Widget_Settings $settings ) {
		$this->keys     = $keys;
		$this->settings = $settings;
	}

	/**
	 * The render_callback of card2crypto/widget (also the classic widget's, through render_block()).
	 *
	 * @param array<string, mixed> $attributes
	 */
	public function render( array $attributes ): string {
		$payload = Block_Reference::payload( $attributes );
		$ref     = $this->keys->references()->ref( $payload );
		$id      = Block_Reference::element_id( $ref, $this->instance( $ref ) );
		$title   = isset( $attributes['title'] ) && is_string( $attributes['title'] ) ? $attributes['title'] : (string) $this->settings->config()->get( 'title' );
		$heading = '' !== trim( $title ) ? '<h2 class="c2c-widget__title">' . esc_html( $title ) . '</h2>' : '';

		return sprintf(
			'<div %1$s>%2$s<div id="%3$s" class="c2c-widget__frame" data-c2c-ref="%4$s" data-c2c-block="%5$s" data-c2c-sign="%6$s" data-c2c-fail="%9$s" data-c2c-closed="%10$s" data-c2c-again="%11$s"><p class="c2c-widget__status">%7$s</p></div><noscript><p class="c2c-widget__status">%8$s</p></noscript></div>',
			get_block_wrapper_attributes( array( 'class' => 'c2c-widget' ) ),
			$heading,
			esc_attr( $id ),
			esc_attr( $ref ),
			esc_attr( $payload ),
			esc_url( Route_Address::url( 'sign' ) ),
			esc_html__( 'Loading the purchase widget…', 'card2crypto-widget' ),
			esc_html__( 'The purchase widget needs JavaScript.', 'card2crypto-widget' ),
			esc_attr__( 'The purchase widget is unavailable right now. Please try again later.', 'card2crypto-widget' ),
			// Shown by the view script when the visitor closes the widget (its × button).
			esc_attr__( 'You closed the purchase widget.', 'card2crypto-widget' ),
			esc_attr__( 'Start again', 'card2crypto-widget' )
		);
	}

	/** The number of this block instance among equal ones on the page (1, 2, ...). */
	private function instance( string $ref ): int {
		$this->instances[ $ref ] = ( $this->instances[ $ref ] ?? 0 ) + 1;
		return $this->instances[ $ref ];
	}
}

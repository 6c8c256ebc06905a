<?php
/**
 * The classic widget (Classic_Widget) on the classic widgets screen: one
 * object, made at widgets_init with the settings it reads, and kept out of
 * the block editor's Legacy Widget block, where the block itself is.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Blocks;

use Card2Crypto\Widget\Settings\Widget_Settings;
use Card2Crypto\Widget\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Classic_Widgets implements Hooks {

	/** @var Widget_Settings */
	private $settings;

	public function __construct( Widget_Settings $settings ) {
		$this->settings = $settings;
	}

	public function register(): void {
		add_action( 'widgets_init', array( $this, 'register_widget' ) );
		add_filter( 'widget_types_to_hide_from_legacy_widget_block', array( $this, 'hide_from_legacy_block' ) );
	}

	/** On widgets_init (made here, not earlier: its name and description are translated). */
	public function register_widget(): void {
		register_widget( new Classic_Widget( $this->settings ) );
	}

	/**
	 * The block editor's Legacy Widget block does not offer this widget: the block itself is there.
	 *
	 * @param string[] $types Widget id bases the Legacy Widget block does not offer.
	 * @return string[]
	 */
	public function hide_from_legacy_block( $types ): array {
		$types   = is_array( $types ) ? $types : array();
		$types[] = Classic_Widget::ID_BASE;
		return $types;
	}
}

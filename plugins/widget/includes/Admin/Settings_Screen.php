<?php
/**
 * The settings page (Settings → Card2Crypto Widget), generated from the
 * shared settings schema by the shared Settings_Page. It is built at
 * admin_menu / admin_init only, so a visitor's request never reads the
 * schema or translates its labels.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Admin;

use Card2Crypto\Widget\Plugin;
use Card2Crypto\Widget\Settings\Settings_Address;
use Card2Crypto\Widget\Shared\Settings\Field_View;
use Card2Crypto\Widget\Shared\Settings\Settings_Page;

defined( 'ABSPATH' ) || exit;

final class Settings_Screen {

	/** @var Settings_Page|null */
	private static $page;

	private static function page(): Settings_Page {
		if ( null === self::$page ) {
			$connection = Plugin::connection();
			self::$page = new Settings_Page(
				new Field_View( Plugin::settings() ),
				Settings_Address::PAGE_SLUG,
				Settings_Address::CAPABILITY,
				array(
					// A save that changes the credentials is refused when the service refuses them.
					'check' => array( $connection, 'on_save' ),
					'intro' => array( $connection, 'render_status' ),
				)
			);
		}
		return self::$page;
	}

	/** On admin_menu. */
	public static function add_page(): void {
		self::page()->add_to_menu( __( 'Card2Crypto Widget', 'card2crypto-widget' ), __( 'Card2Crypto Widget settings', 'card2crypto-widget' ) );
	}

	/** On admin_init: the setting, its sections and fields (options.php saves through them). */
	public static function register(): void {
		self::page()->register();
	}


	/**
	 * A "Settings" link on the Plugins screen.
	 *
	 * @param string[] $links
	 * @return string[]
	 */
	public static function action_links( array $links ): array {
		array_unshift( $links, '<a href="' . esc_url( Settings_Address::url() ) . '">' . esc_html__( 'Settings', 'card2crypto-widget' ) . '</a>' );
		return $links;
	}
}

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

use Card2Crypto\Widget\Connection\Connection_Check;
use Card2Crypto\Widget\Settings\Settings_Address;
use Card2Crypto\Widget\Settings\Widget_Settings;
use Card2Crypto\Widget\Shared\Hooks;
use Card2Crypto\Widget\Shared\Settings\Field_View;
use Card2Crypto\Widget\Shared\Settings\Settings_Page;

defined( 'ABSPATH' ) || exit;

final class Settings_Screen implements Hooks {

	/** @var Settings_Page|null */
	private $page;

	/** @var Widget_Settings */
	private $settings;

	/** @var Connection_Check */
	private $connection;

	/** @var string */
	private $basename;

	/**
	 * @param Widget_Settings  $settings   The settings the page shows and saves.
	 * @param Connection_Check $connection Asked on a save that changes the credentials; its status heads the page.
	 * @param string           $basename   The plugin's basename (its row on the Plugins screen).
	 */
	public function __construct( Widget_Settings $settings, Connection_Check $connection, string $basename ) {
		$this->settings   = $settings;
		$this->connection = $connection;
		$this->basename   = $basename;
	}

	/** The settings page is built on admin screens only, never on a visitor's request. */
	public function register(): void {
		add_action( 'admin_menu', array( $this, 'add_page' ) );
		add_action( 'admin_init', array( $this, 'register_page' ) );
		add_filter( 'plugin_action_links_' . $this->basename, array( $this, 'action_links' ) );
	}

	private function page(): Settings_Page {
		if ( null === $this->page ) {
			$connection = $this->connection;
			$this->page = new Settings_Page(
				new Field_View( $this->settings->store() ),
				Settings_Address::PAGE_SLUG,
				Settings_Address::CAPABILITY,
				array(
					// A save that changes the credentials is refused when the service refuses them.
					'check' => array( $connection, 'on_save' ),
					'intro' => array( $connection, 'render_status' ),
				)
			);
		}
		return $this->page;
	}

	/** On admin_menu. */
	public function add_page(): void {
		$this->page()->add_to_menu( __( 'Card2Crypto Widget', 'card2crypto-widget' ), __( 'Card2Crypto Widget settings', 'card2crypto-widget' ) );
	}

	/** On admin_init: the setting, its sections and fields (options.php saves through them). */
	public function register_page(): void {
		$this->page()->register();
	}


	/**
	 * A "Settings" link on the Plugins screen.
	 *
	 * @param string[] $links
	 * @return string[]
	 */
	public function action_links( array $links ): array {
		array_unshift( $links, '<a href="' . esc_url( Settings_Address::url() ) . '">' . esc_html__( 'Settings', 'card2crypto-widget' ) . '</a>' );
		return $links;
	}
}

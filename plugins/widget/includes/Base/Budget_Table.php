<?php
/**
 * The widget's visitor budgets table ({site prefix}card2crypto_widget_budgets,
 * the shared Visitor_Budget's), on every site that runs the plugin:
 *
 * - made when the plugin is activated: on this site, or, activated for the
 *   whole network, on every site (a large network's sites make theirs at
 *   their next request: maybe_install() on init compares this site's
 *   DB_VERSION_OPTION); a site made later while the plugin is active for
 *   the network gets it when WordPress initialises it (wp_initialize_site);
 * - made again when a new version of the plugin changes it (the same
 *   comparison);
 * - dropped with a deleted site (wpmu_drop_tables), and by uninstall.php
 *   on every site.
 *
 * Which sites, when, is the shared Network_Sites's rule (the checkout's
 * tables follow the same one).
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Base;

use Card2Crypto\Widget\Shared\Budget\Visitor_Budget;
use Card2Crypto\Widget\Shared\Database\Network_Sites;
use Card2Crypto\Widget\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Budget_Table implements Hooks {

	/** The table's version: raised whenever its schema changes. */
	const DB_VERSION = '1';

	/** This site's installed version (autoloaded: read on every request by maybe_install()). */
	const DB_VERSION_OPTION = 'card2crypto_widget_db_version';

	/** The table after the site's prefix (uninstall.php drops it by this name). */
	const SUFFIX = 'card2crypto_widget_budgets';

	/** @var Visitor_Budget */
	private $budget;

	/** @var string */
	private $basename;

	/** @var Network_Sites The network's sites, over this table. */
	private $sites;

	/**
	 * @param Visitor_Budget $budget   The widget's budgets.
	 * @param string         $basename The plugin's basename (card2crypto-widget/card2crypto-widget.php).
	 */
	public function __construct( Visitor_Budget $budget, string $basename ) {
		$this->budget   = $budget;
		$this->basename = $basename;
		$this->sites    = new Network_Sites(
			array( $this, 'install' ),
			static function ( string $prefix ) use ( $budget ): array {
				return array( $budget->table_of( $prefix ) );
			}
		);
	}

	public function register(): void {
		add_action( 'init', array( $this, 'maybe_install' ), 5 );
		if ( is_multisite() ) {
			// After WordPress made the new site's own tables.
			add_action( 'wp_initialize_site', array( $this, 'initialize_site' ), 200 );
			add_filter( 'wpmu_drop_tables', array( $this, 'drop_tables' ), 10, 2 );
		}
	}

	/** On init: this site's table, when it has none or an older one. */
	public function maybe_install(): void {
		if ( self::DB_VERSION !== get_option( self::DB_VERSION_OPTION ) ) {
			$this->install();
		}
	}

	/** Makes or updates this site's table. */
	public function install(): void {
		$this->budget->install();
		update_option( self::DB_VERSION_OPTION, self::DB_VERSION, true );
	}

	/**
	 * The activation hook: this site's table, or, activated for the whole
	 * network (not a large one), every site's.
	 *
	 * @param bool|mixed $network_wide What WordPress passes: whether the plugin is activated for the network.
	 */
	public function activate( $network_wide = false ): void {
		$this->sites->activate( $network_wide );
	}

	/**
	 * A new site of the network (wp_initialize_site): its table, when the
	 * plugin is active for the network (read from the network's option:
	 * wp-admin's plugin.php may not be loaded).
	 *
	 * @param \WP_Site|mixed $site The new site.
	 */
	public function initialize_site( $site ): void {
		$this->sites->initialize_site( $site, $this->basename );
	}

	/**
	 * The tables WordPress drops with a deleted site (wpmu_drop_tables): that
	 * site's budgets table too.
	 *
	 * @param string[]|mixed $tables  The site's tables WordPress drops.
	 * @param int|mixed      $site_id The site deleted.
	 * @return string[]|mixed
	 */
	public function drop_tables( $tables, $site_id = 0 ) {
		return $this->sites->drop_tables( $tables, $site_id );
	}
}

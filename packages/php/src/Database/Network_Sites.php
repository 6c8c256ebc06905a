<?php
/**
 * A plugin's tables on a multisite network, where every site has its own
 * ({base prefix}N_...), and the one loop over a network's sites both
 * plugins go through (docs/decisions.md, "Multisite"):
 *
 * - activate(): activated for the whole network, every site of it gets its
 *   tables at once (on a large network, wp_is_large_network(), each site
 *   makes them at its next request instead: the plugin's own check on
 *   init); activated on one site, or outside a network: that site's;
 * - initialize_site(): a site made later, while the plugin is active for
 *   the network, gets them when WordPress initialises it (wp_initialize_site,
 *   after WordPress made the site's own tables);
 * - drop_tables(): a site deleted: the plugin's tables of that site are added
 *   to those WordPress drops with it (wpmu_drop_tables); no other site's;
 * - each_site(): uninstall.php's loop: what uninstalling does on one site,
 *   run on every site of the installation in turn (switch_to_blog()), or on
 *   the one site outside a network.
 *
 * The plugin says how it makes this site's tables and which tables a site
 * of a given prefix has.
 *
 * @package card2crypto
 */

namespace Card2Crypto\Shared\Database;

final class Network_Sites {

	/** @var callable(): void Makes or updates the current site's tables. */
	private $install;

	/** @var callable(string): string[] The plugin's tables of a site, by the site's table prefix. */
	private $tables_of;

	/**
	 * @param callable(): void           $install   Makes or updates the current site's tables.
	 * @param callable(string): string[] $tables_of The plugin's tables of a site, by the site's table prefix.
	 */
	public function __construct( callable $install, callable $tables_of ) {
		$this->install   = $install;
		$this->tables_of = $tables_of;
	}

	/**
	 * The activation hook: this site's tables, or, activated for the whole
	 * network (not a large one), every site's.
	 *
	 * @param bool|mixed $network_wide What WordPress passes: whether the plugin is activated for the network.
	 */
	public function activate( $network_wide = false ): void {
		if ( ! is_multisite() || true !== (bool) $network_wide || wp_is_large_network() ) {
			( $this->install )();
			return;
		}
		$sites = get_sites(
			array(
				'fields'     => 'ids',
				'number'     => 0,
				'network_id' => get_current_network_id(),
			)
		);
		foreach ( $sites as $site_id ) {
			self::on_site( (int) $site_id, $this->install );
		}
	}

	/**
	 * A new site of the network (wp_initialize_site, after WordPress made
	 * its own tables): its tables, when the plugin is active for the network
	 * (read from the network's option: wp-admin's plugin.php may not be loaded).
	 *
	 * @param \WP_Site|mixed $site     The new site.
	 * @param string         $basename The plugin's basename (its folder and main file).
	 */
	public function initialize_site( $site, string $basename ): void {
		$active = get_site_option( 'active_sitewide_plugins', array() );
		if ( ! $site instanceof \WP_Site || ! is_multisite() || ! is_array( $active ) || ! isset( $active[ $basename ] ) ) {
			return;
		}
		self::on_site( (int) $site->blog_id, $this->install );
	}

	/**
	 * The tables WordPress drops with a deleted site (wpmu_drop_tables): the
	 * plugin's tables of that site too.
	 *
	 * @param string[]|mixed $tables  The site's tables WordPress drops.
	 * @param int|mixed      $site_id The site deleted.
	 * @return string[]|mixed
	 */
	public function drop_tables( $tables, $site_id = 0 ) {
		global $wpdb;
		if ( ! is_array( $tables ) || (int) $site_id < 1 ) {
			return $tables;
		}
		return array_values( array_unique( array_merge( $tables, ( $this->tables_of )( $wpdb->get_blog_prefix( (int) $site_id ) ) ) ) );
	}

	/**
	 * Runs $run on every site of the installation, each switched to in turn
	 * (uninstall.php: a plugin deleted from a network is deleted for every
	 * site at once), or on the current site outside a network.
	 *
	 * @param callable(): void $run What to do on one site (the current one).
	 */
	public static function each_site( callable $run ): void {
		if ( ! is_multisite() ) {
			$run();
			return;
		}
		$sites = get_sites(
			array(
				'fields' => 'ids',
				'number' => 0,
			)
		);
		foreach ( $sites as $site_id ) {
			self::on_site( (int) $site_id, $run );
		}
	}

	/** Runs $run with $site_id as the current site. */
	private static function on_site( int $site_id, callable $run ): void {
		switch_to_blog( $site_id );
		try {
			$run();
		} finally {
			restore_current_blog();
		}
	}
}

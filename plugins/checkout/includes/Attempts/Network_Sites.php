<?php
/**
 * The plugin's tables on a multisite network, where every site is a shop of
 * its own with its own tables ({base prefix}N_card2crypto_*), options,
 * transients, Action Scheduler queue and named locks (docs/decisions.md,
 * "Multisite"):
 *
 * - Activated for the whole network: every site gets its tables at once
 *   (on a large network, wp_is_large_network(), each site makes them at its
 *   next request instead: Tables::maybe_install()). Activated on
 *   one site: that site's.
 * - A site made later, while the plugin is active for the network, gets them
 *   when WordPress initialises it (wp_initialize_site).
 * - A site deleted: WordPress drops its tables (its options with them), and
 *   the plugin's are added to that list (wpmu_drop_tables); no other site's
 *   are touched.
 * - Deactivating, for one site or the network, deletes nothing; deleting
 *   the plugin (uninstall.php) goes through every site, each keeping or
 *   losing its data as its own "Delete data on uninstall" setting says.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

defined( 'ABSPATH' ) || exit;

final class Network_Sites {

	/** @var Tables */
	private $tables;

	public function __construct( Tables $tables ) {
		$this->tables = $tables;
	}

	/**
	 * The activation hook: this site's tables, or, activated for the whole
	 * network, every site's.
	 *
	 * @param bool|mixed $network_wide What WordPress passes: whether the plugin is activated for the network.
	 */
	public function activate( $network_wide = false ): void {
		if ( ! is_multisite() || true !== (bool) $network_wide || wp_is_large_network() ) {
			$this->tables->install();
			return;
		}
		foreach ( $this->site_ids() as $site_id ) {
			$this->install_on( $site_id );
		}
	}

	/**
	 * A new site of the network (wp_initialize_site, after WordPress made
	 * its own tables): its tables, when the plugin is active for the network.
	 *
	 * @param \WP_Site|mixed $site     The new site.
	 * @param string         $basename The plugin's basename (card2crypto-checkout/card2crypto-checkout.php).
	 */
	public function initialize_site( $site, string $basename ): void {
		if ( ! $site instanceof \WP_Site || ! $this->network_active( $basename ) ) {
			return;
		}
		$this->install_on( (int) $site->blog_id );
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
		return array_values( array_unique( array_merge( $tables, $this->tables->tables_of( $wpdb->get_blog_prefix( (int) $site_id ) ) ) ) );
	}

	/** Whether the plugin is active for the whole network (read from the network's option: wp-admin's plugin.php may not be loaded). */
	private function network_active( string $basename ): bool {
		$active = get_site_option( 'active_sitewide_plugins', array() );
		return is_multisite() && is_array( $active ) && isset( $active[ $basename ] );
	}

	private function install_on( int $site_id ): void {
		switch_to_blog( $site_id );
		try {
			$this->tables->install();
		} finally {
			restore_current_blog();
		}
	}

	/** @return int[] Every site of the current network. */
	private function site_ids(): array {
		return array_map(
			'intval',
			get_sites(
				array(
					'fields'     => 'ids',
					'number'     => 0,
					'network_id' => get_current_network_id(),
				)
			)
		);
	}
}

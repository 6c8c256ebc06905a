<?php
/**
 * The plugin's tables, made, upgraded and dropped in one place: the payment
 * attempts (Attempt_Store, Check_Queue), their operations and the service's
 * events (Operation_Store), the addresses handed out (Address_Store) and the
 * visitors' budgets (Start_Budget). Each table lives under the site's prefix
 * ({prefix}card2crypto_*, a multisite network's site N: {base prefix}N_), read
 * when a query runs, so a switch_to_blog() reaches the other site's tables.
 *
 * Built once (Plugin::build()); the repositories name their tables by the
 * constants below.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;


defined( 'ABSPATH' ) || exit;

final class Tables {

	const DB_VERSION        = '7';
	const DB_VERSION_OPTION = 'card2crypto_checkout_db_version';

	/** The tables' names without the site's prefix. */
	const ATTEMPTS         = 'card2crypto_attempts';
	const OPERATIONS       = 'card2crypto_operations';
	const EVENTS           = 'card2crypto_events';
	const ADDRESSES        = 'card2crypto_addresses';
	const ADDRESS_COUNTERS = 'card2crypto_address_counters';
	const BUDGETS          = 'card2crypto_budgets';

	/** @var Start_Budget The visitors' budgets: their table made and dropped with the others. */
	private $budget;

	public function __construct( Start_Budget $budget ) {
		$this->budget = $budget;
	}

	public function attempts_table(): string {
		global $wpdb;
		return $wpdb->prefix . self::ATTEMPTS;
	}

	public function operations_table(): string {
		global $wpdb;
		return $wpdb->prefix . self::OPERATIONS;
	}

	public function events_table(): string {
		global $wpdb;
		return $wpdb->prefix . self::EVENTS;
	}

	public function addresses_table(): string {
		global $wpdb;
		return $wpdb->prefix . self::ADDRESSES;
	}

	public function address_counters_table(): string {
		global $wpdb;
		return $wpdb->prefix . self::ADDRESS_COUNTERS;
	}

	/**
	 * Every table of the plugin under a site's table prefix (a multisite
	 * network's site N: {base prefix}N_), for dropping them with the site.
	 *
	 * @return string[]
	 */
	public function tables_of( string $prefix ): array {
		$names = array( self::EVENTS, self::OPERATIONS, self::ATTEMPTS, self::ADDRESSES, self::ADDRESS_COUNTERS, self::BUDGETS );
		return array_map(
			static function ( string $name ) use ( $prefix ): string {
				return $prefix . $name;
			},
			$names
		);
	}

	/** Creates or upgrades the tables (activation, and once after an update). */
	public function install(): void {
		global $wpdb;
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		$collate   = $wpdb->get_charset_collate();
		$attempts  = $this->attempts_table();
		$events    = $this->events_table();
		$ops       = $this->operations_table();
		$addresses = $this->addresses_table();
		$counters  = $this->address_counters_table();
		dbDelta(
			"CREATE TABLE {$attempts} (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  order_id bigint(20) unsigned NOT NULL,
  partner_operation_id varchar(64) NOT NULL,
  operation_id varchar(191) DEFAULT NULL,
  expected_amount bigint(20) NOT NULL,
  expected_currency char(3) NOT NULL,
  expected_wallet varchar(100) NOT NULL,
  status varchar(32) NOT NULL DEFAULT '',
  status_code int(11) NOT NULL DEFAULT -1,
  version int(10) unsigned NOT NULL DEFAULT 0,
  mismatch tinyint(1) NOT NULL DEFAULT 0,
  checks int(10) unsigned NOT NULL DEFAULT 0,
  unsent tinyint(1) NOT NULL DEFAULT 0,
  next_check_at datetime DEFAULT NULL,
  claim_token char(16) DEFAULT NULL,
  claimed_until datetime DEFAULT NULL,
  retired_at datetime DEFAULT NULL,
  signed_at datetime DEFAULT NULL,
  created_at datetime NOT NULL,
  updated_at datetime NOT NULL,
  PRIMARY KEY  (id),
  UNIQUE KEY partner_operation_id (partner_operation_id),
  KEY order_id (order_id),
  KEY operation_id (operation_id),
  KEY next_check_at (next_check_at),
  KEY created_at (created_at)
) {$collate};
CREATE TABLE {$events} (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  event_key char(64) NOT NULL,
  attempt_id bigint(20) unsigned NOT NULL,
  operation_id varchar(191) NOT NULL,
  status varchar(32) NOT NULL,
  status_code int(11) NOT NULL,
  source varchar(16) NOT NULL,
  outcome varchar(32) NOT NULL DEFAULT '',
  received_at datetime NOT NULL,
  PRIMARY KEY  (id),
  UNIQUE KEY event_key (event_key),
  KEY attempt_id (attempt_id)
) {$collate};
CREATE TABLE {$ops} (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  attempt_id bigint(20) unsigned NOT NULL,
  order_id bigint(20) unsigned NOT NULL,
  operation_id varchar(191) NOT NULL,
  status varchar(32) NOT NULL DEFAULT '',
  status_code int(11) NOT NULL DEFAULT -1,
  version int(10) unsigned NOT NULL DEFAULT 0,
  created_at datetime NOT NULL,
  updated_at datetime NOT NULL,
  PRIMARY KEY  (id),
  UNIQUE KEY attempt_operation (attempt_id,operation_id),
  KEY order_id (order_id),
  KEY created_at (created_at)
) {$collate};
CREATE TABLE {$addresses} (
  id bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  wallet char(64) NOT NULL,
  address_index int(10) unsigned NOT NULL,
  address varchar(100) NOT NULL,
  order_id bigint(20) unsigned NOT NULL DEFAULT 0,
  attempt_id bigint(20) unsigned NOT NULL DEFAULT 0,
  state varchar(8) NOT NULL DEFAULT 'held',
  updated_at datetime NOT NULL,
  PRIMARY KEY  (id),
  UNIQUE KEY wallet_index (wallet,address_index),
  KEY wallet_state (wallet,state,address_index),
  KEY attempt_id (attempt_id),
  KEY order_id (order_id),
  KEY address (address)
) {$collate};
CREATE TABLE {$counters} (
  wallet char(64) NOT NULL,
  next_index int(10) unsigned NOT NULL DEFAULT 0,
  PRIMARY KEY  (wallet)
) {$collate};
" . $this->budget->schema( $collate )
		);
		update_option( self::DB_VERSION_OPTION, self::DB_VERSION, true ); // Autoloaded: read on every request by maybe_install().
	}

	/** Installs when the stored schema version differs (plugin updated without re-activation). */
	public function maybe_install(): void {
		if ( self::DB_VERSION !== get_option( self::DB_VERSION_OPTION ) ) {
			$this->install();
		}
	}

	public function drop(): void {
		global $wpdb;
		foreach ( array( $this->events_table(), $this->operations_table(), $this->attempts_table(), $this->addresses_table(), $this->address_counters_table() ) as $table ) {
			$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $table ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.DirectDatabaseQuery.SchemaChange
		}
		$this->budget->drop();
		delete_option( self::DB_VERSION_OPTION );
	}
}

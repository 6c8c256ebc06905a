<?php
/**
 * Short-lived values every web server must see alike (a visitor's budget,
 * the words a buyer is told on the next page), kept in the database that
 * all of them share, never in an object cache: a transient lives in the
 * object cache when one is installed, and a cache of each server's own
 * (APCu, say) would give each server its own budget and lose a message set
 * on one server and read on another. Stored as the database form of a
 * transient (the _transient_ and _transient_timeout_ rows of the options
 * table), so WordPress's clean-up of expired transients removes them too;
 * read and written with SQL of our own, which no cache answers. A
 * read-then-write runs under a named lock of the database (locked()), named
 * per plugin and site (the shared Site_Lock). Built once in Plugin::build()
 * and passed to the classes that keep such values or take such locks.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Base;

use Card2Crypto\Checkout\Shared\Database\Site_Lock;

defined( 'ABSPATH' ) || exit;

final class Shared_Store {

	/** Whose locks these are: part of every lock name's hash. */
	const LOCK_OWNER = 'card2crypto-checkout';

	/** The value stored under $key, or null when there is none or it has expired. */
	public function get( string $key ) {
		global $wpdb;
		$rows  = $wpdb->get_results( $wpdb->prepare( 'SELECT option_name, option_value FROM %i WHERE option_name IN (%s, %s)', $wpdb->options, '_transient_' . $key, '_transient_timeout_' . $key ), ARRAY_A ); // phpcs:ignore WordPress.DB
		$found = array();
		foreach ( (array) $rows as $row ) {
			$found[ $row['option_name'] ] = $row['option_value'];
		}
		if ( ! isset( $found[ '_transient_' . $key ] ) || (int) ( $found[ '_transient_timeout_' . $key ] ?? 0 ) < time() ) {
			return null;
		}
		return maybe_unserialize( $found[ '_transient_' . $key ] );
	}

	/** Stores $value under $key for $ttl seconds. */
	public function put( string $key, $value, int $ttl ): void {
		global $wpdb;
		$rows = array(
			'_transient_timeout_' . $key => (string) ( time() + $ttl ),
			'_transient_' . $key         => maybe_serialize( $value ),
		);
		foreach ( $rows as $name => $stored ) {
			// Portable (MariaDB, MySQL, SQLite): the row made if missing, then written.
			$wpdb->query( $wpdb->prepare( 'INSERT IGNORE INTO %i (option_name, option_value, autoload) VALUES (%s, %s, %s)', $wpdb->options, $name, $stored, 'no' ) ); // phpcs:ignore WordPress.DB
			$wpdb->query( $wpdb->prepare( 'UPDATE %i SET option_value = %s WHERE option_name = %s', $wpdb->options, $stored, $name ) ); // phpcs:ignore WordPress.DB
		}
	}

	public function delete( string $key ): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'DELETE FROM %i WHERE option_name IN (%s, %s)', $wpdb->options, '_transient_' . $key, '_transient_timeout_' . $key ) ); // phpcs:ignore WordPress.DB
	}

	/** The plugin's named locks of the database (the shared Site_Lock, owned by LOCK_OWNER). */
	public function locks(): Site_Lock {
		return new Site_Lock( self::LOCK_OWNER );
	}

	/**
	 * The database's name for this site's lock $name (Site_Lock::name():
	 * the connection's database and this site's table prefix). Every named
	 * lock of the plugin (GET_LOCK, RELEASE_LOCK) goes through it.
	 */
	public function lock_name( string $name ): string {
		return $this->locks()->name( $name );
	}

	/** This plugin's lock name for $database and $prefix (Site_Lock::name_for()). Pure. */
	public function lock_name_for( string $database, string $prefix, string $name ): string {
		return Site_Lock::name_for( self::LOCK_OWNER, $database, $prefix, $name );
	}

	/**
	 * Runs $fn holding this site's named lock $name of the database
	 * (lock_name(); GET_LOCK, up to 30 s), so that requests on every web
	 * server take turns. Where the database has no named locks (SQLite in
	 * Playground, one request at a time per worker) $fn runs without one.
	 *
	 * @param string $busy What the exception says when another request holds the lock for 30 s.
	 * @throws \RuntimeException When another request holds the lock for 30 s.
	 * @return mixed What $fn returns.
	 */
	public function locked( string $name, callable $fn, string $busy ) {
		return $this->locks()->run( $name, $fn, $busy );
	}

	/**
	 * Runs $fn holding this site's named lock $name when no other request
	 * holds it, not waiting (Site_Lock::run_if_free()): false when another
	 * request holds it and $fn did not run.
	 *
	 * @param callable(): void $fn
	 */
	public function when_free( string $name, callable $fn ): bool {
		return $this->locks()->run_if_free( $name, $fn );
	}

	/**
	 * Runs $fn holding the named lock $name of the whole network, for what
	 * the sites of a multisite network must do one at a time: every site
	 * takes the same one (named by the database and the network's base table
	 * prefix, never the same as any one site's lock of that name).
	 *
	 * @param string $busy What the exception says when another request holds the lock for 30 s.
	 * @throws \RuntimeException When another request holds the lock for 30 s.
	 * @return mixed What $fn returns.
	 */
	public function locked_network( string $name, callable $fn, string $busy ) {
		return $this->locks()->run_network( $name, $fn, $busy );
	}
}

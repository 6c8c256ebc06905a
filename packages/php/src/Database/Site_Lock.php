<?php
/**
 * A named lock of the database server (GET_LOCK), named per plugin and per
 * site, so that requests on every web server take turns at a
 * read-then-write (a visitor's budget, a batch of background checks).
 *
 * A named lock is one for the whole database server: another database on
 * it, another site of a multisite network (its own table prefix), or the
 * other plugin would take the same lock. So the name the server sees is
 * made per owner (the plugin), database and table prefix: "c2c:", the
 * name readable (without "card2crypto_", cut to fit), ":" and 20 hex
 * digits of a hash of all four; never over 64 characters (MySQL 5.7 and
 * later refuse a longer one). Where the database has no named locks
 * (SQLite in Playground, one request at a time per worker) the work runs
 * without one.
 *
 * @package card2crypto
 */

namespace Card2Crypto\Shared\Database;

final class Site_Lock {

	/** The longest lock name MySQL takes. */
	const NAME_MAX = 64;

	/** How long a request waits for the lock (seconds). */
	const WAIT = 30;

	/** @var string */
	private $owner;

	/** @param string $owner Whose locks these are (the plugin's slug): part of every name's hash. */
	public function __construct( string $owner ) {
		$this->owner = $owner;
	}

	/** The database's name for this site's lock $name (the connection's database, this site's table prefix). */
	public function name( string $name ): string {
		global $wpdb;
		$connected = isset( $wpdb ) && is_object( $wpdb );
		return self::name_for( $this->owner, self::database(), $connected && isset( $wpdb->prefix ) ? (string) $wpdb->prefix : '', $name );
	}

	/**
	 * The database's name for the lock $name of the whole network: every
	 * site takes the same one (the network's base table prefix), never the
	 * same as any one site's lock of that name.
	 */
	public function network_name( string $name ): string {
		global $wpdb;
		$prefix = isset( $wpdb->base_prefix ) ? (string) $wpdb->base_prefix : (string) $wpdb->prefix;
		return self::name_for( $this->owner, self::database(), $prefix . "\0network", $name );
	}

	/** A lock's name for $owner, $database and $prefix. Pure. */
	public static function name_for( string $owner, string $database, string $prefix, string $name ): string {
		$hash     = substr( hash( 'sha256', $owner . "\0" . $database . "\0" . $prefix . "\0" . $name ), 0, 20 );
		$readable = (string) preg_replace( '/[^A-Za-z0-9_.-]/', '', (string) preg_replace( '/^card2crypto_/', '', $name ) );
		return 'c2c:' . substr( $readable, 0, self::NAME_MAX - strlen( 'c2c::' ) - strlen( $hash ) ) . ':' . $hash;
	}

	/**
	 * Runs $fn holding this site's lock $name (up to WAIT seconds for it).
	 *
	 * @param string $busy What the exception says when another request holds the lock for WAIT seconds.
	 * @throws \RuntimeException When another request holds the lock for WAIT seconds.
	 * @return mixed What $fn returns.
	 */
	public function run( string $name, callable $fn, string $busy ) {
		return self::run_as( $this->name( $name ), $fn, $busy );
	}

	/**
	 * Runs $fn holding the network's lock $name (network_name()).
	 *
	 * @param string $busy What the exception says when another request holds the lock for WAIT seconds.
	 * @throws \RuntimeException When another request holds the lock for WAIT seconds.
	 * @return mixed What $fn returns.
	 */
	public function run_network( string $name, callable $fn, string $busy ) {
		return self::run_as( $this->network_name( $name ), $fn, $busy );
	}

	private static function database(): string {
		global $wpdb;
		$database = isset( $wpdb ) && is_object( $wpdb ) && isset( $wpdb->dbname ) ? (string) $wpdb->dbname : '';
		if ( '' === $database && defined( 'DB_NAME' ) ) {
			$database = (string) DB_NAME;
		}
		return $database;
	}

	/**
	 * Runs $fn holding this site's lock $name only when no other request
	 * holds it, without waiting: for work that one request at a time does
	 * for all (a health check, a batch, a refresh after the answer), where
	 * "another request is doing it" is an answer, not a failure. Where the
	 * database has no named locks $fn runs without one.
	 *
	 * @param callable(): void $fn
	 * @return bool False when another request holds the lock ($fn did not run).
	 */
	public function run_if_free( string $name, callable $fn ): bool {
		$lock  = $this->name( $name );
		$taken = self::acquire( $lock, 0 );
		if ( false === $taken ) {
			return false;
		}
		try {
			$fn();
		} finally {
			self::release( $lock, $taken );
		}
		return true;
	}

	/**
	 * @return mixed What $fn returns.
	 * @throws \RuntimeException When another request holds the lock for WAIT seconds.
	 */
	private static function run_as( string $lock, callable $fn, string $busy ) {
		$taken = self::acquire( $lock, self::WAIT );
		if ( false === $taken ) {
			throw new \RuntimeException( $busy );
		}
		try {
			return $fn();
		} finally {
			self::release( $lock, $taken );
		}
	}

	/**
	 * Asks the database for the lock, waiting up to $wait seconds: taken()'s
	 * answer. A database that fails the question (no GET_LOCK) answers null.
	 */
	private static function acquire( string $lock, int $wait ): ?bool {
		global $wpdb;
		if ( ! isset( $wpdb ) || ! is_object( $wpdb ) ) {
			return null;
		}
		$suppress = method_exists( $wpdb, 'suppress_errors' ) ? $wpdb->suppress_errors( true ) : null;
		try {
			$got = $wpdb->get_var( $wpdb->prepare( 'SELECT GET_LOCK(%s, %d)', $lock, $wait ) );
		} catch ( \Throwable $e ) {
			$got = null;
		} finally {
			if ( null !== $suppress ) {
				$wpdb->suppress_errors( $suppress );
			}
		}
		return self::taken( $got );
	}

	/** Gives back what acquire() took (nothing when it was not taken). */
	private static function release( string $lock, ?bool $taken ): void {
		global $wpdb;
		if ( true === $taken ) {
			$wpdb->query( $wpdb->prepare( 'SELECT RELEASE_LOCK(%s)', $lock ) );
		}
	}

	/**
	 * What an answer to GET_LOCK says: true (this request holds the lock),
	 * false (another request holds it), or null where the database has no
	 * named locks: no answer (an error), or the SQLite database of
	 * Playground, whose stand-in answers the text "1=1" to every GET_LOCK
	 * (one request at a time per PHP worker there). Read as "busy", that
	 * stand-in refused every visitor's budget and every batch in Playground.
	 *
	 * @param mixed $got What `SELECT GET_LOCK(...)` returned.
	 */
	public static function taken( $got ): ?bool {
		if ( null === $got || '1=1' === (string) $got ) {
			return null;
		}
		return '1' === (string) $got;
	}
}

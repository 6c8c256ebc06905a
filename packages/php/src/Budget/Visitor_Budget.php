<?php
/**
 * How often visitors may make the site do something costly (ask the
 * service, sign a widget), counted on the database every web server
 * shares: one budget per name ("order_12", a client's address), each one
 * row of the plugin's budgets table, counted over a sliding window under
 * a named lock of the database (Site_Lock, per plugin and site), so that
 * requests arriving at the same moment on any web server each count and
 * never more than the limit pass. Never an object cache or a transient: a
 * cache of each server's own would give each server its own budget, and a
 * transient's read-then-write lets two racing requests both pass.
 *
 * - take(): one more in a budget, or the seconds until one more fits.
 * - The window (window(), pure): windows of $span seconds from the first
 *   request, the previous window's count weighing as much as it still
 *   overlaps the last $span seconds, so that no burst at a window's edge
 *   doubles the limit.
 * - A client (client_key(), pure): an IPv4 address as it is; an IPv6
 *   address by its /64 (a home or a server is given a whole /64).
 * - The table: {site prefix}{suffix} (one per site of a network), schema()
 *   for dbDelta(); rows whose windows have passed are deleted by an hourly
 *   WP-Cron job (register(), clean()).
 *
 * Each plugin builds one with its own table, lock owner and clean-up hook;
 * what a budget's limits are, and what a visitor over it reads, is the
 * plugin's.
 *
 * @package card2crypto
 */

namespace Card2Crypto\Shared\Budget;

use Card2Crypto\Shared\Database\Site_Lock;
use Card2Crypto\Shared\Hooks;

final class Visitor_Budget implements Hooks {

	/** @var string */
	private $suffix;

	/** @var Site_Lock */
	private $lock;

	/** @var string */
	private $clean_hook;

	/**
	 * @param string    $suffix     The table's name after the site's prefix (card2crypto_budgets).
	 * @param Site_Lock $lock       The plugin's named locks.
	 * @param string    $clean_hook The hourly clean-up's WP-Cron hook.
	 */
	public function __construct( string $suffix, Site_Lock $lock, string $clean_hook ) {
		$this->suffix     = $suffix;
		$this->lock       = $lock;
		$this->clean_hook = $clean_hook;
	}

	/** This site's budgets table. */
	public function table(): string {
		global $wpdb;
		return $this->table_of( (string) $wpdb->prefix );
	}

	/** The budgets table of the site whose table prefix is $prefix (a deleted site's, wpmu_drop_tables). */
	public function table_of( string $prefix ): string {
		return $prefix . $this->suffix;
	}

	/** The table's definition, for dbDelta(). */
	public function schema( string $collate ): string {
		$budgets = $this->table();
		return "CREATE TABLE {$budgets} (
  budget_key char(40) NOT NULL,
  window_start bigint(20) NOT NULL,
  window_count int(10) unsigned NOT NULL DEFAULT 0,
  previous_count int(10) unsigned NOT NULL DEFAULT 0,
  expires_at bigint(20) NOT NULL,
  PRIMARY KEY  (budget_key),
  KEY expires_at (expires_at)
) {$collate};";
	}

	/** Makes or updates this site's table (dbDelta()). */
	public function install(): void {
		global $wpdb;
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		dbDelta( $this->schema( $wpdb->get_charset_collate() ) );
	}

	public function drop(): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', $this->table() ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.DirectDatabaseQuery.SchemaChange -- the plugin's own table.
	}

	/** The clean-up job: hooked, and queued hourly on WP-Cron once (a cheap check of the autoloaded cron option). */
	public function register(): void {
		add_action( $this->clean_hook, array( $this, 'clean' ) );
		add_action( 'init', array( $this, 'schedule' ) );
	}

	/** On init: the hourly clean-up queued when it is not. */
	public function schedule(): void {
		if ( function_exists( 'wp_next_scheduled' ) && ! wp_next_scheduled( $this->clean_hook ) ) {
			wp_schedule_event( time() + HOUR_IN_SECONDS, 'hourly', $this->clean_hook );
		}
	}

	/**
	 * Deletes the budgets whose windows have passed (nothing of them counts any more); how many.
	 *
	 * @param int|null|mixed $now The time (WP-Cron passes nothing).
	 */
	public function clean( $now = null ): int {
		global $wpdb;
		return (int) $wpdb->query( $wpdb->prepare( 'DELETE FROM %i WHERE expires_at < %d', $this->table(), is_int( $now ) ? $now : time() ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching -- counted under a lock, never cached.
	}

	/**
	 * One more request in the budget $name: 0 when it fits (it is
	 * counted), else the seconds until one more would fit. A refused
	 * request is counted only with $count_refused (a flood then keeps its
	 * own budget spent). The row is read and written in one turn of its
	 * lock: takers at the same moment on any web server never pass more
	 * than $limit.
	 *
	 * @throws \RuntimeException When another request held the budget's lock for Site_Lock::WAIT seconds.
	 */
	public function take( string $name, int $limit, int $span, bool $count_refused = true, ?int $now = null ): int {
		global $wpdb;
		$key = sha1( $name );
		$now = $now ?? time();
		return (int) $this->lock->run(
			'card2crypto_budget_' . $key,
			function () use ( $wpdb, $key, $limit, $now, $span, $count_refused ): int {
				$table  = $this->table();
				$row    = $wpdb->get_row( $wpdb->prepare( 'SELECT window_start, window_count, previous_count FROM %i WHERE budget_key = %s', $table, $key ), ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching -- counted under a lock, never cached.
				$window = self::window(
					is_array( $row ) ? array(
						'start' => (int) $row['window_start'],
						'count' => (int) $row['window_count'],
						'prev'  => (int) $row['previous_count'],
					) : null,
					$limit,
					$now,
					$span,
					$count_refused
				);
				$expires = $window['start'] + 2 * max( 1, $span );
				// Portable (MariaDB, MySQL, SQLite): the row made if missing, then written.
				$wpdb->query( $wpdb->prepare( 'INSERT IGNORE INTO %i (budget_key, window_start, window_count, previous_count, expires_at) VALUES (%s, %d, 0, 0, %d)', $table, $key, $window['start'], $expires ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching -- counted under a lock, never cached.
				$wpdb->query( $wpdb->prepare( 'UPDATE %i SET window_start = %d, window_count = %d, previous_count = %d, expires_at = %d WHERE budget_key = %s', $table, $window['start'], $window['count'], $window['prev'], $expires, $key ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching -- counted under a lock, never cached.
				return $window['ok'] ? 0 : self::wait( $window, $limit, $now, $span );
			},
			'The visitors\' budget is busy.'
		);
	}

	/** Requests counted in the budget $name's current window (tests and benches read it). */
	public function spent( string $name ): int {
		global $wpdb;
		return (int) $wpdb->get_var( $wpdb->prepare( 'SELECT window_count FROM %i WHERE budget_key = %s', $this->table(), sha1( $name ) ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching -- read as stored now.
	}

	/**
	 * The sliding window after one more request: windows of $span seconds
	 * from the first request, the previous window's count weighing as much
	 * as it still overlaps the last $span seconds; ok tells whether the
	 * request fits. A refused request is counted only with $count_refused.
	 * A stored window that is none, or from the future (another server's
	 * clock), starts afresh. Pure.
	 *
	 * @param mixed $window What was stored: {start, count, prev}.
	 * @return array{start: int, count: int, prev: int, ok: bool}
	 */
	public static function window( $window, int $limit, int $now, int $span, bool $count_refused = true ): array {
		$span = max( 1, $span );
		if ( ! is_array( $window ) || ! isset( $window['start'], $window['count'] ) || $now < (int) $window['start'] ) {
			$window = array(
				'start' => $now,
				'count' => 0,
				'prev'  => 0,
			);
		}
		$start = (int) $window['start'];
		$count = (int) $window['count'];
		$prev  = (int) ( $window['prev'] ?? 0 );
		$ended = intdiv( $now - $start, $span );
		if ( $ended > 0 ) {
			$prev   = 1 === $ended ? $count : 0;
			$count  = 0;
			$start += $ended * $span;
		}
		$estimate = $prev * ( $span - ( $now - $start ) ) / $span + $count;
		$ok       = $estimate + 1 <= $limit + 1e-9;
		if ( $ok || $count_refused ) {
			++$count;
		}
		return array(
			'start' => $start,
			'count' => $count,
			'prev'  => $prev,
			'ok'    => $ok,
		);
	}

	/**
	 * Seconds from $now until one more request fits the window as stored
	 * after a refusal, if nothing else is counted meanwhile (what a
	 * Retry-After says); at least 1, at most twice $span. Pure.
	 *
	 * @param array{start: int, count: int, prev: int} $window
	 */
	public static function wait( array $window, int $limit, int $now, int $span ): int {
		$span = max( 1, $span );
		for ( $wait = 1; $wait < 2 * $span; $wait++ ) {
			if ( self::window( $window, $limit, $now + $wait, $span, false )['ok'] ) {
				return $wait;
			}
		}
		return 2 * $span;
	}

	/**
	 * Who a budget counts: an IPv4 address as it is; an IPv6 address by its
	 * /64 (a home or a server is given a whole /64: its addresses are one
	 * client), an IPv4-mapped one as its IPv4 address; anything else as
	 * given. Pure.
	 */
	public static function client_key( string $address ): string {
		$packed = @inet_pton( trim( $address ) ); // phpcs:ignore WordPress.PHP.NoSilencedErrors.Discouraged -- a non-address is answered below.
		if ( false === $packed || null === $packed ) {
			return trim( $address );
		}
		if ( 4 === strlen( $packed ) ) {
			return (string) inet_ntop( $packed );
		}
		if ( str_repeat( "\0", 10 ) . "\xff\xff" === substr( $packed, 0, 12 ) ) {
			return (string) inet_ntop( substr( $packed, 12 ) );
		}
		return (string) inet_ntop( substr( $packed, 0, 8 ) . str_repeat( "\0", 8 ) ) . '/64';
	}
}

<?php
/**
 * A visitor's request that makes the store call the service (the landing
 * route, the widget-settings route, a buyer's return, placing or paying an
 * order) is budgeted before the first call, per order and per client
 * address, and its service time is bounded: one anonymous visitor with the
 * key of their own order must not use up the partner's rate limit at the
 * service (every buyer's payment and callback confirmation then fails), nor
 * hold PHP workers while a slow service answers.
 *
 * - Budget: at most ORDER_LIMIT such requests per order and ADDRESS_LIMIT per
 *   client in WINDOW seconds, counted over a sliding window (this window's
 *   count plus the part of the previous one still inside the last WINDOW
 *   seconds: no burst at a window's edge doubles it). A client is its
 *   address, an IPv6 address by its /64 (client_key(): one connection is
 *   given a whole /64). Each budget is one row of the budgets table (every
 *   web server shares it; never an object cache), counted under a named
 *   lock so that requests at the same moment on any server each count
 *   (Shared_Store); rows whose windows have passed are deleted by an
 *   hourly job (CLEAN_HOOK). Over it, the request makes no call and the
 *   buyer reads "try again in a minute". A request the order's budget
 *   refuses is not counted against its address, nor one the address's
 *   budget refuses: behind one shared address (a proxy whose header is not
 *   set, carrier NAT) one visitor flooding one order does not lock every
 *   other buyer out.
 * - Rates: a rate fixed for an attempt is reused while it lives (kept_rate()),
 *   so signing the same attempt again asks the service one thing: about the
 *   attempt itself (never answered from memory: a payment may just have
 *   started there).
 * - Time: the request's whole time on the service, from its budget's
 *   charge, is TIME_BUDGET seconds (Request_Deadline): each call's timeout
 *   is what remains, and a call for which too little remains is not sent.
 *   Whatever the service does, the buyer is told within 5 s.
 *
 * Pure windows (take(), client_key()) are unit-tested; the rest runs in WordPress.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Request_Deadline;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Rules\Address_Policy;

defined( 'ABSPATH' ) || exit;

final class Start_Budget {

	/** Requests that may call the service, per order, per WINDOW. */
	const ORDER_LIMIT = 12;

	/** Requests that may call the service, per client address, per WINDOW. */
	const ADDRESS_LIMIT = 120;

	const WINDOW = 60;

	/** Seconds one request may spend waiting on the service, every call included (Request_Deadline). */
	const TIME_BUDGET = 3.5;

	/** The hourly job that deletes the budgets whose windows have passed. */
	const CLEAN_HOOK = 'card2crypto_checkout_clean_budgets';

	/** The budgets table: one row per budget (an order's, a client's). */
	public static function table(): string {
		global $wpdb;
		return $wpdb->prefix . 'card2crypto_budgets';
	}

	/** The table's definition, for dbDelta() (Operation_Store::install()). */
	public static function schema( string $collate ): string {
		$budgets = self::table();
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

	public static function drop(): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( 'DROP TABLE IF EXISTS %i', self::table() ) ); // phpcs:ignore WordPress.DB
	}

	/** The clean-up job: hooked, and queued hourly on WP-Cron once (a cheap check of the autoloaded cron option). */
	public static function register(): void {
		add_action( self::CLEAN_HOOK, array( self::class, 'clean' ) );
		add_action(
			'init',
			static function (): void {
				if ( function_exists( 'wp_next_scheduled' ) && ! wp_next_scheduled( self::CLEAN_HOOK ) ) {
					wp_schedule_event( time() + HOUR_IN_SECONDS, 'hourly', self::CLEAN_HOOK );
				}
			}
		);
	}

	/** Deletes the budgets whose windows have passed (nothing of them counts any more); how many. */
	public static function clean( ?int $now = null ): int {
		global $wpdb;
		return (int) $wpdb->query( $wpdb->prepare( 'DELETE FROM %i WHERE expires_at < %d', self::table(), $now ?? time() ) ); // phpcs:ignore WordPress.DB
	}

	/**
	 * Counts this request against the order's and the client's budgets;
	 * throws before any service call when either is spent. A request the
	 * order's budget refuses is not counted against the client.
	 *
	 * @throws Payment_Refused With the buyer's words ("try again in a minute").
	 */
	public static function charge( \WC_Order $order, string $address ): void {
		// The request's time on the service runs from here: every call it makes shares it.
		Request_Deadline::start( self::TIME_BUDGET );
		$now = time();
		$ok  = self::spend( 'order_' . $order->get_id(), self::ORDER_LIMIT, $now, self::WINDOW, true );
		$ok  = $ok && self::spend( 'addr_' . md5( self::client_key( $address ) ), self::ADDRESS_LIMIT, $now, self::WINDOW, false );
		if ( ! $ok ) {
			Log::warning( sprintf( 'Order %d: a payment request from %s was refused before asking the service: too many in a minute.', $order->get_id(), $address ) );
			throw new Payment_Refused( self::message() );
		}
	}

	/** What a buyer over the budget reads. */
	public static function message(): string {
		return __( 'Too many payment requests for this order in a short time. Please try again in a minute.', 'card2crypto-checkout' );
	}

	/**
	 * Charges a new address of the owner's wallet (a new order's first
	 * payment takes one) to the client and to the order: a visitor cannot
	 * spend the wallet's gap with orders of its own. Checked only when the
	 * order has no address yet.
	 *
	 * @throws Payment_Refused When the client or the order took as many as it may.
	 */
	public static function charge_new_address( \WC_Order $order, string $address ): void {
		$now = time();
		$ok  = self::spend( 'address_order_' . $order->get_id(), Address_Policy::ORDER_LIMIT, $now, Address_Policy::ORDER_WINDOW, true );
		$ok  = $ok && self::spend( 'address_client_' . md5( self::client_key( $address ) ), Address_Policy::CLIENT_LIMIT, $now, Address_Policy::CLIENT_WINDOW, false );
		if ( ! $ok ) {
			Log::warning( sprintf( 'Order %d: no new wallet address for a payment from %s: that client or order took as many as it may.', $order->get_id(), $address ) );
			throw new Payment_Refused( __( 'Too many new card payments from your connection in a short time. Please try again later.', 'card2crypto-checkout' ) );
		}
	}

	/** One more request in a budget; false when it is spent. The row is read and written in one turn of its lock. */
	private static function spend( string $name, int $limit, int $now, int $span, bool $count_refused ): bool {
		global $wpdb;
		$key = sha1( $name );
		return Shared_Store::locked(
			'card2crypto_budget_' . $key,
			static function () use ( $wpdb, $key, $limit, $now, $span, $count_refused ): bool {
				$row    = $wpdb->get_row( $wpdb->prepare( 'SELECT window_start, window_count, previous_count FROM %i WHERE budget_key = %s', self::table(), $key ), ARRAY_A ); // phpcs:ignore WordPress.DB
				$window = self::take(
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
				// Portable (MariaDB, MySQL, SQLite): the row made if missing, then written.
				$wpdb->query( $wpdb->prepare( 'INSERT IGNORE INTO %i (budget_key, window_start, window_count, previous_count, expires_at) VALUES (%s, %d, 0, 0, %d)', self::table(), $key, $window['start'], $window['start'] + 2 * $span ) ); // phpcs:ignore WordPress.DB
				$wpdb->query( $wpdb->prepare( 'UPDATE %i SET window_start = %d, window_count = %d, previous_count = %d, expires_at = %d WHERE budget_key = %s', self::table(), $window['start'], $window['count'], $window['prev'], $window['start'] + 2 * $span, $key ) ); // phpcs:ignore WordPress.DB
				return $window['ok'];
			},
			'The payment request budget is busy.'
		);
	}

	/** Requests counted in a budget's current window ("order_<id>", "addr_<md5 of client_key()>"); tests and the bench read it. */
	public static function spent( string $name ): int {
		global $wpdb;
		return (int) $wpdb->get_var( $wpdb->prepare( 'SELECT window_count FROM %i WHERE budget_key = %s', self::table(), sha1( $name ) ) ); // phpcs:ignore WordPress.DB
	}

	/**
	 * Who a budget counts: an IPv4 address as it is; an IPv6 address by its
	 * /64 (a home or a server is given a whole /64: its addresses are one
	 * client), an IPv4-mapped one as its IPv4 address; anything else as
	 * given. Pure.
	 */
	public static function client_key( string $address ): string {
		$packed = @inet_pton( trim( $address ) ); // phpcs:ignore WordPress.PHP.NoSilencedErrors -- a non-address is answered below.
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
	public static function take( $window, int $limit, int $now, int $span = self::WINDOW, bool $count_refused = true ): array {
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

	/** A fixed rate is reused until this many seconds before it expires. */
	const RATE_MARGIN = 60;

	/** The longest a fixed rate is reused (seconds), whatever its lifetime. */
	const RATE_REUSE = 300;

	/**
	 * The rate fixed for this attempt a moment ago, while it still has
	 * RATE_MARGIN seconds to live: signing the same attempt again (the buyer
	 * reloads the landing link or the payment page) needs no new rate, and
	 * the service is asked about the attempt itself every time.
	 */
	public static function kept_rate( Attempt $attempt, int $now ): ?array {
		$rate = get_transient( self::rate_key( $attempt ) );
		return is_array( $rate ) && isset( $rate['expired_at'] ) && self::still_valid( (string) $rate['expired_at'], $now + self::RATE_MARGIN ) ? $rate : null;
	}

	public static function keep_rate( Attempt $attempt, array $rate, int $now ): void {
		$left = (int) strtotime( (string) preg_replace( '/\.\d+/', '', (string) $rate['expired_at'] ) ) - $now - self::RATE_MARGIN;
		if ( $left > 0 ) {
			set_transient( self::rate_key( $attempt ), $rate, min( $left, self::RATE_REUSE ) );
		}
	}

	private static function rate_key( Attempt $attempt ): string {
		return 'card2crypto_checkout_rate_' . md5( $attempt->partner_operation_id() );
	}

	/**
	 * Whether this request may still ask the service: true until what
	 * remains of its TIME_BUDGET (started by charge(), else now) is too
	 * short for a call.
	 */
	public static function time_left(): bool {
		Request_Deadline::start( self::TIME_BUDGET );
		return ! Request_Deadline::spent();
	}

	/**
	 * Whether a rate's expired_at (UTC, up to 7 fractional digits, Z) is
	 * still ahead of $now; a time that cannot be read is not. Pure.
	 */
	public static function still_valid( string $expired_at, int $now ): bool {
		if ( 1 !== preg_match( '/^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d{1,7})?Z$/D', $expired_at, $m ) ) {
			return false;
		}
		$at = strtotime( $m[1] . ' ' . $m[2] . ' UTC' );
		return false !== $at && $at > $now;
	}
}

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
 *   address, an IPv6 address by its /64 (Visitor_Budget::client_key(): one connection is
 *   given a whole /64). Each budget is one row of the budgets table (every
 *   web server shares it; never an object cache), counted under a named
 *   lock so that requests at the same moment on any server each count;
 *   rows whose windows have passed are deleted by an hourly job
 *   (CLEAN_HOOK). The counting is the shared library's (Visitor_Budget,
 *   the widget's routes count on it too); the limits and the words are
 *   this class's. Over it, the request makes no call and the
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
 * Pure windows (take()) are unit-tested (the client key in the library); the rest runs in WordPress.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Request_Deadline;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Rules\Address_Policy;
use Card2Crypto\Checkout\Shared\Budget\Visitor_Budget;
use Card2Crypto\Checkout\Shared\Database\Site_Lock;

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

	/** The checkout's budgets (the shared counter on its table card2crypto_budgets, its locks, its clean-up hook). */
	private static function budget(): Visitor_Budget {
		return new Visitor_Budget( 'card2crypto_budgets', new Site_Lock( Shared_Store::LOCK_OWNER ), self::CLEAN_HOOK );
	}

	/** The budgets table: one row per budget (an order's, a client's). */
	public static function table(): string {
		return self::budget()->table();
	}

	/** The table's definition, for dbDelta() (Operation_Store::install()). */
	public static function schema( string $collate ): string {
		return self::budget()->schema( $collate );
	}

	public static function drop(): void {
		self::budget()->drop();
	}

	/** The clean-up job: hooked, and queued hourly on WP-Cron once. */
	public static function register(): void {
		self::budget()->register();
	}

	/** Deletes the budgets whose windows have passed (nothing of them counts any more); how many. */
	public static function clean( ?int $now = null ): int {
		return self::budget()->clean( $now );
	}

	/**
	 * Counts this request against the order's and the client's budgets;
	 * throws before any service call when either is spent. A request the
	 * order's budget refuses is not counted against the client.
	 *
	 * @param Request_Deadline $deadline This request's time on the service: it runs from here, every call shares it.
	 * @throws Payment_Refused With the buyer's words ("try again in a minute").
	 */
	public static function charge( \WC_Order $order, string $address, Request_Deadline $deadline ): void {
		// The request's time on the service runs from here: every call it makes shares it.
		$deadline->start( self::TIME_BUDGET );
		$now = time();
		$ok  = self::spend( 'order_' . $order->get_id(), self::ORDER_LIMIT, $now, self::WINDOW, true );
		$ok  = $ok && self::spend( 'addr_' . md5( Visitor_Budget::client_key( $address ) ), self::ADDRESS_LIMIT, $now, self::WINDOW, false );
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
		$ok  = $ok && self::spend( 'address_client_' . md5( Visitor_Budget::client_key( $address ) ), Address_Policy::CLIENT_LIMIT, $now, Address_Policy::CLIENT_WINDOW, false );
		if ( ! $ok ) {
			Log::warning( sprintf( 'Order %d: no new wallet address for a payment from %s: that client or order took as many as it may.', $order->get_id(), $address ) );
			throw new Payment_Refused( __( 'Too many new card payments from your connection in a short time. Please try again later.', 'card2crypto-checkout' ) );
		}
	}

	/** One more request in a budget; false when it is spent (counted atomically across web servers: Visitor_Budget::take()). */
	private static function spend( string $name, int $limit, int $now, int $span, bool $count_refused ): bool {
		return 0 === self::budget()->take( $name, $limit, $span, $count_refused, $now );
	}

	/** Requests counted in a budget's current window ("order_<id>", "addr_<md5 of Visitor_Budget::client_key()>"); tests and the bench read it. */
	public static function spent( string $name ): int {
		return self::budget()->spent( $name );
	}

	/**
	 * The sliding window after one more request (Visitor_Budget::window()). Pure.
	 *
	 * @param mixed $window What was stored: {start, count, prev}.
	 * @return array{start: int, count: int, prev: int, ok: bool}
	 */
	public static function take( $window, int $limit, int $now, int $span = self::WINDOW, bool $count_refused = true ): array {
		return Visitor_Budget::window( $window, $limit, $now, $span, $count_refused );
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
	public static function time_left( Request_Deadline $deadline ): bool {
		$deadline->start( self::TIME_BUDGET );
		return ! $deadline->spent();
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

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
 *   client address in WINDOW seconds (fixed windows in the database every web
 *   server shares, never in an object cache, counted under a named lock so
 *   that requests at the same moment on any server each count: Shared_Store).
 *   Over it, the request makes no call and the buyer reads "try again in a
 *   minute".
 * - Rates: a rate fixed for an attempt is reused while it lives (kept_rate()),
 *   so signing the same attempt again asks the service one thing: about the
 *   attempt itself (never answered from memory: a payment may just have
 *   started there).
 * - Time: the request's whole time on the service, from its budget's
 *   charge, is TIME_BUDGET seconds (Request_Deadline): each call's timeout
 *   is what remains, and a call for which too little remains is not sent.
 *   Whatever the service does, the buyer is told within 5 s.
 *
 * Pure windows (take()) are unit-tested; the rest runs in WordPress.
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

	/**
	 * Counts this request against the order's and the address's budgets;
	 * throws before any service call when either is spent.
	 *
	 * @throws Payment_Refused With the buyer's words ("try again in a minute").
	 */
	public static function charge( \WC_Order $order, string $address ): void {
		// The request's time on the service runs from here: every call it makes shares it.
		Request_Deadline::start( self::TIME_BUDGET );
		$now = time();
		$ok  = self::spend( 'order_' . $order->get_id(), self::ORDER_LIMIT, $now );
		// The address is counted even when the order's budget is spent: a flood from one address is seen as such.
		$ok = self::spend( 'addr_' . md5( $address ), self::ADDRESS_LIMIT, $now ) && $ok;
		if ( ! $ok ) {
			Log::warning( sprintf( 'Order %d: a payment request from %s was refused before asking the service: too many in a minute.', $order->get_id(), $address ) );
			throw new Payment_Refused( self::message() );
		}
	}

	/** What a buyer over the budget reads. */
	public static function message(): string {
		return __( 'Too many payment requests for this order in a short time. Please try again in a minute.', 'card2crypto-checkout' );
	}

	/** One more request in a budget; false when it is spent. The window is read and written in one turn of its lock. */
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
		$ok  = self::spend( 'address_order_' . $order->get_id(), Address_Policy::ORDER_LIMIT, $now, Address_Policy::ORDER_WINDOW );
		$ok  = self::spend( 'address_client_' . md5( $address ), Address_Policy::CLIENT_LIMIT, $now, Address_Policy::CLIENT_WINDOW ) && $ok;
		if ( ! $ok ) {
			Log::warning( sprintf( 'Order %d: no new wallet address for a payment from %s: that client or order took as many as it may.', $order->get_id(), $address ) );
			throw new Payment_Refused( __( 'Too many new card payments from your connection in a short time. Please try again later.', 'card2crypto-checkout' ) );
		}
	}

	private static function spend( string $name, int $limit, int $now, int $span = self::WINDOW ): bool {
		return Shared_Store::locked(
			'card2crypto_budget_' . md5( $name ),
			static function () use ( $name, $limit, $now, $span ): bool {
				$window = self::take( Shared_Store::get( self::budget_key( $name ) ), $limit, $now, $span );
				Shared_Store::put( self::budget_key( $name ), $window, $span );
				return $window['ok'];
			},
			'The payment request budget is busy.'
		);
	}

	/** Requests counted in a budget's current window ("order_<id>", "addr_<md5>"); tests and the bench read it. */
	public static function spent( string $name ): int {
		$window = Shared_Store::get( self::budget_key( $name ) );
		return is_array( $window ) ? (int) ( $window['count'] ?? 0 ) : 0;
	}

	private static function budget_key( string $name ): string {
		return 'card2crypto_checkout_budget_' . $name;
	}

	/**
	 * The window after one more request: a fresh one when the stored one has
	 * ended (or is not one); ok tells whether the request fits. Pure.
	 *
	 * @param mixed $window What was stored.
	 * @return array{start: int, count: int, ok: bool}
	 */
	public static function take( $window, int $limit, int $now, int $span = self::WINDOW ): array {
		if ( ! is_array( $window ) || ! isset( $window['start'], $window['count'] ) || $now - (int) $window['start'] >= $span || $now < (int) $window['start'] ) {
			return array(
				'start' => $now,
				'count' => 1,
				'ok'    => 1 <= $limit,
			);
		}
		$count = (int) $window['count'] + 1;
		return array(
			'start' => (int) $window['start'],
			'count' => $count,
			'ok'    => $count <= $limit,
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
	public static function kept_rate( array $attempt, int $now ): ?array {
		$rate = get_transient( self::rate_key( $attempt ) );
		return is_array( $rate ) && isset( $rate['expired_at'] ) && self::still_valid( (string) $rate['expired_at'], $now + self::RATE_MARGIN ) ? $rate : null;
	}

	public static function keep_rate( array $attempt, array $rate, int $now ): void {
		$left = (int) strtotime( (string) preg_replace( '/\.\d+/', '', (string) $rate['expired_at'] ) ) - $now - self::RATE_MARGIN;
		if ( $left > 0 ) {
			set_transient( self::rate_key( $attempt ), $rate, min( $left, self::RATE_REUSE ) );
		}
	}

	private static function rate_key( array $attempt ): string {
		return 'card2crypto_checkout_rate_' . md5( (string) $attempt['partner_operation_id'] );
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

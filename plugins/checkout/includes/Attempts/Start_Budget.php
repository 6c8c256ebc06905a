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
 * Built once (Plugin::build()) over the checkout's Visitor_Budget and passed
 * to the classes that charge it. The pure windows and the client key are
 * the library's (unit-tested there and in test/start-budget.test.ts); the
 * rest runs in WordPress.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Request_Deadline;
use Card2Crypto\Checkout\Rules\Address_Policy;
use Card2Crypto\Checkout\Rules\Service_Times;
use Card2Crypto\Checkout\Shared\Budget\Visitor_Budget;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Start_Budget implements Hooks {

	/** Requests that may call the service, per order, per WINDOW. */
	const ORDER_LIMIT = 12;

	/** Requests that may call the service, per client address, per WINDOW. */
	const ADDRESS_LIMIT = 120;

	const WINDOW = 60;

	/** Seconds one request may spend waiting on the service, every call included (Request_Deadline). */
	const TIME_BUDGET = 3.5;

	/** The hourly job that deletes the budgets whose windows have passed. */
	const CLEAN_HOOK = 'card2crypto_checkout_clean_budgets';

	/** @var Visitor_Budget The checkout's budgets (the shared counter on its table card2crypto_budgets, its locks, its clean-up hook CLEAN_HOOK). */
	private $budget;

	/** @var Request_Deadline This request's time on the service (charge() starts it). */
	private $deadline;

	public function __construct( Visitor_Budget $budget, Request_Deadline $deadline ) {
		$this->budget   = $budget;
		$this->deadline = $deadline;
	}

	/** The budgets table: one row per budget (an order's, a client's). */
	public function table(): string {
		return $this->budget->table();
	}

	/** The table's definition, for dbDelta() (Operation_Store::install()). */
	public function schema( string $collate ): string {
		return $this->budget->schema( $collate );
	}

	public function drop(): void {
		$this->budget->drop();
	}

	/** The clean-up job: hooked, and queued hourly on WP-Cron once. */
	public function register(): void {
		$this->budget->register();
	}

	/** Deletes the budgets whose windows have passed (nothing of them counts any more); how many. */
	public function clean( ?int $now = null ): int {
		return $this->budget->clean( $now );
	}

	/**
	 * Counts this request against the order's and the client's budgets;
	 * throws before any service call when either is spent. A request the
	 * order's budget refuses is not counted against the client.
	 *
	 * @throws Payment_Refused With the buyer's words ("try again in a minute").
	 */
	public function charge( \WC_Order $order, string $address ): void {
		// The request's time on the service runs from here: every call it makes shares it.
		$this->deadline->start( self::TIME_BUDGET );
		$now = time();
		$ok  = $this->spend( 'order_' . $order->get_id(), self::ORDER_LIMIT, $now, self::WINDOW, true );
		$ok  = $ok && $this->spend( 'addr_' . md5( Visitor_Budget::client_key( $address ) ), self::ADDRESS_LIMIT, $now, self::WINDOW, false );
		if ( ! $ok ) {
			Log::warning( sprintf( 'Order %d: a payment request from %s was refused before asking the service: too many in a minute.', $order->get_id(), $address ) );
			throw new Payment_Refused( $this->message() );
		}
	}

	/** What a buyer over the budget reads. */
	public function message(): string {
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
	public function charge_new_address( \WC_Order $order, string $address ): void {
		$now = time();
		$ok  = $this->spend( 'address_order_' . $order->get_id(), Address_Policy::ORDER_LIMIT, $now, Address_Policy::ORDER_WINDOW, true );
		$ok  = $ok && $this->spend( 'address_client_' . md5( Visitor_Budget::client_key( $address ) ), Address_Policy::CLIENT_LIMIT, $now, Address_Policy::CLIENT_WINDOW, false );
		if ( ! $ok ) {
			Log::warning( sprintf( 'Order %d: no new wallet address for a payment from %s: that client or order took as many as it may.', $order->get_id(), $address ) );
			throw new Payment_Refused( __( 'Too many new card payments from your connection in a short time. Please try again later.', 'card2crypto-checkout' ) );
		}
	}

	/** One more request in a budget; false when it is spent (counted atomically across web servers: Visitor_Budget::take()). */
	private function spend( string $name, int $limit, int $now, int $span, bool $count_refused ): bool {
		return 0 === $this->budget->take( $name, $limit, $span, $count_refused, $now );
	}

	/** Requests counted in a budget's current window ("order_<id>", "addr_<md5 of Visitor_Budget::client_key()>"); tests and the bench read it. */
	public function spent( string $name ): int {
		return $this->budget->spent( $name );
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
	public function kept_rate( Attempt $attempt, int $now ): ?array {
		$rate = get_transient( $this->rate_key( $attempt ) );
		return is_array( $rate ) && isset( $rate['expired_at'] ) && Service_Times::still_valid( (string) $rate['expired_at'], $now + self::RATE_MARGIN ) ? $rate : null;
	}

	public function keep_rate( Attempt $attempt, array $rate, int $now ): void {
		$left = (int) strtotime( (string) preg_replace( '/\.\d+/', '', (string) $rate['expired_at'] ) ) - $now - self::RATE_MARGIN;
		if ( $left > 0 ) {
			set_transient( $this->rate_key( $attempt ), $rate, min( $left, self::RATE_REUSE ) );
		}
	}

	private function rate_key( Attempt $attempt ): string {
		return 'card2crypto_checkout_rate_' . md5( $attempt->partner_operation_id() );
	}

	/**
	 * Whether this request may still ask the service: true until what
	 * remains of its TIME_BUDGET (started by charge(), else now) is too
	 * short for a call.
	 */
	public function time_left(): bool {
		$this->deadline->start( self::TIME_BUDGET );
		return ! $this->deadline->spent();
	}
}

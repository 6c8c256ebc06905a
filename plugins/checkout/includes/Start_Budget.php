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
 *   client address in WINDOW seconds (fixed windows in transients, shared by
 *   every web server through the database or a shared object cache). Over it,
 *   the request makes no call and the buyer reads "try again in a minute".
 * - Answers: the service's answer about an attempt is kept ANSWER_TTL seconds
 *   (Reconciler::check() reads it), so a page reloaded in a loop asks once.
 * - Time: a request stops asking the service once it has spent
 *   TIME_BUDGET seconds on it (the client's own timeout is short too).
 *
 * Pure windows (take()) are unit-tested; the rest runs in WordPress.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

defined( 'ABSPATH' ) || exit;

final class Start_Budget {

	/** Requests that may call the service, per order, per WINDOW. */
	const ORDER_LIMIT = 12;

	/** Requests that may call the service, per client address, per WINDOW. */
	const ADDRESS_LIMIT = 120;

	const WINDOW = 60;

	/** Seconds an answer of the service about an attempt is reused. */
	const ANSWER_TTL = 10;

	/** Seconds one request may spend waiting on the service before it stops asking. */
	const TIME_BUDGET = 6;

	/** @var float|null When this request first asked the service (microtime). */
	private static $started;

	/**
	 * Counts this request against the order's and the address's budgets;
	 * throws before any service call when either is spent.
	 *
	 * @throws Payment_Refused With the buyer's words ("try again in a minute").
	 */
	public static function charge( \WC_Order $order, string $address ): void {
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

	/** One more request in a budget; false when it is spent. */
	private static function spend( string $name, int $limit, int $now ): bool {
		$key    = 'card2crypto_checkout_budget_' . $name;
		$window = self::take( get_transient( $key ), $limit, $now );
		set_transient( $key, $window, self::WINDOW );
		return $window['ok'];
	}

	/**
	 * The window after one more request: a fresh one when the stored one has
	 * ended (or is not one); ok tells whether the request fits. Pure.
	 *
	 * @param mixed $window What was stored.
	 * @return array{start: int, count: int, ok: bool}
	 */
	public static function take( $window, int $limit, int $now ): array {
		if ( ! is_array( $window ) || ! isset( $window['start'], $window['count'] ) || $now - (int) $window['start'] >= self::WINDOW || $now < (int) $window['start'] ) {
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

	/**
	 * The service's answer about an attempt's latest operation, when it came
	 * less than ANSWER_TTL seconds ago: the operation, or UNKNOWN (the
	 * service had no operation for it); null when there is none to reuse.
	 *
	 * @return \Card2Crypto\Checkout\Shared\Api\Operation|string|null
	 */
	public static function cached_answer( array $attempt ) {
		$cached = get_transient( self::answer_key( $attempt ) );
		return $cached instanceof \Card2Crypto\Checkout\Shared\Api\Operation || self::UNKNOWN === $cached ? $cached : null;
	}

	/** What cached_answer() keeps for "the service has no operation for this attempt". */
	const UNKNOWN = 'unknown';

	/** @param \Card2Crypto\Checkout\Shared\Api\Operation|string $answer The operation, or UNKNOWN. */
	public static function keep_answer( array $attempt, $answer ): void {
		set_transient( self::answer_key( $attempt ), $answer, self::ANSWER_TTL );
	}

	/** An attempt's answer is forgotten when its state moved (a callback came): the next question asks. */
	public static function forget_answer( array $attempt ): void {
		delete_transient( self::answer_key( $attempt ) );
	}

	private static function answer_key( array $attempt ): string {
		return 'card2crypto_checkout_answer_' . md5( (string) $attempt['partner_operation_id'] );
	}

	/**
	 * Whether this request may still ask the service: true until it has
	 * spent TIME_BUDGET seconds since its first question.
	 */
	public static function time_left(): bool {
		if ( null === self::$started ) {
			self::$started = microtime( true );
			return true;
		}
		return microtime( true ) - self::$started < self::TIME_BUDGET;
	}
}

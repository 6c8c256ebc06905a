<?php
/**
 * The store-wide budget of requests to the partner API, as rules: which
 * lane each request travels in, the token bucket every request of the store
 * takes from (on every web server: Partner\Service_Gateway keeps its state in
 * the database), the share of it each lane must leave to the lanes above,
 * and how long a lane may wait for a token. Pure, unit-tested in
 * test/service-lanes.test.ts.
 *
 * The service limits each partner's requests a second as a whole
 * (docs/decisions.md, "Checkout: one door to the service"): the bucket holds
 * one second's worth of tokens (the administrator's "Service requests a
 * second") and refills at that rate, so what leaves the store fits the
 * service's own bucket of a larger or equal size.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Service_Lanes {

	/** A callback's confirmation or check, a buyer back from paying: money is moving, first in line. */
	const PAYING = 'paying';

	/** A buyer starting a payment (fixing the rate, checking or ending earlier attempts). */
	const START = 'start';

	/** The owner's buttons (refresh, confirm, cancel, the settings page's check). */
	const ADMIN = 'admin';

	/** What pages show: the service's health, the price estimate, the countries. */
	const INFO = 'info';

	/** Reconciliation and other scheduled work: last, never in a buyer's way. */
	const BACKGROUND = 'background';

	/**
	 * Share of the bucket (above the one token a request takes) each lane
	 * leaves to the lanes before it: a lane takes a token only while the
	 * bucket keeps its reserve after the take.
	 */
	const RESERVES = array(
		self::PAYING     => 0.0,
		self::START      => 0.2,
		self::ADMIN      => 0.3,
		self::INFO       => 0.4,
		self::BACKGROUND => 0.5,
	);

	/**
	 * Milliseconds a request of the lane may wait for a token, at most, in
	 * one PHP request: a buyer is answered within a second whatever the
	 * bucket holds; pages and background work never wait.
	 */
	const WAITS_MS = array(
		self::PAYING     => 900,
		self::START      => 700,
		self::ADMIN      => 900,
		self::INFO       => 0,
		self::BACKGROUND => 0,
	);

	/** The store's requests a second by default: half the sandbox's 20 (docs/decisions.md). */
	const DEFAULT_RATE = 10;

	/** The most the setting allows (the partner's limit is the partner's; this is a typing guard). */
	const MAX_RATE = 100;

	/** The longest pause a Retry-After may ask of the whole store (longer answers are taken as an hour). */
	const MAX_PAUSE = 3600;

	/** @return string[] Every lane, first in line first. */
	public static function lanes(): array {
		return array_keys( self::RESERVES );
	}

	/** The lane, or BACKGROUND (the last) for a name that is none. */
	public static function lane( string $lane ): string {
		return isset( self::RESERVES[ $lane ] ) ? $lane : self::BACKGROUND;
	}

	/** The rate a setting's text stands for: 1 to MAX_RATE, else the default. */
	public static function rate( string $setting ): int {
		$rate = 1 === preg_match( '/^[0-9]{1,3}$/D', trim( $setting ) ) ? (int) trim( $setting ) : 0;
		return $rate >= 1 && $rate <= self::MAX_RATE ? $rate : self::DEFAULT_RATE;
	}

	/** Tokens the lane leaves in the bucket at $rate: its share of all but the one a request takes. */
	public static function reserve( string $lane, int $rate ): float {
		return self::RESERVES[ self::lane( $lane ) ] * ( max( 1, $rate ) - 1 );
	}

	/**
	 * The bucket read from storage: {tokens, at (ms), paused_until (ms)}; a
	 * full bucket for anything else (a first request, a damaged row).
	 *
	 * @param mixed $state What was stored.
	 * @return array{tokens: float, at: int, paused_until: int}
	 */
	public static function normal( $state, int $rate, int $now_ms ): array {
		if ( ! is_array( $state ) || ! isset( $state['tokens'], $state['at'] ) || ! is_numeric( $state['tokens'] ) || ! is_numeric( $state['at'] ) ) {
			return array(
				'tokens'       => (float) max( 1, $rate ),
				'at'           => $now_ms,
				'paused_until' => 0,
			);
		}
		return array(
			'tokens'       => min( (float) max( 1, $rate ), max( 0.0, (float) $state['tokens'] ) ),
			'at'           => (int) $state['at'],
			'paused_until' => isset( $state['paused_until'] ) && is_numeric( $state['paused_until'] ) ? (int) $state['paused_until'] : 0,
		);
	}

	/**
	 * One request of $lane at $now_ms: the bucket refilled since it was last
	 * written (never backwards: another server's clock may be behind), then
	 * one token taken when the lane's reserve stays after it and the store is
	 * not paused. wait_ms, when refused: until the pause ends, or until the
	 * bucket holds enough for the lane.
	 *
	 * @param mixed $state What was stored.
	 * @return array{state: array{tokens: float, at: int, paused_until: int}, ok: bool, wait_ms: int}
	 */
	public static function take( $state, string $lane, int $rate, int $now_ms ): array {
		$rate   = max( 1, $rate );
		$bucket = self::normal( $state, $rate, $now_ms );
		$now    = max( $now_ms, $bucket['at'] );
		$tokens = min( (float) $rate, $bucket['tokens'] + ( $now - $bucket['at'] ) / 1000 * $rate );
		$after  = array(
			'tokens'       => $tokens,
			'at'           => $now,
			'paused_until' => $bucket['paused_until'],
		);
		if ( $now_ms < $bucket['paused_until'] ) {
			return array(
				'state'   => $after,
				'ok'      => false,
				'wait_ms' => $bucket['paused_until'] - $now_ms,
			);
		}
		$need = 1 + self::reserve( $lane, $rate );
		// Float sums (0.1 + 0.2) must not refuse a token that is there.
		if ( $tokens + 1e-9 >= $need ) {
			$after['tokens'] = max( 0.0, $tokens - 1 );
			return array(
				'state'   => $after,
				'ok'      => true,
				'wait_ms' => 0,
			);
		}
		return array(
			'state'   => $after,
			'ok'      => false,
			'wait_ms' => (int) ceil( ( $need - $tokens ) / $rate * 1000 ),
		);
	}

	/**
	 * The service answered 429: every lane waits until its Retry-After has
	 * passed (at least 1 s, also when absent; at most MAX_PAUSE), and the
	 * bucket is emptied; a longer pause already set stays.
	 *
	 * @param mixed $state What was stored.
	 * @return array{tokens: float, at: int, paused_until: int}
	 */
	public static function pause( $state, ?int $retry_after, int $rate, int $now_ms ): array {
		$bucket  = self::normal( $state, $rate, $now_ms );
		$seconds = null === $retry_after || $retry_after < 1 ? 1 : min( self::MAX_PAUSE, $retry_after );
		return array(
			'tokens'       => 0.0,
			'at'           => max( $now_ms, $bucket['at'] ),
			'paused_until' => max( $bucket['paused_until'], $now_ms + $seconds * 1000 ),
		);
	}

	/** Whole seconds a refused request is told to wait (at least 1). */
	public static function retry_seconds( int $wait_ms ): int {
		return max( 1, (int) ceil( $wait_ms / 1000 ) );
	}

	/**
	 * Whether $lane carries a visitor's request (a buyer paying or starting
	 * to pay, what a page shows): its calls share the request's deadline
	 * (Base\Deadline_Transport; without a running clock it changes nothing). The
	 * owner's buttons and background work keep the client's own timeout.
	 */
	public static function for_visitors( string $lane ): bool {
		return in_array( $lane, array( self::PAYING, self::START, self::INFO ), true );
	}
}

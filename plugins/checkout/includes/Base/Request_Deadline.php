<?php
/**
 * The time a visitor's request may still spend on the service, for the
 * whole request: once a request that makes the store call the service for
 * a buyer starts its clock (Start_Budget::charge(), ::time_left()), every
 * partner API call it makes gets what remains as its timeout
 * (Deadline_Transport), and a call for which too little remains is not sent
 * at all. So a slow service costs the buyer one budget, never one budget a
 * call: with a service answering in 2.9 s, a second call gets the 0.6 s
 * left (or is skipped) and the buyer is told in plain words within 5 s.
 *
 * Work done after the buyer has the answer (the checks and refreshes after
 * the response) ends the clock first: nobody waits on it.
 *
 * One per request: Plugin::build() makes it and passes it to the service
 * gateway (its visitors' clients), the visitor budget and After_Answer.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Base;

defined( 'ABSPATH' ) || exit;

final class Request_Deadline {

	/** Seconds below which a call is not sent: it could not get an answer in that time. */
	const LEAST_CALL = 0.3;

	/**
	 * Seconds from the request's arrival by which its last call has ended,
	 * whatever its clock's start: a slow start of the request (a cold
	 * opcode cache, a busy database) comes out of the service's time, so
	 * the buyer still has the answer within 5 s.
	 */
	const REQUEST_LIMIT = 4.2;

	/** @var float|null When this request's time on the service ends (microtime), null: no clock. */
	private $until = null;

	/** @var bool Whether the last call ended in a timeout that the deadline made (shortened or not sent). */
	private $cut = false;

	/** Starts this request's clock ($seconds from now, at most REQUEST_LIMIT from its arrival), unless it already runs. */
	public function start( float $seconds ): void {
		if ( null !== $this->until ) {
			return;
		}
		$now         = microtime( true );
		$arrived     = $this->arrived( $now );
		$this->until = null === $arrived ? $now + $seconds : min( $now + $seconds, $arrived + self::REQUEST_LIMIT );
	}

	/** When the web server got this request (microtime); null from the command line, whose start is not a buyer's. */
	private function arrived( float $now ): ?float {
		if ( 'cli' === PHP_SAPI || ! isset( $_SERVER['REQUEST_TIME_FLOAT'] ) ) {
			return null;
		}
		$at = (float) $_SERVER['REQUEST_TIME_FLOAT'];
		return $at <= $now && $at > $now - 60 ? $at : null;
	}

	/** Seconds left (0 or more), or null when no clock runs (background work, the owner's pages). */
	public function remaining(): ?float {
		return null === $this->until ? null : max( 0.0, $this->until - microtime( true ) );
	}

	/** Whether a clock runs and too little remains for another call. */
	public function spent(): bool {
		$left = $this->remaining();
		return null !== $left && $left < self::LEAST_CALL;
	}

	/** The buyer has the answer: what this request still does waits on nobody. */
	public function end(): void {
		$this->until = null;
	}

	/** Deadline_Transport: whether the call now leaving ended in a timeout of the deadline's making. */
	public function mark_cut( bool $cut ): void {
		$this->cut = $cut;
	}

	/**
	 * Whether the last call's failure is this request's deadline, not news
	 * about the service: a timeout when the call was not sent or had less
	 * time than the client's own timeout. Such a failure says nothing about
	 * whether the service accepts the store.
	 */
	public function cut(): bool {
		return $this->cut;
	}
}

<?php
/**
 * Work done after this request's answer was sent, by one request at a
 * time across web servers: the service's health check and the refresh of
 * its last answers (price, countries) run here, so that no page waits on
 * the service (issue 33 point 2).
 *
 * - later(): runs the work once, on shutdown after every other callback,
 *   where the server can send the answer first (PHP-FPM, LiteSpeed);
 * - now(): the same, at once: under a database lock taken without waiting
 *   (Shared_Store->when_free(): another request holding it is doing the
 *   same work), the answer sent,
 *   the visitor request's service deadline ended, a failure logged, never shown.
 *
 * Built once in Plugin::build() (what it plans is this request's) and
 * passed to the services that work after the answer.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Base;

defined( 'ABSPATH' ) || exit;

final class After_Answer {

	/** @var array<string, true> Locks whose work this request already runs after its answer. */
	private $planned = array();

	/** @var Shared_Store */
	private $shared;

	/** @var Request_Deadline */
	private $deadline;

	public function __construct( Shared_Store $shared, Request_Deadline $deadline ) {
		$this->shared   = $shared;
		$this->deadline = $deadline;
	}

	/** Whether this request can send its answer and go on working (not WP-CLI, whose output is the answer). */
	public function possible(): bool {
		if ( defined( 'WP_CLI' ) && WP_CLI ) {
			return false;
		}
		return function_exists( 'fastcgi_finish_request' ) || function_exists( 'litespeed_finish_request' );
	}

	/**
	 * Runs $work after this request's answer (now() on shutdown, after every
	 * other shutdown callback: WooCommerce's session and Action Scheduler's
	 * dispatch come first), once per lock and request; false where the
	 * answer cannot be sent first (the caller queues the work instead).
	 *
	 * @param callable(): void $work
	 */
	public function later( string $lock, callable $work, string $what ): bool {
		if ( ! $this->possible() ) {
			return false;
		}
		if ( ! isset( $this->planned[ $lock ] ) ) {
			$this->planned[ $lock ] = true;
			add_action(
				'shutdown',
				function () use ( $lock, $work, $what ): void {
					unset( $this->planned[ $lock ] );
					$this->now( $lock, $work, $what );
				},
				PHP_INT_MAX
			);
		}
		return true;
	}

	/**
	 * Sends the answer, then runs $work under $lock; nothing when another
	 * request holds the lock. A failure is logged (debug) as "$what failed".
	 *
	 * @param callable(): void $work
	 */
	public function now( string $lock, callable $work, string $what ): void {
		$this->shared->when_free(
			$lock,
			function () use ( $work, $what ): void {
				if ( function_exists( 'fastcgi_finish_request' ) ) {
					fastcgi_finish_request();
				} elseif ( function_exists( 'litespeed_finish_request' ) ) {
					litespeed_finish_request();
				}
				// Nobody waits on what follows: the client's own timeout, not what remains of a visitor request's.
				$this->deadline->end();
				try {
					$work();
				} catch ( \Throwable $e ) {
					Log::debug( $what . ' failed: ' . $e->getMessage() );
				}
			}
		);
	}
}

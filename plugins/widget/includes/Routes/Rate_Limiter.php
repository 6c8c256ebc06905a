<?php
/**
 * A fixed-window request counter per client address, kept in transients
 * (the object cache when there is one), for the anonymous routes, and the
 * Route_Limit answers a client that asks too often with a 429.
 *
 * Two requests that race may both pass at the edge of the limit; that is
 * accepted: the aim is to stop a client from making the site sign in bulk,
 * not exact accounting.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Routes;

defined( 'ABSPATH' ) || exit;

final class Rate_Limiter {

	/** @var string */
	private $bucket;

	/** @var int */
	private $limit;

	/** @var int */
	private $window;

	/**
	 * @param string $bucket Name of what is counted (one counter per bucket and client).
	 * @param int    $limit  Requests allowed per window.
	 * @param int    $window Window length in seconds.
	 */
	public function __construct( string $bucket, int $limit, int $window ) {
		$this->bucket = $bucket;
		$this->limit  = max( 1, $limit );
		$this->window = max( 1, $window );
	}

	/**
	 * Counts one request of $client. Returns 0 when it is allowed, otherwise
	 * the seconds until the client may try again.
	 */
	public function hit( string $client, int $now ): int {
		$key   = 'c2c_rl_' . substr( hash( 'sha256', $this->bucket . '|' . $client ), 0, 32 );
		$entry = get_transient( $key );
		if ( ! is_array( $entry ) || ! isset( $entry['start'], $entry['count'] ) || $now - (int) $entry['start'] >= $this->window ) {
			$entry = array(
				'start' => $now,
				'count' => 0,
			);
		}
		if ( (int) $entry['count'] >= $this->limit ) {
			return max( 1, (int) $entry['start'] + $this->window - $now );
		}
		++$entry['count'];
		set_transient( $key, $entry, $this->window );
		return 0;
	}
}

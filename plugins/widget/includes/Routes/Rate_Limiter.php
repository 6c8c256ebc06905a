<?php
/**
 * A fixed-window request counter per client address, kept in transients
 * (the object cache when there is one), for the anonymous routes, and the
 * 429 refusal they answer when a client asks too often.
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
	 * Counts this request in $bucket ("sign" or "go") under the
	 * card2crypto_widget_rate_limit rule: null when it may go on, else the
	 * refusal (429, with the seconds to wait as retry_after).
	 */
	public static function refusal( string $bucket ): ?\WP_Error {
		/**
		 * Filters how many requests one client may make to a widget route per window.
		 *
		 * @since 0.1.0
		 *
		 * @param array{limit: int, window: int} $rule   Requests per window (seconds).
		 * @param string                         $bucket "sign" or "go".
		 */
		$rule = apply_filters(
			'card2crypto_widget_rate_limit',
			array(
				'limit'  => 30,
				'window' => 60,
			),
			$bucket
		);
		$wait = ( new self( $bucket, (int) $rule['limit'], (int) $rule['window'] ) )->hit( self::client_ip(), time() );
		if ( 0 === $wait ) {
			return null;
		}
		return new \WP_Error(
			'card2crypto_too_many_requests',
			__( 'Too many requests for the purchase widget. Please wait a moment and try again.', 'card2crypto-widget' ),
			array(
				'status'      => 429,
				'retry_after' => $wait,
			)
		);
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

	/**
	 * The address requests are counted by: REMOTE_ADDR, which a client
	 * cannot choose. Behind a reverse proxy every visitor shares the proxy's
	 * address; sites there can return the forwarded address through the
	 * card2crypto_widget_client_ip filter.
	 */
	public static function client_ip(): string {
		$ip = isset( $_SERVER['REMOTE_ADDR'] ) ? sanitize_text_field( wp_unslash( $_SERVER['REMOTE_ADDR'] ) ) : '';
		/**
		 * Filters the address the widget routes rate-limit by.
		 *
		 * @since 0.1.0
		 *
		 * @param string $ip REMOTE_ADDR.
		 */
		return (string) apply_filters( 'card2crypto_widget_client_ip', $ip );
	}
}

<?php
/**
 * The anonymous routes' limit per client address, under the
 * card2crypto_widget_rate_limit rule, counted on the shared database (the
 * shared Visitor_Budget on the widget's budgets table: every web server
 * counts alike, and requests arriving at once never pass more than the
 * limit), and the 429 refusal they answer when a client asks too often.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Routes;

use Card2Crypto\Widget\Shared\Budget\Visitor_Budget;
use Card2Crypto\Widget\Shared\Client\Client_Ip;

defined( 'ABSPATH' ) || exit;

final class Route_Limit {

	/** @var Visitor_Budget */
	private $budget;

	public function __construct( Visitor_Budget $budget ) {
		$this->budget = $budget;
	}

	/**
	 * Counts this request in $bucket ("sign" or "go") under the
	 * card2crypto_widget_rate_limit rule: null when it may go on, else the
	 * refusal (429, with the seconds to wait as retry_after). A refused
	 * request is not counted. A client is its address, an IPv6 address by
	 * its /64 (Visitor_Budget::client_key()).
	 */
	public function refusal( string $bucket ): ?\WP_Error {
		/**
		 * Filters how many requests one client may make to a widget route per window.
		 *
		 * @since 0.1.0
		 *
		 * @param array{limit: int, window: int} $rule   Requests per window (seconds).
		 * @param string                         $bucket "sign" or "go".
		 */
		$rule   = apply_filters(
			'card2crypto_widget_rate_limit',
			array(
				'limit'  => 30,
				'window' => 60,
			),
			$bucket
		);
		$limit  = max( 1, (int) ( $rule['limit'] ?? 30 ) );
		$window = max( 1, (int) ( $rule['window'] ?? 60 ) );
		try {
			$wait = $this->budget->take( 'route_' . $bucket . '|' . Visitor_Budget::client_key( $this->client_ip() ), $limit, $window, false );
		} catch ( \RuntimeException $e ) {
			// The budget's lock was held for its whole wait: the database is overwhelmed; this request is not the one to add to it.
			$wait = $window;
		}
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
	 * The address requests are counted by: the shared client-address rule
	 * (Client_Ip) with no forwarding header trusted, so REMOTE_ADDR, which a
	 * client cannot choose. Behind a reverse proxy every visitor shares the
	 * proxy's address; sites there can return the forwarded address through
	 * the card2crypto_widget_client_ip filter.
	 */
	private function client_ip(): string {
		// phpcs:ignore WordPress.Security.ValidatedSanitizedInput -- read, never output; only hashed into the budget's key.
		$ip = Client_Ip::of( '', wp_unslash( $_SERVER ) );
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

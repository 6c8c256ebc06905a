<?php
/**
 * The anonymous routes' limit per client address (Rate_Limiter's counter,
 * under the card2crypto_widget_rate_limit rule), and the 429 refusal they
 * answer when a client asks too often.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Routes;

use Card2Crypto\Widget\Shared\Client\Client_Ip;

defined( 'ABSPATH' ) || exit;

final class Route_Limit {

	/**
	 * Counts this request in $bucket ("sign" or "go") under the
	 * card2crypto_widget_rate_limit rule: null when it may go on, else the
	 * refusal (429, with the seconds to wait as retry_after).
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
		$rule = apply_filters(
			'card2crypto_widget_rate_limit',
			array(
				'limit'  => 30,
				'window' => 60,
			),
			$bucket
		);
		$wait = ( new Rate_Limiter( $bucket, (int) $rule['limit'], (int) $rule['window'] ) )->hit( $this->client_ip(), time() );
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
		// phpcs:ignore WordPress.Security.ValidatedSanitizedInput -- read, never output; only hashed into the counter's key.
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

<?php
/**
 * Http_Transport on WordPress's HTTP API, so proxies, SSL settings and
 * filters configured for the site apply.
 *
 * Requests go through wp_safe_remote_post(): the partner API address is a
 * setting a shop manager can change, and an address inside the server's
 * network (127.0.0.0/8, 10/8, 172.16/12, 192.168/16, or a port other than
 * 80, 443 and 8080) must not turn the plugin into a request forger. The
 * sandbox environment talks to the local sandbox, so there (and only there)
 * one loopback address is let through: the host and port of the sandbox
 * environment's own API address, nothing else on this computer; private
 * networks stay refused. A connection that fails is told in the same words
 * whatever the cause (refused, reset, no route, TLS), so an order note or a
 * settings error cannot tell a closed port from another failure
 * (decisions.md, "Partner API address: safe requests").
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Api;

final class Wp_Http_Transport implements Http_Transport {

	/** What every failed connection is reported as (a timeout keeps its own kind). */
	const UNREACHABLE = 'the partner API address could not be reached';

	/** @var bool Any loopback host and port (tests only). */
	private $any_loopback;

	/** @var string|null "host:port" of the one loopback origin allowed, lower case; null: none. */
	private $loopback_origin;

	/**
	 * @param bool|string $loopback false: no loopback address (production's rules). A URL: on this computer,
	 *                              only that URL's host and port (the sandbox environment's API address).
	 *                              true: any loopback host and port (the test probe's fake services).
	 */
	public function __construct( $loopback = false ) {
		$this->any_loopback    = true === $loopback;
		$this->loopback_origin = is_string( $loopback ) ? self::origin( $loopback ) : null;
	}

	/** "host:port" of a URL (the scheme's port when none is written), lower case; null when it has no host. */
	private static function origin( string $url ): ?string {
		$parts = wp_parse_url( $url );
		if ( ! is_array( $parts ) || empty( $parts['host'] ) ) {
			return null;
		}
		$port = isset( $parts['port'] ) ? (int) $parts['port'] : ( 'https' === strtolower( (string) ( $parts['scheme'] ?? '' ) ) ? 443 : 80 );
		return strtolower( trim( (string) $parts['host'], '.' ) ) . ':' . $port;
	}

	/** Whether a request to $url may reach this computer: a loopback host, and the allowed origin (or any, in tests). */
	private function loopback_allowed( string $host, string $url ): bool {
		if ( ! self::is_loopback( $host ) ) {
			return false;
		}
		return $this->any_loopback || ( null !== $this->loopback_origin && self::origin( $url ) === $this->loopback_origin );
	}

	public function post( string $url, string $body, array $headers, float $timeout_seconds ): Http_Response {
		$host_filter = function ( $external, $host, $request_url = '' ) use ( $url ) {
			return $external || $this->loopback_allowed( (string) $host, '' !== (string) $request_url ? (string) $request_url : $url );
		};
		$port_filter = function ( $ports, $host, $filtered_url ) {
			$port = wp_parse_url( (string) $filtered_url, PHP_URL_PORT );
			if ( is_array( $ports ) && is_int( $port ) && $this->loopback_allowed( (string) $host, (string) $filtered_url ) ) {
				$ports[] = $port;
			}
			return $ports;
		};
		$allows_loopback = $this->any_loopback || null !== $this->loopback_origin;
		if ( $allows_loopback ) {
			add_filter( 'http_request_host_is_external', $host_filter, 10, 3 );
			add_filter( 'http_allowed_safe_ports', $port_filter, 10, 3 );
		}
		try {
			// The same check wp_safe_remote_post() makes, first, to say why in words.
			if ( false === wp_http_validate_url( $url ) ) {
				throw new Transport_Exception(
					Transport_Exception::NETWORK,
					$allows_loopback
						? 'the partner API address is refused: WordPress sends no request to a private network address, or to a port other than 80, 443 or 8080, and on this computer only to the sandbox environment\'s own API address'
						: 'the partner API address is refused: WordPress sends no request to a local or private network address, or to a port other than 80, 443 or 8080'
				);
			}
			$response = wp_safe_remote_post(
				$url,
				array(
					'body'        => $body,
					'headers'     => $headers,
					'timeout'     => $timeout_seconds,
					'redirection' => 0,
					'httpversion' => '1.1',
					'blocking'    => true,
					'data_format' => 'body',
				)
			);
		} finally {
			remove_filter( 'http_request_host_is_external', $host_filter, 10 );
			remove_filter( 'http_allowed_safe_ports', $port_filter, 10 );
		}
		if ( is_wp_error( $response ) ) {
			// WordPress reports both as http_request_failed; the text says which (cURL error 28, "timed out").
			if ( 1 === preg_match( '/timed? ?out|cURL error 28/i', $response->get_error_message() ) ) {
				throw new Transport_Exception( Transport_Exception::TIMEOUT, 'no complete answer in time' );
			}
			// Refused, reset, no route, a TLS failure: one wording, so that no note tells a closed port from an open one.
			throw new Transport_Exception( Transport_Exception::NETWORK, self::UNREACHABLE );
		}
		$headers = array();
		foreach ( wp_remote_retrieve_headers( $response ) as $name => $value ) {
			$headers[ strtolower( (string) $name ) ] = is_array( $value ) ? implode( ', ', $value ) : (string) $value;
		}
		return new Http_Response( (int) wp_remote_retrieve_response_code( $response ), (string) wp_remote_retrieve_body( $response ), $headers );
	}

	/** localhost, an IPv4 loopback literal, or a name resolving to one. */
	private static function is_loopback( string $host ): bool {
		$host = strtolower( trim( $host, '.' ) );
		if ( 'localhost' === $host ) {
			return true;
		}
		$ip = 1 === preg_match( '/^\d{1,3}(\.\d{1,3}){3}$/D', $host ) ? $host : gethostbyname( $host );
		return 1 === preg_match( '/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/D', $ip );
	}
}

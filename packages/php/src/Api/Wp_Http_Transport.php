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
 * a loopback address with any port is let through; private networks stay
 * refused (decisions.md, "Partner API address: safe requests").
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Api;

final class Wp_Http_Transport implements Http_Transport {

	/** @var bool */
	private $allow_loopback;

	/** @param bool $allow_loopback True in the sandbox environment: 127.0.0.0/8 and localhost, any port. */
	public function __construct( bool $allow_loopback = false ) {
		$this->allow_loopback = $allow_loopback;
	}

	public function post( string $url, string $body, array $headers, float $timeout_seconds ): Http_Response {
		$host_filter = function ( $external, $host ) {
			return $external || self::is_loopback( (string) $host );
		};
		$port_filter = function ( $ports, $host, $filtered_url ) {
			$port = wp_parse_url( (string) $filtered_url, PHP_URL_PORT );
			if ( is_array( $ports ) && is_int( $port ) && self::is_loopback( (string) $host ) ) {
				$ports[] = $port;
			}
			return $ports;
		};
		if ( $this->allow_loopback ) {
			add_filter( 'http_request_host_is_external', $host_filter, 10, 2 );
			add_filter( 'http_allowed_safe_ports', $port_filter, 10, 3 );
		}
		try {
			// The same check wp_safe_remote_post() makes, first, to say why in words.
			if ( false === wp_http_validate_url( $url ) ) {
				throw new Transport_Exception(
					Transport_Exception::NETWORK,
					$this->allow_loopback
						? 'the partner API address is refused: WordPress sends no request to a private network address, or to a port other than 80, 443 or 8080 except on this computer (127.0.0.1, localhost)'
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
			$message = $response->get_error_message();
			// WordPress reports both as http_request_failed; the text says which (cURL error 28, "timed out").
			$kind = 1 === preg_match( '/timed? ?out|cURL error 28/i', $message ) ? Transport_Exception::TIMEOUT : Transport_Exception::NETWORK;
			throw new Transport_Exception( $kind, $message );
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

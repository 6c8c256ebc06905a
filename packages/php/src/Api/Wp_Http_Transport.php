<?php
/**
 * Http_Transport on WordPress's HTTP API (wp_remote_post), so proxies, SSL
 * settings and filters configured for the site apply.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Api;

final class Wp_Http_Transport implements Http_Transport {

	public function post( string $url, string $body, array $headers, float $timeout_seconds ): Http_Response {
		$response = wp_remote_post(
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
}

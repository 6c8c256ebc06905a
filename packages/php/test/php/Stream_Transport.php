<?php
/**
 * Test-only Http_Transport on PHP's http:// stream wrapper, to exercise the
 * client against a real HTTP server without WordPress (the plugins use
 * Wp_Http_Transport; that one is exercised inside WordPress).
 */

use Card2Crypto\Shared\Api\Http_Response;
use Card2Crypto\Shared\Api\Http_Transport;
use Card2Crypto\Shared\Api\Transport_Exception;

final class Stream_Transport implements Http_Transport {

	/** @var array<int, array{url: string, body: string}> Every request sent, for the test to inspect. */
	public $sent = array();

	public function post( string $url, string $body, array $headers, float $timeout_seconds ): Http_Response {
		$this->sent[] = array(
			'url'  => $url,
			'body' => $body,
		);
		$lines = '';
		foreach ( $headers as $name => $value ) {
			$lines .= $name . ': ' . $value . "\r\n";
		}
		$context = stream_context_create(
			array(
				'http' => array(
					'method'          => 'POST',
					'header'          => $lines,
					'content'         => $body,
					'timeout'         => $timeout_seconds,
					'ignore_errors'   => true,
					'follow_location' => 0,
				),
			)
		);
		$started = microtime( true );
		// Before PHP 8.4 the response headers land in a magic local variable,
		// which PHP writes only into a function's symbol table once one exists:
		// get_defined_vars() builds it (8.5 deprecates naming the variable).
		get_defined_vars();
		$text = @file_get_contents( $url, false, $context );
		if ( false === $text ) {
			$error = error_get_last();
			$kind  = microtime( true ) - $started >= $timeout_seconds * 0.9 ? Transport_Exception::TIMEOUT : Transport_Exception::NETWORK;
			throw new Transport_Exception( $kind, $error ? $error['message'] : 'request failed' );
		}
		$status  = 0;
		$headers = array();
		// PHP 8.4 adds http_get_last_response_headers(); 8.5 deprecates the magic variable.
		$response_headers = function_exists( 'http_get_last_response_headers' ) ? http_get_last_response_headers() : get_defined_vars()[ 'http_response' . '_header' ];
		foreach ( (array) $response_headers as $line ) {
			if ( 1 === preg_match( '#^HTTP/\S+\s+(\d{3})#', $line, $m ) ) {
				$status  = (int) $m[1];
				$headers = array();
			} elseif ( false !== strpos( $line, ':' ) ) {
				list( $name, $value )               = explode( ':', $line, 2 );
				$headers[ strtolower( $name ) ] = trim( $value );
			}
		}
		return new Http_Response( $status, $text, $headers );
	}
}

<?php
/**
 * An HTTP answer: status, body text and headers (names in lower case).
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Api;

final class Http_Response {

	/** @var int */
	public $status;

	/** @var string */
	public $body;

	/** @var array<string, string> */
	public $headers;

	/** @param array<string, string> $headers */
	public function __construct( int $status, string $body, array $headers = array() ) {
		$this->status  = $status;
		$this->body    = $body;
		$this->headers = array_change_key_case( $headers, CASE_LOWER );
	}

	public function header( string $name ): ?string {
		$name = strtolower( $name );
		return isset( $this->headers[ $name ] ) ? $this->headers[ $name ] : null;
	}
}

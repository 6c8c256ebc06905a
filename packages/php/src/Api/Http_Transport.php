<?php
/**
 * How the partner API client sends a request. The plugins use
 * Wp_Http_Transport (wp_safe_remote_post); the interface keeps the client's
 * signing and checking independent of WordPress.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Api;

interface Http_Transport {

	/**
	 * POSTs $body and returns the answer, whatever its status. Redirects are
	 * not followed (a replayed signed POST must not go elsewhere).
	 *
	 * @param array<string, string> $headers
	 * @throws Transport_Exception When no complete answer arrived (network error or timeout).
	 */
	public function post( string $url, string $body, array $headers, float $timeout_seconds ): Http_Response;
}

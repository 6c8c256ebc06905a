<?php
/**
 * The transport of a client of the service gateway: each request of one
 * lane first takes a token of the store-wide bucket (the service gateway's admit());
 * without one nothing is sent and the answer is the service's own way of
 * saying "later", a 429 with Retry-After and the error code
 * store_rate_limit, so every caller's handling of a 429 applies (a buyer is
 * told to try again, background work is queued again, a callback is
 * answered 500 and sent again). A 429 of the service pauses the whole store
 * until its Retry-After (the gateway's pause()).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Partner;

use Card2Crypto\Checkout\Shared\Api\Http_Response;
use Card2Crypto\Checkout\Shared\Api\Http_Transport;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Client;

defined( 'ABSPATH' ) || exit;

final class Lane_Transport implements Http_Transport {

	/** The error code of a request the store kept back (never the service's). */
	const KEPT_BACK = 'store_rate_limit';

	/** What such an answer says (the client's error and log line carry it). */
	const KEPT_BACK_TEXT = 'not sent: the store\'s requests a second to the service are used up, or it was asked to wait';

	/** @var Http_Transport */
	private $inner;

	/** @var callable(): (int|null) Takes this lane's token: null when the request may leave, else seconds to wait. */
	private $admit;

	/** @var callable(int|null): void Pauses the whole store for a 429's Retry-After. */
	private $pause;

	public function __construct( Http_Transport $inner, callable $admit, callable $pause ) {
		$this->inner = $inner;
		$this->admit = $admit;
		$this->pause = $pause;
	}

	public function post( string $url, string $body, array $headers, float $timeout_seconds ): Http_Response {
		$wait = ( $this->admit )();
		if ( null !== $wait ) {
			return new Http_Response(
				429,
				(string) wp_json_encode(
					array(
						'error' => array(
							'code'    => self::KEPT_BACK,
							'message' => sprintf( '%s (%d s)', self::KEPT_BACK_TEXT, $wait ),
						),
					)
				),
				array(
					'content-type' => 'application/json',
					'retry-after'  => (string) $wait,
				)
			);
		}
		$response = $this->inner->post( $url, $body, $headers, $timeout_seconds );
		if ( 429 === $response->status ) {
			( $this->pause )( Partner_Api_Client::parse_retry_after( $response->header( 'retry-after' ), time() ) );
		}
		return $response;
	}
}

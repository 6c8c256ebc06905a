<?php
/**
 * A transport that waits its turn before each request: reconciliation's
 * client sends through it, so every partner API call a check makes (it may
 * ask about several operations) counts toward the background rate.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Service;

use Card2Crypto\Checkout\Shared\Api\Http_Response;
use Card2Crypto\Checkout\Shared\Api\Http_Transport;

defined( 'ABSPATH' ) || exit;

final class Paced_Transport implements Http_Transport {

	/** @var Http_Transport */
	private $inner;

	/** @var callable(): void Waits until the next request may leave, and counts it. */
	private $turn;

	public function __construct( Http_Transport $inner, callable $turn ) {
		$this->inner = $inner;
		$this->turn  = $turn;
	}

	public function post( string $url, string $body, array $headers, float $timeout_seconds ): Http_Response {
		( $this->turn )();
		return $this->inner->post( $url, $body, $headers, $timeout_seconds );
	}
}

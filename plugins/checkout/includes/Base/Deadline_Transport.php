<?php
/**
 * The service client's transport under this request's deadline
 * (Request_Deadline): each call's timeout is the client's own or what
 * remains of the request's time on the service, whichever is shorter, and a
 * call for which too little remains is not sent (a timeout, said so).
 * Without a running clock (background work, the owner's pages) the client's
 * own timeout applies.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Base;

use Card2Crypto\Checkout\Shared\Api\Http_Response;
use Card2Crypto\Checkout\Shared\Api\Http_Transport;
use Card2Crypto\Checkout\Shared\Api\Transport_Exception;

defined( 'ABSPATH' ) || exit;

final class Deadline_Transport implements Http_Transport {

	/** @var Http_Transport */
	private $inner;

	/** @var Request_Deadline */
	private $deadline;

	public function __construct( Http_Transport $inner, Request_Deadline $deadline ) {
		$this->inner    = $inner;
		$this->deadline = $deadline;
	}

	public function post( string $url, string $body, array $headers, float $timeout_seconds ): Http_Response {
		$this->deadline->mark_cut( false );
		$left = $this->deadline->remaining();
		if ( null === $left ) {
			return $this->inner->post( $url, $body, $headers, $timeout_seconds );
		}
		if ( $left < Request_Deadline::LEAST_CALL ) {
			$this->deadline->mark_cut( true );
			throw new Transport_Exception( Transport_Exception::TIMEOUT, 'not sent: this request has spent its time on the service' );
		}
		$timeout = min( $timeout_seconds, $left );
		try {
			return $this->inner->post( $url, $body, $headers, $timeout );
		} catch ( Transport_Exception $e ) {
			$this->deadline->mark_cut( Transport_Exception::TIMEOUT === $e->kind && $timeout < $timeout_seconds );
			throw $e;
		}
	}
}

<?php
/**
 * No complete answer: a network failure or a timeout.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Api;

final class Transport_Exception extends \RuntimeException {

	const NETWORK = 'network';
	const TIMEOUT = 'timeout';

	/** @var string */
	public $kind;

	public function __construct( string $kind, string $message ) {
		parent::__construct( $message );
		$this->kind = $kind;
	}
}

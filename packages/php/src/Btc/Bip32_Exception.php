<?php
/**
 * Why a wallet key or descriptor was refused: reason() for programs (the same
 * codes as core's WalletKeyError), getMessage() for the person who pasted it.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Btc;

final class Bip32_Exception extends \RuntimeException {

	/** @var string */
	private $reason;

	public function __construct( string $reason, string $message ) {
		parent::__construct( $message );
		$this->reason = $reason;
	}

	/** 'empty', 'checksum', 'private_key', 'wrong_network', 'hardened_after_key', 'no_math', …. */
	public function reason(): string {
		return $this->reason;
	}
}

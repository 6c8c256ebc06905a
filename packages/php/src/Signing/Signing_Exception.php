<?php
/**
 * Thrown when a value cannot be signed. path() is the flattened member name
 * (":"-joined) of the offending value, "" for the object itself.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Signing;

final class Signing_Exception extends \InvalidArgumentException {

	/** @var string */
	private $path;

	public function __construct( string $path, string $message ) {
		parent::__construct( '' === $path ? $message : 'member "' . $path . '": ' . $message );
		$this->path = $path;
	}

	public function path(): string {
		return $this->path;
	}
}

<?php
/**
 * Thrown by Lossless_Json when a text is not valid JSON, or a value cannot be written as JSON.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Json;

final class Json_Exception extends \InvalidArgumentException {

	/** @var int Byte offset of the problem in the text, or -1 when not parsing. */
	private $position;

	public function __construct( string $message, int $position = -1 ) {
		parent::__construct( $position >= 0 ? $message . ' at byte ' . $position : $message );
		$this->position = $position;
	}

	public function position(): int {
		return $this->position;
	}
}

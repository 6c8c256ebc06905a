<?php
/**
 * Internal: the first member a Shape check found at fault.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Api;

final class Shape_Error extends \Exception {

	/** @var string Dotted path of the member, e.g. "operation_data.status_code". */
	public $field;

	public function __construct( string $field, string $message ) {
		parent::__construct( $message );
		$this->field = $field;
	}
}

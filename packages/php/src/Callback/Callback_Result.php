<?php
/**
 * The outcome of Callback_Verifier, and the HTTP answer it calls for.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Callback;

use Card2Crypto\Shared\Api\Operation;

final class Callback_Result {

	/** No body at all (or only whitespace): 400. */
	const EMPTY_BODY = 'empty';
	/** Not UTF-8, not JSON, not a JSON object: 400. */
	const UNPARSEABLE = 'unparseable';
	/** Correctly signed, but operation_data is missing or mistyped: 400. */
	const INVALID = 'invalid';
	/** Correctly signed, but its canonical string could stand for another body (Callback_Verifier::ambiguity()): 400; never acted on. */
	const AMBIGUOUS = 'ambiguous';
	/** Signature missing, malformed or not matching: 401 "Wrong signature"; nothing may change. */
	const SIGNATURE = 'signature';

	/** @var bool */
	public $ok;

	/** @var string|null One of the constants; null when ok. */
	public $reason;

	/** @var string One sentence; never contains the secret. */
	public $message;

	/** @var string|null For INVALID and AMBIGUOUS: the member at fault, e.g. "operation_data.status_code". */
	public $field;

	/** @var Operation|null The verified operation when ok. */
	public $operation;

	/** @var array<string, mixed>|null The whole body as received (Lossless_Json), when ok. */
	public $raw;

	private function __construct() {
	}

	public static function success( Operation $operation, array $raw ): self {
		$result            = new self();
		$result->ok        = true;
		$result->message   = '';
		$result->operation = $operation;
		$result->raw       = $raw;
		return $result;
	}

	public static function failure( string $reason, string $message, ?string $field = null ): self {
		$result          = new self();
		$result->ok      = false;
		$result->reason  = $reason;
		$result->message = $message;
		$result->field   = $field;
		return $result;
	}

	/**
	 * The HTTP answer (decisions.md, "Callback with a bad signature; callbacks
	 * not taken in"): 200 on receipt and for a duplicate; 400 when it could
	 * not be processed; 401 "Wrong signature"; 500 when a genuine callback was
	 * not taken in ($not_received), so that the service sends it again.
	 *
	 * @return array{status: int, content_type: string, body: string}
	 */
	public function http_response( bool $duplicate = false, bool $not_received = false ): array {
		if ( $this->ok ) {
			if ( $not_received ) {
				return self::answer( 500, 'Callback not received; please send it again' );
			}
			return self::answer( 200, $duplicate ? 'OK (already received)' : 'OK' );
		}
		if ( self::SIGNATURE === $this->reason ) {
			return self::answer( 401, 'Wrong signature' );
		}
		return self::answer( 400, 'Callback could not be processed: ' . $this->message );
	}

	private static function answer( int $status, string $body ): array {
		return array(
			'status'       => $status,
			'content_type' => 'text/plain; charset=utf-8',
			'body'         => $body,
		);
	}
}

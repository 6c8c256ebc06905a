<?php
/**
 * The outcome of Signer::verify(): ok, or why not.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Signing;

final class Verify_Result {

	/** No usable signature member. */
	const MISSING = 'missing';
	/** Not a JSON object, bad hex, a value that cannot be signed. */
	const MALFORMED = 'malformed';
	/** Wrong signature. */
	const MISMATCH = 'mismatch';

	/** @var bool */
	public $ok;

	/** @var string|null One of the constants above; null when ok. */
	public $reason;

	/** @var string One sentence naming what is wrong ("" when ok); never contains the secret. */
	public $message;

	/** @var string|null The matching canonical string; on mismatch the one checked first. */
	public $canonical;

	/** @var string|null Number reading that matched (raw or js). */
	public $numbers;

	/** @var string|null Null reading that matched (empty or omit). */
	public $nulls;

	private function __construct() {
	}

	public static function success( string $canonical, string $numbers, string $nulls ): self {
		$result            = new self();
		$result->ok        = true;
		$result->reason    = null;
		$result->message   = '';
		$result->canonical = $canonical;
		$result->numbers   = $numbers;
		$result->nulls     = $nulls;
		return $result;
	}

	public static function failure( string $reason, string $message, ?string $canonical = null ): self {
		$result            = new self();
		$result->ok        = false;
		$result->reason    = $reason;
		$result->message   = $message;
		$result->canonical = $canonical;
		return $result;
	}
}

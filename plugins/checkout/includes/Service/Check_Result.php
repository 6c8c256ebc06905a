<?php
/**
 * What Reconciler::check() found out about an attempt: the service's answer
 * applied (ok, with the latest operation and the outcome of applying it), or
 * why not: the service has no operation for the attempt yet (UNKNOWN), or it
 * could not be asked (UNREACHABLE; with retry_after when it asked to slow
 * down, with clock when it refused this server's timestamps). message says
 * it in words for the owner's notes. A read value.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Service;

use Card2Crypto\Checkout\Shared\Api\Operation;

defined( 'ABSPATH' ) || exit;

final class Check_Result implements \JsonSerializable {

	/** The service has no operation for the attempt yet: the buyer has not started paying. */
	const UNKNOWN = 'unknown';
	/** The service could not be asked, or its answer not used. */
	const UNREACHABLE = 'unreachable';

	/** @var bool */
	private $ok;
	/** @var string|null UNKNOWN or UNREACHABLE when not ok. */
	private $reason;
	/** @var string|null Operation_Events::process()'s outcome when ok. */
	private $outcome;
	/** @var Operation|null The latest operation when ok. */
	private $operation;
	/** @var string */
	private $message;
	/** @var int|null Seconds to wait when the service answered 429 (Reconcile_Pace::retry_wait()). */
	private $retry_after;
	/** @var bool The service refused this server's timestamps. */
	private $clock;

	private function __construct( bool $ok, ?string $reason, ?string $outcome, ?Operation $operation, string $message, ?int $retry_after = null, bool $clock = false ) {
		$this->ok          = $ok;
		$this->reason      = $reason;
		$this->outcome     = $outcome;
		$this->operation   = $operation;
		$this->message     = $message;
		$this->retry_after = $retry_after;
		$this->clock       = $clock;
	}

	/** The service answered about the attempt and the answer was applied. */
	public static function answered( string $outcome, Operation $operation, string $message ): self {
		return new self( true, null, $outcome, $operation, $message );
	}

	/** The service names the attempt's own id as unknown. */
	public static function unknown( string $message ): self {
		return new self( false, self::UNKNOWN, null, null, $message );
	}

	/** The service could not be asked, or its answer not used. */
	public static function unreachable( string $message ): self {
		return new self( false, self::UNREACHABLE, null, null, $message );
	}

	/** The service asked to slow down (429): not asked; ask again in $retry_after seconds. */
	public static function slowed( string $message, int $retry_after ): self {
		return new self( false, self::UNREACHABLE, null, null, $message, $retry_after );
	}

	/** The service refused this server's timestamps: not news about the payment. */
	public static function clock_refused( string $message ): self {
		return new self( false, self::UNREACHABLE, null, null, $message, null, true );
	}

	/** A check that could not even be made (an answer that could not be applied), with no reason to give. */
	public static function failed( string $message ): self {
		return new self( false, null, null, null, $message );
	}

	public function ok(): bool {
		return $this->ok;
	}

	/** UNKNOWN or UNREACHABLE when not ok (null when ok, or for failed()). */
	public function reason(): ?string {
		return $this->reason;
	}

	public function is_unknown(): bool {
		return self::UNKNOWN === $this->reason;
	}

	public function outcome(): ?string {
		return $this->outcome;
	}

	/** The latest operation, when ok. */
	public function operation(): ?Operation {
		return $this->operation;
	}

	public function message(): string {
		return $this->message;
	}

	public function retry_after(): ?int {
		return $this->retry_after;
	}

	public function clock(): bool {
		return $this->clock;
	}

	/**
	 * The fields that apply, as the check's array had them (for test probes that print a result).
	 *
	 * @return array<string, mixed>
	 */
	public function jsonSerialize(): array {
		$fields = array( 'ok' => $this->ok );
		if ( null !== $this->reason ) {
			$fields['reason'] = $this->reason;
		}
		if ( $this->clock ) {
			$fields['clock'] = true;
		}
		if ( null !== $this->outcome ) {
			$fields['outcome'] = $this->outcome;
		}
		if ( null !== $this->operation ) {
			$fields['operation'] = $this->operation;
		}
		$fields['message'] = $this->message;
		if ( null !== $this->retry_after ) {
			$fields['retry_after'] = $this->retry_after;
		}
		return $fields;
	}
}

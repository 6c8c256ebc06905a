<?php
/**
 * What Order_Decision::decide() says one verified operation event does: the
 * outcome recorded with the event, whether the operation moves to the
 * event's pair, what happens to the order, and the named reason that
 * Order_Actions performs and Order_Words words. A read value; pure.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Decision {

	/** Reasons: which note, which action. */
	const CONFLICT                 = 'conflict';
	const UNKNOWN_PAIR             = 'unknown_pair';
	const IGNORED                  = 'ignored';
	const EARLIER_ATTEMPT_DECLINED = 'earlier_attempt_declined';
	const DECLINED_OTHER_LIVE      = 'declined_other_live';
	const DECLINED_MAY_RETRY       = 'declined_may_retry';
	const DECLINED_AFTER_PAID      = 'declined_after_paid';
	const DECLINED                 = 'declined';
	const MISMATCH                 = 'mismatch';
	const PAID_TWICE               = 'paid_twice';
	const ALREADY_PAID             = 'already_paid';
	const INCOMPLETE               = 'incomplete';
	const COMPLETE                 = 'complete';
	const AWAIT_CONFIRMATION       = 'await_confirmation';
	const CONFIRM                  = 'confirm';
	const RETRIED                  = 'retried';
	const PROGRESS                 = 'progress';

	/** Why confirmation waits for the owner (why()). */
	const WHY_AUTO_CONFIRM_OFF = 'auto_confirm_off';

	/** @var string Order_Decision::APPLIED, IGNORED or REVIEW. */
	private $outcome;
	/** @var bool Move the operation to the event's pair. */
	private $advance;
	/** @var string Order_Decision::ORDER_*. */
	private $order;
	/** @var string One of the reasons above. */
	private $reason;
	/** @var bool E-mail the owner. */
	private $notify;
	/** @var bool Mark the attempt as not matching for good. */
	private $flag_mismatch;
	/** @var string */
	private $why;
	/** @var string[] */
	private $problems;
	/** @var string[] */
	private $missing;

	/**
	 * @param string[] $problems What does not match (reason MISMATCH).
	 * @param string[] $missing  What the operation did not say (reasons INCOMPLETE, AWAIT_CONFIRMATION).
	 */
	public function __construct( string $outcome, bool $advance, string $order, string $reason, bool $notify = false, bool $flag_mismatch = false, string $why = '', array $problems = array(), array $missing = array() ) {
		$this->outcome       = $outcome;
		$this->advance       = $advance;
		$this->order         = $order;
		$this->reason        = $reason;
		$this->notify        = $notify;
		$this->flag_mismatch = $flag_mismatch;
		$this->why           = $why;
		$this->problems      = array_values( $problems );
		$this->missing       = array_values( $missing );
	}

	/**
	 * A decision from its fields as to_array() gives them (missing ones take
	 * their defaults): the words' table tests give decisions this way.
	 *
	 * @param array<string, mixed> $fields
	 */
	public static function from_array( array $fields ): self {
		return new self(
			(string) ( $fields['outcome'] ?? '' ),
			(bool) ( $fields['advance'] ?? false ),
			(string) ( $fields['order'] ?? '' ),
			(string) ( $fields['reason'] ?? '' ),
			(bool) ( $fields['notify'] ?? false ),
			(bool) ( $fields['flag_mismatch'] ?? false ),
			(string) ( $fields['why'] ?? '' ),
			(array) ( $fields['problems'] ?? array() ),
			(array) ( $fields['missing'] ?? array() )
		);
	}

	public function outcome(): string {
		return $this->outcome;
	}

	public function advance(): bool {
		return $this->advance;
	}

	/** What to do to the order (Order_Decision::ORDER_*). */
	public function order(): string {
		return $this->order;
	}

	public function reason(): string {
		return $this->reason;
	}

	public function is( string $reason ): bool {
		return $reason === $this->reason;
	}

	public function notify(): bool {
		return $this->notify;
	}

	public function flag_mismatch(): bool {
		return $this->flag_mismatch;
	}

	public function why(): string {
		return $this->why;
	}

	/** @return string[] */
	public function problems(): array {
		return $this->problems;
	}

	/** @return string[] */
	public function missing(): array {
		return $this->missing;
	}

	/**
	 * @return array{outcome: string, advance: bool, order: string, reason: string, notify: bool, flag_mismatch: bool, why: string, problems: string[], missing: string[]}
	 */
	public function to_array(): array {
		return array(
			'outcome'       => $this->outcome,
			'advance'       => $this->advance,
			'order'         => $this->order,
			'reason'        => $this->reason,
			'notify'        => $this->notify,
			'flag_mismatch' => $this->flag_mismatch,
			'why'           => $this->why,
			'problems'      => $this->problems,
			'missing'       => $this->missing,
		);
	}
}

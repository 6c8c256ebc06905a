<?php
/**
 * The operation status model of docs/decisions.md ("Status / status_code
 * pairing and sequence", "Status precedence"): the PHP mirror of
 * @card2crypto/core's OPERATION_FLOW, classify() and decideTransition().
 *
 * Parity with core is proven by test/vectors/status-transitions.json, which is
 * generated from core and checked on both sides.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Status_Flow {

	/** status_code of an attempt the service has not reported on yet. */
	const NO_CODE = -1;

	const PHASE_IN_PROGRESS  = 'in_progress';
	const PHASE_NEEDS_ACTION = 'needs_partner_action';
	const PHASE_SUCCEEDED    = 'succeeded';
	const PHASE_FAILED       = 'failed';
	const PHASE_UNKNOWN      = 'unknown';

	/**
	 * Every valid pair keyed by status_code: [status, phase, final, rank, reason, meaning].
	 * Ranks: 1 < 2 < 3 < 8 < 9 < 4 < 7 < 6 < 0, declined codes level with 0.
	 */
	const FLOW = array(
		1   => array( 'pending', 'in_progress', false, 1, null, 'Created; operation has just been created.' ),
		2   => array( 'pending', 'in_progress', false, 2, null, 'Money received from the user.' ),
		3   => array( 'pending', 'in_progress', false, 3, null, 'User verified.' ),
		8   => array( 'awaiting confirm', 'needs_partner_action', false, 4, null, 'Waiting for partner confirmation.' ),
		9   => array( 'pending', 'in_progress', false, 5, null, 'Verified by partner.' ),
		4   => array( 'pending', 'in_progress', false, 6, null, 'Order executed on the exchange.' ),
		7   => array( 'pending', 'in_progress', false, 7, null, 'Withdrawal request created.' ),
		6   => array( 'success', 'succeeded', false, 8, null, 'Withdrawal transaction created.' ),
		0   => array( 'success', 'succeeded', true, 9, null, 'Complete; withdrawal transaction completed.' ),
		101 => array( 'declined', 'failed', true, 9, 'payment_refused', 'Payment refused.' ),
		102 => array( 'declined', 'failed', true, 9, 'user_opt_out', 'User opt-out, declined by the customer (causes: timeout, payment not finalised, user navigated back); card data did not reach the payment processor.' ),
		103 => array( 'declined', 'failed', true, 9, 'user_failed_verification', 'User failed verification.' ),
		104 => array( 'declined', 'failed', true, 9, 'card_failed_verification', "User's bank card failed verification." ),
		105 => array( 'declined', 'failed', true, 9, 'rate_expired', 'Rate hold time expired.' ),
		106 => array( 'declined', 'failed', true, 9, 'cancelled_by_partner', 'Cancelled by the partner.' ),
	);

	/** Meaning of each status value, as the spec words it. */
	const STATUS_MEANINGS = array(
		'success'          => 'Blockchain transaction was created.',
		'pending'          => "Funds were debited from the client's card.",
		'declined'         => 'Cancellation.',
		'awaiting confirm' => 'Pending partner confirmation.',
	);

	/**
	 * The table row of a pair, or null when the pair is not in the flow.
	 *
	 * @param mixed $status
	 * @param mixed $code
	 * @return array{status: string, status_code: int, phase: string, final: bool, rank: int, reason: ?string, meaning: string}|null
	 */
	public static function find_step( $status, $code ): ?array {
		if ( ! is_int( $code ) || ! isset( self::FLOW[ $code ] ) || self::FLOW[ $code ][0] !== $status ) {
			return null;
		}
		$row = self::FLOW[ $code ];
		return array(
			'status'      => $row[0],
			'status_code' => $code,
			'phase'       => $row[1],
			'final'       => $row[2],
			'rank'        => $row[3],
			'reason'      => $row[4],
			'meaning'     => $row[5],
		);
	}

	/**
	 * Phase, finality, failure reason and meaning of a pair (phase "unknown"
	 * for pairs outside the table: never applied automatically).
	 *
	 * @param mixed $status
	 * @param mixed $code
	 * @return array{phase: string, final: bool, reason?: string, meaning: string}
	 */
	public static function classify( $status, $code ): array {
		$step = self::find_step( $status, $code );
		if ( null === $step ) {
			return array(
				'phase'   => self::PHASE_UNKNOWN,
				'final'   => false,
				'meaning' => sprintf( 'Unknown status/status_code pair (%s, %s); not applied automatically.', self::show( $status ), self::show( $code ) ),
			);
		}
		$result = array(
			'phase'   => $step['phase'],
			'final'   => $step['final'],
			'meaning' => $step['status'] . ': ' . $step['meaning'],
		);
		if ( null !== $step['reason'] ) {
			$result['reason'] = $step['reason'];
		}
		return $result;
	}

	/** Meaning of a status code alone (for the admin panel), or null when unknown. */
	public static function code_meaning( $code ): ?string {
		return is_int( $code ) && isset( self::FLOW[ $code ] ) ? self::FLOW[ $code ][5] : null;
	}

	/**
	 * Whether an event carrying $to may change an operation at $from (null:
	 * nothing recorded yet). Same rules as core's decideTransition():
	 * unknown pair -> review; same pair -> ignore duplicate; success vs
	 * declined -> review conflict; after a final state -> ignore after_final;
	 * declined after in-progress -> apply; else apply only when further along.
	 *
	 * @param array{status: mixed, status_code: mixed}|null $from
	 * @param array{status: mixed, status_code: mixed}      $to
	 * @return array{action: string, why?: string}
	 */
	public static function decide( ?array $from, array $to ): array {
		$target = self::find_step( $to['status'] ?? null, $to['status_code'] ?? null );
		if ( null === $target ) {
			return array( 'action' => 'review', 'why' => 'unknown' );
		}
		if ( null === $from ) {
			return array( 'action' => 'apply' );
		}
		$current = self::find_step( $from['status'] ?? null, $from['status_code'] ?? null );
		if ( null === $current ) {
			return array( 'action' => 'review', 'why' => 'unknown' );
		}
		if ( $current['status_code'] === $target['status_code'] ) {
			return array( 'action' => 'ignore', 'why' => 'duplicate' );
		}
		$a = self::outcome( $current );
		$b = self::outcome( $target );
		if ( ( 'success' === $a && 'failure' === $b ) || ( 'failure' === $a && 'success' === $b ) ) {
			return array( 'action' => 'review', 'why' => 'conflict' );
		}
		if ( $current['final'] ) {
			return array( 'action' => 'ignore', 'why' => 'after_final' );
		}
		if ( 'failure' === $b ) {
			return array( 'action' => 'apply' );
		}
		return $target['rank'] > $current['rank'] ? array( 'action' => 'apply' ) : array( 'action' => 'ignore', 'why' => 'stale' );
	}

	private static function outcome( array $step ): string {
		if ( self::PHASE_SUCCEEDED === $step['phase'] ) {
			return 'success';
		}
		return self::PHASE_FAILED === $step['phase'] ? 'failure' : 'open';
	}

	/** JSON.stringify-like rendering for messages. */
	private static function show( $value ): string {
		return null === $value ? 'undefined' : (string) json_encode( $value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE ); // phpcs:ignore WordPress.WP.AlternativeFunctions.json_encode_json_encode -- runs without WordPress in tests.
	}

	/**
	 * Which of several operations of one payment attempt speaks for it (the
	 * index into $operations, oldest first), or null when none has a state
	 * yet: a success first (the money went out), then one that may still be
	 * paid (in progress or awaiting confirmation), then one that ended
	 * without payment; among equals the latest. A buyer who tries again
	 * inside the widget after a decline makes a new operation under the same
	 * attempt, and the attempt is then where that new operation is.
	 *
	 * @param array<int, array{status: mixed, status_code: mixed}> $operations
	 */
	public static function leading( array $operations ): ?int {
		$weight = array(
			self::PHASE_SUCCEEDED    => 3,
			self::PHASE_IN_PROGRESS  => 2,
			self::PHASE_NEEDS_ACTION => 2,
			self::PHASE_FAILED       => 1,
		);
		$lead   = null;
		$best   = 0;
		foreach ( array_values( $operations ) as $index => $operation ) {
			$step = self::find_step( $operation['status'] ?? null, $operation['status_code'] ?? null );
			$w    = null === $step ? 0 : $weight[ $step['phase'] ];
			if ( $w > 0 && $w >= $best ) {
				$lead = $index;
				$best = $w;
			}
		}
		return $lead;
	}

	/**
	 * An operation's stored pair (a row of the operations table) as decide()
	 * takes it, or null when nothing was applied to it yet.
	 *
	 * @param array{status: string, status_code: int} $operation
	 * @return array{status: string, status_code: int}|null
	 */
	public static function state_of( array $operation ): ?array {
		if ( self::NO_CODE === $operation['status_code'] ) {
			return null;
		}
		return array(
			'status'      => $operation['status'],
			'status_code' => $operation['status_code'],
		);
	}

	/**
	 * Whether an operation in this state may still be paid, or was paid: not
	 * one that ended without payment, and not one with no state yet.
	 *
	 * @param mixed $status
	 * @param mixed $code
	 */
	public static function may_be_paid( $status, $code ): bool {
		$step = self::find_step( $status, $code );
		return null !== $step && self::PHASE_FAILED !== $step['phase'];
	}

	/** Whether a status pair (of an attempt or of one of its operations) is final: paid, or ended without payment. */
	public static function is_final( string $status, int $status_code ): bool {
		$step = self::find_step( $status, $status_code );
		return null !== $step && $step['final'];
	}

	/** True when money may be moving for an attempt with this summed-up pair: the buyer paid and no final failure came. */
	public static function in_flight( string $status, int $status_code ): bool {
		if ( self::NO_CODE === $status_code ) {
			return false;
		}
		$step = self::find_step( $status, $status_code );
		return null === $step || ( ! $step['final'] && 1 !== $step['status_code'] ) || self::PHASE_SUCCEEDED === $step['phase'];
	}

	/** status_code as an int (a non-integral number can never be a known code). */
	public static function int_code( $code ): int {
		return is_int( $code ) ? $code : ( is_float( $code ) && floor( $code ) === $code && abs( $code ) < PHP_INT_MAX ? (int) $code : PHP_INT_MIN );
	}
}

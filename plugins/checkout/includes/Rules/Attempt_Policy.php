<?php
/**
 * When an order's payment attempt may be reused and when a new one may be
 * started (including what the service said about the earlier ones); pure,
 * unit-tested in test/attempt-policy.test.ts.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Attempt_Policy {

	/** Attempts one order may start in CAP_WINDOW seconds (each embedded widget start and each landing with news makes one). */
	const CAP = 10;

	const CAP_WINDOW = 3600;

	/**
	 * Whether an attempt may be signed again for the order as it is now: it
	 * has no news from the service yet, it was not retired (a dead attempt:
	 * its address may belong to another order now), and it asks for exactly
	 * the order's current total, currency and the store's current wallet. Re-signing an
	 * attempt after the order grew would ask the buyer for the old total.
	 *
	 * @param array|null $asked  What the attempt asks and whether it moved (Attempt::reuse_facts()), null for no attempt: {
	 *     @type bool   $news     The service told something about it (a status was applied).
	 *     @type bool   $retired  It was retired.
	 *     @type int    $amount   The fiat amount it asks, in minor units.
	 *     @type string $currency Its currency.
	 *     @type string $wallet   The wallet address it pays ('' before it has one).
	 * }
	 * @param int|null   $amount The order's total now, in minor units (null: not expressible).
	 */
	public static function reusable( ?array $asked, ?int $amount, string $currency, string $wallet ): bool {
		return null !== $asked
			&& ! $asked['news']
			&& ! $asked['retired']
			&& null !== $amount
			&& $asked['amount'] === $amount
			&& $asked['currency'] === $currency
			&& $asked['wallet'] === $wallet;
	}

	/** Whether the order already started as many attempts as it may in the last CAP_WINDOW seconds. */
	public static function over_cap( int $started_in_window ): bool {
		return $started_in_window >= self::CAP;
	}

	/** before_new_payment(): no earlier payment stands in the way. */
	const CLEAR = 'clear';
	/** The order is paid (the service's answer was just applied). */
	const PAID = 'paid';
	/** Money may be moving for an earlier attempt (pending 2 on, a success the order did not take, a state we do not know). */
	const UNDER_WAY = 'under_way';
	/** An earlier operation is created (1) and unpaid, and its window has not ended. */
	const OPEN = 'open';
	/** The service could not be asked about an earlier attempt that may have an operation. */
	const UNCONFIRMED = 'unconfirmed';

	/**
	 * Whether a new payment may start, from what the service answered just now
	 * about each earlier attempt of the order that is not final here. Two
	 * payments of one order may only exist once the first is final and failed:
	 * an attempt the service does not know (the buyer never created an
	 * operation) and a final failure do not block; a "created" 1 in which no
	 * card was entered does not block either, but is to be cancelled at the
	 * service first (`cancel`: the indexes of those answers), so that the
	 * window the buyer closed cannot be paid later; a "created" 1 with a card
	 * entered blocks until its window ends (started + $window: the service
	 * ends an unpaid operation then, docs/decisions.md); anything else blocks,
	 * and so does a service that could not be asked. The strongest reason
	 * wins; `answer` is the index of the answer it came from (for a paid
	 * order, of the strongest answer that would have blocked, when one would
	 * have).
	 *
	 * @param bool  $paid    The order is paid (after the answers were applied).
	 * @param array $answers Each {asked: "answered"|"unknown"|"unreachable", status, status_code, started: Unix time the payment started,
	 *                       card: bool (card data was entered; true when not known)}.
	 * @return array{verdict: string, answer?: int, started?: int, until?: int, cancel?: int[]}
	 */
	public static function before_new_payment( bool $paid, array $answers, int $now, int $window ): array {
		$rank    = array(
			self::CLEAR       => 0,
			self::OPEN        => 1,
			self::UNCONFIRMED => 2,
			self::UNDER_WAY   => 3,
		);
		$verdict = array( 'verdict' => self::CLEAR );
		$cancel  = array();
		foreach ( array_values( $answers ) as $index => $answer ) {
			$found = self::answer_verdict( $answer, $now, $window );
			if ( ! empty( $found['cancel'] ) ) {
				$cancel[] = $index;
				unset( $found['cancel'] );
			}
			if ( $rank[ $found['verdict'] ] > $rank[ $verdict['verdict'] ] || ( self::OPEN === $found['verdict'] && self::OPEN === $verdict['verdict'] && $found['until'] > $verdict['until'] ) ) {
				$verdict = array( 'answer' => $index ) + $found;
			}
		}
		if ( $paid ) {
			return array( 'verdict' => self::PAID ) + ( isset( $verdict['answer'] ) ? array( 'answer' => $verdict['answer'] ) : array() );
		}
		if ( self::CLEAR === $verdict['verdict'] && array() !== $cancel ) {
			$verdict['cancel'] = $cancel;
		}
		return $verdict;
	}

	private static function answer_verdict( array $answer, int $now, int $window ): array {
		$asked = (string) ( $answer['asked'] ?? 'unreachable' );
		if ( 'unknown' === $asked ) {
			return array( 'verdict' => self::CLEAR );
		}
		if ( 'answered' !== $asked ) {
			return array( 'verdict' => self::UNCONFIRMED );
		}
		$step = Status_Flow::find_step( $answer['status'] ?? null, $answer['status_code'] ?? null );
		if ( null !== $step && $step['final'] && Status_Flow::PHASE_FAILED === $step['phase'] ) {
			return array( 'verdict' => self::CLEAR );
		}
		if ( null !== $step && 1 === $step['status_code'] ) {
			if ( false === ( $answer['card'] ?? true ) ) {
				// No card entered: nothing can have been charged. Start again at once, once this one is ended at the service.
				return array(
					'verdict' => self::CLEAR,
					'cancel'  => true,
				);
			}
			$started = (int) ( $answer['started'] ?? 0 );
			$until   = $started + $window;
			return $now < $until
				? array(
					'verdict' => self::OPEN,
					'started' => $started,
					'until'   => $until,
				)
				: array( 'verdict' => self::CLEAR );
		}
		return array( 'verdict' => self::UNDER_WAY );
	}
}

<?php
/**
 * When an order's payment attempt may be reused and when a new one may be
 * started; pure, unit-tested in test/attempt-policy.test.ts.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

defined( 'ABSPATH' ) || exit;

final class Attempt_Policy {

	/** Attempts one order may start in CAP_WINDOW seconds (each embedded widget start and each landing with news makes one). */
	const CAP = 10;

	const CAP_WINDOW = 3600;

	/**
	 * Whether an attempt may be signed again for the order as it is now: it
	 * has no news from the service yet, and it asks for exactly the order's
	 * current total, currency and the store's current wallet. Re-signing an
	 * attempt after the order grew would ask the buyer for the old total.
	 *
	 * @param array|null $attempt  Operation_Store row.
	 * @param int|null   $amount   The order's total now, in minor units (null: not expressible).
	 */
	public static function reusable( ?array $attempt, ?int $amount, string $currency, string $wallet ): bool {
		return null !== $attempt
			&& -1 === (int) $attempt['status_code'] // Operation_Store::NO_CODE (that class needs WordPress).
			&& null !== $amount
			&& (int) $attempt['expected_amount'] === $amount
			&& (string) $attempt['expected_currency'] === $currency
			&& (string) $attempt['expected_wallet'] === $wallet;
	}

	/** Whether the order already started as many attempts as it may in the last CAP_WINDOW seconds. */
	public static function over_cap( int $started_in_window ): bool {
		return $started_in_window >= self::CAP;
	}
}

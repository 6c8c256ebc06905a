<?php
/**
 * "A new address for each order": which index the owner's wallet can still
 * see, when an order's address may be given to another order, how close the
 * addresses in use come to the wallet's gap limit, and what a visitor may
 * take. Pure, table-tested in test/address-policy.test.ts.
 *
 * A wallet shows a payment only to an address at most its gap limit past
 * the last one it saw paid; so no index past the last paid one plus the gap
 * limit is ever handed out (cap()), whoever asks, and a visitor can never
 * move the wallet past what it sees.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Address_Policy {

	/** Warn the owner when the addresses in use past the last paid one come this close to the gap limit. */
	const WARN_MARGIN = 5;

	/**
	 * New addresses one client may take in CLIENT_WINDOW seconds (each new
	 * order's first payment takes one). Behind a proxy, the client is the
	 * address in the header the owner names (Client_Address); without it,
	 * every buyer is one client.
	 */
	const CLIENT_LIMIT = 10;

	const CLIENT_WINDOW = 3600;

	/** New addresses one order may take in ORDER_WINDOW seconds (it keeps one while its payment may come). */
	const ORDER_LIMIT = 3;

	const ORDER_WINDOW = 86400;

	/** The gap: no new address yet to worry about. */
	const OK = 'ok';
	/** Within WARN_MARGIN of the gap limit: new orders will soon wait for an address. */
	const NEAR = 'near';
	/** Every index the wallet sees is held: a new order's card payment waits until one is paid or freed. */
	const FULL = 'full';
	/** Addresses were handed out past what the wallet sees (an older version, or a lowered gap limit). */
	const PAST = 'past';

	/** The highest index the owner's wallet sees: the last paid one (-1 when none) plus the gap limit. */
	public static function cap( ?int $last_paid, int $limit ): int {
		return ( null === $last_paid ? -1 : $last_paid ) + max( 1, $limit );
	}

	/**
	 * Where the wallet stands against its gap limit.
	 *
	 * @param array{last_paid: int|null, highest: int|null, gap: int, free: int} $gap  Address_Store::gap().
	 * @param int                                                                  $next The wallet's next new index.
	 * @return string One of OK, NEAR, FULL, PAST.
	 */
	public static function standing( array $gap, int $next, int $limit ): string {
		$cap = self::cap( $gap['last_paid'], $limit );
		if ( null !== $gap['highest'] && $gap['highest'] > $cap ) {
			return self::PAST;
		}
		if ( $next > $cap && 0 === (int) $gap['free'] ) {
			return self::FULL;
		}
		return $gap['gap'] >= max( 1, $limit - self::WARN_MARGIN ) ? self::NEAR : self::OK;
	}

	/**
	 * Whether an order's address may go to another order: the order is not
	 * paid, and every payment of it that was signed for that address (the
	 * buyer could reach the service with it) is dead: retired (the service
	 * never heard of it once its window had passed) or ended without payment,
	 * as the service confirmed, longer ago than a payment stays open. A
	 * payment never signed cannot be paid.
	 *
	 * @param array<int, array{signed: bool, retired: bool, settled_unpaid: bool}> $attempts The order's attempts to that address.
	 */
	public static function releasable( bool $order_paid, array $attempts ): bool {
		if ( $order_paid ) {
			return false;
		}
		foreach ( $attempts as $facts ) {
			if ( $facts['signed'] && ! $facts['retired'] && ! $facts['settled_unpaid'] ) {
				return false;
			}
		}
		return true;
	}
}

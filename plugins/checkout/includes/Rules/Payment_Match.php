<?php
/**
 * Trust nothing that does not match: compares what an operation says was
 * paid and where the BTC went with what the order asked for.
 *
 * Pure logic (no WordPress), so it is unit-tested on php-wasm.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Payment_Match {

	/** The asset an attempt buys when it names none (today every attempt: Attempt::asset()). */
	const ASSET_BTC = 'BTC';

	/**
	 * @param array{amount: int, currency: string, wallet: string, asset?: string} $expected What the order asked for (minor units; asset: Attempt::asset(), ASSET_BTC when absent).
	 * @param array{amount?: ?int, currency?: ?string, wallet?: ?string, to_currency?: ?string} $received What the operation says.
	 * @return array{ok: bool, complete: bool, problems: string[], missing: string[]}
	 *         ok: nothing present contradicts the order; complete: every
	 *         member needed to pay the order is present (and ok).
	 */
	public static function compare( array $expected, array $received ): array {
		$problems = array();
		$missing  = array();

		$amount = $received['amount'] ?? null;
		if ( null === $amount ) {
			$missing[] = 'amount';
		} elseif ( ! is_int( $amount ) || $amount !== $expected['amount'] ) {
			$in         = is_string( $received['currency'] ?? null ) ? $received['currency'] : $expected['currency'];
			$problems[] = is_int( $amount )
				? sprintf( 'amount: the operation is for %s, the order expects %s', Order_Words::money( $amount, $in ), Order_Words::money( $expected['amount'], $expected['currency'] ) )
				: sprintf( 'amount: the operation gives no whole amount (%s), the order expects %s', is_scalar( $amount ) ? (string) $amount : gettype( $amount ), Order_Words::money( $expected['amount'], $expected['currency'] ) );
		}

		$currency = $received['currency'] ?? null;
		if ( null === $currency ) {
			$missing[] = 'currency';
		} elseif ( $currency !== $expected['currency'] ) {
			$problems[] = sprintf( 'currency: the operation is in %s, the order in %s', (string) $currency, $expected['currency'] );
		}

		// Required like the others: a success that does not say which asset was bought cannot be checked.
		$to_currency = $received['to_currency'] ?? null;
		if ( null === $to_currency ) {
			$missing[] = 'to_currency';
		} elseif ( ( $expected['asset'] ?? self::ASSET_BTC ) !== $to_currency ) {
			$problems[] = sprintf( 'to_currency: the operation buys %s, the order pays in %s', (string) $to_currency, (string) ( $expected['asset'] ?? self::ASSET_BTC ) );
		}

		$wallet = $received['wallet'] ?? null;
		if ( null === $wallet ) {
			$missing[] = 'wallet';
		} elseif ( ! self::same_address( (string) $wallet, $expected['wallet'] ) ) {
			$problems[] = sprintf( 'wallet: the BTC goes to %s, not to the store wallet %s', (string) $wallet, $expected['wallet'] );
		}

		return array(
			'ok'       => array() === $problems,
			'complete' => array() === $problems && array() === $missing,
			'problems' => $problems,
			'missing'  => $missing,
		);
	}

	/**
	 * Bech32 addresses are case-insensitive (all lower or all upper case);
	 * base58 addresses are case-sensitive.
	 */
	public static function same_address( string $a, string $b ): bool {
		$a = trim( $a );
		$b = trim( $b );
		if ( '' === $a || '' === $b ) {
			return false;
		}
		if ( self::is_bech32( $a ) && self::is_bech32( $b ) ) {
			return strtolower( $a ) === strtolower( $b );
		}
		return $a === $b;
	}

	private static function is_bech32( string $address ): bool {
		return 1 === preg_match( '/^(bc|tb|bcrt)1/i', $address );
	}
}

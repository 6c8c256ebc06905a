<?php
/**
 * The store's clock against the service's: the service refuses a request
 * whose timestamp is more than 30 s ahead or 5 s behind its own time
 * (`invalid_parameter`, field `timestamp`). Such a refusal is no news about
 * a payment: it is recorded here with how far off the clock is (the
 * service's Date header, whole seconds), logged once an hour at most, and
 * shown in the owner's status box until a request is answered again.
 * What such a refusal looks like and its words are rules (Rules\Clock_Refusal).
 *
 * Option OPTION: array{offset_ms: int|null, at: int} (not autoloaded).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Service;

use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Rules\Clock_Refusal;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Exception;

defined( 'ABSPATH' ) || exit;

final class Clock_Offset {

	const OPTION = 'card2crypto_checkout_clock_offset';

	/** Seconds between two log lines about the same clock problem. */
	const LOG_EVERY = 3600;

	/** Records a timestamp refusal; logs it unless one was logged in the last LOG_EVERY seconds. */
	public function saw_refusal( Partner_Api_Exception $e, int $now ): void {
		$last = $this->last();
		update_option(
			self::OPTION,
			array(
				'offset_ms' => $e->clock_offset_ms,
				'at'        => $now,
				'logged'    => null === $last || $now - (int) ( $last['logged'] ?? 0 ) >= self::LOG_EVERY ? $now : (int) $last['logged'],
			),
			false
		);
		if ( null === $last || $now - (int) ( $last['logged'] ?? 0 ) >= self::LOG_EVERY ) {
			Log::error( 'The payment service refused a request for its timestamp: ' . Clock_Refusal::words( $e->clock_offset_ms ) . ' Background checks wait and try again; fix the server\'s clock (NTP).' );
		}
	}

	/** A request was answered: the clock is within the service's window again. */
	public function saw_answer(): void {
		if ( false !== get_option( self::OPTION, false ) ) {
			delete_option( self::OPTION );
		}
	}

	/** @return array{offset_ms: int|null, at: int, logged?: int}|null The last refusal, while no request was answered since. */
	public function last(): ?array {
		$value = get_option( self::OPTION, null );
		return is_array( $value ) && isset( $value['at'] ) ? $value : null;
	}
}

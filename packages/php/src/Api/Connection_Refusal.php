<?php
/**
 * Why the service refused a signed call made to test the credentials (a
 * params request), in words an owner can act on, and the setting at fault:
 * the checkout's status box and save check, and the widget's save check and
 * admin notice, say it alike.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Api;

final class Connection_Refusal {

	/**
	 * Why a params call failed, in words, and the setting at fault.
	 *
	 * @return array{field: string|null, why: string}
	 */
	public static function of( \Throwable $e ): array {
		if ( $e instanceof \InvalidArgumentException ) {
			return array(
				'field' => 'base_url',
				/* translators: %s: error */
				'why'   => sprintf( __( 'the settings cannot be used to call the service (%s).', 'card2crypto-shared' ), $e->getMessage() ),
			);
		}
		if ( ! $e instanceof Partner_Api_Exception ) {
			/* translators: %s: error */
			return array( 'field' => null, 'why' => sprintf( __( 'the service could not be asked (%s).', 'card2crypto-shared' ), $e->getMessage() ) );
		}
		// Said inside "(…)." below: its own closing period would read ".).".
		$detail = rtrim( $e->getMessage(), ". \t\n" );
		switch ( true ) {
			case Partner_Api_Exception::HTTP === $e->kind && 401 === $e->status:
				return array(
					'field' => 'partner_secret',
					/* translators: %s: the service's error */
					'why'   => sprintf( __( 'the service refuses the signature: the partner secret is wrong for this token (%s).', 'card2crypto-shared' ), $detail ),
				);
			case Partner_Api_Exception::BAD_SIGNATURE === $e->kind:
				return array(
					'field' => 'partner_secret',
					/* translators: %s: the error */
					'why'   => sprintf( __( 'the service\'s answer is not signed with this partner secret: the secret is wrong (%s).', 'card2crypto-shared' ), $detail ),
				);
			case Partner_Api_Exception::INVALID_RESPONSE === $e->kind || ( Partner_Api_Exception::HTTP === $e->kind && null === $e->error_code && 401 !== $e->status ):
				return array(
					'field' => 'base_url',
					/* translators: %s: the error */
					'why'   => sprintf( __( 'the address does not answer as the service does; check the partner API address (%s).', 'card2crypto-shared' ), $detail ),
				);
			case Partner_Api_Exception::HTTP === $e->kind && 404 === $e->status:
				return array(
					'field' => 'partner_token',
					/* translators: %s: the service's error */
					'why'   => sprintf( __( 'the service does not know this partner token (%s).', 'card2crypto-shared' ), $detail ),
				);
			case Partner_Api_Exception::HTTP === $e->kind && 403 === $e->status:
				return array(
					'field' => 'partner_token',
					/* translators: %s: the service's error */
					'why'   => sprintf( __( 'the service has blocked this partner; contact the service (%s).', 'card2crypto-shared' ), $detail ),
				);
			case Partner_Api_Exception::NETWORK === $e->kind || Partner_Api_Exception::TIMEOUT === $e->kind:
				return array(
					'field' => 'base_url',
					/* translators: %s: the error */
					'why'   => sprintf( __( 'the service address could not be reached (%s).', 'card2crypto-shared' ), $detail ),
				);
			default:
				/* translators: %s: the service's error */
				return array( 'field' => null, 'why' => sprintf( __( 'the service refused the request (%s).', 'card2crypto-shared' ), $detail ) );
		}
	}

	/**
	 * @param bool $refused_save Whether this request's save was refused: the box then says that
	 *                           it speaks of the saved settings, which are still the ones in use.
	 */
}

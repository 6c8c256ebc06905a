<?php
/**
 * Does the service accept a partner's credentials? The one check both
 * plugins make: a signed params request (the cheapest signed call, and
 * the one that needs nothing but the token and the secret), whose answer
 * is verified with the secret. Its answer (Credentials_Answer) says yes,
 * with the partner's commission, or no, why in words the owner can act on
 * and the setting at fault (Connection_Refusal).
 *
 * - The checkout asks it through its service gateway's client (its lanes,
 *   its deadlines): the status box above the payment settings, the
 *   background health check, a payment's start.
 * - The widget asks it with the settings a save would write or the
 *   settings in use (ask_settings()): its save check, its "Check the
 *   connection now" button and its background check.
 *
 * What each plugin keeps of the answer, and the words around it (a status
 * box, a notice, Site Health), are the plugin's.
 *
 * @package card2crypto
 */

namespace Card2Crypto\Shared\Api;

final class Credentials_Check {

	/** Seconds the site admin waits on a check of settings (a save's, the check button's). */
	const TIMEOUT = 8.0;

	/**
	 * Asks the service with $client's credentials (a signed params
	 * request); whatever fails is a refusal with its reason.
	 */
	public function ask( Partner_Api_Client $client, ?int $now = null ): Credentials_Answer {
		try {
			$params = $client->params();
			return Credentials_Answer::accepted( $params['service_fee'] ?? null, $now ?? time() );
		} catch ( \Throwable $e ) {
			return Credentials_Answer::refused( $e, $now ?? time() );
		}
	}

	/**
	 * Asks the service with these settings (by field id: base_url,
	 * partner_token, partner_secret, environment) on wp_remote_post. Only
	 * the sandbox environment may reach this computer, and there only its
	 * own API address. Settings that cannot call the service are a refusal
	 * (base_url).
	 *
	 * @param array<string, mixed> $values    The settings, the secret included (never kept, never in an answer's trace).
	 * @param Http_Transport|null  $transport Another transport (the library's tests).
	 */
	public function ask_settings( array $values, float $timeout = self::TIMEOUT, ?Http_Transport $transport = null, ?int $now = null ): Credentials_Answer {
		$secret = (string) ( $values['partner_secret'] ?? '' );
		// A stack trace shows a frame's arguments as they are when it is taken: the secret leaves this frame's now.
		unset( $values['partner_secret'] );
		$base_url = (string) ( $values['base_url'] ?? '' );
		try {
			$client = new Partner_Api_Client(
				$base_url,
				(string) ( $values['partner_token'] ?? '' ),
				$secret,
				array(
					'timeout'   => $timeout,
					'transport' => $transport ?? new Wp_Http_Transport( 'sandbox' === ( $values['environment'] ?? '' ) ? $base_url : false ),
				)
			);
		} catch ( \InvalidArgumentException $e ) {
			// Made again here: the constructor's frame, in the first one's trace, has the secret as an argument.
			return Credentials_Answer::refused( new \InvalidArgumentException( $e->getMessage() ), $now ?? time() );
		}
		unset( $secret );
		return $this->ask( $client, $now );
	}
}

<?php
/**
 * What the owner reads when forwarding headers reach the store while no
 * client address header is set (the sighting the callback room's
 * Client_Address records): every buyer then counts as the proxy's address.
 * Pure: the same setting and sighting give the same words, for the settings
 * page's status box and Site Health.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

defined( 'ABSPATH' ) || exit;

final class Proxy_Words {

	/**
	 * The warning while forwarding headers arrive and no client address header
	 * is set; null otherwise.
	 *
	 * @param string                              $trusted The client address header the owner set ('' for none).
	 * @param array{at: int, header: string}|null $seen    The last sighting of a forwarding header, or null.
	 */
	public static function owner_warning( string $trusted, ?array $seen ): ?string {
		if ( '' !== $trusted || null === $seen ) {
			return null;
		}
		return sprintf(
			/* translators: %s: a forwarding header's name, e.g. X-Forwarded-For */
			__( 'Requests reach this store with a %s header, as they do through a reverse proxy or CDN, but no client address header is set: every buyer then counts as the proxy\'s address and they share one request budget, so one visitor can make the others wait. Set "Client address header" to the header your proxy sets (and only that one).', 'card2crypto-checkout' ),
			$seen['header']
		);
	}
}

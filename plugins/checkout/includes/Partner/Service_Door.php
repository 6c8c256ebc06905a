<?php
/**
 * What the plugin's classes ask of the door to the service: a partner API
 * client for a lane, the settings it is made from, and the same door for
 * other settings (the settings page's check of values not saved yet).
 * Service_Gateway is the one the plugin builds (the store-wide bucket, the
 * lanes, the visitor's deadline); a test builds a class alone with a door
 * of its own whose client answers from the sandbox or a recorded answer
 * (test/php/alone.php), without booting the plugin.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Partner;

use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Client;

defined( 'ABSPATH' ) || exit;

interface Service_Door {

	/** The settings the clients are made from. */
	public function config(): Config;

	/** A door for other settings (values not saved yet), over the same budget. */
	public function with_config( Config $config ): Service_Door;

	/**
	 * A client whose every request travels in $lane (Rules\Service_Lanes).
	 *
	 * @param string        $lane   A Service_Lanes lane.
	 * @param callable|null $logger fn(string $level, string $message) for the client's own lines; default the plugin's log.
	 * @param callable|null $wrap   fn(Http_Transport): Http_Transport around the door's transport (reconciliation's own pacing).
	 * @throws \InvalidArgumentException When the credentials or address are unusable.
	 */
	public function client( string $lane, ?callable $logger = null, ?callable $wrap = null ): Partner_Api_Client;
}

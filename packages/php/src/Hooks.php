<?php
/**
 * A service that hooks itself into WordPress: the plugin's wiring builds
 * each service once, passes it what it uses through its constructor, and
 * calls register() on every one that implements this, in one loop
 * (WooCommerce core's RegisterHooksInterface is the model). register()
 * only adds actions and filters; the work happens when they run.
 *
 * @package card2crypto
 */

namespace Card2Crypto\Shared;

interface Hooks {

	/** Adds the service's actions and filters. */
	public function register(): void;
}

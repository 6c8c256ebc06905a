<?php
/**
 * The checkout's browser scripts, built by `wp-scripts build`: registered
 * and given their data through the shared Build_Assets (as the widget's),
 * one instance for the plugin.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Base;

use Card2Crypto\Checkout\Shared\Assets\Build_Assets;

defined( 'ABSPATH' ) || exit;

final class Script_Asset {

	/** @var Build_Assets|null Made at the first script (the plugin's main file is known by then). */
	private $build = null;

	/**
	 * Registers build/<name>.js under $handle, in the footer. False when the
	 * plugin was not built (no asset file): the script does not exist either.
	 */
	public function register( string $handle, string $name ): bool {
		return $this->build()->script( $handle, $name );
	}

	/**
	 * Data for a registered script: window.<$name>, set before it runs. Its
	 * texts come translated in $data (the buyer's scripts keep to a size
	 * budget, so they carry no translation library).
	 *
	 * @param array<string, mixed> $data
	 */
	public function data( string $handle, string $name, array $data ): bool {
		return $this->build()->data( $handle, $name, $data );
	}

	private function build(): Build_Assets {
		if ( null === $this->build ) {
			$this->build = new Build_Assets( CARD2CRYPTO_CHECKOUT_FILE );
		}
		return $this->build;
	}
}

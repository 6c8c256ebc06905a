<?php
/**
 * Another shop of the multisite network already gives out addresses of the
 * wallet (Address_Store::take()): each site counts its wallet's indexes in
 * its own tables, so two shops with one key would give index 0 to an order
 * of each, one address for two orders. The shop that used the wallet first
 * keeps it; this one takes no address of it until the owner enters another
 * key (Address_Gap_Notice says so on the settings page).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

defined( 'ABSPATH' ) || exit;

final class Wallet_Shared extends \RuntimeException {

	/** @var int[] The ids of the network's sites that use the wallet. */
	public $sites;

	/** @param int[] $sites */
	public function __construct( array $sites ) {
		parent::__construct( sprintf( 'Another shop of this network (site %s) already gives out addresses of this wallet: one wallet key serves one shop.', implode( ', ', $sites ) ) );
		$this->sites = $sites;
	}
}

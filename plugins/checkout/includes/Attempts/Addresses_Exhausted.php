<?php
/**
 * No address of the owner's wallet inside its gap limit is free for a new
 * order (Address_Store::take()): every index up to the last paid one plus the
 * gap limit is held by an order whose payment may still come. The buyer is
 * told to try again later; the owner was warned before (Address_Gap_Notice).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

defined( 'ABSPATH' ) || exit;

final class Addresses_Exhausted extends \RuntimeException {

	/** @var int The index that would have been handed out. */
	public $index;

	/** @var int The highest index the owner's wallet sees. */
	public $cap;

	public function __construct( int $index, int $cap ) {
		parent::__construct( sprintf( 'No address inside the wallet\'s gap limit is free: the next index would be %d, the wallet sees up to %d.', $index, $cap ) );
		$this->index = $index;
		$this->cap   = $cap;
	}
}

<?php
/**
 * A new payment cannot start because an earlier one of the order is paid or
 * may still be paid (Start_Gate::before_new_payment()). The message is the
 * buyer's plain words; outcome is Buyer_Words' result (kind PAID: send the
 * buyer to the order-received page).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

use Card2Crypto\Checkout\Rules\Buyer_Words;

defined( 'ABSPATH' ) || exit;

final class Payment_Held extends Payment_Refused {

	/** @var array{kind: string, code: int|null, type: string, message: string, retry: bool} */
	public $outcome;

	public function __construct( array $outcome ) {
		parent::__construct( $outcome['message'] );
		$this->outcome = $outcome;
	}

	/** The order is paid: the buyer belongs on the order-received page. */
	public function paid(): bool {
		return Buyer_Words::PAID === $this->outcome['kind'];
	}
}

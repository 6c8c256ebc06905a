<?php
/**
 * The order's earlier payments brought up to date (Start_Gate): the order as
 * stored once the service's answers about them were applied, and what each
 * answer said, in the shape the pure rule takes (Attempt_Policy::before_new_payment()).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Payment;

defined( 'ABSPATH' ) || exit;

final class Earlier_Payments {

	/** @var \WC_Order */
	private $order;

	/** @var list<array<string, mixed>> */
	private $answers;

	/**
	 * @param list<array<string, mixed>> $answers One per attempt asked about: asked, status, status_code, started, mismatch, card, operation_id, status_url, attempt.
	 */
	public function __construct( \WC_Order $order, array $answers ) {
		$this->order   = $order;
		$this->answers = $answers;
	}

	/** The order as stored after the answers were applied (a success completes it). */
	public function order(): \WC_Order {
		return $this->order;
	}

	/** @return list<array<string, mixed>> */
	public function answers(): array {
		return $this->answers;
	}
}

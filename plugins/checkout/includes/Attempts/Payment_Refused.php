<?php
/**
 * A payment cannot start; the message is meant for the buyer.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

defined( 'ABSPATH' ) || exit;

class Payment_Refused extends \RuntimeException {
}

<?php
/**
 * The service refuses this store (Service_Health): the payment cannot start.
 * The message is the buyer's plain words (Service_Health::buyer_message()),
 * never the service's.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

defined( 'ABSPATH' ) || exit;

final class Service_Refused extends Payment_Refused {
}

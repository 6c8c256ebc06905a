<?php
/**
 * A callback reported a success that the service's operation-info endpoint
 * does not report yet. What the service reports was applied; the callback
 * itself was not taken in, so it is answered 500 and the service sends it
 * again (by then its answer has caught up, or the callback was not true).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

defined( 'ABSPATH' ) || exit;

final class Success_Unconfirmed extends \RuntimeException {
}

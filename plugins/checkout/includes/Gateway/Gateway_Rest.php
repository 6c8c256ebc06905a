<?php
/**
 * WooCommerce's payment gateway REST answers (wc/v2 and wc/v3
 * payment_gateways/card2crypto, a GET or the answer to an update) list every
 * setting with its value from the gateway object: after an update that value
 * is what was just sent, secrets included. Every secret field (the partner
 * secret, the wallet's extended public key) is answered empty instead, as a
 * GET answers it (secrets are stored apart from the settings).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Gateway;

use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Gateway_Rest implements Hooks {

	/** @var Config */
	private $config;

	public function __construct( Config $config ) {
		$this->config = $config;
	}

	public function register(): void {
		add_filter( 'woocommerce_rest_prepare_payment_gateway', array( $this, 'hide_secrets' ), 10, 2 );
	}

	/**
	 * @param mixed $response WP_REST_Response of one gateway.
	 * @param mixed $gateway  The gateway.
	 * @return mixed
	 */
	public function hide_secrets( $response, $gateway ) {
		if ( ! $response instanceof \WP_REST_Response || ! $gateway instanceof \WC_Payment_Gateway || Keys::GATEWAY_ID !== $gateway->id ) {
			return $response;
		}
		$data = $response->get_data();
		if ( ! is_array( $data ) || ! isset( $data['settings'] ) || ! is_array( $data['settings'] ) ) {
			return $response;
		}
		foreach ( $this->config->store()->secret_ids() as $id ) {
			if ( isset( $data['settings'][ $id ] ) && is_array( $data['settings'][ $id ] ) ) {
				$data['settings'][ $id ]['value'] = '';
			}
		}
		$response->set_data( $data );
		return $response;
	}
}

<?php
/**
 * The status box above the payment method's settings: do the credentials
 * work (a signed call to the partner API), the partner's commission
 * (service_fee), and the callback URL to give the service.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

defined( 'ABSPATH' ) || exit;

final class Settings_Status {

	public static function callback_url(): string {
		return rest_url( Callback_Controller::REST_NAMESPACE . Callback_Controller::ROUTE );
	}

	/**
	 * The result of a signed call, cached a minute per credentials.
	 *
	 * @return array{ok: bool, message: string, fee?: string}
	 */
	public static function check( Config $config ): array {
		if ( '' === $config->token() || '' === $config->secret() ) {
			return array(
				'ok'      => false,
				'message' => __( 'Enter the partner token and secret to connect.', 'card2crypto-checkout' ),
			);
		}
		$key    = 'card2crypto_checkout_status_' . md5( $config->base_url() . "\n" . $config->token() . "\n" . hash( 'sha256', $config->secret() ) );
		$cached = get_transient( $key );
		if ( is_array( $cached ) ) {
			return $cached;
		}
		try {
			$fee    = $config->api_client()->params()['service_fee'];
			$result = array(
				'ok'      => true,
				'message' => __( 'Connected: the service accepted a signed request with these credentials.', 'card2crypto-checkout' ),
				'fee'     => rtrim( rtrim( number_format( (float) $fee * 100, 4, '.', '' ), '0' ), '.' ) . '%',
			);
		} catch ( \Throwable $e ) {
			$result = array(
				'ok'      => false,
				/* translators: %s: error */
				'message' => sprintf( __( 'Not connected: %s', 'card2crypto-checkout' ), $e->getMessage() ),
			);
		}
		set_transient( $key, $result, MINUTE_IN_SECONDS );
		return $result;
	}

	public static function render(): void {
		$config = Config::load();
		$status = self::check( $config );
		echo '<div class="card2crypto-status-box notice inline ' . ( $status['ok'] ? 'notice-success' : 'notice-warning' ) . '" style="padding:8px 12px">';
		echo '<p><strong data-card2crypto="connection">' . esc_html( $status['message'] ) . '</strong></p>';
		if ( isset( $status['fee'] ) ) {
			/* translators: %s: percentage */
			echo '<p data-card2crypto="fee">' . esc_html( sprintf( __( 'Partner commission (service_fee): %s', 'card2crypto-checkout' ), $status['fee'] ) ) . '</p>';
		}
		echo '<p>' . esc_html__( 'Callback URL to give the service:', 'card2crypto-checkout' ) . ' <code data-card2crypto="callback-url">' . esc_html( self::callback_url() ) . '</code></p>';
		echo '<p>' . esc_html( sprintf( /* translators: %s: sandbox or production */ __( 'Environment: %s', 'card2crypto-checkout' ), $config->environment() ) ) . '</p>';
		echo '</div>';
	}
}

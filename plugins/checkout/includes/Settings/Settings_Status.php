<?php
/**
 * The status box above the payment method's settings: do the credentials
 * work (the shared credentials check, through Service_Health::ask()), the partner's commission
 * (service_fee), the callback URL to give the service, callback health
 * (Callback_Health: the last verified callback, refusals in the last 24
 * hours by reason) and a link to the plugin's logs.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Settings;

use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Callback\Client_Address;
use Card2Crypto\Checkout\Partner\Service_Door;
use Card2Crypto\Checkout\Rules\Clock_Refusal;
use Card2Crypto\Checkout\Rules\Service_Lanes;
use Card2Crypto\Checkout\Rules\Proxy_Words;
use Card2Crypto\Checkout\Service\Callback_Health;
use Card2Crypto\Checkout\Service\Clock_Offset;
use Card2Crypto\Checkout\Service\Service_Health;

defined( 'ABSPATH' ) || exit;

final class Settings_Status {

	/** @var Service_Health */
	private $health;

	/** @var Callback_Health */
	private $callbacks;

	/** @var Clock_Offset */
	private $clock;

	/** @var Client_Address */
	private $client_address;

	public function __construct( Service_Health $health, Callback_Health $callbacks, Clock_Offset $clock, Client_Address $client_address ) {
		$this->health    = $health;
		$this->callbacks = $callbacks;
		$this->clock     = $clock;
		$this->client_address = $client_address;
	}

	public function callback_url(): string {
		return rest_url( Keys::REST_NAMESPACE . Keys::CALLBACK_ROUTE );
	}

	/**
	 * The result of a signed params call, cached a minute per credentials.
	 * On a refusal, field names the setting at fault (partner_token,
	 * partner_secret or base_url; null when it is no setting's) and message
	 * says why, from the service's error.
	 *
	 * @param bool $fresh  Ask the service even when a cached answer exists (saving the settings); the answer is cached.
	 * @param bool $record Record the answer as the store's state (Service_Health); not for new credentials a save
	 *                     may yet refuse: the state, the status box and the checkout keep speaking of the saved ones.
	 * @return array{ok: bool, message: string, fee?: string, field?: string|null}
	 */
	public function check( Service_Door $gateway, bool $fresh = false, bool $record = true ): array {
		$config = $gateway->config();
		if ( ! $config->credentials()->complete() ) {
			return array(
				'ok'      => false,
				'message' => __( 'Enter the partner token and secret to connect.', 'card2crypto-checkout' ),
				'field'   => '' === $config->credentials()->token() ? 'partner_token' : 'partner_secret',
			);
		}
		$key    = $this->health->for_gateway( $gateway )->status_cache_key();
		$cached = $fresh ? false : get_transient( $key );
		if ( is_array( $cached ) ) {
			return $cached;
		}
		// The service's answer is recorded: the method is withdrawn while it refuses the store (Service_Health).
		$answer = $this->health->for_gateway( $gateway )->ask( Service_Lanes::ADMIN, $record );
		if ( $answer->ok() ) {
			$result = array(
				'ok'      => true,
				'message' => __( 'Connected: the service accepted a signed request with these credentials.', 'card2crypto-checkout' ),
				'fee'     => rtrim( rtrim( number_format( (float) $answer->fee() * 100, 4, '.', '' ), '0' ), '.' ) . '%',
			);
		} else {
			$result = array(
				'ok'      => false,
				/* translators: %s: why the service refused the credentials */
				'message' => sprintf( __( 'Not connected: %s', 'card2crypto-checkout' ), $answer->why() ),
				'field'   => $answer->field(),
			);
		}
		set_transient( $key, $result, MINUTE_IN_SECONDS );
		return $result;
	}

	/**
	 * @param Service_Door $gateway      The service gateway of the settings in use.
	 * @param bool            $refused_save Whether this request's save was refused: the box then says that
	 *                           it speaks of the saved settings, which are still the ones in use.
	 */
	public function render( Service_Door $gateway, bool $refused_save = false ): void {
		$config = $gateway->config();
		$status = $this->check( $gateway );
		if ( $refused_save ) {
			$status['message'] = $status['ok']
				? __( 'Still connected with the saved credentials: what you typed was not saved, and the store goes on using what was saved before.', 'card2crypto-checkout' )
				/* translators: %s: "Not connected: " and why the saved credentials do not work */
				: sprintf( __( 'What you typed was not saved; the saved credentials are still in use. %s', 'card2crypto-checkout' ), $status['message'] );
		}
		$health    = $this->callbacks->summary();
		$withdrawn = $this->health->for_gateway( $gateway )->owner_line();
		$clock     = $this->clock->last();
		$proxy     = Proxy_Words::owner_warning( $config->trust_proxy_header(), $this->client_address->forwarding_seen() );
		$warning   = ! $status['ok'] || $health['failing'] || null !== $withdrawn || null !== $clock || null !== $proxy;
		echo '<div class="card2crypto-status-box notice inline ' . ( $warning ? 'notice-warning' : 'notice-success' ) . '" style="padding:8px 12px">';
		echo '<p><strong data-card2crypto="connection">' . esc_html( $status['message'] ) . '</strong></p>';
		if ( null !== $withdrawn ) {
			echo '<p data-card2crypto="service-refused"><strong>' . esc_html( $withdrawn ) . '</strong></p>';
		}
		if ( null !== $proxy ) {
			echo '<p data-card2crypto="proxy-header-unset"><strong>' . esc_html( $proxy ) . '</strong></p>';
		}
		if ( null !== $clock ) {
			/* translators: 1: when the service last refused a request, 2: how far this server's clock is off */
			echo '<p data-card2crypto="clock-off"><strong>' . esc_html( sprintf( __( 'The service refused this server\'s requests for their time (last %1$s ago): %2$s Fix the server\'s clock (NTP); payments are not checked in the background until then.', 'card2crypto-checkout' ), human_time_diff( (int) $clock['at'], time() ), Clock_Refusal::words( isset( $clock['offset_ms'] ) ? (int) $clock['offset_ms'] : null ) ) ) . '</strong></p>';
		}
		if ( $health['failing'] ) {
			echo '<p data-card2crypto="callback-warning"><strong>' . esc_html__( 'Callbacks are being refused: none has been accepted since the last refusal, so orders may not be updated when buyers pay. See the reasons below and the logs.', 'card2crypto-checkout' ) . '</strong></p>';
		}
		if ( isset( $status['fee'] ) ) {
			/* translators: %s: percentage */
			echo '<p data-card2crypto="fee">' . esc_html( sprintf( __( 'Partner commission (service_fee): %s', 'card2crypto-checkout' ), $status['fee'] ) ) . '</p>';
		}
		echo '<p>' . esc_html__( 'Callback URL to give the service:', 'card2crypto-checkout' ) . ' <code data-card2crypto="callback-url">' . esc_html( $this->callback_url() ) . '</code></p>';
		echo '<p data-card2crypto="last-callback">' . esc_html( $this->last_callback_text( $health['verified'] ) ) . '</p>';
		echo '<p data-card2crypto="refused-callbacks">' . esc_html( $this->refused_text( $health ) ) . '</p>';
		if ( array() !== $health['refused'] ) {
			echo '<ul data-card2crypto="refused-reasons" style="list-style:disc;margin-left:2em">';
			foreach ( $health['refused'] as $reason => $count ) {
				/* translators: 1: why callbacks were refused, 2: how many */
				echo '<li data-reason="' . esc_attr( $reason ) . '">' . esc_html( sprintf( __( '%1$s: %2$d', 'card2crypto-checkout' ), $this->callbacks->reason_words( $reason ), $count ) ) . '</li>';
			}
			echo '</ul>';
		}
		echo '<p>' . esc_html( sprintf( /* translators: %s: sandbox or production */ __( 'Environment: %s', 'card2crypto-checkout' ), $config->environment() ) ) . '</p>';
		echo '<p><a data-card2crypto="logs-link" href="' . esc_url( $this->callbacks->logs_url() ) . '">' . esc_html__( 'View this plugin\'s logs (WooCommerce → Status → Logs)', 'card2crypto-checkout' ) . '</a></p>';
		echo '</div>';
	}

	/** "Last verified callback: <date> (<n> ago)", or that none arrived yet. */
	private function last_callback_text( ?int $verified ): string {
		if ( null === $verified ) {
			return __( 'Last verified callback: none received yet.', 'card2crypto-checkout' );
		}
		$format = get_option( 'date_format' ) . ' ' . get_option( 'time_format' );
		return sprintf(
			/* translators: 1: date and time, 2: how long ago, e.g. "5 mins" */
			__( 'Last verified callback: %1$s (%2$s ago).', 'card2crypto-checkout' ),
			(string) wp_date( (string) $format, $verified ),
			human_time_diff( $verified, time() )
		);
	}

	/** @param array{total: int} $health */
	private function refused_text( array $health ): string {
		if ( 0 === $health['total'] ) {
			return __( 'Callbacks refused in the last 24 hours: none.', 'card2crypto-checkout' );
		}
		/* translators: %d: number of callbacks */
		return sprintf( _n( 'Callbacks refused in the last 24 hours: %d, for these reasons:', 'Callbacks refused in the last 24 hours: %d, for these reasons:', $health['total'], 'card2crypto-checkout' ), $health['total'] );
	}
}

<?php
/**
 * Callback health for the store owner: when the last verified callback
 * arrived, and how many callbacks were refused in the last 24 hours and
 * why. Kept cheaply in one option (not autoloaded): counts per reason in
 * hourly buckets, pruned to the last 25 hours on each write; never a table
 * scan. Recording never throws: a callback's answer does not depend on it.
 *
 * Shown by the settings page's status box (Settings_Status) and, while
 * callbacks are being refused, by a notice on the other admin screens (which
 * also says when the service refuses the store: Service_Health).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Service;

use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Callback_Health implements Hooks {

	const OPTION = 'card2crypto_checkout_callback_health';

	/** Why callbacks are refused (Callback_Controller), in the order the status box lists them. */
	const SIGNATURE         = 'signature';
	const ALLOWLIST         = 'allowlist';
	const UNKNOWN_OPERATION = 'unknown_operation';
	const INVALID           = 'invalid';
	const TOO_LARGE         = 'too_large';
	const RATE_LIMITED      = 'rate_limited';
	const NO_SECRET         = 'no_secret';
	const NOT_TAKEN_IN      = 'not_taken_in';

	const REASONS = array( self::SIGNATURE, self::ALLOWLIST, self::UNKNOWN_OPERATION, self::INVALID, self::TOO_LARGE, self::RATE_LIMITED, self::NO_SECRET, self::NOT_TAKEN_IN );

	const WINDOW = 86400;

	/** @var Config */
	private $config;

	/** @var Service_Health */
	private $health;

	public function __construct( Config $config, Service_Health $health ) {
		$this->config = $config;
		$this->health = $health;
	}

	public function register(): void {
		// The owner's screens only.
		if ( ! is_admin() ) {
			return;
		}
		add_action( 'admin_notices', array( $this, 'notice' ) );
	}

	/** A verified callback for an order of this store arrived. */
	public function record_verified( ?int $now = null ): void {
		try {
			$data             = $this->load();
			$data['verified'] = $now ?? time();
			update_option( self::OPTION, $data, false );
		} catch ( \Throwable $e ) {
			// Never in the way of a callback's answer.
			unset( $e );
		}
	}

	/** A callback was refused (or, for an unknown operation, ignored) for $reason. */
	public function record_refused( string $reason, ?int $now = null ): void {
		try {
			$now    = $now ?? time();
			$reason = in_array( $reason, self::REASONS, true ) ? $reason : self::INVALID;
			$data   = $this->load();
			$hour   = (string) ( $now - $now % 3600 );
			$data['refused_at']                = $now;
			$data['hours'][ $hour ][ $reason ] = (int) ( $data['hours'][ $hour ][ $reason ] ?? 0 ) + 1;
			foreach ( array_keys( $data['hours'] ) as $start ) {
				if ( (int) $start < $now - self::WINDOW - 3600 ) {
					unset( $data['hours'][ $start ] );
				}
			}
			update_option( self::OPTION, $data, false );
		} catch ( \Throwable $e ) {
			unset( $e );
		}
	}

	/**
	 * @return array{verified: int|null, refused_at: int|null, refused: array<string, int>, total: int, failing: bool}
	 *         refused: counts by reason over the last 24 hours (whole hours); failing: some refused
	 *         in the last 24 hours and no verified callback since the last refusal.
	 */
	public function summary( ?int $now = null ): array {
		$now     = $now ?? time();
		$data    = $this->load();
		$refused = array();
		foreach ( $data['hours'] as $start => $counts ) {
			if ( (int) $start + 3600 <= $now - self::WINDOW || ! is_array( $counts ) ) {
				continue;
			}
			foreach ( $counts as $reason => $count ) {
				$refused[ $reason ] = ( $refused[ $reason ] ?? 0 ) + (int) $count;
			}
		}
		$ordered = array();
		foreach ( self::REASONS as $reason ) {
			if ( ! empty( $refused[ $reason ] ) ) {
				$ordered[ $reason ] = $refused[ $reason ];
			}
		}
		$total      = array_sum( $ordered );
		$verified   = isset( $data['verified'] ) ? (int) $data['verified'] : null;
		$refused_at = isset( $data['refused_at'] ) ? (int) $data['refused_at'] : null;
		return array(
			'verified'   => $verified,
			'refused_at' => $refused_at,
			'refused'    => $ordered,
			'total'      => $total,
			'failing'    => $total > 0 && null !== $refused_at && ( null === $verified || $refused_at > $verified ),
		);
	}

	/** A reason in words. */
	public function reason_words( string $reason ): string {
		switch ( $reason ) {
			case self::SIGNATURE:
				return __( 'wrong signature (the partner secret does not match)', 'card2crypto-checkout' );
			case self::ALLOWLIST:
				return __( 'sender not in the callback IP allowlist', 'card2crypto-checkout' );
			case self::UNKNOWN_OPERATION:
				return __( 'unknown operation (not an order of this store)', 'card2crypto-checkout' );
			case self::TOO_LARGE:
				return __( 'body too large', 'card2crypto-checkout' );
			case self::RATE_LIMITED:
				return __( 'rate limited after repeated refusals', 'card2crypto-checkout' );
			case self::NO_SECRET:
				return __( 'no partner secret configured', 'card2crypto-checkout' );
			case self::NOT_TAKEN_IN:
				return __( 'could not be applied to its order (the service sends it again)', 'card2crypto-checkout' );
			default:
				return __( 'empty, unreadable or invalid body', 'card2crypto-checkout' );
		}
	}

	/** WooCommerce → Status → Logs, showing the plugin's source. */
	public function logs_url(): string {
		return admin_url( 'admin.php?page=wc-status&tab=logs&source=card2crypto-checkout' );
	}

	/**
	 * On admin screens other than the payment method's settings page (whose
	 * status box says it), while callbacks are being refused or the service
	 * refuses the store (the method is withdrawn).
	 */
	public function notice(): void {
		if ( ! current_user_can( 'manage_woocommerce' ) ) {
			return;
		}
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- Only decides where a notice is shown.
		$section = isset( $_GET['section'] ) ? sanitize_key( wp_unslash( $_GET['section'] ) ) : '';
		if ( Keys::GATEWAY_ID === $section ) {
			return;
		}
		$summary   = $this->summary();
		$withdrawn = $this->health->owner_line();
		if ( ! $summary['failing'] && null === $withdrawn ) {
			return;
		}
		$settings = admin_url( 'admin.php?page=wc-settings&tab=checkout&section=' . Keys::GATEWAY_ID );
		echo '<div class="notice notice-error card2crypto-callback-health">';
		if ( null !== $withdrawn ) {
			// The service refuses the store (Service_Health): the same notice, one more line.
			echo '<p data-card2crypto="service-refused"><strong>' . esc_html__( 'Card2Crypto:', 'card2crypto-checkout' ) . '</strong> ' . esc_html( $withdrawn )
				. ' <a href="' . esc_url( $settings ) . '">' . esc_html__( 'See the payment settings', 'card2crypto-checkout' ) . '</a></p>';
		}
		if ( ! $summary['failing'] ) {
			echo '</div>';
			return;
		}
		echo '<p><strong>'
			. esc_html(
				sprintf(
					/* translators: %d: number of callbacks */
					_n( 'Card2Crypto: %d payment callback was refused in the last 24 hours, and none has been accepted since.', 'Card2Crypto: %d payment callbacks were refused in the last 24 hours, and none has been accepted since.', $summary['total'], 'card2crypto-checkout' ),
					$summary['total']
				)
			)
			. '</strong> ' . esc_html__( 'Orders may not be updated when buyers pay.', 'card2crypto-checkout' )
			. ' <a href="' . esc_url( $settings ) . '">' . esc_html__( 'See why in the payment settings', 'card2crypto-checkout' ) . '</a> | '
			. '<a href="' . esc_url( $this->logs_url() ) . '">' . esc_html__( 'View the logs', 'card2crypto-checkout' ) . '</a></p></div>';
	}

	/** @return array{verified?: int, refused_at?: int, hours: array<string, array<string, int>>} */
	private function load(): array {
		$data = get_option( self::OPTION, array() );
		$data = is_array( $data ) ? $data : array();
		if ( ! isset( $data['hours'] ) || ! is_array( $data['hours'] ) ) {
			$data['hours'] = array();
		}
		return $data;
	}
}

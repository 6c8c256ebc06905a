<?php
/**
 * Do the widget's credentials work? The shared credentials check
 * (Credentials_Check: a signed params request, the checkout's too) answers
 * it. Asked:
 *
 * - when a save changes the token, the secret, the environment or the API
 *   address: a refusal refuses the save (Settings_Page writes nothing and
 *   shows why next to the field);
 * - when the site admin presses "Check the connection now" on the settings
 *   page;
 * - in the background (WP-Cron), when the last answer for the credentials
 *   in use is older than CHECK_EVERY or there is none (credentials set in
 *   wp-config.php, the service blocking the partner later, a secret rotated
 *   at the service).
 *
 * The last answer is kept per credentials (a keyed hash, never the secret)
 * so that the site admin is told on every admin screen when visitors cannot
 * use the widget; the visitors themselves only see the block's short
 * "unavailable right now".
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Connection;

use Card2Crypto\Widget\Settings\Settings_Address;
use Card2Crypto\Widget\Settings\Widget_Config;
use Card2Crypto\Widget\Settings\Widget_Settings;
use Card2Crypto\Widget\Shared\Api\Credentials_Check;
use Card2Crypto\Widget\Shared\Hooks;
use Card2Crypto\Widget\Shared\Settings\Settings_Store;

defined( 'ABSPATH' ) || exit;

final class Connection_Check implements Hooks {

	/** The last answer: { fingerprint, ok, why, field, at }. Not autoloaded: read on admin screens only. */
	const STATUS_OPTION = 'card2crypto_widget_connection';

	/** The background check (WP-Cron single event). */
	const CRON_HOOK = 'card2crypto_widget_check_connection';

	/** The "Check the connection now" button's admin-post action (and its nonce action). */
	const ACTION = 'card2crypto_widget_check_connection';

	/** How old an answer may be before the background asks again. */
	const CHECK_EVERY = 6 * HOUR_IN_SECONDS;

	/** @var Widget_Settings */
	private $settings;

	/** @var Credentials_Check */
	private $check;

	public function __construct( Widget_Settings $settings, Credentials_Check $check ) {
		$this->settings = $settings;
		$this->check    = $check;
	}

	/** The admin's notice, the settings page's "Check the connection now" button, the background check. */
	public function register(): void {
		add_action( 'admin_notices', array( $this, 'notice' ) );
		add_action( 'admin_post_' . self::ACTION, array( $this, 'check_now' ) );
		add_action( self::CRON_HOOK, array( $this, 'run_scheduled' ) );
	}

	private function store(): Settings_Store {
		return $this->settings->store();
	}

	/**
	 * Settings_Page's check of a save that passed the rules: asks the service
	 * when the save changes how it is reached, and refuses the save when the
	 * service refuses the new credentials.
	 *
	 * @param array<string, mixed> $values What the save would write (stored form).
	 * @return array{field: string, why: string}|null
	 */
	public function on_save( array $values ): ?array {
		$candidate = $this->store()->effective_of( $values );
		if ( '' === $candidate['partner_token'] || '' === $candidate['partner_secret'] || $this->fingerprint( $candidate ) === $this->fingerprint( $this->current() ) ) {
			return null;
		}
		// Kept only when the save goes through: a refused save leaves the answer about the saved credentials,
		// which the status box goes on showing (they are still the ones in use).
		$answer = $this->ask( $candidate, false );
		if ( $answer['ok'] ) {
			update_option( self::STATUS_OPTION, $answer, false );
			add_settings_error( $this->store()->option_name(), 'c2c-connected', __( 'Settings saved. The service accepted the partner token and secret.', 'card2crypto-widget' ), 'success' );
			return null;
		}
		return array(
			'field' => $answer['field'] ?? 'partner_token',
			/* translators: %s: why the service refuses the credentials */
			'why'   => sprintf( __( 'Not connected: %s', 'card2crypto-widget' ), $answer['why'] ),
		);
	}

	/**
	 * Asks the service with these settings and, with $keep, keeps the answer for them.
	 *
	 * @param array<string, mixed> $values Effective values by field id.
	 * @param bool                 $keep   Keep it as the last answer (a save's candidate is kept only once saved).
	 * @return array{ok: bool, why: string, field: string|null, at: int, fingerprint: string}
	 */
	public function ask( array $values, bool $keep = true ): array {
		// The admin waits on it (a save, the check button): Credentials_Check::TIMEOUT.
		$answer                = $this->check->ask_settings( $values )->to_array();
		$answer['fingerprint'] = $this->fingerprint( $values );
		if ( $keep ) {
			update_option( self::STATUS_OPTION, $answer, false );
		}
		return $answer;
	}

	/** The settings in use, by field id (the secret included: for asking the service only). */
	private function current(): array {
		return Widget_Config::from_store( $this->store() )->values();
	}

	/**
	 * The last answer about the settings in use, null when there is none.
	 *
	 * @return array{ok: bool, why: string, field: string|null, at: int}|null
	 */
	public function last(): ?array {
		$current = $this->current();
		if ( '' === $current['partner_token'] || '' === $current['partner_secret'] ) {
			return null;
		}
		$answer = get_option( self::STATUS_OPTION, null );
		return is_array( $answer ) && ( $answer['fingerprint'] ?? '' ) === $this->fingerprint( $current ) && is_int( $answer['at'] ?? null ) ? $answer : null;
	}

	/**
	 * A keyed hash of what decides whether the service accepts the widget:
	 * equal settings give equal hashes, and the stored hash reveals nothing.
	 *
	 * @param array<string, mixed> $values
	 */
	private function fingerprint( array $values ): string {
		$parts = array();
		foreach ( array( 'environment', 'base_url', 'partner_token', 'partner_secret' ) as $id ) {
			$parts[] = (string) ( $values[ $id ] ?? '' );
		}
		return hash_hmac( 'sha256', implode( "\n", $parts ), wp_salt( 'auth' ) );
	}

	/**
	 * On admin_notices, for those who may change the settings: the widget is
	 * unavailable to visitors, why, and where to fix it. A missing or old
	 * answer schedules a background check instead.
	 */
	public function notice(): void {
		if ( ! current_user_can( Settings_Address::CAPABILITY ) ) {
			return;
		}
		$last = $this->last();
		if ( ( null === $last || $last['at'] < time() - self::CHECK_EVERY ) && $this->has_credentials() && false === wp_next_scheduled( self::CRON_HOOK ) ) {
			wp_schedule_single_event( time(), self::CRON_HOOK );
		}
		$screen = function_exists( 'get_current_screen' ) ? get_current_screen() : null;
		// The settings page says it in its own status box.
		if ( null === $last || $last['ok'] || ( null !== $screen && 'settings_page_' . Settings_Address::PAGE_SLUG === $screen->id ) ) {
			return;
		}
		echo '<div class="notice notice-error card2crypto-widget-connection"><p><strong>'
			/* translators: %s: why the service refuses the widget's credentials */
			. esc_html( sprintf( __( 'Card2Crypto Widget: visitors cannot use the purchase widget, because the service refuses this site\'s credentials: %s', 'card2crypto-widget' ), $last['why'] ) )
			. '</strong> <a href="' . esc_url( Settings_Address::url() ) . '">' . esc_html__( 'Check the credentials in Settings → Card2Crypto Widget', 'card2crypto-widget' ) . '</a></p></div>';
	}

	private function has_credentials(): bool {
		return '' !== $this->store()->get( 'partner_token' ) && '' !== $this->store()->get( 'partner_secret' );
	}

	/** The background check (WP-Cron). */
	public function run_scheduled(): void {
		if ( $this->has_credentials() ) {
			$this->ask( $this->current() );
		}
	}

	/** The status line above the settings form, with the "Check the connection now" button. */
	public function render_status(): void {
		$last = $this->has_credentials() ? $this->last() : null;
		if ( ! $this->has_credentials() ) {
			$line  = __( 'Enter the partner token and secret: the widget cannot start without them.', 'card2crypto-widget' );
			$class = 'notice-warning';
		} elseif ( null === $last ) {
			$line  = __( 'The connection has not been checked yet with these credentials.', 'card2crypto-widget' );
			$class = 'notice-info';
		} elseif ( $last['ok'] ) {
			/* translators: %s: how long ago, e.g. "5 mins" */
			$line  = sprintf( __( 'Connected: the service accepted a signed request with these credentials (checked %s ago).', 'card2crypto-widget' ), human_time_diff( $last['at'], time() ) );
			$class = 'notice-success';
		} else {
			/* translators: %s: why the service refuses the credentials */
			$line  = sprintf( __( 'Not connected: %s Visitors see "unavailable right now" instead of the widget.', 'card2crypto-widget' ), $last['why'] );
			$class = 'notice-error';
		}
		echo '<div class="notice inline ' . esc_attr( $class ) . '" data-card2crypto="widget-connection"><p>' . esc_html( $line ) . '</p>';
		if ( $this->has_credentials() ) {
			echo '<form method="post" action="' . esc_url( admin_url( 'admin-post.php' ) ) . '"><input type="hidden" name="action" value="' . esc_attr( self::ACTION ) . '" />';
			wp_nonce_field( self::ACTION );
			echo '<p><button type="submit" class="button">' . esc_html__( 'Check the connection now', 'card2crypto-widget' ) . '</button></p></form>';
		}
		echo '</div>';
	}

	/** The button's admin-post handler: capability and nonce, one check, back to the page. */
	public function check_now(): void {
		if ( ! current_user_can( Settings_Address::CAPABILITY ) ) {
			wp_die( esc_html__( 'Sorry, you are not allowed to manage these settings.', 'card2crypto-widget' ), 403 );
		}
		check_admin_referer( self::ACTION );
		if ( $this->has_credentials() ) {
			$this->ask( $this->current() );
		}
		wp_safe_redirect( Settings_Address::url() );
		exit;
	}
}

<?php
/**
 * Where the money goes is the owner's to know (issue 31, point 7): a shop
 * manager may change the wallet address, the address mode, the extended
 * public key and the partner credentials, and every change of them is
 * e-mailed to the site's administration address (Payout_Change_Email,
 * through WooCommerce's mailer) and written to the plugin's log, saying who,
 * when, from where, and what changed: the old and new address, the key's
 * fingerprint, the token's last four characters, the secret only "changed".
 * Never the key or the secret themselves.
 *
 * Every save path ends in update_option() or add_option() of the settings
 * option or of a secret's own option (the settings form, PUT
 * /wc/v3/payment_gateways/card2crypto, /wc-admin/options, WP-CLI, code), so
 * the options' own hooks are watched, not a form: the values are read before
 * the request's first write of any of them, and compared once with what is
 * stored when the request ends. One save is one message, however many
 * options it wrote; a save that changed none of these values sends nothing.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Settings;

use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Shared\Hooks;
use Card2Crypto\Checkout\Shared\Settings\Field_View;
use Card2Crypto\Checkout\Shared\Settings\Settings_Store;

defined( 'ABSPATH' ) || exit;

final class Payout_Change_Notice implements Hooks {

	/** The settings that decide where the money goes, in the order a message lists them. */
	const FIELDS = array( 'wallet_mode', 'wallet_address', 'wallet_key_secret', 'partner_token', 'partner_secret' );

	/** @var Settings_Store */
	private $store;

	/** @var array<string, string>|null The values before this request's first write of the watched options. */
	private $before = null;

	/** @var string[] The watched options: the settings option and the secret options of FIELDS. */
	private $names = array();

	public function __construct( Settings_Store $store ) {
		$this->store = $store;
	}

	/** Watches the writes of the settings option and of the key's and the secret's own options. */
	public function register(): void {
		$this->names = array( $this->store->option_name() );
		foreach ( self::FIELDS as $id ) {
			if ( in_array( $id, $this->store->secret_ids(), true ) ) {
				$this->names[] = $this->store->secret_option_name( $id );
			}
		}
		foreach ( $this->names as $name ) {
			add_filter( 'pre_update_option_' . $name, array( $this, 'before_update' ), 10, 3 );
		}
		add_action( 'add_option', array( $this, 'before_add' ), 10, 1 );
	}

	/**
	 * Before update_option() writes one of the watched options (after its
	 * sanitize_option filter, which may itself write a secret's option first).
	 *
	 * @param mixed $value
	 * @param mixed $old_value
	 * @return mixed The value, unchanged.
	 */
	public function before_update( $value, $old_value = null, $option = '' ) {
		$this->remember();
		return $value;
	}

	/** @param string $option Before add_option() writes an option. */
	public function before_add( $option ): void {
		if ( in_array( $option, $this->names, true ) ) {
			$this->remember();
		}
	}

	/** The values as stored before the first write, and the one look at the end of the request. */
	private function remember(): void {
		if ( null !== $this->before ) {
			return;
		}
		$this->before = $this->values();
		add_action( 'shutdown', array( $this, 'report' ) );
	}

	/**
	 * FIELDS as stored (trimmed; the mode's default when unset): the settings
	 * option, each secret from its own option (or, saved by an older version,
	 * from the settings option, so that moving it there is no change).
	 *
	 * @return array<string, string>
	 */
	private function values(): array {
		$main   = get_option( $this->store->option_name(), array() );
		$main   = is_array( $main ) ? $main : array();
		$fields = $this->store->fields();
		$values = array();
		foreach ( self::FIELDS as $id ) {
			$raw = $main[ $id ] ?? null;
			if ( ! empty( $fields[ $id ]['secret'] ) ) {
				$saved = get_option( $this->store->secret_option_name( $id ), null );
				if ( is_array( $saved ) && isset( $saved['value'] ) && is_string( $saved['value'] ) && '' !== $saved['value'] ) {
					$raw = $saved['value'];
				}
			}
			$value = is_string( $raw ) ? trim( $raw ) : '';
			if ( '' === $value && isset( $fields[ $id ] ) && ! empty( $fields[ $id ]['options'] ) ) {
				$value = (string) $fields[ $id ]['default'];
			}
			$values[ $id ] = $value;
		}
		return $values;
	}

	/** At the end of a request that wrote a watched option: the message and the log line, when a value changed. */
	public function report(): void {
		if ( null === $this->before ) {
			return;
		}
		$before       = $this->before;
		$this->before = null;
		$after        = $this->values();
		$view         = new Field_View( $this->store );
		$fields       = $this->store->fields();
		$changes      = array();
		$logged       = array();
		foreach ( self::FIELDS as $id ) {
			if ( $before[ $id ] === $after[ $id ] || ! isset( $fields[ $id ] ) ) {
				continue;
			}
			$field = $fields[ $id ];
			if ( 'partner_secret' === $id ) {
				// Never shown, not even in part: only that it changed.
				$changes[] = array(
					'label'  => $view->label( $field ),
					'before' => '—',
					'after'  => __( 'changed (never shown)', 'card2crypto-checkout' ),
				);
				$logged[]  = $field['label'] . ': changed (never shown)';
				continue;
			}
			$changes[] = array(
				'label'  => $view->label( $field ),
				'before' => $this->shown( $view, $field, $before[ $id ], true ),
				'after'  => $this->shown( $view, $field, $after[ $id ], true ),
			);
			$logged[]  = $field['label'] . ': ' . $this->shown( $view, $field, $before[ $id ], false ) . ' -> ' . $this->shown( $view, $field, $after[ $id ], false );
		}
		if ( array() === $changes ) {
			return;
		}
		$to      = (string) get_option( 'admin_email' );
		$context = $this->context();
		$sent    = is_email( $to ) && $this->mail( $to, $changes, $context );
		Log::notice(
			sprintf(
				'Where the money goes was changed by %s at %s from %s through %s: %s. %s',
				$context['who_log'],
				$context['when'],
				$context['from'],
				$context['through'],
				implode( '; ', $logged ),
				$sent ? 'The site\'s administration address (' . $to . ') was e-mailed.' : 'The e-mail to the site\'s administration address (' . $to . ') could not be sent.'
			)
		);
	}

	/**
	 * Through WooCommerce's mailer (Payout_Change_Email: the store's sender,
	 * WooCommerce's e-mail template), else plain wp_mail().
	 *
	 * @param array<int, array{label: string, before: string, after: string}> $changes
	 * @param array<string, string>                                          $context context()
	 */
	private function mail( string $to, array $changes, array $context ): bool {
		$parts = function () use ( $to, $changes, $context ): array {
			return $this->parts( $to, $changes, $context );
		};
		if ( function_exists( 'WC' ) && WC()->mailer() && class_exists( 'WC_Email' ) ) {
			return ( new Payout_Change_Email() )->deliver_to( $to, $parts );
		}
		$words = $parts();
		$text  = $words['intro'] . "\n\n";
		foreach ( $words['details'] as $row ) {
			$text .= $row[0] . ': ' . $row[1] . "\n";
		}
		$text .= "\n";
		foreach ( $words['changes'] as $row ) {
			$text .= $row[0] . ': ' . $row[1] . ' -> ' . $row[2] . "\n";
		}
		$text .= "\n" . implode( "\n\n", $words['closing'] ) . "\n\n" . $words['settings_url'] . "\n";
		/* translators: %s: site name */
		return wp_mail( $to, sprintf( __( '[%s] Where card payments go was changed', 'card2crypto-checkout' ), wp_specialchars_decode( get_bloginfo( 'name' ), ENT_QUOTES ) ), $text );
	}

	/**
	 * The message's words, in the language of the moment they are asked
	 * (the e-mail switches to the site's language first).
	 *
	 * @param array<int, array{label: string, before: string, after: string}> $changes
	 * @param array<string, string>                                          $context
	 * @return array{intro: string, details: array<int, array{0: string, 1: string}>, columns: array<int, string>, changes: array<int, array{0: string, 1: string, 2: string}>, closing: string[], settings_url: string, settings_link: string}
	 */
	private function parts( string $to, array $changes, array $context ): array {
		$rows = array();
		foreach ( $changes as $change ) {
			$rows[] = array( $change['label'], $change['before'], $change['after'] );
		}
		return array(
			/* translators: %s: the site's address */
			'intro'         => sprintf( __( 'Settings of the card payment method on %s that decide where the money goes were changed.', 'card2crypto-checkout' ), home_url() ),
			'details'       => array(
				array( __( 'Changed by', 'card2crypto-checkout' ), $context['who'] ),
				array( __( 'When', 'card2crypto-checkout' ), $context['when'] ),
				array( __( 'From address', 'card2crypto-checkout' ), $context['from'] ),
				array( __( 'Through', 'card2crypto-checkout' ), $context['through'] ),
			),
			'columns'       => array( __( 'Setting', 'card2crypto-checkout' ), __( 'Before', 'card2crypto-checkout' ), __( 'After', 'card2crypto-checkout' ) ),
			'changes'       => $rows,
			'closing'       => array(
				__( 'New payments go where the settings now say. If you did not expect this change, sign in and check the payment method\'s settings now, and change the passwords of the users who may edit them.', 'card2crypto-checkout' ),
				__( 'The key\'s fingerprint is the first 8 hex digits of the SHA-256 of the key as saved; the partner token shows its last 4 characters. The key and the secret are never sent.', 'card2crypto-checkout' ),
				/* translators: %s: e-mail address */
				sprintf( __( 'This e-mail goes to %s, the site\'s administration address, after every such change; it cannot be turned off.', 'card2crypto-checkout' ), $to ),
			),
			'settings_url'  => admin_url( 'admin.php?page=wc-settings&tab=checkout&section=' . Keys::GATEWAY_ID ),
			'settings_link' => __( 'Open the payment method\'s settings', 'card2crypto-checkout' ),
		);
	}

	/**
	 * How a value is shown: an address as it is, the mode by its option's
	 * label, the key by its fingerprint, the token by its last four
	 * characters (the secret is never shown: report() says only "changed").
	 *
	 * @param bool $translated The reader's language (the e-mail) or English (the log).
	 */
	private function shown( Field_View $view, array $field, string $value, bool $translated ): string {
		if ( '' === $value ) {
			return $translated ? __( '(none)', 'card2crypto-checkout' ) : '(none)';
		}
		if ( 'wallet_key_secret' === $field['id'] ) {
			/* translators: %s: the first 8 hex digits of the SHA-256 of the extended public key */
			return sprintf( $translated ? __( 'fingerprint %s', 'card2crypto-checkout' ) : 'fingerprint %s', $this->fingerprint( $value ) );
		}
		if ( 'partner_token' === $field['id'] ) {
			return $this->masked( $value );
		}
		if ( ! empty( $field['options'] ) ) {
			foreach ( $field['options'] as $option ) {
				if ( $option['value'] === $value ) {
					return $translated ? $view->t( $option['label'] ) : $option['label'];
				}
			}
		}
		return $value;
	}

	/** The first 8 hex digits of the SHA-256 of the key as saved: tells two keys apart, reveals neither. */
	private function fingerprint( string $key ): string {
		return substr( hash( 'sha256', $key ), 0, 8 );
	}

	/** The last four characters after an ellipsis (a token of four characters or fewer shows none). */
	private function masked( string $token ): string {
		return 1 === preg_match( '/^.+(.{4})$/su', $token, $m ) ? '…' . $m[1] : '…';
	}

	/**
	 * Who made the change, when, from which address, through what.
	 *
	 * @return array{who: string, who_log: string, when: string, from: string, through: string}
	 */
	private function context(): array {
		$user = wp_get_current_user();
		if ( $user->exists() ) {
			/* translators: 1: display name, 2: login name, 3: user id */
			$who     = sprintf( __( '%1$s (login "%2$s", user %3$d)', 'card2crypto-checkout' ), $user->display_name, $user->user_login, $user->ID );
			$who_log = sprintf( '%1$s (login "%2$s", user %3$d)', $user->display_name, $user->user_login, $user->ID );
		} else {
			$who     = __( 'no signed-in user (WP-CLI, a scheduled task or code on the site)', 'card2crypto-checkout' );
			$who_log = 'no signed-in user (WP-CLI, a scheduled task or code on the site)';
		}
		$from   = isset( $_SERVER['REMOTE_ADDR'] ) ? sanitize_text_field( wp_unslash( $_SERVER['REMOTE_ADDR'] ) ) : '';
		$method = isset( $_SERVER['REQUEST_METHOD'] ) ? strtoupper( sanitize_text_field( wp_unslash( $_SERVER['REQUEST_METHOD'] ) ) ) : '';
		global $wp;
		if ( defined( 'WP_CLI' ) && WP_CLI ) {
			$through = 'WP-CLI';
		} elseif ( wp_doing_cron() ) {
			$through = 'WP-Cron';
		} elseif ( defined( 'REST_REQUEST' ) && REST_REQUEST && $wp instanceof \WP && isset( $wp->query_vars['rest_route'] ) && is_string( $wp->query_vars['rest_route'] ) ) {
			$through = 'REST API ' . $method . ' ' . sanitize_text_field( $wp->query_vars['rest_route'] );
		} else {
			// The path only: a query string may hold an API key's secret.
			$path    = isset( $_SERVER['REQUEST_URI'] ) ? (string) wp_parse_url( sanitize_text_field( wp_unslash( $_SERVER['REQUEST_URI'] ) ), PHP_URL_PATH ) : '';
			$through = trim( $method . ' ' . $path );
		}
		return array(
			'who'     => $who,
			'who_log' => $who_log,
			'when'    => wp_date( 'Y-m-d H:i:s T' ),
			'from'    => '' === $from ? '-' : $from,
			'through' => '' === $through ? '-' : $through,
		);
	}
}

<?php
/**
 * What a settings page shows for one schema field, in the plugin's text
 * domain: translated label, help, placeholder and options, the value to
 * show (never a secret's), and notes for constants and saved secrets.
 * Both renderers (WooCommerce form fields, Settings API page) use it, so
 * both plugins' pages say the same things the same way.
 *
 * Text domain: the literal 'card2crypto-shared' is replaced by the plugin's
 * own text domain when the build copies the library into a plugin, so
 * translation tools find every string with its real domain.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Settings;

final class Field_View {

	/** @var Settings_Store */
	private $store;

	public function __construct( Settings_Store $store ) {
		$this->store = $store;
	}

	public function store(): Settings_Store {
		return $this->store;
	}

	/** Translates a schema string (the build writes every one into lib/i18n-schema-strings.php for translators). */
	public function t( string $text ): string {
		// phpcs:ignore WordPress.WP.I18n.NonSingularStringLiteralText -- schema strings, listed for translators at build time.
		return '' === $text ? '' : __( $text, 'card2crypto-shared' );
	}

	public function label( array $field ): string {
		return $this->t( $field['label'] );
	}

	/** Help text, plus the constant or saved-secret note. Plain text: escape on output. */
	public function help( array $field ): string {
		$help = $this->t( $field['help'] );
		$note = $this->note( $field );
		return '' === $note ? $help : $help . ' ' . $note;
	}

	/** The note that says a constant overrides the field, whether a secret is saved, or that a saved language shows English. */
	public function note( array $field ): string {
		$constant = $this->store->constant_for( $field['id'] );
		if ( null !== $constant ) {
			/* translators: %s: name of a PHP constant, e.g. CARD2CRYPTO_PARTNER_SECRET */
			return sprintf( __( 'Set in wp-config.php by %s: that value is used and this field is ignored.', 'card2crypto-shared' ), $constant );
		}
		if ( ! empty( $field['secret'] ) ) {
			if ( self::kept_as_key( $field ) ) {
				// A public key: kept out of pages, yet no secret, and never called one.
				return $this->store->has_stored_secret( $field['id'] )
					? __( 'A key is saved. It is never shown; leave the field empty to keep it.', 'card2crypto-shared' )
					: __( 'No key is saved yet.', 'card2crypto-shared' );
			}
			return $this->store->has_stored_secret( $field['id'] )
				? __( 'A secret is saved. It is never shown; leave the field empty to keep it.', 'card2crypto-shared' )
				: __( 'No secret is saved yet.', 'card2crypto-shared' );
		}
		$language = self::is_language( $field ) ? $this->unoffered_language( $field, $this->form_value( $field ) ) : '';
		if ( '' !== $language ) {
			/* translators: %s: a language name and code, e.g. Japanese (ja) */
			return sprintf( __( 'The payment page is not offered in %s: buyers see it in English.', 'card2crypto-shared' ), $language );
		}
		return '';
	}

	/**
	 * For a language field whose value is an ISO 639-1 code the payment page is
	 * not offered in (an older save): that language's name and code, e.g.
	 * "Japanese (ja)"; "" otherwise.
	 */
	public function unoffered_language( array $field, string $value ): string {
		$schema = $this->store->schema();
		if ( ! self::is_language( $field ) || '' === $value || $schema->is_payment_page_language( $value ) || ! $schema->is_language_code( $value ) ) {
			return '';
		}
		return $schema->language_name( $value ) . ' (' . $value . ')';
	}

	private static function is_language( array $field ): bool {
		return 'lang' === ( $field['rule']['kind'] ?? '' );
	}

	/** After a refused save: the value typed into a field that is never shown back must be typed again. */
	public function not_saved( array $field ): string {
		return self::kept_as_key( $field )
			? __( 'The key you entered was not saved: enter it again.', 'card2crypto-shared' )
			: __( 'The secret you entered was not saved: enter it again.', 'card2crypto-shared' );
	}

	/** Whether the schema calls the field's hidden value a key (keptAs), not a secret. */
	private static function kept_as_key( array $field ): bool {
		return 'key' === ( $field['keptAs'] ?? '' );
	}

	public function placeholder( array $field ): string {
		if ( ! empty( $field['secret'] ) && $this->store->has_stored_secret( $field['id'] ) && null === $this->store->constant_for( $field['id'] ) ) {
			return self::kept_as_key( $field ) ? __( 'A key is saved', 'card2crypto-shared' ) : __( 'A secret is saved', 'card2crypto-shared' );
		}
		return isset( $field['placeholder'] ) ? (string) $field['placeholder'] : '';
	}

	/**
	 * The select's options; a saved language the payment page is not offered
	 * in stays listed (last, "Japanese (ja): shown in English"), so saving the
	 * page again does not change it unseen.
	 *
	 * @return array<string, string> value => translated label
	 */
	public function options( array $field ): array {
		$options = array();
		foreach ( $field['options'] ?? array() as $option ) {
			$options[ (string) $option['value'] ] = $this->t( $option['label'] );
		}
		$value    = self::is_language( $field ) ? $this->form_value( $field ) : '';
		$language = $this->unoffered_language( $field, $value );
		if ( '' !== $language && ! isset( $options[ $value ] ) ) {
			/* translators: %s: a language name and code, e.g. Japanese (ja) */
			$options[ $value ] = sprintf( __( '%s: shown in English', 'card2crypto-shared' ), $language );
		}
		return $options;
	}

	/** The value to put into the form: stored (or default); never a secret; "" when a constant overrides. */
	public function form_value( array $field ): string {
		if ( ! empty( $field['secret'] ) || null !== $this->store->constant_for( $field['id'] ) ) {
			return '';
		}
		$stored = $this->store->stored();
		$value  = Settings_Validator::from_stored( array_key_exists( $field['id'], $stored ) ? $stored[ $field['id'] ] : $field['default'], $field );
		return is_bool( $value ) ? ( $value ? 'yes' : 'no' ) : $value;
	}

	public function is_locked( array $field ): bool {
		return null !== $this->store->constant_for( $field['id'] );
	}

	/**
	 * Whether the field is the partner's (partnerOnly: the service's
	 * environment and addresses) and the current user may not change it:
	 * shown read-only, with partner_only_line() saying why.
	 */
	public function is_partner_locked( array $field ): bool {
		return ! empty( $field['partnerOnly'] ) && ! $this->store->may_change_partner_settings();
	}

	/** Why a partner's field is read-only for this user. */
	public function partner_only_line(): string {
		return __( 'Read-only for you: the payment service\'s environment and addresses are your partner\'s, not the shop\'s, and only a user who may add unfiltered code (an administrator; on a multisite network, a super admin) can change them.', 'card2crypto-shared' );
	}

	/** Maximum length for the input, from a rule that has one (text, wallet_key). */
	public function max_length( array $field ): ?int {
		return in_array( $field['rule']['kind'], array( 'text', 'wallet_key' ), true ) && isset( $field['rule']['maxLength'] ) ? (int) $field['rule']['maxLength'] : null;
	}

	/** @return array<string, array{id: string, label: string}> Groups by id, translated. */
	public function groups(): array {
		$groups = array();
		foreach ( $this->store->schema()->groups( $this->store->plugin() ) as $group ) {
			$groups[ $group['id'] ] = array(
				'id'    => $group['id'],
				'label' => $this->t( $group['label'] ),
			);
		}
		return $groups;
	}

	/** A problem as the page shows it: the field's translated label, then what is wrong. */
	public function problem_message( array $problem ): string {
		$field = $this->store->fields()[ $problem['field'] ] ?? null;
		if ( null === $field ) {
			return $problem['message'];
		}
		$label = $this->label( $field );
		// The validator writes "<Label>: <reason>" or "<Label> is required." in English; keep the reason, translate the label.
		if ( 'required' === $problem['rule'] ) {
			/* translators: %s: label of a settings field */
			return sprintf( __( '%s is required.', 'card2crypto-shared' ), $label );
		}
		if ( 'partner_only' === $problem['rule'] ) {
			/* translators: %s: label of a settings field */
			return sprintf( __( '%s: only a user who may add unfiltered code (an administrator; on a multisite network, a super admin) can change the payment service\'s environment and addresses.', 'card2crypto-shared' ), $label );
		}
		$reason = 0 === strpos( $problem['message'], $field['label'] . ': ' ) ? substr( $problem['message'], strlen( $field['label'] ) + 2 ) : $problem['message'];
		/* translators: 1: label of a settings field, 2: what is wrong with the value */
		return sprintf( __( '%1$s: %2$s', 'card2crypto-shared' ), $label, $reason );
	}
}

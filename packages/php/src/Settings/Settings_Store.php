<?php
/**
 * One plugin's settings as the plugin reads and writes them: the schema, the
 * stored option, wp-config.php constants that override credentials, and the
 * sandbox defaults of the service addresses.
 *
 * Secret fields (the partner secret) are never kept in the settings option:
 * WooCommerce hands a gateway's settings option to its REST API, settings
 * exports and admin screens, and a shop manager or a read-only API key could
 * read them there. Each secret lives in its own option, not autoloaded,
 * written only through the settings option's sanitising (sanitize_saved(),
 * hooked by protect()), so every path that saves the settings (the
 * settings page, WooCommerce's save, its REST API) keeps it apart; an empty
 * secret in such a save keeps the saved one, as the settings page always did.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Settings;

final class Settings_Store {

	/**
	 * Fields printed to buyers (WooCommerce copies the title into each order
	 * and prints it unescaped on the order-pay page): plain text, or HTML
	 * limited to what posts allow.
	 */
	const MARKUP_FIELDS = array(
		'title'       => 'text',
		'description' => 'html',
	);

	/** @var array{key: string, problems: array}|null The last problems() answer and the values it was for. */
	private $problems_memo = null;

	/** @var Schema */
	private $schema;

	/** @var string */
	private $plugin;

	/** @var string */
	private $option;

	/** @var Settings_Validator */
	private $validator;

	/** @var callable(string): ?string Value of a defined constant, or null. */
	private $constants;

	/** @var bool True while migrate() rewrites what an older version stored (not judged again). */
	private $migrating = false;

	/**
	 * Problems of the writes of the settings option refused in this request
	 * (sanitize_saved()), until a REST answer reports them.
	 *
	 * @var array<int, array{field: string, rule: string, message: string}>
	 */
	private $refused = array();

	/**
	 * @param string        $option    The option name (woocommerce_card2crypto_settings, card2crypto_widget_settings).
	 * @param callable|null $constants fn(string $name): ?string; default: PHP's defined()/constant().
	 */
	public function __construct( Schema $schema, string $plugin, string $option, ?callable $constants = null ) {
		$this->schema    = $schema;
		$this->plugin    = $plugin;
		$this->option    = $option;
		$this->validator = new Settings_Validator( $schema, $plugin );
		$this->constants = $constants ?? static function ( string $name ): ?string {
			return defined( $name ) ? (string) constant( $name ) : null;
		};
	}

	public function schema(): Schema {
		return $this->schema;
	}

	public function plugin(): string {
		return $this->plugin;
	}

	public function option_name(): string {
		return $this->option;
	}

	public function validator(): Settings_Validator {
		return $this->validator;
	}

	/** @return array<string, array<string, mixed>> */
	public function fields(): array {
		return $this->validator->fields();
	}

	/** @return array<string, string> Defaults in stored form (booleans "yes"/"no"). */
	public function defaults(): array {
		$defaults = array();
		foreach ( $this->fields() as $id => $field ) {
			$defaults[ $id ] = is_bool( $field['default'] ) ? ( $field['default'] ? 'yes' : 'no' ) : (string) $field['default'];
		}
		return $defaults;
	}

	/**
	 * The stored settings (no defaults, no constants): the settings option
	 * without secret fields, plus each saved secret from its own option.
	 *
	 * @return array<string, mixed>
	 */
	public function stored(): array {
		$stored = get_option( $this->option, array() );
		$stored = is_array( $stored ) ? $stored : array();
		foreach ( $this->secret_ids() as $id ) {
			unset( $stored[ $id ] );
			$secret = $this->saved_secret( $id );
			if ( '' !== $secret ) {
				$stored[ $id ] = $secret;
			}
		}
		return $stored;
	}

	/** @return string[] Ids of the secret fields. */
	public function secret_ids(): array {
		$ids = array();
		foreach ( $this->fields() as $id => $field ) {
			if ( ! empty( $field['secret'] ) ) {
				$ids[] = $id;
			}
		}
		return $ids;
	}

	/** The option that holds one secret field: card2crypto_<plugin>_<field id>. */
	public function secret_option_name( string $id ): string {
		return 'card2crypto_' . $this->plugin . '_' . $id;
	}

	/**
	 * Protects the stored settings (call once, early, before anything saves
	 * them): every write of the settings option is judged by the schema's
	 * rules and by who may change the partner's fields, and refused whole
	 * when anything is wrong; it keeps secrets apart and sanitises the markup
	 * fields; a secret an older version saved there moves to its own option;
	 * the REST route that reads options by name refuses the secrets' options;
	 * a REST request whose write was refused is answered with the reasons.
	 */
	public function protect(): void {
		// After a sanitize_callback (priority 10) has validated the submission.
		add_filter( 'sanitize_option_' . $this->option, array( $this, 'sanitize_saved' ), 20 );
		add_filter( 'rest_request_before_callbacks', array( $this, 'refuse_secret_options' ), 10, 3 );
		add_filter( 'rest_request_after_callbacks', array( $this, 'report_refused_write' ), 10, 3 );
		$this->migrate();
	}

	/**
	 * Whether the current user may change the partner's fields (partnerOnly:
	 * the service's environment and addresses): one who may add unfiltered
	 * code (the schema's partnerOnlyCapability, unfiltered_html). Code that
	 * runs with no user at all (WP-CLI, cron, a plugin's own upgrade) may:
	 * it can add code anyway.
	 */
	public function may_change_partner_settings(): bool {
		return 0 === get_current_user_id() || current_user_can( $this->schema->partner_only_capability() );
	}

	/**
	 * After a REST route ran: when it wrote the settings option and that
	 * write was refused (sanitize_saved()), the answer is the refusal, each
	 * field named (403 when a partner's field was refused, else 400), not
	 * the route's own answer, which would show values that were not saved.
	 *
	 * @param mixed $response
	 * @param mixed $handler
	 * @param mixed $request
	 * @return mixed
	 */
	public function report_refused_write( $response, $handler, $request ) {
		if ( array() === $this->refused ) {
			return $response;
		}
		$problems      = $this->refused;
		$this->refused = array();
		$fields        = array();
		$partner       = false;
		foreach ( $problems as $problem ) {
			$fields[ '' === $problem['field'] ? 'settings' : $problem['field'] ] = $problem['message'];
			$partner = $partner || 'partner_only' === $problem['rule'];
		}
		return new \WP_Error(
			'card2crypto_settings_refused',
			/* translators: %s: each refused setting and why */
			sprintf( __( 'Nothing was saved: %s', 'card2crypto-shared' ), implode( ' ', array_values( $fields ) ) ),
			array(
				'status' => $partner ? 403 : 400,
				'params' => $fields,
			)
		);
	}

	/**
	 * WooCommerce's /wc-admin/options reads (GET ?options=a,b) and writes
	 * (POST {"a": …}) any option by name for a user with manage_options, and
	 * so for that user's read-only REST API key: never the secrets' options.
	 *
	 * @param mixed            $response
	 * @param mixed            $handler
	 * @param \WP_REST_Request $request
	 * @return mixed
	 */
	public function refuse_secret_options( $response, $handler, $request ) {
		if ( ! $request instanceof \WP_REST_Request || '/wc-admin/options' !== rtrim( $request->get_route(), '/' ) ) {
			return $response;
		}
		$names = is_string( $request['options'] ) ? array_map( 'trim', explode( ',', $request['options'] ) ) : array();
		$json  = $request->get_json_params();
		$names = array_merge( $names, is_array( $json ) ? array_map( 'strval', array_keys( $json ) ) : array() );
		foreach ( $this->secret_ids() as $id ) {
			if ( in_array( $this->secret_option_name( $id ), $names, true ) ) {
				return new \WP_Error( 'rest_forbidden', __( 'The partner secret is never sent or changed through this route.', 'card2crypto-shared' ), array( 'status' => 403 ) );
			}
		}
		return $response;
	}

	/**
	 * The sanitize_option filter of the settings option: add_option and
	 * update_option both run it, so it holds for the settings page,
	 * WooCommerce's gateway save and its REST API (PUT
	 * /wc/v3/payment_gateways/<id>, which stores "title" and "description"
	 * as sent). Each secret field is taken out (a non-empty one becomes the
	 * saved secret, an empty one keeps it); each field shown to buyers as
	 * text or HTML is sanitised as WooCommerce sanitises its own gateways'
	 * (WC_Settings_API: text fields, wp_kses_post for the description).
	 *
	 * @param mixed $value
	 * @return mixed
	 */
	public function sanitize_saved( $value ) {
		if ( $this->migrating ) {
			return is_array( $value ) ? $this->separate( $value ) : $value;
		}
		// The option as it is stored (a refused save hands it back): nothing changes, so nothing is judged or rewritten.
		if ( $value === get_option( $this->option, null ) ) {
			return $value;
		}
		$judged = $this->judge_write( $value );
		if ( array() !== $judged['problems'] ) {
			return $this->refuse_write( $judged['problems'] );
		}
		return $this->separate( $judged['values'] );
	}

	/**
	 * One validation for every path that writes the settings option (the
	 * settings pages, WooCommerce's gateway save and its REST API, the
	 * options API): the written value, its markup fields sanitised first,
	 * judged by the schema's rules against what is stored, and by whether
	 * the user may change the partner's fields; the problems are those the
	 * stored settings did not already have (new_problems()). Members that are no setting
	 * (WooCommerce writes its section headings' keys) are dropped; a member
	 * left out takes its default, a secret left out or empty keeps the saved
	 * secret.
	 *
	 * @param mixed $value
	 * @return array{values: array<string, string>, problems: array<int, array{field: string, rule: string, message: string}>}
	 */
	public function judge_write( $value ): array {
		if ( ! is_array( $value ) ) {
			return array(
				'values'   => array(),
				'problems' => array(
					array(
						'field'   => '',
						'rule'    => 'type',
						'message' => 'Settings must be an object of field values.',
					),
				),
			);
		}
		$input = array();
		foreach ( $this->fields() as $id => $field ) {
			if ( ! array_key_exists( $id, $value ) ) {
				continue;
			}
			$input[ $id ] = isset( self::MARKUP_FIELDS[ $id ] ) && is_string( $value[ $id ] ) ? self::sanitize_markup( $value[ $id ], self::MARKUP_FIELDS[ $id ] ) : $value[ $id ];
		}
		$stored   = $this->stored();
		$result   = $this->validator->validate( $input, $stored, $this->defined_constants(), $this->may_change_partner_settings() );
		$problems = $this->new_problems( $result['problems'], $stored );
		return array(
			// A field that keeps a problem it already had keeps its stored value (for_storage()).
			'values'   => array() === $problems ? $this->validator->for_storage( $result, $stored ) : array(),
			'problems' => $problems,
		);
	}

	/**
	 * The problems a write brings that the stored settings did not already
	 * have (compared by field and rule): a write may not make the settings
	 * worse, but one that leaves a field as it was (the widget saved before
	 * its credentials are entered, a value an older version stored) is not
	 * blamed for it. A partner_only problem is always new.
	 *
	 * @param array<int, array{field: string, rule: string, message: string}> $problems
	 * @param array<string, mixed>                                             $stored
	 * @return array<int, array{field: string, rule: string, message: string}>
	 */
	private function new_problems( array $problems, array $stored ): array {
		if ( array() === $problems ) {
			return $problems;
		}
		$had = array();
		foreach ( $this->validator->validate( $stored, $stored, $this->defined_constants() )['problems'] as $problem ) {
			$had[ $problem['field'] . '|' . $problem['rule'] ] = true;
		}
		return array_values(
			array_filter(
				$problems,
				static function ( array $problem ) use ( $had ): bool {
					return ! isset( $had[ $problem['field'] . '|' . $problem['rule'] ] );
				}
			)
		);
	}

	/**
	 * A refused write: what is stored stays (update_option then finds
	 * nothing changed and writes nothing); the reasons are kept for the REST
	 * answer (report_refused_write()) and the settings screens.
	 *
	 * @param array<int, array{field: string, rule: string, message: string}> $problems
	 * @return mixed The stored option (its defaults when there is none).
	 */
	private function refuse_write( array $problems ) {
		$this->refused = array_merge( $this->refused, $problems );
		$messages      = array_map(
			static function ( array $problem ): string {
				return $problem['message'];
			},
			$problems
		);
		if ( function_exists( 'add_settings_error' ) ) {
			add_settings_error( $this->option, 'c2c-refused-write', __( 'Nothing was saved:', 'card2crypto-shared' ) . ' ' . implode( ' ', $messages ), 'error' );
		}
		$stored = get_option( $this->option, null );
		return is_array( $stored ) ? $stored : $this->defaults();
	}

	/**
	 * Markup fields sanitised, secrets taken out into their own options.
	 *
	 * @param array<string, mixed> $value
	 * @return array<string, mixed>
	 */
	private function separate( array $value ): array {
		foreach ( self::MARKUP_FIELDS as $id => $kind ) {
			if ( isset( $this->fields()[ $id ], $value[ $id ] ) && is_string( $value[ $id ] ) ) {
				$value[ $id ] = self::sanitize_markup( $value[ $id ], $kind );
			}
		}
		foreach ( $this->secret_ids() as $id ) {
			if ( ! array_key_exists( $id, $value ) ) {
				continue;
			}
			$secret = $value[ $id ];
			unset( $value[ $id ] );
			if ( is_string( $secret ) && '' !== Js_Text::trim( $secret ) ) {
				$this->save_secret( $id, Js_Text::trim( $secret ) );
			}
		}
		return $value;
	}

	/**
	 * Whether a stored settings option may hold what migrate() cleans, judged
	 * without the schema, so that a plugin which builds its settings only
	 * when something asks can look on every request: a member whose name
	 * contains "secret" (every secret field's id does: test/vector-files.test.ts),
	 * or a markup field that sanitising would change. A true answer is
	 * checked exactly by migrate().
	 *
	 * @param mixed $raw The settings option as stored.
	 */
	public static function may_need_migration( $raw ): bool {
		if ( ! is_array( $raw ) ) {
			return false;
		}
		foreach ( array_keys( $raw ) as $key ) {
			if ( false !== stripos( (string) $key, 'secret' ) ) {
				return true;
			}
		}
		foreach ( self::MARKUP_FIELDS as $id => $kind ) {
			if ( isset( $raw[ $id ] ) && is_string( $raw[ $id ] ) && $raw[ $id ] !== self::sanitize_markup( $raw[ $id ], $kind ) ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Cleans settings an older version saved (once): a secret kept in the
	 * settings option moves to its own option, markup in the title or
	 * description is sanitised.
	 */
	public function migrate(): void {
		$raw = get_option( $this->option, null );
		if ( ! is_array( $raw ) ) {
			return;
		}
		$dirty = array() !== array_intersect( $this->secret_ids(), array_keys( $raw ) );
		foreach ( self::MARKUP_FIELDS as $id => $kind ) {
			if ( isset( $this->fields()[ $id ], $raw[ $id ] ) && is_string( $raw[ $id ] ) ) {
				$dirty = $dirty || $raw[ $id ] !== self::sanitize_markup( $raw[ $id ], $kind );
			}
		}
		if ( $dirty ) {
			// update_option runs sanitize_saved(): the secret moves, the rest stays as it was (not judged again).
			$this->migrating = true;
			try {
				update_option( $this->option, $raw );
			} finally {
				$this->migrating = false;
			}
		}
	}

	private static function sanitize_markup( string $text, string $kind ): string {
		return 'html' === $kind ? trim( wp_kses_post( $text ) ) : sanitize_text_field( $text );
	}

	private function saved_secret( string $id ): string {
		$saved = get_option( $this->secret_option_name( $id ), null );
		// Kept as an array, so that wp-admin/options.php lists it as serialized data, not as text.
		return is_array( $saved ) && isset( $saved['value'] ) && is_string( $saved['value'] ) ? $saved['value'] : '';
	}

	private function save_secret( string $id, string $secret ): void {
		if ( $this->saved_secret( $id ) !== $secret ) {
			update_option( $this->secret_option_name( $id ), array( 'value' => $secret ), false );
		}
	}

	/** The wp-config.php constant overriding a field, when it is defined (its name), else null. */
	public function constant_for( string $id ): ?string {
		$field = $this->fields()[ $id ] ?? null;
		if ( null === $field || empty( $field['constant'] ) ) {
			return null;
		}
		return null !== ( $this->constants )( $field['constant'] ) ? $field['constant'] : null;
	}

	/** @return string[] Names of the schema's constants that are defined. */
	public function defined_constants(): array {
		$names = array();
		foreach ( $this->fields() as $id => $field ) {
			if ( null !== $this->constant_for( $id ) ) {
				$names[] = $field['constant'];
			}
		}
		return $names;
	}

	/** Whether a secret field has a saved value (never the value itself). */
	public function has_stored_secret( string $id ): bool {
		return '' !== $this->saved_secret( $id );
	}

	/**
	 * The value the plugin works with: a defined constant wins; an empty
	 * service address takes its environment's default (the local sandbox);
	 * booleans are bool; missing values are the schema default.
	 *
	 * @return string|bool
	 */
	public function get( string $id ) {
		$fields = $this->fields();
		if ( ! isset( $fields[ $id ] ) ) {
			throw new \InvalidArgumentException( 'Unknown setting "' . $id . '".' );
		}
		$field    = $fields[ $id ];
		$constant = $this->constant_for( $id );
		if ( null !== $constant ) {
			return Js_Text::trim( (string) ( $this->constants )( $constant ) );
		}
		$stored = $this->stored();
		$value  = Settings_Validator::from_stored( array_key_exists( $id, $stored ) ? $stored[ $id ] : $field['default'], $field );
		if ( '' === $value && isset( $field['environmentDefaults'] ) ) {
			$environment = $this->get( 'environment' );
			if ( is_string( $environment ) && isset( $field['environmentDefaults'][ $environment ] ) ) {
				return $field['environmentDefaults'][ $environment ];
			}
		}
		return $value;
	}

	/**
	 * The values a save would write (prepare_save() values, stored form),
	 * read as get() would read them once saved: a defined constant wins, an
	 * empty service address takes its environment's default. For checking a
	 * save's credentials with the service before anything is written.
	 *
	 * @param array<string, mixed> $values Stored form of the fields, by id.
	 * @return array<string, string|bool> Every field's effective value, by id.
	 */
	public function effective_of( array $values ): array {
		$out = array();
		foreach ( $this->fields() as $id => $field ) {
			$out[ $id ] = null !== $this->constant_for( $id )
				? $this->get( $id )
				: Settings_Validator::from_stored( array_key_exists( $id, $values ) ? $values[ $id ] : $field['default'], $field );
		}
		foreach ( $this->fields() as $id => $field ) {
			if ( '' === $out[ $id ] && isset( $field['environmentDefaults'] ) && is_string( $out['environment'] ?? null ) && isset( $field['environmentDefaults'][ $out['environment'] ] ) ) {
				$out[ $id ] = $field['environmentDefaults'][ $out['environment'] ];
			}
		}
		return $out;
	}

	/**
	 * Problems of the effective settings (what get() returns), e.g. to keep a
	 * gateway unavailable until it is configured.
	 *
	 * @return array<int, array{field: string, rule: string, message: string}>
	 */
	public function problems(): array {
		$values = array();
		foreach ( $this->fields() as $id => $field ) {
			$values[ $id ] = $this->get( $id );
		}
		$constants = $this->defined_constants();
		// Asked on every checkout page and payment: validated once per set of values (a save changes them).
		$key = md5( serialize( array( $values, $constants ) ) );
		if ( null === $this->problems_memo || $this->problems_memo['key'] !== $key ) {
			$this->problems_memo = array(
				'key'      => $key,
				'problems' => $this->validator->validate( $values, array(), $constants )['problems'],
			);
		}
		return $this->problems_memo['problems'];
	}

	/**
	 * Validates a submission and computes what to save: valid fields take
	 * their new value, fields with a problem keep the stored one, an empty
	 * secret keeps the saved secret, fields overridden by a constant keep
	 * their stored value untouched.
	 *
	 * @param array<string, mixed> $submitted Field values by id (unslashed).
	 * @return array{values: array<string, string>, problems: array<int, array{field: string, rule: string, message: string}>}
	 */
	public function prepare_save( array $submitted ): array {
		$stored = $this->stored();
		$input  = array();
		foreach ( $this->fields() as $id => $field ) {
			if ( null !== $this->constant_for( $id ) ) {
				// The field is disabled on the page; the constant is what counts.
				$input[ $id ] = isset( $stored[ $id ] ) ? Settings_Validator::from_stored( $stored[ $id ], $field ) : null;
				continue;
			}
			if ( 'boolean' === $field['rule']['kind'] ) {
				// An unticked checkbox is not submitted at all.
				$input[ $id ] = isset( $submitted[ $id ] ) ? $submitted[ $id ] : false;
				continue;
			}
			$input[ $id ] = array_key_exists( $id, $submitted ) ? $submitted[ $id ] : null;
		}
		$result = $this->validator->validate( $input, $stored, $this->defined_constants(), $this->may_change_partner_settings() );
		return array(
			'values'   => $this->validator->for_storage( $result, $stored ),
			'problems' => $result['problems'],
		);
	}
}

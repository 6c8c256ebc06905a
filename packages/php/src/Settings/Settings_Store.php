<?php
/**
 * One plugin's settings as the plugin reads and writes them: the schema, the
 * stored option, wp-config.php constants that override credentials, and the
 * sandbox defaults of the service addresses.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Settings;

final class Settings_Store {

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

	/** @return array<string, mixed> The stored option as saved (no defaults, no constants). */
	public function stored(): array {
		$stored = get_option( $this->option, array() );
		return is_array( $stored ) ? $stored : array();
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
		$stored = $this->stored();
		return isset( $stored[ $id ] ) && is_string( $stored[ $id ] ) && '' !== $stored[ $id ];
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
		return $this->validator->validate( $values, array(), $this->defined_constants() )['problems'];
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
		$result = $this->validator->validate( $input, $stored, $this->defined_constants() );
		return array(
			'values'   => $this->validator->for_storage( $result, $stored ),
			'problems' => $result['problems'],
		);
	}
}

<?php
/**
 * The settings schema's rules applied in PHP, exactly as
 * @card2crypto/core's validateSettings() applies them in TypeScript (proven
 * by core's schema/rule-vectors.json): the same problems, named by
 * (field, rule), and the same normalised values.
 *
 * validate() judges a submission; for_storage() turns its result into what
 * is saved: every valid field takes its new value, every field with a
 * problem keeps what was stored before, so one bad field never costs the
 * others and never wipes a saved value.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Settings;

use Card2Crypto\Shared\Btc\Btc_Address;
use Card2Crypto\Shared\Btc\Bip32;
use Card2Crypto\Shared\Btc\Bip32_Exception;

final class Settings_Validator {

	/** Why a partner's field was refused (core's PARTNER_ONLY_MESSAGE): the reason part of a partner_only problem. */
	const PARTNER_ONLY_MESSAGE = "only a user who may add unfiltered code (an administrator; on a multisite network, a super admin) can change the payment service's environment and addresses.";

	const TRUE_WORDS  = array( '1', 'yes', 'on', 'true' );
	const FALSE_WORDS = array( '0', 'no', 'off', 'false', '' );

	/** @var Schema */
	private $schema;

	/** @var string */
	private $plugin;

	/** @var array<string, array<string, mixed>> */
	private $fields;

	public function __construct( Schema $schema, string $plugin ) {
		$this->schema = $schema;
		$this->plugin = $plugin;
		$this->fields = $schema->fields( $plugin );
	}

	/** @return array<string, array<string, mixed>> */
	public function fields(): array {
		return $this->fields;
	}

	/**
	 * Validates and normalises a submission. Never throws for bad input.
	 *
	 * @param mixed                $input             Field values by id (strings from a form; booleans, ints too).
	 * @param array<string, mixed> $stored            The values saved before: an empty secret keeps its saved value.
	 * @param string[]             $defined_constants wp-config constants that are defined.
	 * @param bool                 $may_change_partner Whether the user saving may change the partner's fields
	 *                                                 (partnerOnly: the service's environment and addresses). When
	 *                                                 not, such a field left out keeps its stored value, and one that
	 *                                                 differs from the stored value (both normalised) is the problem
	 *                                                 partner_only.
	 * @return array{values: array<string, string|bool>, problems: array<int, array{field: string, rule: string, message: string}>}
	 */
	public function validate( $input, array $stored = array(), array $defined_constants = array(), bool $may_change_partner = true ): array {
		$problems = array();
		$values   = array();
		if ( ! is_array( $input ) ) {
			$problems[] = self::problem( '', 'type', 'Settings must be an object of field values.' );
			foreach ( $this->fields as $id => $field ) {
				$values[ $id ] = $field['default'];
			}
			return array(
				'values'   => $values,
				'problems' => $problems,
			);
		}
		foreach ( array_keys( $input ) as $name ) {
			$name = (string) $name;
			if ( ! isset( $this->fields[ $name ] ) ) {
				$problems[] = self::problem( $name, 'unknown_field', '"' . $name . '" is not a setting of this plugin.' );
			}
		}

		// Pass 1: coerce to the field's value type, fill defaults, keep stored secrets.
		$invalid = array();
		$lock_partner = ! $may_change_partner;
		foreach ( $this->fields as $id => $field ) {
			$raw = array_key_exists( $id, $input ) ? $input[ $id ] : null;
			if ( null === $raw && $lock_partner && ! empty( $field['partnerOnly'] ) && array_key_exists( $id, $stored ) ) {
				// A partner's field the user may not change and did not send keeps what is stored.
				$raw = $stored[ $id ];
			}
			if ( null === $raw ) {
				$values[ $id ] = $field['default'];
			} elseif ( 'boolean' === $field['rule']['kind'] ) {
				$bool = self::to_boolean( $raw );
				if ( null === $bool ) {
					$problems[]     = self::problem( $id, 'boolean', $field['label'] . ': expected on or off (true/false, yes/no, 1/0).' );
					$invalid[ $id ] = true;
					$values[ $id ]  = $field['default'];
				} else {
					$values[ $id ] = $bool;
				}
			} elseif ( ! is_string( $raw ) || ! Js_Text::is_utf8( $raw ) ) {
				$problems[]     = self::problem( $id, 'type', $field['label'] . ': expected text, got ' . self::describe( $raw ) . '.' );
				$invalid[ $id ] = true;
				$values[ $id ]  = $field['default'];
			} else {
				$multiline     = 'text' === $field['rule']['kind'] && ! empty( $field['rule']['multiline'] );
				$values[ $id ] = Js_Text::trim( $multiline ? (string) preg_replace( '/\r\n?/', "\n", $raw ) : $raw );
			}
			if ( ! empty( $field['secret'] ) && '' === $values[ $id ] && isset( $stored[ $id ] ) && is_string( $stored[ $id ] ) && Js_Text::is_utf8( $stored[ $id ] ) ) {
				$values[ $id ] = Js_Text::trim( $stored[ $id ] );
			}
		}

		// Pass 2: required and rule checks, reading other fields' normalised values.
		foreach ( $this->fields as $id => $field ) {
			if ( isset( $invalid[ $id ] ) ) {
				continue;
			}
			$found = count( $problems );
			$this->check_field( $field, $values, $defined_constants, $problems );
			if ( $lock_partner && ! empty( $field['partnerOnly'] ) && count( $problems ) === $found && $values[ $id ] !== $this->stored_partner_value( $field, $stored, $values ) ) {
				$problems[] = self::problem( $id, 'partner_only', $field['label'] . ': ' . self::PARTNER_ONLY_MESSAGE );
			}
		}
		return array(
			'values'   => $values,
			'problems' => $problems,
		);
	}

	/**
	 * Required and rule checks of one field (pass 2): normalises its value or adds its problem.
	 *
	 * @param array<string, string|bool> $values
	 * @param string[]                   $defined_constants
	 * @param array<int, array>          $problems
	 */
	private function check_field( array $field, array &$values, array $defined_constants, array &$problems ): void {
		$id    = $field['id'];
		$value = $values[ $id ];
		if ( '' === $value || false === $value ) {
			$covered_by_constant = isset( $field['constant'] ) && in_array( $field['constant'], $defined_constants, true );
			if ( '' === $value && ! empty( $field['required'] ) && $this->conditions_hold( $field, $values ) && ! $covered_by_constant ) {
				$problems[] = self::problem( $id, 'required', $field['label'] . ' is required.' );
			}
			return;
		}
		$check = $this->check_rule( $field, $value, $values );
		if ( $check['ok'] ) {
			$values[ $id ] = $check['value'];
		} else {
			$problems[] = self::problem( $id, $field['rule']['kind'], $field['label'] . ': ' . $check['message'] );
		}
	}

	/**
	 * A partner's field as stored, normalised as a submission would be (so
	 * that an unchanged field compares equal).
	 *
	 * @param array<string, mixed>       $stored
	 * @param array<string, string|bool> $values
	 * @return string|bool
	 */
	private function stored_partner_value( array $field, array $stored, array $values ) {
		$raw  = $stored[ $field['id'] ] ?? null;
		$text = is_string( $raw ) ? Js_Text::trim( $raw ) : ( is_string( $field['default'] ) ? $field['default'] : '' );
		if ( '' === $text ) {
			return '';
		}
		$check = $this->check_rule( $field, $text, $values );
		return $check['ok'] ? $check['value'] : $text;
	}

	/**
	 * What to save after validate(): valid fields take their normalised value,
	 * fields with a problem keep the stored value (or the default when there is
	 * none). Booleans are stored as "yes"/"no" (WooCommerce's convention).
	 *
	 * @param array{values: array<string, string|bool>, problems: array} $result
	 * @param array<string, mixed>                                       $stored
	 * @return array<string, string>
	 */
	public function for_storage( array $result, array $stored ): array {
		$rejected = array();
		foreach ( $result['problems'] as $problem ) {
			$rejected[ $problem['field'] ] = true;
		}
		$out = array();
		foreach ( $this->fields as $id => $field ) {
			if ( isset( $rejected[ $id ] ) ) {
				$value = array_key_exists( $id, $stored ) ? $stored[ $id ] : $field['default'];
			} else {
				$value = $result['values'][ $id ];
			}
			$out[ $id ] = self::to_stored( $value, $field );
		}
		return $out;
	}

	/**
	 * A stored value in the form validate() produces (booleans as bool), for
	 * reading settings; missing or unreadable values give the default.
	 *
	 * @param mixed $value
	 * @return string|bool
	 */
	public static function from_stored( $value, array $field ) {
		if ( 'boolean' === $field['rule']['kind'] ) {
			$bool = self::to_boolean( $value );
			return null === $bool ? (bool) $field['default'] : $bool;
		}
		return is_string( $value ) ? $value : (string) $field['default'];
	}

	/** @param mixed $value */
	private static function to_stored( $value, array $field ): string {
		if ( 'boolean' === $field['rule']['kind'] ) {
			$bool = is_bool( $value ) ? $value : self::to_boolean( $value );
			return ( null === $bool ? (bool) $field['default'] : $bool ) ? 'yes' : 'no';
		}
		return is_string( $value ) ? $value : (string) $field['default'];
	}

	/** @param mixed $raw */
	public static function to_boolean( $raw ): ?bool {
		if ( is_bool( $raw ) ) {
			return $raw;
		}
		if ( 1 === $raw ) {
			return true;
		}
		if ( 0 === $raw ) {
			return false;
		}
		if ( is_string( $raw ) && Js_Text::is_utf8( $raw ) ) {
			$word = strtolower( Js_Text::trim( $raw ) );
			if ( in_array( $word, self::TRUE_WORDS, true ) ) {
				return true;
			}
			if ( in_array( $word, self::FALSE_WORDS, true ) ) {
				return false;
			}
		}
		return null;
	}

	/** @param array<string, string|bool> $values */
	public function conditions_hold( array $field, array $values ): bool {
		foreach ( $field['requiredWhen'] ?? array() as $condition ) {
			if ( ! array_key_exists( $condition['field'], $values ) || $values[ $condition['field'] ] !== $condition['equals'] ) {
				return false;
			}
		}
		return true;
	}

	/**
	 * @param string|bool                $value
	 * @param array<string, string|bool> $values
	 * @return array{ok: bool, value?: string|bool, message?: string}
	 */
	private function check_rule( array $field, $value, array $values ): array {
		$rule = $field['rule'];
		$text = is_bool( $value ) ? ( $value ? 'true' : 'false' ) : $value;
		switch ( $rule['kind'] ) {
			case 'boolean':
				return self::ok( $value );
			case 'text':
				if ( empty( $rule['multiline'] ) && 1 === preg_match( '/[\r\n]/', $text ) ) {
					return self::fail( 'must be a single line.' );
				}
				if ( Js_Text::length( $text ) > $rule['maxLength'] ) {
					return self::fail( 'at most ' . $rule['maxLength'] . ' characters.' );
				}
				if ( isset( $rule['pattern'] ) && ! Js_Text::matches( $rule['pattern'], $text ) ) {
					return self::fail( $rule['patternMessage'] ?? 'has an invalid format.' );
				}
				return self::ok( $text );
			case 'enum':
				return in_array( $text, $rule['values'], true ) ? self::ok( $text ) : self::fail( 'choose one of ' . implode( ', ', $rule['values'] ) . '.' );
			case 'url':
				if ( ! Http_Url::is_valid( $text ) ) {
					return self::fail( 'enter an absolute address starting with http:// or https://.' );
				}
				if ( isset( $rule['environmentField'] ) && 'production' === ( $values[ $rule['environmentField'] ] ?? null ) ) {
					if ( 0 !== strncasecmp( $text, 'https:', 6 ) ) {
						return self::fail( 'production needs an https:// address.' );
					}
					if ( Http_Url::has_local_host( $text ) ) {
						return self::fail( 'production cannot use this computer or a private network (localhost, 127.x, 10.x, 192.168.x, ...): that is the sandbox. Enter the address your partner manager gave you, or choose the sandbox environment.' );
					}
				}
				return self::ok( ! empty( $rule['stripTrailingSlash'] ) ? rtrim( $text, '/' ) : $text );
			case 'btc_address':
				$env      = $values[ $rule['environmentField'] ] ?? null;
				$networks = ( 'sandbox' === $env || 'production' === $env ) ? $rule['networks'][ $env ] : $rule['networks']['production'];
				$result   = Btc_Address::validate( $text, $networks );
				return $result['valid'] ? self::ok( $text ) : self::fail( $result['reason'] );
			case 'wallet_key':
				// Before any decoding (which slows down with the square of the length).
				if ( isset( $rule['maxLength'] ) && strlen( $text ) > $rule['maxLength'] && Js_Text::length( $text ) > $rule['maxLength'] ) {
					return self::fail( 'at most ' . $rule['maxLength'] . ' characters.' );
				}
				$env = $values[ $rule['environmentField'] ] ?? null;
				try {
					// Built per check: a save checks one key, and derivation needs GMP or BCMath (a host with neither is told so here).
					( new Bip32() )->parse_wallet_key( $text, ( 'sandbox' === $env || 'production' === $env ) ? $env : null );
				} catch ( Bip32_Exception $e ) {
					return self::fail( $e->getMessage() );
				}
				return self::ok( $text );
			case 'fiat_currency':
				return null !== $this->schema->fiat( $text ) ? self::ok( $text ) : self::fail( '"' . $text . '" is not a supported fiat currency.' );
			case 'crypto_currency':
				return $this->schema->is_crypto_symbol( $text ) ? self::ok( $text ) : self::fail( '"' . $text . '" is not a supported crypto currency.' );
			case 'minor_amount':
				return $this->check_amount( $rule, $text, $values );
			case 'color':
				return Css_Color::is_valid( $text ) ? self::ok( Css_Color::normalize( $text ) ) : self::fail( 'enter a CSS colour such as #6a42e9, rgba(40, 51, 78, 0.3) or a colour name.' );
			case 'lang':
				// Any ISO 639-1 code, offered or not (an older save outside the payment page's languages stays valid).
				return $this->schema->is_language_code( $text ) ? self::ok( $text ) : self::fail( '"' . $text . '" is not an ISO 639-1 language code.' );
			case 'email':
				return Js_Text::matches( $rule['pattern'], $text ) && strlen( $text ) <= 254 ? self::ok( $text ) : self::fail( 'enter an e-mail address.' );
			case 'ip_list':
				$entries = Js_Text::split_list( $text );
				$bad     = array_values( array_filter( $entries, static function ( string $entry ): bool {
					return ! Ip_Address::is_ip_or_cidr( $entry );
				} ) );
				if ( array() !== $bad ) {
					return self::fail( 'not an IP address or CIDR range: ' . implode( ', ', $bad ) . '.' );
				}
				if ( count( $entries ) > $rule['maxEntries'] ) {
					return self::fail( 'at most ' . $rule['maxEntries'] . ' entries.' );
				}
				return self::ok( implode( "\n", $entries ) );
		}
		return self::fail( 'has a rule this version of the plugin does not know (' . $rule['kind'] . ').' );
	}

	/** @param array<string, string|bool> $values */
	private function check_amount( array $rule, string $text, array $values ): array {
		$code     = $values[ $rule['currencyField'] ] ?? '';
		$currency = is_string( $code ) ? $this->schema->fiat( $code ) : null;
		// Without a valid currency the amount cannot be judged; that field reports its own problem.
		if ( null === $currency ) {
			return self::ok( $text );
		}
		try {
			$minor = Decimal_Amount::to_minor( $text, $currency['decimals'] );
		} catch ( \DomainException $e ) {
			if ( 2 === $e->getCode() ) {
				return self::fail( $currency['code'] . ' allows ' . ( 0 === $currency['decimals'] ? 'whole amounts only' : 'at most ' . $currency['decimals'] . ' decimal places' ) . '.' );
			}
			return self::fail( 'enter a plain amount such as 100 or 99.50 (no spaces, signs or thousands separators).' );
		}
		$min = (string) $currency['minMinor'];
		$max = (string) $currency['maxMinor'];
		if ( Decimal_Amount::compare( $minor, $min ) < 0 || Decimal_Amount::compare( $minor, $max ) > 0 ) {
			return self::fail( 'must be between ' . Decimal_Amount::to_decimal( $min, $currency['decimals'] ) . ' and ' . Decimal_Amount::to_decimal( $max, $currency['decimals'] ) . ' ' . $currency['code'] . '.' );
		}
		return self::ok( Decimal_Amount::to_decimal( $minor, $currency['decimals'] ) );
	}

	/** @param string|bool $value */
	private static function ok( $value ): array {
		return array(
			'ok'    => true,
			'value' => $value,
		);
	}

	private static function fail( string $message ): array {
		return array(
			'ok'      => false,
			'message' => $message,
		);
	}

	private static function problem( string $field, string $rule, string $message ): array {
		return array(
			'field'   => $field,
			'rule'    => $rule,
			'message' => $message,
		);
	}

	/** @param mixed $value */
	private static function describe( $value ): string {
		if ( is_string( $value ) ) {
			return 'text that is not valid UTF-8';
		}
		if ( is_array( $value ) ) {
			return 'an array';
		}
		if ( is_int( $value ) || is_float( $value ) ) {
			return 'a number';
		}
		return 'a ' . gettype( $value );
	}
}

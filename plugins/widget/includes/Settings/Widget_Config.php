<?php
/**
 * The widget plugin's settings as the blocks and routes need them, read
 * once per request through the settings page's store (which applies the
 * wp-config.php constants and the environment's default service
 * addresses). Read-only; the settings page writes them.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Settings;

use Card2Crypto\Widget\Rules\Partner_Css;
use Card2Crypto\Widget\Shared\Settings\Schema;
use Card2Crypto\Widget\Shared\Settings\Settings_Store;

defined( 'ABSPATH' ) || exit;

final class Widget_Config {

	/** @var Schema */
	private $schema;

	/** @var array<string, mixed> */
	private $values;

	/** @param array<string, mixed> $values Effective values by field id. */
	public function __construct( Schema $schema, array $values ) {
		$this->schema = $schema;
		$this->values = $values;
	}

	/** The current settings. */
	public static function from_store( Settings_Store $store ): self {
		$values = array();
		foreach ( array_keys( $store->fields() ) as $id ) {
			$values[ $id ] = $store->get( $id );
		}
		return new self( $store->schema(), $values );
	}

	public function schema(): Schema {
		return $this->schema;
	}

	/**
	 * Every value by field id, the secret included: for the signer only,
	 * never for output.
	 *
	 * @return array<string, mixed>
	 */
	public function values(): array {
		return $this->values;
	}

	/** @return string|bool */
	public function get( string $id ) {
		return $this->values[ $id ] ?? '';
	}

	/** Partner token and secret are both present. */
	public function has_credentials(): bool {
		return '' !== $this->get( 'partner_token' ) && '' !== $this->get( 'partner_secret' );
	}

	/** A service address (widget_script_url, landing_url, base_url); the store already applied the environment's default. */
	public function service_url( string $id ): string {
		return (string) $this->get( $id );
	}

	/**
	 * Colour field id => stored value, for the editor preview and the CSS file.
	 *
	 * @return array<string, string>
	 */
	public function colors(): array {
		$out = array();
		foreach ( Partner_Css::color_fields( $this->schema->fields( 'widget' ) ) as $id => $field ) {
			$out[ $id ] = (string) $this->get( $id );
		}
		return $out;
	}

	/** The partner CSS text, "" when every colour is the default. */
	public function partner_css(): string {
		return Partner_Css::css( $this->schema->fields( 'widget' ), $this->values );
	}

	/**
	 * The page language (from the site or user locale, de_DE => de) when the
	 * payment page is offered in it (the field's options), "" otherwise: the
	 * widget then gets no lang and the service's default, English.
	 */
	public function site_language(): string {
		$code  = strtolower( (string) strtok( determine_locale(), '_-' ) );
		$field = $this->schema->fields( 'widget' )['default_language'] ?? array();
		foreach ( $field['options'] ?? array() as $option ) {
			if ( '' !== $option['value'] && $option['value'] === $code ) {
				return $code;
			}
		}
		return '';
	}
}

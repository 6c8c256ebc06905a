<?php
/**
 * Turns a block's stored attributes and the plugin's settings into signed
 * widget settings, at the moment they are asked for.
 *
 * Every value comes from the server: the block's attributes (proved by its
 * reference), the settings page and the clock. A block attribute left empty
 * takes the site's default; the site's default amount applies only while
 * the block also uses the site's fiat currency (it is an amount in that
 * currency). The merged values pass the same schema rules as the settings
 * page (Settings_Validator, i.e. core's validateSettings) before anything
 * is signed.
 *
 * No WordPress calls here: the caller passes the settings, the schema and the time.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Rules;

use Card2Crypto\Widget\Shared\Settings\Decimal_Amount;
use Card2Crypto\Widget\Shared\Settings\Schema;
use Card2Crypto\Widget\Shared\Settings\Settings_Validator;
use Card2Crypto\Widget\Shared\Signing\Canonical;
use Card2Crypto\Widget\Shared\Signing\Signer;

defined( 'ABSPATH' ) || exit;

final class Widget_Signer {

	/** Block attribute => the settings field it overrides. */
	const BLOCK_FIELDS = array(
		'amount'         => 'default_amount',
		'fiatCurrency'   => 'default_fiat_currency',
		'cryptoCurrency' => 'default_crypto_currency',
		'lang'           => 'default_language',
	);

	/** @var Schema */
	private $schema;

	/** @var array<string, mixed> */
	private $settings;

	/**
	 * @param Schema               $schema   The settings schema.
	 * @param array<string, mixed> $settings The widget plugin's effective settings by field id
	 *                                       (credentials already resolved from wp-config constants).
	 */
	public function __construct( Schema $schema, array $settings ) {
		$this->schema   = $schema;
		$this->settings = $settings;
	}

	/**
	 * The settings a block's widget starts with, before stamping and signing,
	 * or the problems that prevent it.
	 *
	 * @param array<string, string> $attributes     Block attributes (Block_Reference::attributes()).
	 * @param string                $target_element Id of the element that receives the widget.
	 * @param string                $site_language  ISO 639-1 code of the page's language ("" when unknown).
	 * @param string|null           $partner_css    Address of the partner CSS file, null when no colour differs from the defaults.
	 * @return array{settings: array<string, string|int>, problems: array<int, array{field: string, rule: string, message: string}>}
	 */
	public function unsigned( array $attributes, string $target_element, string $site_language, ?string $partner_css ): array {
		$input = array();
		foreach ( $this->schema->fields( 'widget' ) as $id => $field ) {
			$value        = $this->settings[ $id ] ?? $field['default'];
			$input[ $id ] = is_bool( $value ) ? $value : (string) $value;
		}
		$inherits_fiat = '' === ( $attributes['fiatCurrency'] ?? '' ) || $attributes['fiatCurrency'] === $input['default_fiat_currency'];
		if ( ! $inherits_fiat ) {
			$input['default_amount'] = '';
		}
		foreach ( self::BLOCK_FIELDS as $attribute => $field_id ) {
			if ( isset( $attributes[ $attribute ] ) && '' !== $attributes[ $attribute ] ) {
				$input[ $field_id ] = $attributes[ $attribute ];
			}
		}

		$validator = new Settings_Validator( $this->schema, 'widget' );
		$result    = $validator->validate( $input );
		$problems  = array_values(
			array_filter(
				$result['problems'],
				static function ( array $problem ): bool {
					// Colours never stop the widget: an unusable one is left out of the CSS.
					return 'color' !== $problem['rule'];
				}
			)
		);
		if ( array() !== $problems ) {
			return array(
				'settings' => array(),
				'problems' => self::name_block_fields( $problems, $attributes ),
			);
		}

		$values   = $result['values'];
		$settings = array(
			'target_element' => $target_element,
			'partner_token'  => (string) $values['partner_token'],
			'from_currency'  => (string) $values['default_fiat_currency'],
			'to_currency'    => (string) $values['default_crypto_currency'],
		);
		if ( '' !== $values['default_amount'] ) {
			$fiat                     = $this->schema->fiat( $settings['from_currency'] );
			$settings['from_amount'] = (int) Decimal_Amount::to_minor( (string) $values['default_amount'], (int) $fiat['decimals'] );
		}
		$lang = '' !== $values['default_language'] ? (string) $values['default_language'] : $site_language;
		if ( '' !== $lang ) {
			$settings['lang'] = $lang;
		}
		if ( null !== $partner_css ) {
			$settings['partner_css'] = $partner_css;
		}
		return array(
			'settings' => $settings,
			'problems' => array(),
		);
	}

	/**
	 * Signed settings: unsigned() stamped with $now_ms and signed (simple
	 * form) with the partner secret, or the problems.
	 *
	 * @return array{settings: array<string, string|int>, problems: array<int, array{field: string, rule: string, message: string}>}
	 */
	public function signed( array $attributes, string $target_element, string $site_language, ?string $partner_css, int $now_ms ): array {
		$result = $this->unsigned( $attributes, $target_element, $site_language, $partner_css );
		if ( array() !== $result['problems'] ) {
			return $result;
		}
		$settings              = $result['settings'];
		$settings['timestamp'] = $now_ms;
		$settings['signature'] = Signer::sign( $settings, (string) $this->settings['partner_secret'], Canonical::FORM_SIMPLE );
		return array(
			'settings' => $settings,
			'problems' => array(),
		);
	}

	/** The current time in whole milliseconds since the epoch. */
	public static function now_ms(): int {
		return (int) floor( microtime( true ) * 1000 );
	}

	/**
	 * Problems caused by a block's own attribute name that attribute
	 * (block.amount ...), so the editor and the logs point at the block, not
	 * at the settings page.
	 *
	 * @param array<int, array{field: string, rule: string, message: string}> $problems
	 * @param array<string, string>                                          $attributes
	 * @return array<int, array{field: string, rule: string, message: string}>
	 */
	private static function name_block_fields( array $problems, array $attributes ): array {
		$by_field = array_flip( self::BLOCK_FIELDS );
		foreach ( $problems as $i => $problem ) {
			$attribute = $by_field[ $problem['field'] ] ?? null;
			if ( null !== $attribute && isset( $attributes[ $attribute ] ) && '' !== $attributes[ $attribute ] ) {
				$problems[ $i ]['field'] = 'block.' . $attribute;
			}
		}
		return $problems;
	}
}

<?php
/**
 * The partner CSS file (widget setting partner_css): the colour fields of the
 * settings schema written as custom properties of the class widgetColor,
 * byte for byte as @card2crypto/core's partnerCss() writes them: one line per
 * colour that is set, valid and differs from the widget's default
 * (compared without spaces), in schema order (the spec's order).
 *
 * No WordPress calls here.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Rules;

use Card2Crypto\Widget\Shared\Settings\Css_Color;

defined( 'ABSPATH' ) || exit;

final class Partner_Css {

	/**
	 * The colour fields of the widget schema, in order.
	 *
	 * @param array<string, array<string, mixed>> $fields Schema fields by id.
	 * @return array<string, array<string, mixed>>
	 */
	public static function color_fields( array $fields ): array {
		return array_filter(
			$fields,
			static function ( array $field ): bool {
				return 'color' === ( $field['rule']['kind'] ?? '' );
			}
		);
	}

	/**
	 * Custom property => normalised value, for each colour that needs writing.
	 * Values that are empty, invalid or equal to the default are left out
	 * (the settings page never stores an invalid colour; this keeps a
	 * hand-edited option from breaking the file).
	 *
	 * @param array<string, array<string, mixed>> $fields Schema fields by id.
	 * @param array<string, mixed>                $values Settings values by field id.
	 * @return array<string, string>
	 */
	public static function overrides( array $fields, array $values ): array {
		$out = array();
		foreach ( self::color_fields( $fields ) as $id => $field ) {
			$value = $values[ $id ] ?? '';
			if ( ! is_string( $value ) || '' === trim( $value ) || ! Css_Color::is_valid( $value ) ) {
				continue;
			}
			$normalized = Css_Color::normalize( $value );
			if ( str_replace( ' ', '', $normalized ) === str_replace( ' ', '', (string) $field['default'] ) ) {
				continue;
			}
			$out[ (string) $field['rule']['property'] ] = $normalized;
		}
		return $out;
	}

	/**
	 * The CSS text ("" when nothing differs from the defaults: partner_css is
	 * then left out of the widget settings).
	 *
	 * @param array<string, array<string, mixed>> $fields
	 * @param array<string, mixed>                $values
	 */
	public static function css( array $fields, array $values ): string {
		$overrides = self::overrides( $fields, $values );
		if ( array() === $overrides ) {
			return '';
		}
		$css = ".widgetColor {\n";
		foreach ( $overrides as $property => $value ) {
			$css .= '  ' . $property . ': ' . $value . ";\n";
		}
		return $css . "}\n";
	}

	/** A short version of the CSS text for its URL, so a colour change is a new address that no cache holds. */
	public static function version( string $css ): string {
		return substr( hash( 'sha256', $css ), 0, 12 );
	}
}

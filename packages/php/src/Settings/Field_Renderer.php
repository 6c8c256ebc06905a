<?php
/**
 * The HTML control of one schema field, shared by the WooCommerce gateway
 * form and the Settings API page. Everything is escaped here, at output.
 * Secret fields are password inputs that are always empty; a field
 * overridden by a wp-config.php constant is disabled and empty; a partner's
 * field (the service's environment and addresses) is read-only, with a line
 * saying why, for a user who may not add unfiltered code. After a
 * refused save the form shows what the owner typed (never a secret) and
 * each field's error next to it.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Settings;

final class Field_Renderer {

	/** Rule kinds whose values are codes or addresses: no spell checking, no autocapitalisation. */
	const CODE_LIKE = array( 'btc_address', 'url', 'ip_list', 'color', 'email', 'minor_amount' );

	/**
	 * @param string $name    The form field name.
	 * @param string $html_id The element id (the label's "for").
	 * @param bool        $invalid Whether the last save refused this field (aria-invalid).
	 * @param string|null $typed   What the owner typed in a refused save, shown instead of the stored value
	 *                             (ignored for secret and locked fields); checkboxes "yes" or "no".
	 * @param string      $error   Why the last save refused this field, shown next to it.
	 */
	public static function control( Field_View $view, array $field, string $name, string $html_id, bool $invalid = false, ?string $typed = null, string $error = '' ): string {
		$locked      = $view->is_locked( $field );
		$partner     = $view->is_partner_locked( $field );
		$value       = null !== $typed && ! $locked && ! $partner && empty( $field['secret'] ) ? $typed : $view->form_value( $field );
		$description = $html_id . '-description';
		$error_id    = $html_id . '-error';
		$common      = ' name="' . esc_attr( $name ) . '" id="' . esc_attr( $html_id ) . '" aria-describedby="' . esc_attr( ( '' !== $error ? $error_id . ' ' : '' ) . $description ) . '"'
			. ( $locked ? ' disabled="disabled"' : '' )
			// A select cannot be read-only: disabled, so not sent, and a partner's field not sent keeps what is stored.
			. ( $partner && ! $locked ? ( 'select' === $field['type'] ? ' disabled="disabled"' : ' readonly="readonly"' ) : '' )
			. ( $invalid ? ' aria-invalid="true"' : '' )
			. ( ! empty( $field['required'] ) && empty( $field['requiredWhen'] ) && empty( $field['secret'] ) && ! $locked ? ' aria-required="true"' : '' );

		switch ( $field['type'] ) {
			case 'checkbox':
				$html = '<label for="' . esc_attr( $html_id ) . '"><input type="checkbox" value="yes"' . $common . ( 'yes' === $value ? ' checked="checked"' : '' ) . ' /> '
					. esc_html( $view->label( $field ) ) . '</label>';
				break;
			case 'select':
				$html = '<select' . $common . '>';
				foreach ( $view->options( $field ) as $option_value => $option_label ) {
					$html .= '<option value="' . esc_attr( (string) $option_value ) . '"' . ( (string) $option_value === $value ? ' selected="selected"' : '' ) . '>' . esc_html( $option_label ) . '</option>';
				}
				$html .= '</select>';
				break;
			case 'textarea':
				$html = '<textarea rows="4" cols="50" class="large-text"' . $common . self::text_attributes( $view, $field ) . '>' . esc_textarea( $value ) . '</textarea>';
				break;
			case 'secret':
				$html = '<input type="password" class="regular-text" value="" autocomplete="new-password" spellcheck="false"' . $common . self::text_attributes( $view, $field ) . ' />';
				break;
			default:
				$html = '<input type="text" class="regular-text" value="' . esc_attr( $value ) . '"' . $common . self::text_attributes( $view, $field ) . ' />';
		}
		if ( '' !== $error ) {
			$html .= '<p class="card2crypto-field-error" id="' . esc_attr( $error_id ) . '" style="color:#d63638"><strong>' . esc_html( $error ) . '</strong></p>';
		}
		if ( $partner ) {
			$html .= '<p class="description card2crypto-partner-only" data-card2crypto="partner-only">' . esc_html( $view->partner_only_line() ) . '</p>';
		}
		$help = $view->help( $field );
		if ( '' !== $help ) {
			$html .= '<p class="description" id="' . esc_attr( $description ) . '">' . esc_html( $help ) . '</p>';
		}
		return $html;
	}

	private static function text_attributes( Field_View $view, array $field ): string {
		$attributes  = '';
		$placeholder = $view->placeholder( $field );
		if ( '' !== $placeholder ) {
			$attributes .= ' placeholder="' . esc_attr( $placeholder ) . '"';
		}
		$max = $view->max_length( $field );
		if ( null !== $max ) {
			$attributes .= ' maxlength="' . esc_attr( (string) $max ) . '"';
		}
		if ( in_array( $field['rule']['kind'], self::CODE_LIKE, true ) || ! empty( $field['constant'] ) ) {
			$attributes .= ' spellcheck="false" autocapitalize="off" autocomplete="off"';
		}
		return $attributes;
	}
}

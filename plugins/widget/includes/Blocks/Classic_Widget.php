<?php
/**
 * The purchase widget as a classic widget (WP_Widget), for sites on the
 * classic widgets screen (a classic theme with the Classic Widgets plugin,
 * or the use_widgets_block_editor filter returning false), where only
 * WP_Widget classes can be placed.
 *
 * It has the block's options (heading, amount, fiat currency, crypto
 * currency, language) and renders through the block's own render
 * (render_block of card2crypto/widget): the same markup, the same view
 * script, the same server-made reference, so the signing route signs only
 * what was stored here and validated by the settings schema's rules.
 *
 * The block editor's Legacy Widget block does not offer it: the block
 * itself is there.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Blocks;

use Card2Crypto\Widget\Rules\Widget_Signer;
use Card2Crypto\Widget\Settings\Settings_Address;
use Card2Crypto\Widget\Settings\Widget_Config;
use Card2Crypto\Widget\Settings\Widget_Settings;
use Card2Crypto\Widget\Shared\Settings\Js_Text;
use Card2Crypto\Widget\Shared\Settings\Settings_Validator;

defined( 'ABSPATH' ) || exit;

final class Classic_Widget extends \WP_Widget {

	const ID_BASE = 'card2crypto_widget';

	/** Longest heading accepted (the settings page's title rule). */
	const TITLE_MAX = 100;

	/**
	 * What a save with problems sent, per widget number, so the form shown
	 * right after the save (same request) shows those values and why they
	 * were refused. Nothing of a refused save is stored.
	 *
	 * @var array<int|string, array{values: array<string, string>, problems: array<string, string>}>
	 */
	private $refused = array();

	/** @var Widget_Settings */
	private $settings;

	public function __construct( Widget_Settings $settings ) {
		$this->settings = $settings;
		parent::__construct(
			self::ID_BASE,
			__( 'Crypto purchase widget', 'card2crypto-widget' ),
			array(
				'classname'                   => 'widget_card2crypto_widget',
				'description'                 => __( 'Lets visitors buy crypto with a bank card right here.', 'card2crypto-widget' ),
				'customize_selective_refresh' => true,
				'show_instance_in_rest'       => true,
			)
		);
	}

	/**
	 * The block attributes of a stored instance: only known options, only
	 * strings. A title that was never saved is left out (the site's title).
	 *
	 * @param array<string, mixed> $instance
	 * @return array<string, string>
	 */
	public function attributes( array $instance ): array {
		$attributes = array();
		foreach ( array( 'title', 'amount', 'fiatCurrency', 'cryptoCurrency', 'lang' ) as $key ) {
			if ( isset( $instance[ $key ] ) && is_string( $instance[ $key ] ) ) {
				$attributes[ $key ] = $instance[ $key ];
			}
		}
		return $attributes;
	}

	/**
	 * Front end: the block's render inside the theme's widget wrapper.
	 *
	 * @param array<string, mixed> $args     Sidebar arguments (before_widget ...), from the theme.
	 * @param array<string, mixed> $instance Stored options.
	 */
	public function widget( $args, $instance ): void {
		// The heading goes to the block as stored: the block escapes it. (Not through the widget_title
		// filter, which WordPress gives esc_html and wptexturize: that would escape it twice.)
		$attributes = $this->attributes( is_array( $instance ) ? $instance : array() );
		$html       = render_block(
			array(
				'blockName'    => 'card2crypto/widget',
				'attrs'        => $attributes,
				'innerBlocks'  => array(),
				'innerHTML'    => '',
				'innerContent' => array(),
			)
		);
		// phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- the theme's wrapper, and the block's render, which escapes its own output.
		echo ( $args['before_widget'] ?? '' ) . $html . ( $args['after_widget'] ?? '' );
	}

	/**
	 * Sanitises and validates a save. Valid: the clean options are stored.
	 * Any problem: nothing is stored (false keeps the previous options) and
	 * the form shows the submitted values with a message per field.
	 *
	 * @param array<string, mixed> $new_instance Submitted values.
	 * @param array<string, mixed> $old_instance Stored values.
	 * @return array<string, string>|false
	 */
	public function update( $new_instance, $old_instance ) {
		$result = $this->validate( is_array( $new_instance ) ? $new_instance : array(), $this->settings->config() );
		if ( array() !== $result['problems'] ) {
			$this->refused[ $this->number ] = $result;
			return false;
		}
		unset( $this->refused[ $this->number ] );
		return $result['values'];
	}

	/**
	 * Clean values and a message per field name (empty when valid). The
	 * purchase options are checked merged over the site's settings by the
	 * settings schema's rules, as the block editor and the signing route do.
	 *
	 * @param array<string, mixed> $input Submitted values.
	 * @return array{values: array<string, string>, problems: array<string, string>}
	 */
	public function validate( array $input, Widget_Config $config ): array {
		$text     = static function ( $value ): string {
			// WP_Widget::update_callback() has unslashed the submission already.
			return is_string( $value ) ? trim( sanitize_text_field( $value ) ) : '';
		};
		$values   = array(
			'title'          => $text( $input['title'] ?? '' ),
			'amount'         => $text( $input['amount'] ?? '' ),
			'fiatCurrency'   => $text( $input['fiatCurrency'] ?? '' ),
			'cryptoCurrency' => $text( $input['cryptoCurrency'] ?? '' ),
			'lang'           => $text( $input['lang'] ?? '' ),
		);
		$problems = array();
		if ( Js_Text::length( $values['title'] ) > self::TITLE_MAX ) {
			/* translators: %d: maximum number of characters */
			$problems['title'] = sprintf( __( 'Heading: at most %d characters.', 'card2crypto-widget' ), self::TITLE_MAX );
		}

		// What the widget would start with: the options set here, else the site's (as Widget_Signer merges them).
		$fiat_is_site = '' === $values['fiatCurrency'] || $values['fiatCurrency'] === $config->get( 'default_fiat_currency' );
		$effective    = array();
		foreach ( Widget_Signer::BLOCK_FIELDS as $attribute => $field_id ) {
			$effective[ $field_id ] = '' !== $values[ $attribute ] ? $values[ $attribute ] : (string) $config->get( $field_id );
		}
		if ( '' === $values['amount'] && ! $fiat_is_site ) {
			$effective['default_amount'] = '';
		}
		$result = ( new Settings_Validator( $config->schema(), 'widget' ) )->validate( $effective );
		$labels = $this->labels();
		foreach ( $result['problems'] as $problem ) {
			$attribute = array_search( $problem['field'], Widget_Signer::BLOCK_FIELDS, true );
			if ( false === $attribute || '' === $values[ $attribute ] || isset( $problems[ $attribute ] ) ) {
				// A value this widget inherits is the settings page's business (it says so there): never a reason to refuse this save.
				continue;
			}
			$field = $config->schema()->fields( 'widget' )[ $problem['field'] ];
			// The validator writes "<Label>: <reason>" in English; keep the reason, use this form's label.
			$reason                 = 0 === strpos( $problem['message'], $field['label'] . ': ' ) ? substr( $problem['message'], strlen( $field['label'] ) + 2 ) : $problem['message'];
			$problems[ $attribute ] = sprintf(
				/* translators: 1: label of a widget option, 2: what is wrong with the value */
				__( '%1$s: %2$s', 'card2crypto-widget' ),
				$labels[ $attribute ],
				$reason
			);
		}
		// Stored as typed (as the block stores its attributes); the signing route normalises and checks again.
		return array(
			'values'   => $values,
			'problems' => $problems,
		);
	}

	/** @return array<string, string> Option => translated label. */
	private function labels(): array {
		return array(
			'title'          => __( 'Heading', 'card2crypto-widget' ),
			'amount'         => __( 'Amount', 'card2crypto-widget' ),
			'fiatCurrency'   => __( 'Fiat currency', 'card2crypto-widget' ),
			'cryptoCurrency' => __( 'Crypto currency', 'card2crypto-widget' ),
			'lang'           => __( 'Language', 'card2crypto-widget' ),
		);
	}

	/**
	 * The choices of a select: "" (the site's default, named) then the
	 * settings schema's options for that field.
	 *
	 * @return array<string, string> Value => label.
	 */
	private function choices( Widget_Config $config, string $field_id ): array {
		$field   = $config->schema()->fields( 'widget' )[ $field_id ];
		$current = (string) $config->get( $field_id );
		$named   = '' === $current ? __( 'language of the page', 'card2crypto-widget' ) : $current;
		foreach ( $field['options'] ?? array() as $option ) {
			if ( '' !== $current && $option['value'] === $current && 'default_language' === $field_id ) {
				$named = $option['label'];
			}
		}
		if ( 'default_language' === $field_id ) {
			$named = $this->unoffered_language( $config, $current, $named );
		}
		/* translators: %s: the site's default value, e.g. EUR */
		$choices = array( '' => sprintf( __( 'Site default (%s)', 'card2crypto-widget' ), $named ) );
		foreach ( $field['options'] ?? array() as $option ) {
			if ( '' !== $option['value'] ) {
				$choices[ (string) $option['value'] ] = (string) $option['label'];
			}
		}
		return $choices;
	}

	/**
	 * The options form (widgets screen and Customizer).
	 *
	 * @param array<string, mixed> $instance Stored options.
	 */
	public function form( $instance ): string {
		$config  = $this->settings->config();
		$refused = $this->refused[ $this->number ] ?? null;
		$stored  = is_array( $instance ) ? $instance : array();
		$values  = null !== $refused ? $refused['values'] : array_merge(
			// A new widget starts with the site's heading; an empty heading then means none.
			array( 'title' => (string) $config->get( 'title' ) ),
			array_map( 'strval', $this->attributes( $stored ) )
		);
		$problems = null !== $refused ? $refused['problems'] : array();
		$labels   = $this->labels();

		if ( array() !== $problems ) {
			echo '<div class="notice notice-error inline c2c-classic-widget__problems" role="alert"><p>' . esc_html__( 'Not saved: correct the options below.', 'card2crypto-widget' ) . '</p></div>';
		}
		if ( ! $config->has_credentials() && current_user_can( 'manage_options' ) ) {
			printf(
				'<p class="description">%s <a href="%s">%s</a></p>',
				esc_html__( 'The widget needs your partner token and secret.', 'card2crypto-widget' ),
				esc_url( Settings_Address::url() ),
				esc_html__( 'Open the settings', 'card2crypto-widget' )
			);
		}

		$this->text_field( 'title', $labels['title'], $values['title'] ?? '', $problems['title'] ?? '', __( 'Shown above the widget. Leave empty for none.', 'card2crypto-widget' ) );
		$site_amount = (string) $config->get( 'default_amount' );
		$this->text_field(
			'amount',
			$labels['amount'],
			$values['amount'] ?? '',
			$problems['amount'] ?? '',
			'' !== $site_amount
				/* translators: 1: amount, 2: currency code */
				? sprintf( __( 'Pre-filled in the widget, e.g. 100 or 99.50. Leave empty for the site default (%1$s %2$s).', 'card2crypto-widget' ), $site_amount, (string) $config->get( 'default_fiat_currency' ) )
				: __( 'Pre-filled in the widget, e.g. 100 or 99.50. Leave empty to let the buyer type it.', 'card2crypto-widget' )
		);
		$this->select_field( 'fiatCurrency', $labels['fiatCurrency'], $this->choices( $config, 'default_fiat_currency' ), $values['fiatCurrency'] ?? '', $problems['fiatCurrency'] ?? '' );
		$this->select_field( 'cryptoCurrency', $labels['cryptoCurrency'], $this->choices( $config, 'default_crypto_currency' ), $values['cryptoCurrency'] ?? '', $problems['cryptoCurrency'] ?? '' );
		$lang    = (string) ( $values['lang'] ?? '' );
		$choices = $this->choices( $config, 'default_language' );
		if ( '' !== $lang && ! isset( $choices[ $lang ] ) ) {
			// An older save outside the payment page's languages stays listed, so saving again does not change it unseen.
			$choices[ $lang ] = $this->unoffered_language( $config, $lang, $lang );
		}
		$this->select_field( 'lang', $labels['lang'], $choices, $lang, $problems['lang'] ?? '' );
		return 'form';
	}

	/**
	 * "Japanese (ja): shown in English" for an ISO 639-1 code the payment page
	 * is not offered in (docs/decisions.md, "Widget language"); $otherwise for
	 * any other value.
	 */
	private function unoffered_language( Widget_Config $config, string $code, string $otherwise ): string {
		$schema = $config->schema();
		if ( '' === $code || $schema->is_payment_page_language( $code ) || ! $schema->is_language_code( $code ) ) {
			return $otherwise;
		}
		/* translators: %s: a language name and code, e.g. Japanese (ja) */
		return sprintf( __( '%s: shown in English', 'card2crypto-widget' ), $schema->language_name( $code ) . ' (' . $code . ')' );
	}

	/** A problem under a field, tied to it for screen readers. */
	private function problem( string $key, string $message ): string {
		return '' === $message ? '' : '<span id="' . esc_attr( $this->get_field_id( $key ) . '-problem' ) . '" class="c2c-classic-widget__problem" style="display:block;color:#d63638">' . esc_html( $message ) . '</span>';
	}

	private function text_field( string $key, string $label, string $value, string $problem, string $help ): void {
		$id = $this->get_field_id( $key );
		printf(
			'<p><label for="%1$s">%2$s</label><input class="widefat" type="text" id="%1$s" name="%3$s" value="%4$s"%5$s%6$s><span class="description">%7$s</span>%8$s</p>',
			esc_attr( $id ),
			esc_html( $label ),
			esc_attr( $this->get_field_name( $key ) ),
			esc_attr( $value ),
			'amount' === $key ? ' inputmode="decimal"' : '',
			'' !== $problem ? ' aria-invalid="true" aria-describedby="' . esc_attr( $id . '-problem' ) . '"' : '',
			esc_html( $help ),
			$this->problem( $key, $problem ) // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- escaped in problem().
		);
	}

	/** @param array<string, string> $choices */
	private function select_field( string $key, string $label, array $choices, string $value, string $problem ): void {
		$id      = $this->get_field_id( $key );
		$options = '';
		foreach ( $choices as $choice => $text ) {
			$options .= '<option value="' . esc_attr( (string) $choice ) . '"' . selected( (string) $choice, $value, false ) . '>' . esc_html( $text ) . '</option>';
		}
		printf(
			'<p><label for="%1$s">%2$s</label><select class="widefat" id="%1$s" name="%3$s"%4$s>%5$s</select>%6$s</p>',
			esc_attr( $id ),
			esc_html( $label ),
			esc_attr( $this->get_field_name( $key ) ),
			'' !== $problem ? ' aria-invalid="true" aria-describedby="' . esc_attr( $id . '-problem' ) . '"' : '',
			$options, // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- escaped above.
			$this->problem( $key, $problem ) // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- escaped in problem().
		);
	}
}

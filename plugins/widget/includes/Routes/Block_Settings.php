<?php
/**
 * What the sign and go routes share: the attributes of a block the browser
 * sent back (only when its reference is one this site made), and the
 * signed widget settings for them, or a WP_Error saying why not.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Routes;

use Card2Crypto\Widget\Base\Route_Address;
use Card2Crypto\Widget\Rules\Partner_Css;
use Card2Crypto\Widget\Rules\Widget_Signer;
use Card2Crypto\Widget\Settings\Site_Keys;
use Card2Crypto\Widget\Settings\Widget_Settings;

defined( 'ABSPATH' ) || exit;

final class Block_Settings {

	/** @var Site_Keys */
	private $keys;

	/** @var Widget_Settings */
	private $settings;

	public function __construct( Site_Keys $keys, Widget_Settings $settings ) {
		$this->keys     = $keys;
		$this->settings = $settings;
	}

	/**
	 * The block's attributes when its reference is genuine.
	 *
	 * @return array<string, string>|\WP_Error
	 */
	public function attributes( string $payload, string $ref ) {
		$attributes = $this->keys->references()->attributes( $payload, $ref );
		if ( null === $attributes ) {
			return new \WP_Error( 'card2crypto_unknown_block', __( 'This purchase widget is out of date. Please reload the page.', 'card2crypto-widget' ), array( 'status' => 403 ) );
		}
		return $attributes;
	}

	/**
	 * Signed settings for the block, stamped now; the problems (field, rule,
	 * message) in the error's data when the settings are not valid.
	 *
	 * @param array<string, string> $attributes
	 * @return array<string, string|int>|\WP_Error
	 */
	public function signed( array $attributes, string $target ) {
		$config = $this->settings->config();
		if ( ! $config->has_credentials() ) {
			return new \WP_Error( 'card2crypto_not_configured', __( 'The purchase widget is not set up yet: the site has no partner credentials.', 'card2crypto-widget' ), array( 'status' => 503 ) );
		}
		$css    = $config->partner_css();
		$css_at = '' === $css ? null : add_query_arg( 'v', Partner_Css::version( $css ), Route_Address::url( 'partner.css' ) );
		$result = ( new Widget_Signer( $config->schema(), $config->values() ) )->signed( $attributes, $target, $config->site_language(), $css_at, Widget_Signer::now_ms() );
		if ( array() !== $result['problems'] ) {
			$problems = array_map(
				static function ( array $problem ): array {
					return array(
						'field'   => $problem['field'],
						'rule'    => $problem['rule'],
						'message' => $problem['message'],
					);
				},
				$result['problems']
			);
			return new \WP_Error(
				'card2crypto_invalid_settings',
				__( 'The purchase widget cannot start: its settings are not valid.', 'card2crypto-widget' ),
				array(
					'status'   => 503,
					'problems' => $problems,
				)
			);
		}
		return $result['settings'];
	}
}

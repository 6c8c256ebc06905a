<?php
/**
 * What the block editor shows without asking the service: the site's
 * defaults and colours (never the credentials), for the preview and the
 * controls' hints, as window.card2cryptoWidget before the editor script.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Blocks;

use Card2Crypto\Widget\Base\Assets;
use Card2Crypto\Widget\Settings\Settings_Address;
use Card2Crypto\Widget\Settings\Widget_Settings;
use Card2Crypto\Widget\Shared\Assets\Build_Assets;
use Card2Crypto\Widget\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Editor_Data implements Hooks {

	/** @var Widget_Settings */
	private $settings;

	/** @var Build_Assets */
	private $build;

	public function __construct( Widget_Settings $settings, Build_Assets $build ) {
		$this->settings = $settings;
		$this->build    = $build;
	}

	public function register(): void {
		add_action( 'enqueue_block_editor_assets', array( $this, 'add' ) );
	}

	/** On enqueue_block_editor_assets. */
	public function add(): void {
		$config = $this->settings->config();
		$data   = array(
			'defaults'    => array(
				'title'          => (string) $config->get( 'title' ),
				'amount'         => (string) $config->get( 'default_amount' ),
				'fiatCurrency'   => (string) $config->get( 'default_fiat_currency' ),
				'cryptoCurrency' => (string) $config->get( 'default_crypto_currency' ),
				'lang'           => (string) $config->get( 'default_language' ),
			),
			'colors'      => $config->colors(),
			'configured'  => $config->has_credentials(),
			'settingsUrl' => current_user_can( Settings_Address::CAPABILITY ) ? Settings_Address::url() : '',
		);
		$this->build->data( Assets::EDITOR_SCRIPT, 'card2cryptoWidget', $data );
	}
}

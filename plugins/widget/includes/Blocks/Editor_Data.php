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
use Card2Crypto\Widget\Plugin;
use Card2Crypto\Widget\Settings\Settings_Address;

defined( 'ABSPATH' ) || exit;

final class Editor_Data {

	/** On enqueue_block_editor_assets. */
	public static function add(): void {
		$config = Plugin::config();
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
		Plugin::assets()->data( Assets::EDITOR_SCRIPT, 'card2cryptoWidget', $data );
	}
}

<?php
/**
 * Where the widget's settings page is and who may open it: named by the
 * page itself, the connection check, the editor and the classic widget.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Settings;

defined( 'ABSPATH' ) || exit;

final class Settings_Address {

	const PAGE_SLUG  = 'card2crypto-widget';
	const CAPABILITY = 'manage_options';

	/** The settings page's address (Settings → Card2Crypto Widget). */
	public static function url(): string {
		return admin_url( 'options-general.php?page=' . self::PAGE_SLUG );
	}
}

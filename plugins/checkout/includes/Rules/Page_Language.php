<?php
/**
 * The payment page's language (docs/decisions.md, "Widget language"), from
 * the languages the bundled settings schema lists (core's
 * PAYMENT_PAGE_LANGUAGES): reference data read like Currencies', no
 * WordPress state. Unit-tested in test/currencies.test.ts.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Rules;

use Card2Crypto\Checkout\Shared\Plugin_Bootstrap;

defined( 'ABSPATH' ) || exit;

final class Page_Language {

	/**
	 * The payment page's language for a site locale (de_DE => de) when the
	 * page is offered in it (core's PAYMENT_PAGE_LANGUAGES, from the schema),
	 * else "": no lang, the service's default, English (docs/decisions.md,
	 * "Widget language").
	 */
	public static function of( string $locale ): string {
		$code = strtolower( (string) strtok( $locale, '_-' ) );
		return Plugin_Bootstrap::schema()->is_payment_page_language( $code ) ? $code : '';
	}
}

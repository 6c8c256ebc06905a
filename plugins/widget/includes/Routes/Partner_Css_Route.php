<?php
/**
 * GET partner.css: the widget colours as CSS (Partner_Css), long-cached
 * when asked for by its current version, with an ETag for revalidation.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Routes;

use Card2Crypto\Widget\Rules\Partner_Css;
use Card2Crypto\Widget\Settings\Widget_Settings;

defined( 'ABSPATH' ) || exit;

final class Partner_Css_Route {

	/** @var Widget_Settings */
	private $settings;

	public function __construct( Widget_Settings $settings ) {
		$this->settings = $settings;
	}

	public function handle( \WP_REST_Request $request ): \WP_REST_Response {
		$css      = $this->settings->config()->partner_css();
		$version  = Partner_Css::version( $css );
		$etag     = '"' . $version . '"';
		$response = new \WP_REST_Response( $css, 200 );
		$response->header( 'Content-Type', 'text/css; charset=UTF-8' );
		$response->header( 'ETag', $etag );
		$response->header( 'X-Content-Type-Options', 'nosniff' );
		$response->header( 'Access-Control-Allow-Origin', '*' );
		// The address carries the version, so a colour change is a new URL: the old one may be cached for good.
		$response->header( 'Cache-Control', $request['v'] === $version ? 'public, max-age=31536000, immutable' : 'public, max-age=60' );
		$if_none_match = isset( $_SERVER['HTTP_IF_NONE_MATCH'] ) ? trim( sanitize_text_field( wp_unslash( $_SERVER['HTTP_IF_NONE_MATCH'] ) ) ) : '';
		if ( $etag === $if_none_match ) {
			$response->set_status( 304 );
			$response->set_data( '' );
		}
		return $response;
	}
}

<?php
/**
 * GET go?b=<payload>&r=<ref>: the "Buy crypto" link. Signs the block's
 * settings at click time and redirects (302) to the landing page; a
 * refusal is a small readable page (Refusal_Page), since a person clicked.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Routes;

use Card2Crypto\Widget\Settings\Widget_Settings;
use Card2Crypto\Widget\Shared\Landing\Landing_Url;
use Card2Crypto\Widget\Shared\Settings\Http_Url;

defined( 'ABSPATH' ) || exit;

final class Go_Route {

	/** @var Block_Settings */
	private $blocks;

	/** @var Route_Limit */
	private $limit;

	/** @var Return_Notice */
	private $returns;

	/** @var Refusal_Page */
	private $refusal;

	/** @var Widget_Settings */
	private $settings;

	public function __construct( Block_Settings $blocks, Route_Limit $limit, Return_Notice $returns, Refusal_Page $refusal, Widget_Settings $settings ) {
		$this->blocks   = $blocks;
		$this->limit    = $limit;
		$this->returns  = $returns;
		$this->refusal  = $refusal;
		$this->settings = $settings;
	}

	public function handle( \WP_REST_Request $request ): \WP_REST_Response {
		$ref = (string) $request['r'];
		// The rate limit's refusal, else the block's attributes or why they are refused.
		$attributes = $this->limit->refusal( 'go' ) ?? $this->blocks->attributes( (string) $request['b'], $ref );
		$settings   = is_wp_error( $attributes ) ? $attributes : $this->blocks->signed( $attributes, 'c2c-landing-' . substr( $ref, 0, 12 ) );
		if ( is_wp_error( $settings ) ) {
			return $this->refusal->response( $settings );
		}
		// The block's own addresses, else the page the button was on, with a return only this browser can show (Return_Notice).
		$back = $this->returns->addresses( $this->button_page(), $ref );
		try {
			$location = Landing_Url::build(
				$this->settings->config()->service_url( 'landing_url' ),
				$settings,
				$this->callback( $attributes['successUrl'] ?? '', $back['success'] ),
				$this->callback( $attributes['failUrl'] ?? '', $back['fail'] )
			);
		} catch ( \InvalidArgumentException $e ) {
			return $this->refusal->response( new \WP_Error( 'card2crypto_invalid_settings', $e->getMessage(), array( 'status' => 503 ) ) );
		}
		$response = new \WP_REST_Response( '', 302 );
		$response->header( 'Location', $location );
		$response->header( 'Cache-Control', 'no-store' );
		$response->header( 'Content-Type', 'text/html; charset=UTF-8' );
		return $response;
	}

	/** The block's own address for the outcome when it has a valid one, else ours. */
	private function callback( string $url, string $ours ): string {
		return '' !== $url && Http_Url::is_valid( $url ) ? $url : $ours;
	}

	/** The page the button was clicked on (the Referer, when it is this site's), else the home page. */
	private function button_page(): string {
		$home     = home_url( '/' );
		$referer  = wp_get_raw_referer();
		$referer  = false === $referer ? '' : remove_query_arg( array( 'card2crypto', 'c2c_ref', 'c2c_until', 'c2c_proof' ), $referer );
		$same     = '' !== $referer && wp_parse_url( $referer, PHP_URL_HOST ) === wp_parse_url( $home, PHP_URL_HOST ) && 0 !== strpos( $referer, admin_url() );
		return $same ? wp_validate_redirect( $referer, $home ) : $home;
	}
}

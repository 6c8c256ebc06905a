<?php
/**
 * Where the plugin's routes are (/wp-json/card2crypto-widget/v1/…): the one
 * place their namespace is written. A leaf: the pages and blocks that link to
 * a route and the route classes themselves use it, so none of them needs
 * Routes, which registers the routes and so names every route class.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Base;

defined( 'ABSPATH' ) || exit;

final class Route_Address {

	const REST_NAMESPACE = 'card2crypto-widget/v1';

	/** The route as WP_REST_Request::get_route() names it ("/card2crypto-widget/v1/go"). */
	public static function route( string $name ): string {
		return '/' . self::REST_NAMESPACE . '/' . $name;
	}

	/** The route's address. */
	public static function url( string $name ): string {
		return rest_url( self::REST_NAMESPACE . '/' . $name );
	}
}

<?php
/**
 * How the answers of this plugin's routes leave WordPress: refusals are
 * never cached and carry Retry-After when the rate limit set one, and the
 * CSS and HTML answers (partner.css, go) are sent as they are instead of as
 * JSON strings.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Routes;

use Card2Crypto\Widget\Base\Route_Address;
use Card2Crypto\Widget\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Route_Output implements Hooks {

	public function register(): void {
		add_filter( 'rest_post_dispatch', array( $this, 'refusal_headers' ), 10, 3 );
		add_filter( 'rest_pre_serve_request', array( $this, 'serve_raw' ), 10, 4 );
	}

	/**
	 * On rest_post_dispatch: headers of a refusal (a WP_Error a route returned, or WordPress's own argument check).
	 *
	 * @param \WP_HTTP_Response $response
	 * @param \WP_REST_Server   $server
	 * @param \WP_REST_Request  $request
	 * @return \WP_HTTP_Response
	 */
	public function refusal_headers( $response, $server, $request ) {
		if ( ! $response instanceof \WP_REST_Response || $response->get_status() < 400 || 0 !== strpos( $request->get_route(), '/' . Route_Address::REST_NAMESPACE . '/' ) ) {
			return $response;
		}
		$body = $response->get_data();
		self::refusal_headers_of( $response, is_array( $body ) && is_array( $body['data'] ?? null ) ? $body['data'] : array() );
		return $response;
	}

	/**
	 * @param array<string, mixed> $data The refusal's data (status, retry_after ...).
	 */
	public static function refusal_headers_of( \WP_REST_Response $response, array $data ): void {
		$response->header( 'Cache-Control', 'no-store' );
		if ( isset( $data['retry_after'] ) ) {
			$response->header( 'Retry-After', (string) (int) $data['retry_after'] );
		}
	}

	/**
	 * On rest_pre_serve_request: sends the CSS and HTML answers as they are.
	 *
	 * @param bool              $served
	 * @param \WP_HTTP_Response $result
	 * @param \WP_REST_Request  $request
	 */
	public function serve_raw( $served, $result, $request ): bool {
		if ( $served || ! in_array( $request->get_route(), array( Route_Address::route( 'partner.css' ), Route_Address::route( 'go' ) ), true ) ) {
			return (bool) $served;
		}
		$data = $result->get_data();
		if ( ! is_string( $data ) ) {
			return false;
		}
		echo $data; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- CSS built from validated colours, or HTML escaped in Refusal_Page.
		return true;
	}
}

<?php
/**
 * A refusal of the go route as a small readable HTML page (a person
 * clicked a link): the error's message and a link back to the site, with
 * the error's status, never cached, Retry-After when the rate limit said so.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Routes;

defined( 'ABSPATH' ) || exit;

final class Refusal_Page {

	public function response( \WP_Error $refusal ): \WP_REST_Response {
		$data     = $refusal->get_error_data();
		$data     = is_array( $data ) ? $data : array();
		$html     = '<!doctype html><meta charset="utf-8"><meta name="robots" content="noindex"><title>' . esc_html__( 'Buy crypto', 'card2crypto-widget' ) . '</title>'
			. '<p>' . esc_html( $refusal->get_error_message() ) . '</p><p><a href="' . esc_url( home_url( '/' ) ) . '">' . esc_html__( 'Back to the site', 'card2crypto-widget' ) . '</a></p>';
		$response = new \WP_REST_Response( $html, (int) ( $data['status'] ?? 500 ) );
		$response->header( 'Content-Type', 'text/html; charset=UTF-8' );
		Route_Output::refusal_headers_of( $response, $data );
		return $response;
	}
}

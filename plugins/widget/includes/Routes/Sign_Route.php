<?php
/**
 * POST sign { blocks: [{ block, ref, target }, …] }: one request for every
 * block of a page. Answers { script, results: [{ settings } | { code,
 * message[, problems] }, …] } in the same order, each stamped at this
 * moment; a client that asks too often gets a 429 WP_Error.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Routes;

use Card2Crypto\Widget\Rules\Block_Reference;
use Card2Crypto\Widget\Settings\Widget_Settings;

defined( 'ABSPATH' ) || exit;

final class Sign_Route {

	/** @var Block_Settings */
	private $blocks;

	/** @var Route_Limit */
	private $limit;

	/** @var Widget_Settings */
	private $settings;

	public function __construct( Block_Settings $blocks, Route_Limit $limit, Widget_Settings $settings ) {
		$this->blocks   = $blocks;
		$this->limit    = $limit;
		$this->settings = $settings;
	}

	/** @return \WP_REST_Response|\WP_Error */
	public function handle( \WP_REST_Request $request ) {
		$limited = $this->limit->refusal( 'sign' );
		if ( null !== $limited ) {
			return $limited;
		}
		$results = array();
		foreach ( (array) $request['blocks'] as $item ) {
			$results[] = $this->sign_one( is_array( $item ) ? $item : array() );
		}
		$response = new \WP_REST_Response(
			array(
				'script'  => $this->settings->config()->service_url( 'widget_script_url' ),
				'results' => $results,
			),
			200
		);
		$response->header( 'Cache-Control', 'no-store' );
		return $response;
	}

	/**
	 * Signed settings for one block, or why not.
	 *
	 * @param array<string, mixed> $item { block, ref, target } as the page sent them.
	 * @return array<string, mixed> { settings } or { code, message[, problems] }.
	 */
	private function sign_one( array $item ): array {
		$ref        = is_string( $item['ref'] ?? null ) ? $item['ref'] : '';
		$attributes = $this->blocks->attributes( is_string( $item['block'] ?? null ) ? $item['block'] : '', $ref );
		if ( ! is_wp_error( $attributes ) && ! Block_Reference::is_element_id( $item['target'] ?? null, $ref ) ) {
			$attributes = new \WP_Error( 'card2crypto_bad_target', __( 'The widget element id does not belong to this block.', 'card2crypto-widget' ), array( 'status' => 400 ) );
		}
		$settings = is_wp_error( $attributes ) ? $attributes : $this->blocks->signed( $attributes, (string) $item['target'] );
		if ( is_wp_error( $settings ) ) {
			$data = $settings->get_error_data();
			return array_filter(
				array(
					'code'     => $settings->get_error_code(),
					'message'  => $settings->get_error_message(),
					'problems' => is_array( $data ) ? ( $data['problems'] ?? null ) : null,
				)
			);
		}
		return array( 'settings' => $settings );
	}
}

<?php
/**
 * The hosted landing page address (decisions.md, "Landing URL encoding"):
 * {landing_url}/?i= + percent-encoded standard base64 (with padding) of the
 * UTF-8 JSON {"params": <signed widget settings>, "callbacks": {"success", "fail"}}.
 * The PHP twin of core's buildLandingUrl(); test/landing-url.test.ts reads
 * its output back with core's parseLandingUrl().
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

defined( 'ABSPATH' ) || defined( 'C2C_TESTING' ) || exit;

final class Landing_Url {

	/**
	 * @param array<string, mixed> $params Signed widget settings.
	 * @throws \InvalidArgumentException For a landing address that is not absolute http(s), has a fragment or an i parameter.
	 */
	public static function build( string $landing_url, array $params, string $success, string $fail ): string {
		$parts = parse_url( $landing_url ); // phpcs:ignore WordPress.WP.AlternativeFunctions.parse_url_parse_url -- runs without WordPress in tests.
		if ( false === $parts || ! isset( $parts['scheme'], $parts['host'] ) || ! in_array( strtolower( $parts['scheme'] ), array( 'http', 'https' ), true ) ) {
			throw new \InvalidArgumentException( 'The landing address must be an absolute http(s) URL.' );
		}
		if ( isset( $parts['fragment'] ) ) {
			throw new \InvalidArgumentException( 'The landing address must not have a #fragment.' );
		}
		$query = $parts['query'] ?? '';
		if ( '' !== $query && 1 === preg_match( '/(^|&)i(=|&|$)/', $query ) ) {
			throw new \InvalidArgumentException( 'The landing address must not already carry an "i" parameter.' );
		}
		$json = json_encode( // phpcs:ignore WordPress.WP.AlternativeFunctions.json_encode_json_encode -- exact bytes matter; runs without WordPress in tests.
			array(
				'params'    => $params,
				'callbacks' => array(
					'success' => $success,
					'fail'    => $fail,
				),
			),
			JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_LINE_TERMINATORS | JSON_THROW_ON_ERROR
		);
		$base = strtok( $landing_url, '?' );
		$path = $parts['path'] ?? '';
		if ( '' === $path || '/' !== substr( $path, -1 ) ) {
			$base .= '/';
		}
		return $base . ( '' !== $query ? '?' . $query . '&' : '?' ) . 'i=' . rawurlencode( base64_encode( $json ) ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- the landing page's documented format.
	}
}

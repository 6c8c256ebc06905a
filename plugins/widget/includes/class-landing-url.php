<?php
/**
 * Hosted landing-page addresses, as @card2crypto/core's buildLandingUrl()
 * writes them (decisions.md, "Landing URL encoding"):
 * {landing_url}/?i=<base64 of {"params":…,"callbacks":{"success":…,"fail":…}}>,
 * standard base64 with padding, percent-encoded; a "/" is appended to the
 * path when missing and an existing query is kept.
 *
 * No WordPress calls here.
 *
 * @package Card2Crypto\Widget
 */

namespace Card2Crypto\Widget;

final class Landing_Url {

	/**
	 * @param string                    $landing_url Absolute http(s) address of the landing page, without #fragment.
	 * @param array<string, string|int> $params      Signed widget settings.
	 * @param string                    $success     Opened when the purchase succeeds.
	 * @param string                    $fail        Opened when it fails.
	 * @throws \InvalidArgumentException When the landing address cannot carry the payload.
	 */
	public static function build( string $landing_url, array $params, string $success, string $fail ): string {
		$parts = parse_url( $landing_url ); // phpcs:ignore WordPress.WP.AlternativeFunctions.parse_url_parse_url -- a pure class, no WordPress here.
		if ( ! is_array( $parts ) || ! isset( $parts['scheme'], $parts['host'] ) || ! in_array( strtolower( $parts['scheme'] ), array( 'http', 'https' ), true ) ) {
			throw new \InvalidArgumentException( 'The landing address must be an absolute http(s) URL.' );
		}
		if ( isset( $parts['fragment'] ) ) {
			throw new \InvalidArgumentException( 'The landing address must not have a #fragment.' );
		}
		$query = $parts['query'] ?? '';
		if ( 1 === preg_match( '/(?:^|&)i(?:=|&|$)/', $query ) ) {
			throw new \InvalidArgumentException( 'The landing address must not already carry an "i" parameter.' );
		}
		$path = $parts['path'] ?? '';
		if ( '/' !== substr( $path, -1 ) ) {
			$path .= '/';
		}
		$origin = strtolower( $parts['scheme'] ) . '://' . strtolower( $parts['host'] ) . ( isset( $parts['port'] ) ? ':' . $parts['port'] : '' );
		$json   = json_encode(
			array(
				'params'    => $params,
				'callbacks' => array(
					'success' => $success,
					'fail'    => $fail,
				),
			),
			// The same text JSON.stringify writes: no escaped slashes, Unicode or line separators.
			JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_LINE_TERMINATORS
		);
		return $origin . $path . ( '' !== $query ? '?' . $query . '&' : '?' ) . 'i=' . rawurlencode( base64_encode( (string) $json ) );
	}
}

<?php
/**
 * The callback endpoint: POST /wp-json/card2crypto/v1/callback.
 *
 * The service has no WordPress account, so the route is public
 * (permission_callback allows everyone) and every request is authenticated
 * by its signature instead, over the raw body read from php://input (not
 * WordPress's parsed parameters). Answers, per docs/decisions.md: 200 "OK"
 * for a verified callback, 400 for an empty, unparseable or invalid body,
 * 401 "Wrong signature", 403 from an address outside the allowlist, 500 when
 * no secret is configured (so the service sends it again later).
 *
 * A verified callback is applied to its order by Operation_Events (200
 * also for a duplicate; 500 when it could not be taken in) and announced
 * with the card2crypto_checkout_callback action.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

use Card2Crypto\Checkout\Shared\Callback\Callback_Verifier;
use Card2Crypto\Checkout\Shared\Settings\Ip_Address;
use Card2Crypto\Checkout\Shared\Settings\Js_Text;

defined( 'ABSPATH' ) || exit;

final class Callback_Controller {

	const REST_NAMESPACE = 'card2crypto/v1';
	const ROUTE          = '/callback';

	public static function register_routes(): void {
		register_rest_route(
			self::REST_NAMESPACE,
			self::ROUTE,
			array(
				'methods'             => 'POST',
				'callback'            => array( self::class, 'handle' ),
				// Public on purpose: the signature over the raw body is the authentication.
				'permission_callback' => '__return_true',
			)
		);
		add_filter( 'rest_request_before_callbacks', array( self::class, 'keep_invalid_json' ), 10, 3 );
		add_filter( 'rest_pre_serve_request', array( self::class, 'serve_plain_text' ), 10, 4 );
	}

	public static function route(): string {
		return '/' . self::REST_NAMESPACE . self::ROUTE;
	}

	/**
	 * WordPress answers a JSON body it cannot parse before the route's
	 * callback runs; for this route the callback judges the raw body itself.
	 *
	 * @param mixed            $response
	 * @param array            $handler
	 * @param \WP_REST_Request $request
	 * @return mixed
	 */
	public static function keep_invalid_json( $response, $handler, $request ) {
		if ( is_wp_error( $response ) && 'rest_invalid_json' === $response->get_error_code() && self::route() === $request->get_route() ) {
			return null;
		}
		return $response;
	}

	public static function handle( \WP_REST_Request $request ): \WP_REST_Response {
		$settings = Plugin::settings();

		$allowlist = Js_Text::split_list( (string) $settings->get( 'callback_ips' ) );
		if ( array() !== $allowlist ) {
			$ip = self::client_ip( (string) $settings->get( 'trust_proxy_header' ) );
			if ( ! Ip_Address::in_list( $ip, $allowlist ) ) {
				Plugin::log( 'warning', 'Callback refused: ' . $ip . ' is not in the callback IP allowlist.' );
				return self::answer( 403, 'Forbidden: address not allowed' );
			}
		}

		$secret = (string) $settings->get( 'partner_secret' );
		if ( '' === $secret ) {
			Plugin::log( 'error', 'Callback not taken in: no partner secret is configured.' );
			return self::answer( 500, 'Callback not received; please send it again' );
		}

		$body   = self::raw_body( $request );
		$result = Callback_Verifier::from_raw( $body, $secret );
		$duplicate    = false;
		$not_received = false;
		if ( $result->ok ) {
			$operation = $result->operation;
			Plugin::log( 'info', sprintf( 'Callback verified: operation %s, status "%s" (%s), partner operation %s.', $operation->id(), $operation->status(), (string) $operation->status_code(), (string) $operation->partner_operation_id() ) );
			try {
				// Claims the event, moves the attempt and the order (includes/Operation_Events.php).
				$duplicate = Operation_Events::DUPLICATE === Operation_Events::process( $operation, 'callback' );
			} catch ( \Throwable $e ) {
				// Not taken in: answer 500 so that the service sends it again.
				$not_received = true;
				Log::error( sprintf( 'Callback for operation %s not taken in: %s', $operation->id(), $e->getMessage() ) );
			}
			/**
			 * A verified callback (the signature matched the raw body).
			 *
			 * @param \Card2Crypto\Checkout\Shared\Api\Operation $operation
			 * @param array                                      $raw the whole body as received
			 */
			do_action( 'card2crypto_checkout_callback', $operation, $result->raw );
		} else {
			Plugin::log( 'warning', 'Callback refused (' . $result->reason . '): ' . $result->message );
		}
		$answer = $result->http_response( $duplicate, $not_received );
		return self::answer( $answer['status'], $answer['body'] );
	}

	/** The body exactly as received; WordPress's own copy when php://input is empty (internal requests). */
	private static function raw_body( \WP_REST_Request $request ): string {
		$input = file_get_contents( 'php://input', false, null, 0, Callback_Verifier::MAX_BODY_BYTES + 1 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents
		return ( false === $input || '' === $input ) ? (string) $request->get_body() : $input;
	}

	/** The caller's address: the connection's, or the last hop of a configured proxy header. */
	private static function client_ip( string $header ): string {
		if ( '' !== $header ) {
			$key = 'HTTP_' . strtoupper( str_replace( '-', '_', $header ) );
			if ( isset( $_SERVER[ $key ] ) ) {
				// The rightmost entry is the one our own proxy added; entries left of it are the caller's word.
				$hops = array_filter( array_map( 'trim', explode( ',', sanitize_text_field( wp_unslash( $_SERVER[ $key ] ) ) ) ) );
				if ( array() !== $hops ) {
					return (string) end( $hops );
				}
			}
		}
		return isset( $_SERVER['REMOTE_ADDR'] ) ? sanitize_text_field( wp_unslash( $_SERVER['REMOTE_ADDR'] ) ) : '';
	}

	private static function answer( int $status, string $body ): \WP_REST_Response {
		$response = new \WP_REST_Response( $body, $status );
		$response->header( 'Content-Type', 'text/plain; charset=utf-8' );
		$response->header( 'Cache-Control', 'no-store' );
		return $response;
	}

	/**
	 * Sends this route's answers as plain text instead of JSON
	 * (status and headers are already sent when this filter runs).
	 *
	 * @param bool              $served
	 * @param \WP_HTTP_Response $result
	 * @param \WP_REST_Request  $request
	 * @return bool
	 */
	public static function serve_plain_text( $served, $result, $request, $server ) {
		if ( $served || self::route() !== $request->get_route() || ! is_string( $result->get_data() ) ) {
			return $served;
		}
		echo $result->get_data(); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- text/plain.
		return true;
	}
}

<?php
/**
 * The callback endpoint: POST /wp-json/card2crypto/v1/callback.
 *
 * The service has no WordPress account, so the route is public
 * (permission_callback allows everyone) and every request is authenticated
 * by its signature instead, over the raw body read from php://input (not
 * WordPress's parsed parameters). Answers, per docs/decisions.md: 200 "OK"
 * for a verified callback, 400 for an empty, unparseable or invalid body
 * (or one whose signed string could stand for another body, see
 * Callback_Guard), 401 "Wrong signature", 403 from an address outside the
 * allowlist, 413 for a body over 64 KB (refused before it is parsed or
 * HMAC'd), 429 for an address whose callbacks were refused 20 times in the
 * last minute, 500 when no secret is configured (so the service sends it
 * again later).
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
		$ip       = self::client_ip( (string) $settings->get( 'trust_proxy_header' ) );

		$allowlist = Js_Text::split_list( (string) $settings->get( 'callback_ips' ) );
		if ( array() !== $allowlist && ! Ip_Address::in_list( $ip, $allowlist ) ) {
			Log::warning( 'Callback refused: ' . $ip . ' is not in the callback IP allowlist.' );
			return self::answer( 403, 'Forbidden: address not allowed' );
		}

		// Size first, then the refusal budget: neither reads more than the limit nor parses or HMACs anything.
		if ( Callback_Guard::body_too_large( $request->get_header( 'content_length' ) ) ) {
			return self::refuse( $ip, 413, 'Payload Too Large', 'the declared body is larger than ' . Callback_Guard::MAX_BODY_BYTES . ' bytes' );
		}
		if ( Callback_Guard::over_limit( get_transient( self::failures_key( $ip ) ), time() ) ) {
			$response = self::answer( 429, 'Too Many Requests' );
			$response->header( 'Retry-After', (string) Callback_Guard::FAILURE_WINDOW );
			return $response;
		}
		$body = self::raw_body( $request );
		if ( Callback_Guard::body_too_large( null, strlen( $body ) ) ) {
			return self::refuse( $ip, 413, 'Payload Too Large', 'the body is larger than ' . Callback_Guard::MAX_BODY_BYTES . ' bytes' );
		}

		$secret = (string) $settings->get( 'partner_secret' );
		if ( '' === $secret ) {
			Log::error( 'Callback not taken in: no partner secret is configured.' );
			return self::answer( 500, 'Callback not received; please send it again' );
		}

		$result = Callback_Verifier::from_raw( $body, $secret );
		if ( ! $result->ok ) {
			$answer = $result->http_response();
			return self::refuse( $ip, $answer['status'], $answer['body'], '(' . $result->reason . ') ' . $result->message );
		}
		$ambiguous = Callback_Guard::ambiguity( $result->raw );
		if ( null !== $ambiguous ) {
			// Signed, but its signed string could stand for another body: never acted on (docs/decisions.md).
			$why = $ambiguous['field'] . ': ' . $ambiguous['message'];
			return self::refuse( $ip, 400, 'Callback could not be processed: ' . $why, $why );
		}

		$operation = $result->operation;
		Log::info( sprintf( 'Callback verified: operation %s, status "%s" (%s), partner operation %s.', $operation->id(), $operation->status(), (string) $operation->status_code(), (string) $operation->partner_operation_id() ) );
		$duplicate    = false;
		$not_received = false;
		try {
			// Claims the event, moves the attempt and the order (includes/Operation_Events.php).
			$duplicate = Operation_Events::DUPLICATE === Operation_Events::process( $operation, 'callback' );
		} catch ( Service_Behind $e ) {
			// The success is not what the service reports yet: answer 500 so that it is sent again.
			$not_received = true;
			Log::info( sprintf( 'Callback for operation %s not taken in: %s.', $operation->id(), $e->getMessage() ) );
		} catch ( \Throwable $e ) {
			// Not taken in: answer 500 so that the service sends it again.
			$not_received = true;
			Log::error( sprintf( 'Callback for operation %s not taken in: %s', $operation->id(), $e->getMessage() ) );
		}
		/**
		 * Fires for every verified callback (the signature matched the raw body),
		 * after the plugin applied it to its order, whether or not that succeeded.
		 *
		 * @since 0.1.0
		 *
		 * @param \Card2Crypto\Checkout\Shared\Api\Operation $operation The verified operation_data.
		 * @param array                                      $raw       The whole body as received (Lossless_Json: numbers keep their text).
		 */
		do_action( 'card2crypto_checkout_callback', $operation, $result->raw );
		$answer = $result->http_response( $duplicate, $not_received );
		return self::answer( $answer['status'], $answer['body'] );
	}

	/** Logs a refused callback, counts it against the address, and answers. */
	private static function refuse( string $ip, int $status, string $body, string $why ): \WP_REST_Response {
		Log::warning( 'Callback from ' . $ip . ' refused (' . $status . '): ' . $why );
		$key = self::failures_key( $ip );
		set_transient( $key, Callback_Guard::count_failure( get_transient( $key ), time() ), Callback_Guard::FAILURE_WINDOW );
		return self::answer( $status, $body );
	}

	private static function failures_key( string $ip ): string {
		return 'card2crypto_checkout_cbfail_' . md5( $ip );
	}

	/** The body exactly as received (at most one byte over the limit); WordPress's own copy when php://input is empty (internal requests). */
	private static function raw_body( \WP_REST_Request $request ): string {
		$input = file_get_contents( 'php://input', false, null, 0, Callback_Guard::MAX_BODY_BYTES + 1 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents
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

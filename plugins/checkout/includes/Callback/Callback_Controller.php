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
 * again later). The 403, the 413 by declared length and the 429 need no
 * body: on a REST request for this route, whatever its method or method
 * override, they are answered on rest_api_init, before WordPress's REST
 * server reads the body or parses its JSON (refuse_before_reading());
 * handle() makes the same checks for requests that did not come that way,
 * and checks what was read (a chunked body).
 *
 * A verified callback is applied to its order by Operation_Events (200
 * also for a duplicate; 500 when it could not be taken in) and announced
 * with the card2crypto_checkout_callback action. Every refusal (by
 * reason) and every verified callback is recorded for the settings page's
 * status box (Callback_Health); recording never changes an answer.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Callback;

use Card2Crypto\Checkout\Attempts\Success_Unconfirmed;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Order\Operation_Events;
use Card2Crypto\Checkout\Rules\Callback_Guard;
use Card2Crypto\Checkout\Service\Callback_Health;
use Card2Crypto\Checkout\Shared\Callback\Callback_Result;
use Card2Crypto\Checkout\Shared\Callback\Callback_Verifier;
use Card2Crypto\Checkout\Shared\Client\Client_Ip;
use Card2Crypto\Checkout\Shared\Hooks;
use Card2Crypto\Checkout\Shared\Settings\Ip_Address;

defined( 'ABSPATH' ) || exit;

final class Callback_Controller implements Hooks {

	/** @var Config */
	private $config;

	/** @var Operation_Events */
	private $events;

	/** @var Callback_Health */
	private $callbacks;

	/** @var Shared_Store */
	private $shared;

	public function __construct( Config $config, Operation_Events $events, Callback_Health $callbacks, Shared_Store $shared ) {
		$this->config    = $config;
		$this->events    = $events;
		$this->callbacks = $callbacks;
		$this->shared    = $shared;
	}

	/** The callback route, whether or not WooCommerce is active (Plugin::boot()). */
	public function register(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
	}

	public function register_routes(): void {
		register_rest_route(
			Keys::REST_NAMESPACE,
			Keys::CALLBACK_ROUTE,
			array(
				'methods'             => 'POST',
				'callback'            => array( $this, 'handle' ),
				// Public on purpose: the signature over the raw body is the authentication.
				'permission_callback' => '__return_true',
			)
		);
		add_filter( 'rest_request_before_callbacks', array( $this, 'keep_invalid_json' ), 10, 3 );
		add_filter( 'rest_pre_serve_request', array( $this, 'serve_plain_text' ), 10, 4 );
		$this->refuse_before_reading();
	}

	/**
	 * Size and budget first: on a REST request for this route, answers the
	 * refusals that need no body (screen()) and ends the request, before
	 * WP_REST_Server::serve_request() reads php://input and dispatch()
	 * parses JSON. Runs on rest_api_init, which rest_api_loaded() fires on
	 * parse_request just before serving (docs/decisions.md, "Checkout:
	 * callback route limits"). When the REST server was started earlier in
	 * the request, or for an internal request, it does nothing and handle()
	 * refuses the same.
	 *
	 * Whatever the method: the REST server reads the body of every request,
	 * and a GET (or any other method) with ?_method=POST or an
	 * X-HTTP-Method-Override: POST header reaches the POST handler
	 * (WP_REST_Server::serve_request()), so a screen of POST requests alone
	 * let a 12 MB body be read (issue 31, point 6).
	 */
	public function refuse_before_reading(): void {
		global $wp;
		if ( ! defined( 'REST_REQUEST' ) || ! REST_REQUEST || ! $wp instanceof \WP || ! isset( $wp->query_vars['rest_route'] ) || ! is_string( $wp->query_vars['rest_route'] ) ) {
			return;
		}
		// As the REST server matches it: without regard to case, and with a final newline (Callback_Guard::is_route()).
		if ( ! Callback_Guard::is_route( $wp->query_vars['rest_route'], $this->route() ) ) {
			return;
		}
		$length  = isset( $_SERVER['CONTENT_LENGTH'] ) ? sanitize_text_field( wp_unslash( $_SERVER['CONTENT_LENGTH'] ) ) : null;
		$refusal = $this->screen( $length );
		if ( null === $refusal ) {
			return;
		}
		status_header( $refusal->get_status() );
		foreach ( $refusal->get_headers() as $name => $value ) {
			header( $name . ': ' . $value );
		}
		header( 'X-Content-Type-Options: nosniff' );
		echo $refusal->get_data(); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- text/plain.
		exit;
	}

	/**
	 * The refusals that need no body, in this order: an address outside the
	 * allowlist (403), a declared body over the limit (413), an address over
	 * its budget of refusals (429). Null when none applies.
	 */
	private function screen( ?string $content_length ): ?\WP_REST_Response {
		$ip = $this->client_ip( $this->config->trust_proxy_header() );

		if ( ! $this->allowlisted( $ip ) && array() !== $this->allowlist() ) {
			Log::warning( 'Callback refused: ' . $ip . ' is not in the callback IP allowlist.' );
			$this->callbacks->record_refused( Callback_Health::ALLOWLIST );
			return $this->answer( 403, 'Forbidden: address not allowed' );
		}

		// Size first, then the refusal budget: neither reads the body, nor parses or HMACs anything.
		if ( Callback_Guard::body_too_large( $content_length ) ) {
			return $this->refuse( $ip, 413, 'Payload Too Large', 'the declared body is larger than ' . Callback_Guard::MAX_BODY_BYTES . ' bytes', Callback_Health::TOO_LARGE );
		}
		// An allowlisted address is never counted, so never limited.
		if ( ! $this->allowlisted( $ip ) && Callback_Guard::over_limit( $this->shared->get( $this->failures_key( $ip ) ), time() ) ) {
			$this->callbacks->record_refused( Callback_Health::RATE_LIMITED );
			$response = $this->answer( 429, 'Too Many Requests' );
			$response->header( 'Retry-After', (string) Callback_Guard::FAILURE_WINDOW );
			return $response;
		}
		return null;
	}

	public function route(): string {
		return '/' . Keys::REST_NAMESPACE . Keys::CALLBACK_ROUTE;
	}

	/** @return string[] The owner's callback IP allowlist (empty: any address). */
	private function allowlist(): array {
		return $this->config->callback_ips();
	}

	/** Whether the owner's allowlist is set and holds the address. */
	private function allowlisted( string $ip ): bool {
		$allowlist = $this->allowlist();
		return array() !== $allowlist && Ip_Address::in_list( $ip, $allowlist );
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
	public function keep_invalid_json( $response, $handler, $request ) {
		if ( is_wp_error( $response ) && 'rest_invalid_json' === $response->get_error_code() && Callback_Guard::is_route( $request->get_route(), $this->route() ) ) {
			return null;
		}
		return $response;
	}

	public function handle( \WP_REST_Request $request ): \WP_REST_Response {
		// The checks refuse_before_reading() made for a request from outside (an internal one comes here first).
		$refusal = $this->screen( $request->get_header( 'content_length' ) );
		if ( null !== $refusal ) {
			return $refusal;
		}
		$ip = $this->client_ip( $this->config->trust_proxy_header() );
		// Without a declared length (chunked), what was read: never more than the limit and one byte.
		$body = $this->raw_body( $request );
		if ( Callback_Guard::body_too_large( null, strlen( $body ) ) ) {
			return $this->refuse( $ip, 413, 'Payload Too Large', 'the body is larger than ' . Callback_Guard::MAX_BODY_BYTES . ' bytes', Callback_Health::TOO_LARGE );
		}

		$secret = $this->config->credentials()->secret();
		if ( '' === $secret ) {
			Log::error( 'Callback not taken in: no partner secret is configured.' );
			$this->callbacks->record_refused( Callback_Health::NO_SECRET );
			return $this->answer( 500, 'Callback not received; please send it again' );
		}

		$result = Callback_Verifier::from_raw( $body, $secret );
		if ( ! $result->ok ) {
			$answer = $result->http_response();
			// Invalid or ambiguous after the signature matched: signed by the service's secret, so not counted against the address.
			$signed = in_array( $result->reason, array( Callback_Result::INVALID, Callback_Result::AMBIGUOUS ), true );
			return $this->refuse( $ip, $answer['status'], $answer['body'], '(' . $result->reason . ') ' . $result->message, Callback_Result::SIGNATURE === $result->reason ? Callback_Health::SIGNATURE : Callback_Health::INVALID, $signed ? Callback_Guard::SIGNED : Callback_Guard::UNVERIFIED );
		}

		$operation = $result->operation;
		Log::info( sprintf( 'Callback verified: operation %s, status "%s" (%s), partner operation %s.', $operation->id(), $operation->status(), (string) $operation->status_code(), (string) $operation->partner_operation_id() ) );
		$duplicate    = false;
		$not_received = false;
		try {
			// Claims the event, moves the attempt and the order (includes/Order/Operation_Events.php).
			$outcome   = $this->events->process( $operation, 'callback' );
			$duplicate = Operation_Events::DUPLICATE === $outcome;
			if ( Operation_Events::UNKNOWN === $outcome ) {
				$this->callbacks->record_refused( Callback_Health::UNKNOWN_OPERATION );
			} else {
				$this->callbacks->record_verified();
			}
		} catch ( Success_Unconfirmed $e ) {
			// The success is not what the service reports yet: answer 500 so that it is sent again.
			$not_received = true;
			$this->callbacks->record_verified();
			Log::info( sprintf( 'Callback for operation %s not taken in: %s.', $operation->id(), $e->getMessage() ) );
		} catch ( \Throwable $e ) {
			// Not taken in: answer 500 so that the service sends it again.
			$not_received = true;
			$this->callbacks->record_refused( Callback_Health::NOT_TAKEN_IN );
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
		return $this->answer( $answer['status'], $answer['body'] );
	}

	/**
	 * Logs a refused callback, counts it for the status box (Callback_Health)
	 * and, when it is not shown to be the service's, against the address
	 * (Callback_Guard::counts_toward_budget()), and answers.
	 *
	 * @param string $refusal Callback_Guard::UNVERIFIED or Callback_Guard::SIGNED.
	 */
	private function refuse( string $ip, int $status, string $body, string $why, string $reason, string $refusal = Callback_Guard::UNVERIFIED ): \WP_REST_Response {
		Log::warning( 'Callback from ' . $ip . ' refused (' . $status . '): ' . $why );
		$this->callbacks->record_refused( $reason );
		if ( Callback_Guard::counts_toward_budget( $refusal, $this->allowlisted( $ip ) ) ) {
			// In the shared database, counted under a lock: refusals at the same moment on any web server each count (Shared_Store).
			$key = $this->failures_key( $ip );
			$this->shared->locked(
				'card2crypto_cbfail_' . md5( $ip ),
				function () use ( $key ): void {
					$this->shared->put( $key, Callback_Guard::count_failure( $this->shared->get( $key ), time() ), Callback_Guard::FAILURE_WINDOW );
				},
				'The callback refusal count is busy.'
			);
		}
		return $this->answer( $status, $body );
	}

	private function failures_key( string $ip ): string {
		return 'card2crypto_checkout_cbfail_' . md5( $ip );
	}

	/** The body exactly as received (at most one byte over the limit); WordPress's own copy when php://input is empty (internal requests). */
	private function raw_body( \WP_REST_Request $request ): string {
		$input = file_get_contents( 'php://input', false, null, 0, Callback_Guard::MAX_BODY_BYTES + 1 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents
		return ( false === $input || '' === $input ) ? (string) $request->get_body() : $input;
	}

	/** The caller's address: the connection's, or the last entry of the configured proxy header (the shared Client_Ip rule). */
	private function client_ip( string $header ): string {
		$server = array();
		foreach ( array( 'REMOTE_ADDR', 'HTTP_' . strtoupper( str_replace( '-', '_', $header ) ) ) as $key ) {
			if ( isset( $_SERVER[ $key ] ) && is_string( $_SERVER[ $key ] ) ) {
				$server[ $key ] = sanitize_text_field( wp_unslash( $_SERVER[ $key ] ) );
			}
		}
		return Client_Ip::of( $header, $server );
	}

	private function answer( int $status, string $body ): \WP_REST_Response {
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
	public function serve_plain_text( $served, $result, $request, $server ) {
		if ( $served || ! Callback_Guard::is_route( $request->get_route(), $this->route() ) || ! is_string( $result->get_data() ) ) {
			return $served;
		}
		echo $result->get_data(); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- text/plain.
		return true;
	}
}

<?php
/**
 * Partner API client: the seven signed endpoints of the service, as
 * @card2crypto/core's PartnerApiClient (decisions.md: which ids, rate fixing
 * amounts, error bodies, empty confirmation answers).
 *
 * Server-side only: it holds the partner secret. Every request is stamped
 * with the current time (ms) just before it is sent and signed in the
 * general form; every 200 answer must carry a valid signature over its raw
 * body (numbers as received) and the documented shape. All failures are
 * Partner_Api_Exception; no message, log line or dump carries the secret.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Api;

use Card2Crypto\Shared\Callback\Callback_Verifier;
use Card2Crypto\Shared\Json\Json_Exception;
use Card2Crypto\Shared\Json\Lossless_Json;
use Card2Crypto\Shared\Signing\Signer;
use Card2Crypto\Shared\Signing\Verify_Result;

final class Partner_Api_Client {

	const PATHS = array(
		'countries' => '/api/partner/countries',
		'params'    => '/api/partner/params',
		'exchange'  => '/api/partner/exchange',
		'calculate' => '/api/partner/exchange/calculate',
		'operation' => '/api/partner/operation',
		'confirm'   => '/api/partner/params/confirm',
		'cancel'    => '/api/partner/params/cancel',
	);

	const DEFAULT_TIMEOUT_SECONDS = 10.0;

	/** Longest text kept from a network error or a malformed answer. */
	const MAX_SERVER_MESSAGE = 500;

	/** Longest service error message kept (it may reach order notes). */
	const MAX_SERVICE_TEXT = 200;

	/** @var string */
	private $base_url;

	/** @var string */
	private $partner_token;

	/**
	 * The secret, behind a closure: var_export(), (array) casts and
	 * serialize() would show a plain private string; a closure shows nothing.
	 *
	 * @var \Closure(): string
	 */
	private $secret;

	/** @var float */
	private $timeout;

	/** @var Http_Transport */
	private $transport;

	/** @var callable(): int Milliseconds since the epoch. */
	private $clock;

	/** @var callable|null fn(string $level, string $message): void */
	private $logger;

	/**
	 * @param array{timeout?: float, transport?: Http_Transport, clock?: callable, logger?: callable} $options
	 *        timeout: seconds for the whole exchange (default 10); transport: default Wp_Http_Transport;
	 *        clock: fn(): int ms since the epoch; logger: fn(string $level, string $message).
	 * @throws \InvalidArgumentException For an unusable base URL, token, secret or timeout (the message never shows the secret).
	 */
	public function __construct(
		string $base_url,
		string $partner_token,
		#[\SensitiveParameter]
		string $partner_secret,
		array $options = array()
	) {
		$parts = parse_url( $base_url );
		if ( false === $parts || ! isset( $parts['scheme'], $parts['host'] ) || ! in_array( strtolower( $parts['scheme'] ), array( 'http', 'https' ), true ) || isset( $parts['query'] ) || isset( $parts['fragment'] ) ) {
			throw new \InvalidArgumentException( 'The partner API address must be an absolute http(s) URL without query or fragment.' );
		}
		if ( '' === trim( $partner_token ) ) {
			throw new \InvalidArgumentException( 'The partner token must not be empty.' );
		}
		if ( '' === $partner_secret ) {
			throw new \InvalidArgumentException( 'The partner secret must not be empty.' );
		}
		$timeout = isset( $options['timeout'] ) ? (float) $options['timeout'] : self::DEFAULT_TIMEOUT_SECONDS;
		if ( ! ( $timeout > 0 ) || ! is_finite( $timeout ) ) {
			throw new \InvalidArgumentException( 'The partner API timeout must be a positive number of seconds.' );
		}
		$this->base_url      = rtrim( $base_url, '/' );
		$this->partner_token = $partner_token;
		$this->secret        = static function () use ( $partner_secret ): string {
			return $partner_secret;
		};
		$this->timeout       = $timeout;
		$this->transport     = $options['transport'] ?? new Wp_Http_Transport();
		$this->clock         = $options['clock'] ?? static function (): int {
			return (int) floor( microtime( true ) * 1000 );
		};
		$this->logger        = $options['logger'] ?? null;
	}

	/** What var_dump() and print_r() show: everything but the secret. */
	public function __debugInfo(): array {
		return array(
			'base_url'      => $this->base_url,
			'partner_token' => $this->partner_token,
			'timeout'       => $this->timeout,
			'secret'        => '[redacted]',
		);
	}

	/** The client holds a secret: it is not to be stored or cached anywhere. */
	public function __serialize(): array {
		throw new \LogicException( 'Partner_Api_Client cannot be serialized.' );
	}

	/** For PHP 7.4, which does not call __serialize() for Serializable checks. */
	public function __sleep(): array {
		throw new \LogicException( 'Partner_Api_Client cannot be serialized.' );
	}

	/** @return array<int, array{code: int|float, name: string, alpha2: string, alpha3: string}> */
	public function countries(): array {
		return $this->call_signed( 'countries', array(), Shape::countries_response() )['countries'];
	}

	/** @return array{service_fee: int|float} The partner's commission as a fraction (0.01 is 1%). */
	public function params(): array {
		$body = $this->call_signed( 'params', array(), Shape::params_response() );
		return array( 'service_fee' => $body['service_fee'] );
	}

	/** @return array<int, array{from: array, to: array}> The currency pairs with their limits. */
	public function exchange(): array {
		return $this->call_signed( 'exchange', array(), Shape::exchange_response() )['pairs'];
	}

	/**
	 * Fixes a rate; send its calculation_id to the widget before expired_at.
	 * Exactly one of $from_amount / $to_amount (minimum units).
	 *
	 * @return array{from_currency: string, to_currency: string, from_amount: int, to_amount: int, calculation_id: string, expired_at: string}
	 */
	public function calculate( string $from_currency, string $to_currency, ?int $from_amount, ?int $to_amount ): array {
		$endpoint = 'calculate';
		$params   = array(
			'from_currency' => $this->check_currency( $endpoint, 'from_currency', $from_currency ),
			'to_currency'   => $this->check_currency( $endpoint, 'to_currency', $to_currency ),
		);
		if ( ( null === $from_amount ) === ( null === $to_amount ) ) {
			throw $this->invalid_request( $endpoint, null === $from_amount ? 'from_amount' : 'to_amount', 'give exactly one of from_amount and to_amount' );
		}
		if ( null !== $from_amount ) {
			$params['from_amount'] = $this->check_amount( $endpoint, 'from_amount', $from_amount );
		} else {
			$params['to_amount'] = $this->check_amount( $endpoint, 'to_amount', $to_amount );
		}
		$result = $this->call_signed( $endpoint, $params, Shape::calculate_response() );
		if ( $result['from_currency'] !== $params['from_currency'] || $result['to_currency'] !== $params['to_currency'] ) {
			throw new Partner_Api_Exception(
				array(
					'kind'     => Partner_Api_Exception::INVALID_RESPONSE,
					'endpoint' => $endpoint,
					'status'   => 200,
					'detail'   => 'the rate is for ' . $result['from_currency'] . '/' . $result['to_currency'] . ', not the requested ' . $params['from_currency'] . '/' . $params['to_currency'],
				)
			);
		}
		unset( $result['signature'] );
		return $result;
	}

	/** Operation info, by the service's id, the partner's id, or both (they must name the same operation). */
	public function operation( ?string $operation_id, ?string $partner_operation_id = null ): Operation {
		$endpoint = 'operation';
		$params   = $this->operation_params( $endpoint, $operation_id, $partner_operation_id );
		$body     = $this->call_signed( $endpoint, $params, Shape::obj( array( 'operation_data' => Shape::req( Shape::obj( array() ) ) ) ) );
		// The same rule as a callback's: a signed string that could stand for another body is no answer to trust.
		$ambiguous = Callback_Verifier::ambiguity( $body );
		if ( null !== $ambiguous ) {
			throw new Partner_Api_Exception(
				array(
					'kind'     => Partner_Api_Exception::INVALID_RESPONSE,
					'endpoint' => $endpoint,
					'status'   => 200,
					'field'    => $ambiguous['field'],
					'detail'   => $ambiguous['message'],
				)
			);
		}
		$parsed = Operation::from_decoded( $body['operation_data'] );
		if ( ! $parsed['ok'] ) {
			throw new Partner_Api_Exception(
				array(
					'kind'     => Partner_Api_Exception::INVALID_RESPONSE,
					'endpoint' => $endpoint,
					'status'   => 200,
					'field'    => $parsed['field'],
					'detail'   => $parsed['message'],
				)
			);
		}
		$operation = $parsed['operation'];
		if ( isset( $params['operation_id'] ) && $operation->id() !== $params['operation_id'] ) {
			throw new Partner_Api_Exception(
				array(
					'kind'     => Partner_Api_Exception::INVALID_RESPONSE,
					'endpoint' => $endpoint,
					'status'   => 200,
					'field'    => 'operation_data.operation_info.id',
					'detail'   => 'the answer is about another operation',
				)
			);
		}
		return $operation;
	}

	/** Confirms an operation waiting for partner confirmation. Returns on 200. */
	public function confirm( ?string $operation_id, ?string $partner_operation_id = null ): void {
		$this->call_empty( 'confirm', $this->operation_params( 'confirm', $operation_id, $partner_operation_id ) );
	}

	/** Cancels an operation. Returns on 200. */
	public function cancel( ?string $operation_id, ?string $partner_operation_id = null ): void {
		$this->call_empty( 'cancel', $this->operation_params( 'cancel', $operation_id, $partner_operation_id ) );
	}

	// ---------------------------------------------------------------- internals

	/**
	 * A 200 JSON answer: verified over its raw text, then checked against $shape.
	 *
	 * @param array<string, string|int> $params
	 * @return array<string, mixed>
	 */
	private function call_signed( string $endpoint, array $params, array $shape ): array {
		$text    = $this->send( $endpoint, $params );
		$problem = $this->verification_problem( $endpoint, $text );
		if ( null !== $problem ) {
			throw new Partner_Api_Exception( $problem );
		}
		try {
			$decoded = Lossless_Json::decode_object( $text );
		} catch ( Json_Exception $e ) {
			throw $this->invalid_response( $endpoint, null, $e->getMessage() );
		}
		$checked = Shape::check( $decoded, $shape );
		if ( ! $checked['ok'] ) {
			throw $this->invalid_response( $endpoint, $checked['field'], $checked['message'] );
		}
		return $checked['value'];
	}

	/**
	 * Confirmation and cancellation answer 200 with no body. A body, if one
	 * comes, must be signed like every other 200 (decisions.md).
	 *
	 * @param array<string, string|int> $params
	 */
	private function call_empty( string $endpoint, array $params ): void {
		$text    = $this->send( $endpoint, $params );
		$problem = '' !== trim( $text ) ? $this->verification_problem( $endpoint, $text ) : null;
		if ( null !== $problem ) {
			throw new Partner_Api_Exception( $problem );
		}
	}

	/**
	 * Why a 200 answer cannot be trusted, as exception details; null when it is
	 * correctly signed. Exceptions are created by the callers, never in a
	 * frame that has the answer text as an argument: a stack trace with
	 * arguments must not carry a body that might echo the secret.
	 */
	private function verification_problem( string $endpoint, string $text ): ?array {
		$result = Signer::verify( $text, ( $this->secret )() );
		if ( $result->ok ) {
			return null;
		}
		if ( Verify_Result::MALFORMED === $result->reason ) {
			return array(
				'kind'     => Partner_Api_Exception::INVALID_RESPONSE,
				'endpoint' => $endpoint,
				'status'   => 200,
				'detail'   => $this->scrub( $result->message ),
			);
		}
		$this->log( 'warning', 'Partner API ' . $endpoint . ': refused an answer with a ' . ( Verify_Result::MISSING === $result->reason ? 'missing' : 'wrong' ) . ' signature.' );
		return array(
			'kind'     => Partner_Api_Exception::BAD_SIGNATURE,
			'endpoint' => $endpoint,
			'status'   => 200,
			'detail'   => Verify_Result::MISSING === $result->reason
				? 'the answer is not signed (' . $result->message . ')'
				: 'the answer signature does not match (forged, or signed with another secret)',
		);
	}

	/**
	 * One signed POST; returns the text of a 200 answer.
	 *
	 * @param array<string, string|int> $params
	 */
	private function send( string $endpoint, array $params ): string {
		// Stamp and sign just before sending (the service allows 30 s ahead, 5 s behind).
		$request                  = $params;
		$request['partner_token'] = $this->partner_token;
		$request['timestamp']     = ( $this->clock )();
		$request['signature']     = Signer::sign( $request, ( $this->secret )() );
		$url                      = $this->base_url . self::PATHS[ $endpoint ];

		$this->log( 'debug', 'Partner API ' . $endpoint . ': POST ' . $url );
		try {
			$response = $this->transport->post(
				$url,
				Lossless_Json::encode( $request ),
				array(
					'Content-Type' => 'application/json; charset=utf-8',
					'Accept'       => 'application/json, text/plain',
				),
				$this->timeout
			);
		} catch ( Transport_Exception $e ) {
			$kind = Transport_Exception::TIMEOUT === $e->kind ? Partner_Api_Exception::TIMEOUT : Partner_Api_Exception::NETWORK;
			$this->log( 'error', 'Partner API ' . $endpoint . ': ' . $kind . ': ' . $this->scrub( $e->getMessage() ) );
			throw new Partner_Api_Exception(
				array(
					'kind'     => $kind,
					'endpoint' => $endpoint,
					'status'   => 0,
					'detail'   => Partner_Api_Exception::TIMEOUT === $kind ? 'no complete answer within ' . $this->timeout . ' s' : $this->scrub( $e->getMessage() ),
				)
			);
		}
		$this->log( 'debug', 'Partner API ' . $endpoint . ': HTTP ' . $response->status );
		if ( 200 === $response->status ) {
			return $response->body;
		}
		$error = new Partner_Api_Exception( $this->http_error_details( $endpoint, $response ) );
		$this->log( 'error', $error->getMessage() );
		throw $error;
	}

	/**
	 * An HTTP error as exception details. Only a recognised service error
	 * (decisions.md, "Error bodies": a documented status with the JSON error
	 * body, or 401 "Wrong signature") lends its code, field and a bounded,
	 * cleaned message; any other body is never copied: the address may be
	 * something else than the service (a proxy page, an internal host), and
	 * its text would end up in order notes and admin messages.
	 */
	private function http_error_details( string $endpoint, Http_Response $response ): array {
		$details     = array(
			'kind'     => Partner_Api_Exception::HTTP,
			'endpoint' => $endpoint,
			'status'   => $response->status,
		);
		$retry_after = self::parse_retry_after( $response->header( 'retry-after' ), (int) floor( ( $this->clock )() / 1000 ) );
		if ( null !== $retry_after ) {
			$details['retry_after'] = $retry_after;
		}
		// The service's clock against ours (its Date header, whole seconds): a timestamp refusal says by how much ours is off.
		$date = $response->header( 'date' );
		$at   = null === $date ? false : strtotime( $date );
		if ( false !== $at && $at > 0 ) {
			$details['clock_offset_ms'] = $at * 1000 - ( $this->clock )();
		}
		$described = self::service_error( $response->status, $response->body );
		if ( null === $described ) {
			$details['detail'] = 'the answer is not a service error (' . strlen( $response->body ) . ' bytes, not shown)';
			return $details;
		}
		foreach ( array( 'code', 'field' ) as $key ) {
			if ( isset( $described[ $key ] ) ) {
				$details[ $key ] = $described[ $key ];
			}
		}
		if ( isset( $described['message'] ) ) {
			$message = $this->clean_service_text( $described['message'] );
			if ( '' !== $message ) {
				$details['server_message'] = $message;
			}
		}
		return $details;
	}

	/**
	 * A recognised service error: a documented error status with
	 * {"error": {"code", "field"?, "message"?}} (code and field in their
	 * documented alphabets), or 401 with text starting "Wrong signature".
	 * Null for anything else.
	 *
	 * @return array{code?: string, field?: string, message?: string}|null
	 */
	private static function service_error( int $status, string $text ): ?array {
		if ( ! isset( Partner_Api_Exception::HTTP_MEANINGS[ $status ] ) ) {
			return null;
		}
		$trimmed = trim( $text );
		if ( 401 === $status && 0 === strpos( $trimmed, 'Wrong signature' ) ) {
			return array( 'message' => $trimmed );
		}
		if ( '{' !== substr( $trimmed, 0, 1 ) || strlen( $trimmed ) > 65536 ) {
			return null;
		}
		$parsed = json_decode( $trimmed, true );
		if ( ! is_array( $parsed ) || ! isset( $parsed['error'] ) || ! is_array( $parsed['error'] ) ) {
			return null;
		}
		$error = $parsed['error'];
		if ( ! isset( $error['code'] ) || ! is_string( $error['code'] ) || 1 !== preg_match( '/^[a-z][a-z0-9_]{0,63}$/D', $error['code'] ) ) {
			return null;
		}
		$out = array( 'code' => $error['code'] );
		if ( isset( $error['field'] ) && is_string( $error['field'] ) && 1 === preg_match( '/^[A-Za-z0-9_.\[\]]{1,100}$/D', $error['field'] ) ) {
			$out['field'] = $error['field'];
		}
		if ( isset( $error['message'] ) && is_string( $error['message'] ) ) {
			$out['message'] = $error['message'];
		}
		return $out;
	}

	/** A service error text as shown to people: scrubbed, no markup characters, at most MAX_SERVICE_TEXT characters. */
	private function clean_service_text( string $text ): string {
		$out = $this->scrub( (string) preg_replace( '/[<>]/', '', $text ) );
		if ( 1 === preg_match( '/^.{' . ( self::MAX_SERVICE_TEXT + 1 ) . '}/su', $out ) ) {
			$out = ( preg_match( '/^.{0,' . self::MAX_SERVICE_TEXT . '}/su', $out, $m ) ? $m[0] : substr( $out, 0, self::MAX_SERVICE_TEXT ) ) . '…';
		}
		return $out;
	}

	/** Retry-After: delta-seconds or an HTTP date; whole seconds >= 0, or null. */
	public static function parse_retry_after( ?string $value, int $now_seconds ): ?int {
		if ( null === $value ) {
			return null;
		}
		$text = trim( $value );
		if ( 1 === preg_match( '/^[0-9]+$/D', $text ) ) {
			return (int) $text;
		}
		$at = strtotime( $text );
		return false === $at ? null : max( 0, $at - $now_seconds );
	}

	/** Cleans a text for an error or a log: secret removed, control characters flattened, length capped. */
	private function scrub( string $text ): string {
		$out = str_replace( ( $this->secret )(), '[redacted]', $text );
		$out = trim( (string) preg_replace( '/[\x00-\x1f\x7f]+/', ' ', $out ) );
		if ( strlen( $out ) > self::MAX_SERVER_MESSAGE ) {
			// Cut on a character boundary.
			$out = ( preg_match( '/^.{0,' . self::MAX_SERVER_MESSAGE . '}/su', $out, $m ) ? $m[0] : substr( $out, 0, self::MAX_SERVER_MESSAGE ) ) . '…';
		}
		return $out;
	}

	private function log( string $level, string $message ): void {
		if ( null !== $this->logger ) {
			( $this->logger )( $level, $this->scrub( $message ) );
		}
	}

	private function check_currency( string $endpoint, string $field, string $value ): string {
		if ( 1 !== preg_match( '/^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/D', $value ) ) {
			throw $this->invalid_request( $endpoint, $field, 'must be a currency code such as EUR or BTC' );
		}
		return $value;
	}

	private function check_amount( string $endpoint, string $field, int $value ): int {
		if ( $value <= 0 || $value > 9007199254740991 ) {
			throw $this->invalid_request( $endpoint, $field, 'must be a whole number of minimum units greater than 0' );
		}
		return $value;
	}

	/** @return array<string, string> */
	private function operation_params( string $endpoint, ?string $operation_id, ?string $partner_operation_id ): array {
		$params = array();
		if ( null !== $operation_id ) {
			if ( '' === trim( $operation_id ) ) {
				throw $this->invalid_request( $endpoint, 'operation_id', 'must be a non-empty string' );
			}
			$params['operation_id'] = $operation_id;
		}
		if ( null !== $partner_operation_id ) {
			if ( '' === trim( $partner_operation_id ) ) {
				throw $this->invalid_request( $endpoint, 'partner_operation_id', 'must be a non-empty string' );
			}
			$params['partner_operation_id'] = $partner_operation_id;
		}
		if ( array() === $params ) {
			throw $this->invalid_request( $endpoint, 'operation_id', 'give operation_id, partner_operation_id or both' );
		}
		return $params;
	}

	private function invalid_request( string $endpoint, string $field, string $detail ): Partner_Api_Exception {
		return new Partner_Api_Exception(
			array(
				'kind'     => Partner_Api_Exception::INVALID_REQUEST,
				'endpoint' => $endpoint,
				'status'   => 0,
				'field'    => $field,
				'detail'   => $detail,
			)
		);
	}

	private function invalid_response( string $endpoint, ?string $field, string $detail ): Partner_Api_Exception {
		$details = array(
			'kind'     => Partner_Api_Exception::INVALID_RESPONSE,
			'endpoint' => $endpoint,
			'status'   => 200,
			'detail'   => $detail,
		);
		if ( null !== $field ) {
			$details['field'] = $field;
		}
		return new Partner_Api_Exception( $details );
	}
}

<?php
/**
 * The one error type of the partner API client (decisions.md, "Partner API
 * client: errors, timeouts, redirects"). Its message is built from the
 * endpoint, the HTTP status and its documented meaning, and the service's
 * error text scrubbed of the partner secret: it never carries the secret.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Api;

final class Partner_Api_Exception extends \RuntimeException {

	/** The service answered with a status other than 200. */
	const HTTP = 'http';
	/** No answer: connection refused, reset, DNS failure (status 0). */
	const NETWORK = 'network';
	/** No complete answer in time (status 0). */
	const TIMEOUT = 'timeout';
	/** A 200 answer whose signature is missing or wrong: it must not be trusted. */
	const BAD_SIGNATURE = 'bad_signature';
	/** A signed 200 answer that is not the documented shape. */
	const INVALID_RESPONSE = 'invalid_response';
	/** The call's arguments were refused before anything was sent (status 0). */
	const INVALID_REQUEST = 'invalid_request';

	/** The documented meaning of each HTTP status the service returns. */
	const HTTP_MEANINGS = array(
		400 => 'Invalid request parameters',
		401 => 'Wrong signature',
		403 => 'Partner blocked',
		404 => 'Partner not found',
		429 => 'Too many requests',
		500 => 'Request processing error',
	);

	const KIND_MEANINGS = array(
		self::NETWORK          => 'Network error',
		self::TIMEOUT          => 'Timed out',
		self::BAD_SIGNATURE    => 'Response signature invalid',
		self::INVALID_RESPONSE => 'Unexpected response',
		self::INVALID_REQUEST  => 'Invalid request',
	);

	/** @var string One of the kind constants. */
	public $kind;

	/** @var string countries, params, exchange, calculate, operation, confirm or cancel. */
	public $endpoint;

	/** @var int HTTP status; 0 when nothing was received or sent. */
	public $status;

	/** @var string The documented meaning of the status (or of the kind when there is no status). */
	public $meaning;

	/** @var string|null The service's error code (JSON error bodies), e.g. "invalid_parameter". */
	public $error_code;

	/** @var string|null The request member at fault. */
	public $field;

	/** @var string|null The service's error description, scrubbed of the secret. */
	public $server_message;

	/** @var int|null Seconds to wait, from Retry-After (429). */
	public $retry_after;

	/** @var int|null The service's clock minus ours when it answered (ms, from its Date header: whole seconds), null when not said. */
	public $clock_offset_ms;

	/**
	 * @param array{kind: string, endpoint: string, status: int, code?: string, field?: string, server_message?: string, retry_after?: int, detail?: string, clock_offset_ms?: int} $details
	 */
	public function __construct( array $details ) {
		$this->kind           = $details['kind'];
		$this->endpoint       = $details['endpoint'];
		$this->status         = $details['status'];
		$this->meaning        = self::meaning_of( $this->kind, $this->status );
		$this->error_code     = $details['code'] ?? null;
		$this->field          = $details['field'] ?? null;
		$this->server_message = $details['server_message'] ?? null;
		$this->retry_after    = $details['retry_after'] ?? null;
		$this->clock_offset_ms = $details['clock_offset_ms'] ?? null;

		$parts = array( 'Partner API ' . $this->endpoint . ': ' . ( 0 === $this->status ? $this->meaning : 'HTTP ' . $this->status . ' ' . $this->meaning ) );
		if ( null !== $this->field ) {
			$parts[] = 'field ' . $this->field;
		}
		if ( ! empty( $details['detail'] ) ) {
			$parts[] = $details['detail'];
		}
		if ( null !== $this->server_message && '' !== $this->server_message ) {
			// The service's text often repeats the status's meaning ("Wrong signature: Wrong signature: …"): said once.
			$said = self::without_prefix( $this->server_message, $this->meaning );
			if ( '' !== $said ) {
				$parts[] = $said;
			}
		}
		if ( null !== $this->retry_after ) {
			$parts[] = 'retry after ' . $this->retry_after . ' s';
		}
		parent::__construct( implode( ': ', $parts ), $this->status );
	}

	/** $text without a leading "$prefix" (and the ":" or "." after it), case aside; $text when it does not start so. */
	private static function without_prefix( string $text, string $prefix ): string {
		if ( '' === $prefix || 0 !== strncasecmp( $text, $prefix, strlen( $prefix ) ) ) {
			return $text;
		}
		$rest = ltrim( (string) substr( $text, strlen( $prefix ) ) );
		if ( '' === $rest || '.' === $rest ) {
			return '';
		}
		return ( ':' === $rest[0] || '.' === $rest[0] || ',' === $rest[0] ) ? ltrim( substr( $rest, 1 ) ) : $text;
	}

	public static function meaning_of( string $kind, int $status ): string {
		if ( self::HTTP !== $kind ) {
			return self::KIND_MEANINGS[ $kind ] ?? 'Error';
		}
		return self::HTTP_MEANINGS[ $status ] ?? 'Unexpected HTTP status';
	}
}

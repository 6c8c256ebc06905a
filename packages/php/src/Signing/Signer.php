<?php
/**
 * Signs and verifies as @card2crypto/core does: HMAC-SHA512 of the canonical
 * string under the partner secret, lower-case hex.
 *
 * Secret parameters carry #[\SensitiveParameter] (PHP 8.2+), so a stack trace
 * never shows the secret; on older PHP the line is a comment.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Signing;

use Card2Crypto\Shared\Json\Json_Exception;
use Card2Crypto\Shared\Json\Lossless_Json;

final class Signer {

	/**
	 * The readings verification tries, in order (core's order). The spec says
	 * neither how the service writes numbers nor how it signs null, so a body
	 * verifies when any reading matches (decisions.md).
	 */
	const READINGS = array(
		array( Canonical::NUMBERS_RAW, Canonical::NULLS_EMPTY ),
		array( Canonical::NUMBERS_JS, Canonical::NULLS_EMPTY ),
		array( Canonical::NUMBERS_RAW, Canonical::NULLS_OMIT ),
		array( Canonical::NUMBERS_JS, Canonical::NULLS_OMIT ),
	);

	/**
	 * The signature (128 lower-case hex characters) of $value. A "signature"
	 * member already in $value is ignored; nulls are signed as empty values.
	 *
	 * @param array<string|int, mixed>|\stdClass $value
	 * @throws Signing_Exception When a value cannot be signed.
	 * @throws \InvalidArgumentException For an empty secret.
	 */
	public static function sign(
		$value,
		#[\SensitiveParameter]
		string $secret,
		string $form = Canonical::FORM_GENERAL
	): string {
		self::assert_secret( $secret );
		return self::hmac( Canonical::of( $value, $form, Canonical::NUMBERS_RAW, Canonical::NULLS_EMPTY ), $secret );
	}

	/**
	 * $value with its "signature" member set, ready to send.
	 *
	 * @param array<string|int, mixed> $value
	 * @return array<string|int, mixed>
	 */
	public static function with_signature(
		array $value,
		#[\SensitiveParameter]
		string $secret,
		string $form = Canonical::FORM_GENERAL
	): array {
		$value[ Canonical::SIGNATURE_MEMBER ] = self::sign( $value, $secret, $form );
		return $value;
	}

	/** HMAC-SHA512 of the UTF-8 text under the secret, lower-case hex. */
	public static function hmac(
		string $canonical,
		#[\SensitiveParameter]
		string $secret
	): string {
		return hash_hmac( 'sha512', $canonical, $secret );
	}

	/**
	 * Checks the top-level "signature" member of a signed object. Never throws.
	 *
	 * @param string|array<string|int, mixed> $body The raw JSON text (numbers then keep their received text) or a decoded object.
	 */
	public static function verify(
		$body,
		#[\SensitiveParameter]
		string $secret,
		string $form = Canonical::FORM_GENERAL
	): Verify_Result {
		try {
			return self::verify_unsafe( $body, $secret, $form );
		} catch ( \Throwable $e ) {
			return Verify_Result::failure( Verify_Result::MALFORMED, 'body cannot be read: ' . $e->getMessage() );
		}
	}

	/** @param mixed $body */
	private static function verify_unsafe(
		$body,
		#[\SensitiveParameter]
		string $secret,
		string $form
	): Verify_Result {
		if ( '' === $secret ) {
			return Verify_Result::failure( Verify_Result::MALFORMED, 'the partner secret must be a non-empty string' );
		}
		$value = $body;
		if ( is_string( $body ) ) {
			try {
				$value = Lossless_Json::decode_object( $body );
			} catch ( Json_Exception $e ) {
				return Verify_Result::failure( Verify_Result::MALFORMED, 'body is not a valid JSON object: ' . $e->getMessage() );
			}
		}
		if ( ! is_array( $value ) ) {
			return Verify_Result::failure( Verify_Result::MALFORMED, 'body must be a JSON object' );
		}
		if ( ! array_key_exists( Canonical::SIGNATURE_MEMBER, $value ) ) {
			return Verify_Result::failure( Verify_Result::MISSING, 'signature member is missing' );
		}
		$signature = $value[ Canonical::SIGNATURE_MEMBER ];
		if ( ! is_string( $signature ) ) {
			return Verify_Result::failure( Verify_Result::MISSING, 'signature member must be a string, not ' . ( null === $signature ? 'null' : gettype( $signature ) ) );
		}
		if ( '' === $signature ) {
			return Verify_Result::failure( Verify_Result::MISSING, 'signature member is empty' );
		}
		if ( 1 !== preg_match( '/^[0-9a-fA-F]{128}$/D', $signature ) ) {
			return Verify_Result::failure( Verify_Result::MALFORMED, 'signature must be 128 hexadecimal characters (HMAC-SHA512), got ' . strlen( $signature ) . ' characters' );
		}
		$signature = strtolower( $signature );

		$primary = null;
		$tried   = array();
		foreach ( self::READINGS as $reading ) {
			try {
				$canonical = Canonical::of( $value, $form, $reading[0], $reading[1] );
			} catch ( Signing_Exception $e ) {
				if ( null === $primary ) {
					return Verify_Result::failure( Verify_Result::MALFORMED, $e->getMessage() );
				}
				continue; // E.g. 1e400 has a raw reading but no JavaScript one.
			}
			if ( null === $primary ) {
				$primary = $canonical;
			}
			if ( in_array( $canonical, $tried, true ) ) {
				continue;
			}
			$tried[] = $canonical;
			if ( hash_equals( self::hmac( $canonical, $secret ), $signature ) ) {
				return Verify_Result::success( $canonical, $reading[0], $reading[1] );
			}
		}
		$message = 1 === count( $tried )
			? 'signature does not match the body'
			: 'signature does not match the body (' . count( $tried ) . ' readings of its numbers and nulls tried)';
		return Verify_Result::failure( Verify_Result::MISMATCH, $message, $primary );
	}

	/** @throws \InvalidArgumentException */
	private static function assert_secret(
		#[\SensitiveParameter]
		string $secret
	): void {
		if ( '' === $secret ) {
			throw new \InvalidArgumentException( 'The partner secret must be a non-empty string.' );
		}
	}
}

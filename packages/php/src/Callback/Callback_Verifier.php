<?php
/**
 * Callbacks (service -> partner): verify the raw body, parse operation_data,
 * and answer per the spec's partner rules and docs/decisions.md, as
 * @card2crypto/core's verifyCallback() / callbackResponse() do.
 *
 * Body (decisions.md, "Callback body"): {"operation_data": {...},
 * "signature": "<hex>"}, general form, signed over everything but signature.
 * The caller passes the body exactly as received (the raw request body: in
 * WordPress, WP_REST_Request::get_body()), never rebuilt from a framework's
 * parsed parameters: those lose number text and key order information.
 * A signed body whose canonical string could stand for another body is
 * refused (ambiguity(); docs/decisions.md, "Callbacks: ambiguous bodies and
 * the service's word"), the rule of core's callbackAmbiguity(), checked on the
 * same vectors (packages/core/vectors/callback-ambiguity.json).
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Callback;

use Card2Crypto\Shared\Api\Operation;
use Card2Crypto\Shared\Json\Json_Exception;
use Card2Crypto\Shared\Json\Lossless_Json;
use Card2Crypto\Shared\Signing\Signer;
use Card2Crypto\Shared\Signing\Verify_Result;

final class Callback_Verifier {

	/**
	 * Callback bodies are small (one operation_data, a few KB); anything
	 * larger is refused before parsing. 64 KB leaves room for any growth of
	 * it. The one limit of a callback body: a plugin's route refuses a larger
	 * body by this same constant before reading it.
	 */
	const MAX_BODY_BYTES = 65536;

	/**
	 * Verifies a raw callback body. Never throws for bad input.
	 *
	 * @throws \InvalidArgumentException When $secret is empty (our configuration, not the sender's fault).
	 */
	public static function from_raw(
		string $body,
		#[\SensitiveParameter]
		string $secret
	): Callback_Result {
		if ( '' === $secret ) {
			throw new \InvalidArgumentException( 'Callback verification needs the partner secret, and none is configured.' );
		}
		if ( strlen( $body ) > self::MAX_BODY_BYTES ) {
			return Callback_Result::failure( Callback_Result::UNPARSEABLE, 'callback body is larger than ' . self::MAX_BODY_BYTES . ' bytes' );
		}
		if ( '' === trim( $body, " \t\r\n" ) ) {
			return Callback_Result::failure( Callback_Result::EMPTY_BODY, 'callback body is empty' );
		}
		try {
			$raw = Lossless_Json::decode_object( $body );
		} catch ( Json_Exception $e ) {
			return Callback_Result::failure( Callback_Result::UNPARSEABLE, 'callback body is not a valid JSON object (' . $e->getMessage() . ')' );
		}

		// Authenticate before looking at the content: an unsigned body gets no detailed feedback.
		$signature = $raw['signature'] ?? null;
		if ( is_string( $signature ) && '' !== $signature && 1 !== preg_match( '/^[0-9a-fA-F]{128}$/D', $signature ) ) {
			return Callback_Result::failure( Callback_Result::SIGNATURE, 'callback signature is not 128 hexadecimal characters' );
		}
		$verified = Signer::verify( $body, $secret );
		if ( ! $verified->ok ) {
			if ( Verify_Result::MALFORMED === $verified->reason ) {
				return Callback_Result::failure( Callback_Result::UNPARSEABLE, 'callback body cannot be checked: ' . $verified->message );
			}
			return Callback_Result::failure(
				Callback_Result::SIGNATURE,
				Verify_Result::MISSING === $verified->reason ? 'callback is not signed: ' . $verified->message : 'callback signature does not match'
			);
		}

		$ambiguous = self::ambiguity( $raw );
		if ( null !== $ambiguous ) {
			return Callback_Result::failure( Callback_Result::AMBIGUOUS, $ambiguous['field'] . ': ' . $ambiguous['message'], $ambiguous['field'] );
		}
		$parsed = Operation::from_decoded( $raw['operation_data'] ?? null );
		if ( ! $parsed['ok'] ) {
			return Callback_Result::failure( Callback_Result::INVALID, $parsed['message'], $parsed['field'] );
		}
		return Callback_Result::success( $parsed['operation'], $raw );
	}

	/**
	 * Why the canonical string of a decoded body (Lossless_Json) cannot tell
	 * it from another body, or null when it can: the first member at fault in
	 * document order, dotted ("operation_data.zz", "list.1").
	 *
	 * Lines are name:value joined with ";", names are paths joined with ":".
	 * - A member name with ":" reads like a nested path ({"a:b":1} and
	 *   {"a":{"b":1}}): refused. With ";" it could end one line and start the
	 *   next: refused.
	 * - A string value with ";" followed by text holding ":" (before the next
	 *   ";" or its end) reads like a line of its own ({"a":"x;b:1"} and
	 *   {"a":"x","b":"1"}): refused. A ";" with no ":" after it ("Smith; Jr")
	 *   cannot start a line, and a ":" alone only lets the value be read as an
	 *   object under its own name ({"a":"b:c"} and {"a":{"b":"c"}}), which the
	 *   typed shape of every member read (Operation) refuses: both accepted.
	 *
	 * @param mixed $node
	 * @return array{field: string, message: string}|null
	 */
	public static function ambiguity( $node, string $path = '' ) {
		if ( is_array( $node ) ) {
			foreach ( $node as $key => $child ) {
				$key  = (string) $key;
				$name = '' === $path ? $key : $path . '.' . $key;
				if ( false !== strpbrk( $key, ':;' ) ) {
					return array(
						'field'   => $name,
						'message' => 'a member name contains ":" or ";", so the signed string could stand for another body',
					);
				}
				$problem = self::ambiguity( $child, $name );
				if ( null !== $problem ) {
					return $problem;
				}
			}
			return null;
		}
		if ( is_string( $node ) ) {
			$segments = explode( ';', $node );
			array_shift( $segments );
			foreach ( $segments as $segment ) {
				if ( false !== strpos( $segment, ':' ) ) {
					return array(
						'field'   => $path,
						'message' => 'the value contains ";" followed by ":", so the signed string could stand for another body',
					);
				}
			}
		}
		return null;
	}
}

<?php
/**
 * Server-made references to a block's signing-relevant attributes.
 *
 * A block's page is public and may be cached for hours, so it cannot carry a
 * nonce or a signature. Instead the page carries the block's attributes as a
 * compact JSON text ("payload") and an HMAC of that text under a key only
 * this site knows ("ref"). The signing routes recompute the HMAC: a visitor
 * can replay what the site rendered but cannot invent amounts, currencies or
 * redirect addresses. See docs/decisions.md ("Widget block: which settings a cached
 * page may start").
 *
 * No WordPress calls here; the key is passed in (wp_salt() in production).
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Rules;

defined( 'ABSPATH' ) || exit;

final class Block_Reference {

	/** Attribute name in block.json => member name in the payload, in payload order. */
	const MEMBERS = array(
		'amount'         => 'a',
		'fiatCurrency'   => 'f',
		'cryptoCurrency' => 'c',
		'lang'           => 'l',
		'successUrl'     => 's',
		'failUrl'        => 'x',
	);

	/** Longest payload accepted back from a browser (bytes). */
	const MAX_PAYLOAD = 2048;

	/** @var string */
	private $key;

	public function __construct( string $key ) {
		if ( '' === $key ) {
			throw new \InvalidArgumentException( 'The block reference key must not be empty.' );
		}
		$this->key = $key;
	}

	/**
	 * The payload of a block's attributes: only the signing-relevant ones,
	 * only non-empty strings, always in the same order, so equal settings give
	 * equal payloads (and refs) whatever order WordPress stored them in.
	 *
	 * @param array<string, mixed> $attributes Block attributes.
	 */
	public static function payload( array $attributes ): string {
		$out = array();
		foreach ( self::MEMBERS as $attribute => $member ) {
			$value = $attributes[ $attribute ] ?? '';
			if ( is_string( $value ) && '' !== trim( $value ) ) {
				$out[ $member ] = trim( $value );
			}
		}
		// Plain JSON (not wp_json_encode) so the text is the same on every PHP version and in tests outside WordPress.
		return (string) json_encode( $out, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE );
	}

	/** The reference (64 lower-case hex) of a payload. */
	public function ref( string $payload ): string {
		return hash_hmac( 'sha256', 'card2crypto-widget-block|' . $payload, $this->key );
	}

	/**
	 * The block attributes of a payload the browser sent back, when its
	 * reference is one this site made; null otherwise (forged, altered,
	 * malformed or from another site).
	 *
	 * @param mixed $payload
	 * @param mixed $ref
	 * @return array<string, string>|null Attribute name => value.
	 */
	public function attributes( $payload, $ref ): ?array {
		if ( ! is_string( $payload ) || ! is_string( $ref ) || strlen( $payload ) > self::MAX_PAYLOAD || 1 !== preg_match( '/^[0-9a-f]{64}$/D', $ref ) ) {
			return null;
		}
		if ( ! hash_equals( $this->ref( $payload ), $ref ) ) {
			return null;
		}
		$data = json_decode( $payload, true );
		if ( ! is_array( $data ) ) {
			return null;
		}
		$attributes = array();
		foreach ( self::MEMBERS as $attribute => $member ) {
			if ( isset( $data[ $member ] ) && is_string( $data[ $member ] ) ) {
				$attributes[ $attribute ] = $data[ $member ];
			}
		}
		return $attributes;
	}

	/**
	 * The id of the element that receives a block's widget: derived from the
	 * reference, numbered for several equal blocks on one page. The signing
	 * route accepts only ids of this shape for the given reference.
	 */
	public static function element_id( string $ref, int $instance ): string {
		return 'c2c-widget-' . substr( $ref, 0, 12 ) . '-' . $instance;
	}

	/** True when $id is element_id( $ref, n ) for some n in 1..999. */
	public static function is_element_id( $id, string $ref ): bool {
		return is_string( $id ) && 1 === preg_match( '/^c2c-widget-' . substr( $ref, 0, 12 ) . '-[1-9][0-9]{0,2}$/D', $id );
	}
}


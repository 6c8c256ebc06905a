<?php
/**
 * The partner's credentials, read once from the settings (Config::credentials())
 * and handed to everything that signs or checks a signature: the payment's
 * signer, the service client, the callback verifier and the log's redactor.
 * A leaf value: it names no other class of the plugin.
 *
 * The secret never leaves the server: this value has no way to print it
 * whole (no __toString, redacted in var_dump and print_r).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Base;

defined( 'ABSPATH' ) || exit;

final class Credentials {

	/** @var string */
	private $token;

	/** @var string */
	private $secret;

	/** @var string[] Other texts no log may carry (the wallet's extended public key: it reveals every address). */
	private $private_texts;

	/** @param string[] $private_texts Other texts no log may carry. */
	public function __construct( string $token, string $secret, array $private_texts = array() ) {
		$this->token         = $token;
		$this->secret        = $secret;
		$this->private_texts = array_values( array_filter( $private_texts, 'strlen' ) );
	}

	public function token(): string {
		return $this->token;
	}

	public function secret(): string {
		return $this->secret;
	}

	/** Both are set: the service can be asked. */
	public function complete(): bool {
		return '' !== $this->token && '' !== $this->secret;
	}

	/** Whether `$other` names another partner or another secret. */
	public function differ( self $other ): bool {
		return $this->token !== $other->token || $this->secret !== $other->secret;
	}

	/** A short fingerprint that changes when either changes, and reveals neither. */
	public function fingerprint(): string {
		return $this->token . "\n" . hash( 'sha256', $this->secret );
	}

	/** Removes the secret, the other private texts and 128-hex signatures from a text (the log's redactor). */
	public function redact( string $text ): string {
		foreach ( array_merge( array( $this->secret ), $this->private_texts ) as $private ) {
			if ( '' !== $private ) {
				$text = str_replace( $private, '[redacted]', $text );
			}
		}
		return (string) preg_replace( '/\b[0-9a-fA-F]{128}\b/', '[signature]', $text );
	}

	/** @return array<string, string> What var_dump() and print_r() show: never the secret. */
	public function __debugInfo(): array {
		return array(
			'token'  => $this->token,
			'secret' => '' === $this->secret ? '' : '[redacted]',
		);
	}
}

<?php
/**
 * What the service said of a partner's credentials (Credentials_Check):
 * accepted, with the partner's commission (service_fee, as the service
 * wrote it), or refused, why in the owner's words and the setting at
 * fault (Connection_Refusal: partner_token, partner_secret, base_url, or
 * null when it is no setting's), with the error itself for the plugin's
 * own judgement (a 429 says nothing of the credentials). A value: never
 * holds the secret.
 *
 * @package card2crypto
 */

namespace Card2Crypto\Shared\Api;

final class Credentials_Answer {

	/** @var bool */
	private $ok;

	/** @var mixed */
	private $fee;

	/** @var string */
	private $why;

	/** @var string|null */
	private $field;

	/** @var \Throwable|null */
	private $error;

	/** @var int */
	private $at;

	/**
	 * @param mixed $fee
	 */
	private function __construct( bool $ok, $fee, string $why, ?string $field, ?\Throwable $error, int $at ) {
		$this->ok    = $ok;
		$this->fee   = $fee;
		$this->why   = $why;
		$this->field = $field;
		$this->error = $error;
		$this->at    = $at;
	}

	/** @param mixed $fee The partner's commission as the verified answer gave it. */
	public static function accepted( $fee, int $at ): self {
		return new self( true, $fee, '', null, null, $at );
	}

	public static function refused( \Throwable $error, int $at ): self {
		$refusal = Connection_Refusal::of( $error );
		return new self( false, null, (string) $refusal['why'], $refusal['field'], $error, $at );
	}

	public function ok(): bool {
		return $this->ok;
	}

	/** @return mixed The partner's commission (service_fee), null when refused. */
	public function fee() {
		return $this->fee;
	}

	/** Why the service refused, in the owner's words ('' when accepted). */
	public function why(): string {
		return $this->why;
	}

	/** The setting at fault, null when accepted or when it is no setting's. */
	public function field(): ?string {
		return $this->field;
	}

	/** What failed, null when accepted. */
	public function error(): ?\Throwable {
		return $this->error;
	}

	/** When the service answered (Unix time). */
	public function at(): int {
		return $this->at;
	}

	/**
	 * What a plugin keeps of it (an option): never the error itself.
	 *
	 * @return array{ok: bool, why: string, field: string|null, at: int}
	 */
	public function to_array(): array {
		return array(
			'ok'    => $this->ok,
			'why'   => $this->why,
			'field' => $this->field,
			'at'    => $this->at,
		);
	}
}

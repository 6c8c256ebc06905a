<?php
/**
 * A verified operation_data (from a callback or the operation-info
 * endpoint), checked against the documented shape, with typed accessors for
 * what the plugins use. Amounts are exact minimum units (int, or decimal
 * digits beyond PHP_INT_MAX); nothing here ever holds money in a float.
 *
 * @package Card2Crypto\Shared
 */

namespace Card2Crypto\Shared\Api;

final class Operation {

	/** @var array<string, mixed> */
	private $data;

	/** @param array<string, mixed> $data operation_data as returned by Shape::check(). */
	private function __construct( array $data ) {
		$this->data = $data;
	}

	/**
	 * Checks a decoded operation_data (numbers as Json_Number).
	 *
	 * @param mixed $value
	 * @return array{ok: bool, operation?: Operation, field?: string, message?: string}
	 */
	public static function from_decoded( $value, string $root = 'operation_data' ): array {
		$checked = Shape::check( $value, Shape::operation_data(), $root );
		if ( ! $checked['ok'] ) {
			return $checked;
		}
		return array(
			'ok'        => true,
			'operation' => new self( $checked['value'] ),
		);
	}

	public function status(): string {
		return $this->data['status'];
	}

	/** @return int|float The status code (an int for every documented code). */
	public function status_code() {
		return $this->data['status_code'];
	}

	/** operation_info.id: the operation id in the service. */
	public function id(): string {
		return $this->data['operation_info']['id'];
	}

	/** partner_info.operation_id: the partner's own id (the order), when sent. */
	public function partner_operation_id(): ?string {
		return $this->get( 'partner_info', 'operation_id' );
	}

	/** @return int|string|null Minimum units: an int, or decimal digits beyond PHP_INT_MAX. */
	public function from_amount() {
		return $this->get( 'operation_info', 'from', 'amount' );
	}

	public function from_currency(): ?string {
		return $this->get( 'operation_info', 'from', 'currency', 'code' );
	}

	/** @return int|string|null Minimum units: an int, or decimal digits beyond PHP_INT_MAX. */
	public function to_amount() {
		return $this->get( 'operation_info', 'to', 'amount' );
	}

	public function to_currency(): ?string {
		return $this->get( 'operation_info', 'to', 'currency', 'code' );
	}

	public function to_address(): ?string {
		return $this->get( 'operation_info', 'to', 'withdrawal_method_info', 'blockchain_address' );
	}

	public function tx_id(): ?string {
		return $this->get( 'operation_info', 'to', 'withdrawal_method_info', 'blockchain_tx_id' );
	}

	public function explorer_url(): ?string {
		return $this->get( 'operation_info', 'to', 'withdrawal_method_info', 'blockchain_explorer_url' );
	}

	public function status_url(): ?string {
		return $this->get( 'operation_info', 'status_url' );
	}

	public function created_at(): ?string {
		return $this->get( 'operation_info', 'created_at' );
	}

	public function paid_at(): ?string {
		return $this->get( 'operation_info', 'paid_at' );
	}

	/** The checked operation_data as an array (numbers as int/float, unknown members kept). */
	public function to_array(): array {
		return $this->data;
	}

	/** @return mixed */
	private function get( string ...$path ) {
		$node = $this->data;
		foreach ( $path as $key ) {
			if ( ! is_array( $node ) || ! array_key_exists( $key, $node ) ) {
				return null;
			}
			$node = $node[ $key ];
		}
		return $node;
	}
}

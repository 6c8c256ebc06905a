<?php
/**
 * One payment attempt of an order, as its row in
 * {prefix}card2crypto_attempts reads (Operation_Store, the one place that
 * makes it from a row): what the attempt asks for (the fiat amount in minor
 * units and its currency, the asset it buys and the wallet address that
 * receives it), its operations' summed-up status pair, and when it was
 * signed, retired and last changed. A read value: nothing here writes; the
 * store writes and hands back a fresh Attempt.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Attempts;

use Card2Crypto\Checkout\Rules\Payment_Match;
use Card2Crypto\Checkout\Rules\Service_Times;
use Card2Crypto\Checkout\Rules\Status_Flow;

defined( 'ABSPATH' ) || exit;

final class Attempt implements \JsonSerializable {

	/** @var int */
	private $id;
	/** @var int */
	private $order_id;
	/** @var string */
	private $partner_operation_id;
	/** @var string|null The operation that sums the attempt up; null when none yet. */
	private $operation_id;
	/** @var int Fiat amount asked, in minor units. */
	private $amount;
	/** @var string Fiat currency asked (ISO 4217). */
	private $currency;
	/** @var string The asset bought. */
	private $asset;
	/** @var string Wallet address that receives the asset ('' until one is given). */
	private $wallet;
	/** @var string */
	private $status;
	/** @var int Status_Flow::NO_CODE when nothing was applied yet. */
	private $status_code;
	/** @var int */
	private $version;
	/** @var bool */
	private $mismatch;
	/** @var int */
	private $checks;
	/** @var bool */
	private $unsent;
	/** @var string|null UTC, MySQL format. */
	private $next_check_at;
	/** @var string|null UTC, MySQL format. */
	private $retired_at;
	/** @var string|null UTC, MySQL format. */
	private $signed_at;
	/** @var string UTC, MySQL format. */
	private $created_at;
	/** @var string UTC, MySQL format. */
	private $updated_at;

	/**
	 * From a row of the attempts table (Operation_Store only). A column an
	 * older schema lacks reads as its default.
	 *
	 * @param array<string, mixed> $row
	 */
	public static function from_row( array $row ): self {
		$attempt                       = new self();
		$attempt->id                   = (int) ( $row['id'] ?? 0 );
		$attempt->order_id             = (int) ( $row['order_id'] ?? 0 );
		$attempt->partner_operation_id = (string) ( $row['partner_operation_id'] ?? '' );
		$attempt->operation_id         = isset( $row['operation_id'] ) ? (string) $row['operation_id'] : null;
		$attempt->amount               = (int) ( $row['expected_amount'] ?? 0 );
		$attempt->currency             = (string) ( $row['expected_currency'] ?? '' );
		$attempt->asset                = Payment_Match::ASSET_BTC; // One asset today; a second would be a column.
		$attempt->wallet               = (string) ( $row['expected_wallet'] ?? '' );
		$attempt->status               = (string) ( $row['status'] ?? '' );
		$attempt->status_code          = (int) ( $row['status_code'] ?? Status_Flow::NO_CODE );
		$attempt->version              = (int) ( $row['version'] ?? 0 );
		$attempt->mismatch             = 1 === (int) ( $row['mismatch'] ?? 0 );
		$attempt->checks               = (int) ( $row['checks'] ?? 0 );
		$attempt->unsent               = 1 === (int) ( $row['unsent'] ?? 0 );
		$attempt->next_check_at        = $attempt->date_or_null( $row['next_check_at'] ?? null );
		$attempt->retired_at           = $attempt->date_or_null( $row['retired_at'] ?? null );
		$attempt->signed_at            = $attempt->date_or_null( $row['signed_at'] ?? null );
		$attempt->created_at           = (string) ( $row['created_at'] ?? '' );
		$attempt->updated_at           = (string) ( $row['updated_at'] ?? '' );
		return $attempt;
	}

	private function __construct() {
	}

	public function id(): int {
		return $this->id;
	}

	public function order_id(): int {
		return $this->order_id;
	}

	/** The attempt's own id, sent to the service (partner_operation_id). */
	public function partner_operation_id(): string {
		return $this->partner_operation_id;
	}

	/** The operation that sums the attempt up, '' when none yet. */
	public function operation_id(): string {
		return (string) $this->operation_id;
	}

	/** The fiat amount asked, in minor units of currency(). */
	public function amount(): int {
		return $this->amount;
	}

	public function currency(): string {
		return $this->currency;
	}

	/** The asset the attempt buys (the service's code: Payment_Match::ASSET_BTC). */
	public function asset(): string {
		return $this->asset;
	}

	/** The wallet address that receives the asset, '' until one is given. */
	public function wallet(): string {
		return $this->wallet;
	}

	public function status(): string {
		return $this->status;
	}

	public function status_code(): int {
		return $this->status_code;
	}

	/** Whether a status was applied yet (the service told something about the attempt). */
	public function has_news(): bool {
		return Status_Flow::NO_CODE !== $this->status_code;
	}

	/**
	 * The summed-up pair as Status_Flow::decide() wants it, null when nothing was applied yet.
	 *
	 * @return array{status: string, status_code: int}|null
	 */
	public function state(): ?array {
		return $this->has_news() ? array(
			'status'      => $this->status,
			'status_code' => $this->status_code,
		) : null;
	}

	public function version(): int {
		return $this->version;
	}

	/** An earlier event of the attempt did not match what it asked for (flagged for good). */
	public function mismatch(): bool {
		return $this->mismatch;
	}

	/** How many times reconciliation asked the service about it. */
	public function checks(): int {
		return $this->checks;
	}

	public function unsent(): bool {
		return $this->unsent;
	}

	public function next_check_at(): ?string {
		return $this->next_check_at;
	}

	public function retired_at(): ?string {
		return $this->retired_at;
	}

	public function is_retired(): bool {
		return null !== $this->retired_at;
	}

	public function signed_at(): ?string {
		return $this->signed_at;
	}

	public function is_signed(): bool {
		return null !== $this->signed_at;
	}

	public function created_at(): string {
		return $this->created_at;
	}

	public function updated_at(): string {
		return $this->updated_at;
	}

	/** True when money may be moving for this attempt: the buyer paid and no final failure came (Status_Flow::in_flight()). */
	public function in_flight(): bool {
		return Status_Flow::in_flight( $this->status, $this->status_code );
	}

	/** Whether the service reported a final status for the attempt (paid, or ended without payment). */
	public function is_final(): bool {
		return Status_Flow::is_final( $this->status, $this->status_code );
	}

	/**
	 * When the attempt's payment started (Unix time): the later of when the
	 * buyer was sent to pay and when the service created the operation (its
	 * created_at, when known), never after $now (Service_Times::window_start()).
	 */
	public function payment_started( ?string $operation_created_at, int $now ): int {
		return Service_Times::window_start( $this->created_at, $operation_created_at, $now );
	}

	/**
	 * What the attempt asked for, as Payment_Match and Order_Decision compare it.
	 *
	 * @return array{amount: int, currency: string, wallet: string, asset: string}
	 */
	public function expected(): array {
		return array(
			'amount'   => $this->amount,
			'currency' => $this->currency,
			'wallet'   => $this->wallet,
			'asset'    => $this->asset,
		);
	}

	/**
	 * What Attempt_Policy::reusable() weighs.
	 *
	 * @return array{news: bool, retired: bool, amount: int, currency: string, wallet: string}
	 */
	public function reuse_facts(): array {
		return array(
			'news'     => $this->has_news(),
			'retired'  => $this->is_retired(),
			'amount'   => $this->amount,
			'currency' => $this->currency,
			'wallet'   => $this->wallet,
		);
	}

	/**
	 * The row's columns (for test probes that print an attempt as JSON).
	 *
	 * @return array<string, mixed>
	 */
	public function jsonSerialize(): array {
		return array(
			'id'                   => $this->id,
			'order_id'             => $this->order_id,
			'partner_operation_id' => $this->partner_operation_id,
			'operation_id'         => $this->operation_id,
			'expected_amount'      => $this->amount,
			'expected_currency'    => $this->currency,
			'expected_wallet'      => $this->wallet,
			'asset'                => $this->asset,
			'status'               => $this->status,
			'status_code'          => $this->status_code,
			'version'              => $this->version,
			'mismatch'             => $this->mismatch ? 1 : 0,
			'checks'               => $this->checks,
			'unsent'               => $this->unsent ? 1 : 0,
			'next_check_at'        => $this->next_check_at,
			'retired_at'           => $this->retired_at,
			'signed_at'            => $this->signed_at,
			'created_at'           => $this->created_at,
			'updated_at'           => $this->updated_at,
		);
	}

	/** @param mixed $value */
	private function date_or_null( $value ): ?string {
		return null === $value || '' === $value ? null : (string) $value;
	}
}

<?php
/**
 * "A new address for each order": the address a new payment attempt sends
 * the bitcoin to, derived from the owner's extended public key (BIP32, the
 * shared library's Btc\Bip32) at an index taken atomically with the attempt
 * (Address_Store::take(): a freed index first, else the next one).
 *
 * The key never leaves the server: it is read from the settings (Config),
 * derived here, and only the address is written to the attempt, the order
 * and the payment's signed settings (to_account).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Payment;

use Card2Crypto\Checkout\Attempts\Address_Store;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Shared\Btc\Bip32;

defined( 'ABSPATH' ) || exit;

final class Order_Address {

	/** Order meta: the index and the address of the order's current attempt. */
	const META_INDEX   = '_card2crypto_address_index';
	const META_ADDRESS = '_card2crypto_address';

	/** Warn the owner when the addresses in use past the last paid one come this close to the gap limit. */
	const WARN_MARGIN = 5;

	/** @var Config */
	private $config;

	/** @var array{text: string, wallet: array}|null The parsed wallet of the key last read. */
	private $parsed = null;

	/** @var Bip32|null */
	private $bip32 = null;

	public function __construct( Config $config ) {
		$this->config = $config;
	}

	/** Whether each order gets its own address (the setting, with a key set). */
	public function active(): bool {
		return $this->config->derives_addresses() && '' !== $this->config->wallet_key();
	}

	/**
	 * The wallet of the key in the settings (parse_wallet_key()).
	 *
	 * @throws \Card2Crypto\Checkout\Shared\Btc\Bip32_Exception A bad key, or a host with neither GMP nor BCMath.
	 */
	public function wallet(): array {
		$text = $this->config->wallet_key();
		if ( null === $this->parsed || $this->parsed['text'] !== $text ) {
			$this->parsed = array(
				'text'   => $text,
				'wallet' => $this->bip32()->parse_wallet_key( $text, $this->config->environment() ),
			);
		}
		return $this->parsed['wallet'];
	}

	/** The wallet's name in the address table: a hash of its receive chain's descriptor (never the key). */
	public function wallet_id(): string {
		return hash( 'sha256', (string) $this->wallet()['descriptor'] );
	}

	/**
	 * Creates a payment attempt with a new address: $create( $address )
	 * records the attempt and answers its row. The index and the attempt are
	 * written in one transaction; the order keeps the index and the address.
	 *
	 * @param callable(string): array $create
	 * @return array The attempt.
	 * @throws \Throwable What $create throws, a bad key, or a database error: no index is used then.
	 */
	public function new_attempt( \WC_Order $order, callable $create ): array {
		$wallet  = $this->wallet();
		$attempt = null;
		$taken   = Address_Store::take(
			$this->wallet_id(),
			$order->get_id(),
			function ( int $index ) use ( $wallet, $create, &$attempt ): array {
				$address = $this->bip32()->derive_addresses( $wallet, $index, 1 )[0]['address'];
				$attempt = $create( $address );
				if ( ! is_array( $attempt ) || empty( $attempt['id'] ) ) {
					throw new \RuntimeException( 'The payment attempt could not be recorded.' );
				}
				return array( (int) $attempt['id'], $address );
			}
		);
		$order->update_meta_data( self::META_INDEX, (string) $taken['index'] );
		$order->update_meta_data( self::META_ADDRESS, $taken['address'] );
		return $attempt;
	}

	/**
	 * The wallet an attempt may still be signed for: its own address when
	 * that was derived from the key in the settings now, else '' (the key
	 * changed: a new attempt, with an address of the new wallet).
	 */
	public function wallet_of( ?array $attempt ): string {
		if ( null === $attempt || ! $this->active() ) {
			return '';
		}
		$row = Address_Store::of_attempt( (int) $attempt['id'] );
		try {
			return null !== $row && $row['wallet'] === $this->wallet_id() ? (string) $attempt['expected_wallet'] : '';
		} catch ( \Throwable $e ) {
			return '';
		}
	}

	/**
	 * The first addresses of the wallet, for the owner to compare with their
	 * wallet's own list before taking payments.
	 *
	 * @return string[]
	 * @throws \Card2Crypto\Checkout\Shared\Btc\Bip32_Exception
	 */
	public function first( int $count = 3 ): array {
		return array_map(
			static function ( array $derived ): string {
				return $derived['address'];
			},
			$this->bip32()->derive_addresses( $this->wallet(), 0, $count )
		);
	}

	/**
	 * How close the addresses in use come to the wallet's gap limit.
	 *
	 * @return array{gap: int, limit: int, warn: bool, in_use: int, last_paid: int|null, highest: int|null}
	 */
	public function gap(): array {
		$gap   = Address_Store::gap( $this->wallet_id() );
		$limit = $this->config->gap_limit();
		return $gap + array(
			'limit' => $limit,
			'warn'  => $gap['gap'] >= max( 1, $limit - self::WARN_MARGIN ),
		);
	}

	/** The order's address and its index, as the order keeps them (null for one address for every order). */
	public static function of_order( \WC_Order $order ): ?array {
		$address = (string) $order->get_meta( self::META_ADDRESS );
		if ( '' === $address ) {
			return null;
		}
		return array(
			'index'   => (int) $order->get_meta( self::META_INDEX ),
			'address' => $address,
			'payment' => (string) $order->get_meta( Keys::META_ATTEMPT ),
		);
	}

	/**
	 * The gap in words, for the settings page and the admin notice: how many
	 * addresses past the last paid one are in use, against the gap limit,
	 * and, when close, the one thing to do.
	 *
	 * @param array{gap: int, limit: int, warn: bool} $gap gap().
	 */
	public static function gap_text( array $gap ): string {
		$text = sprintf(
			/* translators: 1: addresses in use past the last paid one, 2: the wallet's gap limit */
			_n( '%1$d address past the last paid one is in use; your wallet looks %2$d addresses ahead (its gap limit).', '%1$d addresses past the last paid one are in use; your wallet looks %2$d addresses ahead (its gap limit).', $gap['gap'], 'card2crypto-checkout' ),
			$gap['gap'],
			$gap['limit']
		);
		if ( $gap['warn'] ) {
			$text .= ' ' . __( 'Payments to addresses past the gap limit do not show in your wallet: raise its gap limit (in Electrum: wallet.change_gap_limit(…) in the console; in Sparrow: Settings → Advanced → Gap limit) and set the same number here.', 'card2crypto-checkout' );
		}
		return $text;
	}

	/** A block explorer's page of an address (mempool.space; its testnet pages for testnet addresses). */
	public static function explorer_url( string $address ): string {
		$testnet = 1 === preg_match( '/^(tb1|bcrt1|[mn2])/i', $address );
		return 'https://mempool.space/' . ( $testnet ? 'testnet/' : '' ) . 'address/' . rawurlencode( $address );
	}

	private function bip32(): Bip32 {
		if ( null === $this->bip32 ) {
			$this->bip32 = new Bip32();
		}
		return $this->bip32;
	}
}

<?php
/**
 * "A new address for each order": the address an order's payments send the
 * bitcoin to, derived from the owner's extended public key (BIP32, the
 * shared library's Btc\Bip32). The order keeps one address across all its
 * payment attempts; its index is taken when its first payment is signed for
 * the buyer (for_signing(), Address_Store::take(): a freed index first, else
 * the next one, never past what the wallet sees), charged to the client and
 * the order (Start_Budget::charge_new_address()).
 *
 * The key never leaves the server: it is read from the settings (Config),
 * derived here, and only the address is written to the attempt, the order
 * and the payment's signed settings (to_account).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Payment;

use Card2Crypto\Checkout\Attempts\Address_Store;
use Card2Crypto\Checkout\Attempts\Addresses_Exhausted;
use Card2Crypto\Checkout\Attempts\Attempt;
use Card2Crypto\Checkout\Attempts\Payment_Refused;
use Card2Crypto\Checkout\Attempts\Start_Budget;
use Card2Crypto\Checkout\Attempts\Wallet_Shared;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Other_Methods;
use Card2Crypto\Checkout\Rules\Address_Policy;
use Card2Crypto\Checkout\Rules\Wallet_Words;
use Card2Crypto\Checkout\Shared\Btc\Bip32;
use Card2Crypto\Checkout\Attempts\Attempt_Store;

defined( 'ABSPATH' ) || exit;

final class Order_Address {

	/** Order meta: the index and the address the order holds. */
	const META_INDEX   = Keys::META_ADDRESS_INDEX;
	const META_ADDRESS = Keys::META_ADDRESS;

	/** @var Config */
	private $config;

	/** @var array{text: string, wallet: array}|null The parsed wallet of the key last read. */
	private $parsed = null;

	/** @var Bip32|null */
	private $bip32 = null;

	/** @var Address_Store */
	private $store;

	/** @var Attempt_Store */
	private $attempts;

	/** @var Start_Budget */
	private $budget;

	public function __construct( Config $config, Address_Store $store, Attempt_Store $attempts, Start_Budget $budget ) {
		$this->config   = $config;
		$this->store    = $store;
		$this->attempts = $attempts;
		$this->budget   = $budget;
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
	 * The address a new attempt of the order is created with: the one the
	 * order holds (it keeps it across its attempts), else '' (an index is
	 * taken when the attempt is first signed: for_signing()).
	 */
	public function held_address( \WC_Order $order ): string {
		try {
			$row = $this->store->held_by_order( $this->wallet_id(), $order->get_id() );
		} catch ( \Throwable $e ) {
			return '';
		}
		return null === $row ? '' : (string) $row['address'];
	}

	/**
	 * The attempt about to be signed for the buyer, with its address: the
	 * one the order holds, else a new index of the wallet, taken now (a
	 * freed one first), charged to the client and the order. An attempt
	 * whose address the order no longer holds (freed: its payments ended)
	 * is never signed: null, and the caller starts a new one.
	 *
	 * @param string $client The visitor's address (Client_Address::of()).
	 * @return Attempt|null The attempt with its address, or null when it may not be signed.
	 * @throws Payment_Refused When no address can be given (the client's or order's budget, the wallet's gap).
	 */
	public function for_signing( \WC_Order $order, Attempt $attempt, string $client ): ?Attempt {
		$wallet = $this->wallet_id();
		if ( '' !== $attempt->wallet() ) {
			return $this->store->holds( $wallet, $order->get_id(), $attempt->wallet() ) ? $attempt : null;
		}
		if ( null === $this->store->held_by_order( $wallet, $order->get_id() ) ) {
			$this->budget->charge_new_address( $order, $client );
		}
		$key = $this->wallet();
		$gap = $this->store->gap( $wallet );
		try {
			$taken = $this->store->take(
				$wallet,
				$order->get_id(),
				Address_Policy::cap( $gap['last_paid'], $this->config->gap_limit() ),
				function ( int $index ) use ( $key ): string {
					return $this->bip32()->derive_addresses( $key, $index, 1 )[0]['address'];
				},
				function ( string $address ) use ( $attempt ): int {
					if ( ! $this->attempts->give_wallet( $attempt->id(), $address ) ) {
						throw new \RuntimeException( 'The payment already has an address.' );
					}
					return $attempt->id();
				}
			);
		} catch ( Addresses_Exhausted $e ) {
			Log::error( sprintf( 'Order %d: card payment refused: %s Orders holding addresses free them when their payments end unpaid; raise the gap limit in your wallet and in the settings to take more at once.', $order->get_id(), $e->getMessage() ) );
			throw new Payment_Refused( Wallet_Words::exhausted() );
		} catch ( Wallet_Shared $e ) {
			Log::error( sprintf( 'Order %d: card payment refused: %s Enter the extended public key of another wallet (or another account of your wallet) in this shop\'s payment settings.', $order->get_id(), $e->getMessage() ) );
			throw new Payment_Refused(
				Other_Methods::exist()
					? __( 'Card payment is not available in this shop right now. Please choose another payment method.', 'card2crypto-checkout' )
					: __( 'Card payment is not available in this shop right now. Please try again later.', 'card2crypto-checkout' )
			);
		}
		$order->update_meta_data( self::META_INDEX, (string) $taken['index'] );
		$order->update_meta_data( self::META_ADDRESS, $taken['address'] );
		$order->save_meta_data();
		return $this->attempts->attempt( $attempt->id() );
	}

	/**
	 * The addresses of the other shops of the multisite network that give
	 * out addresses of this wallet (Address_Store::sites_sharing()): while
	 * one does, this shop takes none. Empty on a single site.
	 *
	 * @return string[]
	 * @throws \Card2Crypto\Checkout\Shared\Btc\Bip32_Exception A bad key, or a host with neither GMP nor BCMath.
	 */
	public function shared_with(): array {
		return array_map( 'get_home_url', $this->store->sites_sharing( $this->wallet_id() ) );
	}

	/**
	 * The wallet an attempt may still be signed for, or null when it may not:
	 * its own address while the order holds it and it is of the key in the
	 * settings now; '' for an attempt not given an address yet (it takes the
	 * order's at signing).
	 */
	public function wallet_of( \WC_Order $order, ?Attempt $attempt ): ?string {
		if ( null === $attempt || ! $this->active() ) {
			return null;
		}
		$address = $attempt->wallet();
		if ( '' === $address ) {
			return '';
		}
		try {
			return $this->store->holds( $this->wallet_id(), $order->get_id(), $address ) ? $address : null;
		} catch ( \Throwable $e ) {
			return null;
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
	 * @return array{gap: int, limit: int, warn: bool, standing: string, cap: int, next: int, free: int, in_use: int, last_paid: int|null, highest: int|null}
	 */
	public function gap(): array {
		$wallet   = $this->wallet_id();
		$gap      = $this->store->gap( $wallet );
		$limit    = $this->config->gap_limit();
		$next     = $this->store->next_index( $wallet );
		$standing = Address_Policy::standing( $gap, $next, $limit );
		return $gap + array(
			'limit'    => $limit,
			'cap'      => Address_Policy::cap( $gap['last_paid'], $limit ),
			'next'     => $next,
			'standing' => $standing,
			'warn'     => Address_Policy::OK !== $standing,
		);
	}

	/** The order's address and its index, as the order keeps them (null for one address for every order). */
	public function of_order( \WC_Order $order ): ?array {
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

	private function bip32(): Bip32 {
		if ( null === $this->bip32 ) {
			$this->bip32 = new Bip32();
		}
		return $this->bip32;
	}
}

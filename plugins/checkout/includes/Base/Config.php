<?php
/**
 * Typed access to the payment method's settings for the payment code, over
 * the schema-driven settings store (wp-config.php constants win, empty
 * sandbox addresses take the local sandbox's), plus what is built from them
 * once: the partner's credentials (the service client is the service
 * gateway's: Partner\Service_Gateway).
 *
 * Plugin::boot() builds the one Config of a request and passes it in; a
 * settings save makes it read again (forget(), hooked by the wiring).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Base;

use Card2Crypto\Checkout\Shared\Settings\Js_Text;
use Card2Crypto\Checkout\Shared\Settings\Settings_Store;

defined( 'ABSPATH' ) || exit;

final class Config {

	/** @var Settings_Store */
	private $store;

	/** @var callable(string): (string|bool) */
	private $get;

	/** @var Credentials|null Read once, until the settings change. */
	private $credentials = null;

	/**
	 * @param Settings_Store                      $store The checkout's settings.
	 * @param (callable(string): (string|bool))|null $get   Setting by schema field id; default the store's current value.
	 */
	public function __construct( Settings_Store $store, ?callable $get = null ) {
		$this->store = $store;
		$this->get   = $get ?? static function ( string $id ) use ( $store ) {
			return $store->get( $id );
		};
	}

	/**
	 * The settings a save would write (Settings_Store::prepare_save() values),
	 * read as the plugin would read them once saved: a defined constant wins,
	 * an empty service address takes its environment's default.
	 *
	 * @param array<string, string> $values Stored form of every field, by id.
	 */
	public function with_values( array $values ): self {
		$effective = $this->store->effective_of( $values );
		return new self(
			$this->store,
			static function ( string $id ) use ( $effective ) {
				return $effective[ $id ] ?? '';
			}
		);
	}

	/** The settings were saved: the credentials are read again at their next use. */
	public function forget(): void {
		$this->credentials = null;
	}

	/** The schema-driven store these settings are read from (the settings page's fields and rules). */
	public function store(): Settings_Store {
		return $this->store;
	}

	private function text( string $id ): string {
		$value = ( $this->get )( $id );
		return is_string( $value ) ? trim( $value ) : '';
	}

	private function flag( string $id ): bool {
		return true === ( $this->get )( $id );
	}

	public function enabled(): bool {
		return $this->flag( 'enabled' );
	}

	public function title(): string {
		return $this->text( 'title' );
	}

	public function description(): string {
		return $this->text( 'description' );
	}

	/** The partner token and secret: the one place the secret is read from the settings. */
	public function credentials(): Credentials {
		if ( null === $this->credentials ) {
			$secret            = ( $this->get )( 'partner_secret' );
			$key               = ( $this->get )( 'wallet_key_secret' );
			$this->credentials = new Credentials( $this->text( 'partner_token' ), is_string( $secret ) ? $secret : '', array( is_string( $key ) ? trim( $key ) : '' ) );
		}
		return $this->credentials;
	}

	/** The one wallet address ("One address"); '' in the other mode (each order's address is derived: wallet_key()). */
	public function wallet(): string {
		return $this->derives_addresses() ? '' : $this->text( 'wallet_address' );
	}

	/** Whether each order gets a new address derived from the wallet's extended public key. */
	public function derives_addresses(): bool {
		return 'xpub' === $this->text( 'wallet_mode' );
	}

	/**
	 * The extended public key or descriptor ('' unless each order gets a new
	 * address). Kept like the secret: it reveals every address of the wallet.
	 */
	public function wallet_key(): string {
		$value = ( $this->get )( 'wallet_key_secret' );
		return $this->derives_addresses() && is_string( $value ) ? trim( $value ) : '';
	}

	/** How many unused addresses in a row the owner's wallet looks ahead (the setting, 20 by default). */
	public function gap_limit(): int {
		$limit = (int) $this->text( 'gap_limit' );
		return $limit >= 20 && $limit <= 1000 ? $limit : 20; // The schema's range: 20, the least any wallet uses, to 1000.
	}

	/** The currency buyers pay in: the setting, else the store's currency. */
	public function currency(): string {
		$currency = strtoupper( $this->text( 'store_currency' ) );
		if ( '' === $currency && function_exists( 'get_woocommerce_currency' ) ) {
			$currency = (string) get_woocommerce_currency();
		}
		return $currency;
	}

	public function environment(): string {
		return 'production' === $this->text( 'environment' ) ? 'production' : 'sandbox';
	}

	public function base_url(): string {
		return $this->text( 'base_url' );
	}

	public function widget_script_url(): string {
		return $this->text( 'widget_script_url' );
	}

	public function landing_url(): string {
		return $this->text( 'landing_url' );
	}

	public function flow(): string {
		return 'embedded' === $this->text( 'payment_flow' ) ? 'embedded' : 'redirect';
	}

	public function auto_confirm(): bool {
		return $this->flag( 'auto_confirm' );
	}

	public function fix_rate(): bool {
		return $this->flag( 'fix_rate' );
	}

	/** The forwarding header the owner's own proxy sets ('' for none: the connection's address counts). */
	public function trust_proxy_header(): string {
		return $this->text( 'trust_proxy_header' );
	}

	/** @return string[] The owner's callback IP allowlist (empty: any address). */
	public function callback_ips(): array {
		return Js_Text::split_list( $this->text( 'callback_ips' ) );
	}

	public function debug(): bool {
		return $this->flag( 'debug_logging' );
	}

	/**
	 * Everything a payment needs is set and valid. The cheap checks come
	 * first; the schema's rules run once per set of stored values
	 * (Settings_Store::problems() remembers its answer).
	 */
	public function is_configured(): bool {
		$wallet = $this->derives_addresses() ? $this->wallet_key() : $this->wallet();
		return $this->credentials()->complete() && '' !== $wallet && '' !== $this->currency() && array() === $this->store->problems();
	}

	/**
	 * The one rule for "the method is on": enabled by the owner and set up.
	 * The gateway (through Availability::problem()), the block checkout's
	 * integration and Service_Health::withdrawn() all ask this; whether this
	 * cart fits and whether the service accepts the store come after it.
	 */
	public function offers_payment(): bool {
		return $this->enabled() && $this->is_configured();
	}

	/**
	 * Reconciliation's requests a second to the service (the setting, 1 to
	 * 20; 10 by default), never more than the store-wide service_rate()
	 * (docs/decisions.md, "Checkout: reconciliation rate" and "Checkout: one
	 * door to the service").
	 */
	public function reconcile_rate(): int {
		$rate = (int) $this->text( 'reconcile_rate' );
		return min( $this->service_rate(), $rate >= 1 && $rate <= 20 ? $rate : 10 );
	}

	/**
	 * The store's requests a second to the service, every lane together (the
	 * administrator's setting, 1 to 100; 10 by default: Service_Lanes::rate()).
	 */
	public function service_rate(): int {
		$value = ( $this->get )( 'service_rate' );
		$rate  = is_string( $value ) ? (int) trim( $value ) : 0;
		return $rate >= 1 && $rate <= 100 ? $rate : 10;
	}
}

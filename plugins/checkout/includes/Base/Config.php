<?php
/**
 * Typed access to the payment method's settings for the payment code, over
 * Plugin::settings() (the schema-driven store: wp-config.php constants win,
 * empty sandbox addresses take the local sandbox's), plus the partner API
 * client built from them.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Base;

use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Client;
use Card2Crypto\Checkout\Shared\Api\Wp_Http_Transport;

defined( 'ABSPATH' ) || exit;

final class Config {

	/** @var callable(string): (string|bool) */
	private $get;

	/** @param callable(string): (string|bool) $get Setting by schema field id. */
	public function __construct( callable $get ) {
		$this->get = $get;
	}

	public static function load(): self {
		$store = Plugin::settings();
		return new self(
			static function ( string $id ) use ( $store ) {
				return $store->get( $id );
			}
		);
	}

	/**
	 * The settings a save would write (Settings_Store::prepare_save() values),
	 * read as the plugin would read them once saved: a defined constant wins,
	 * an empty service address takes its environment's default.
	 *
	 * @param array<string, string> $values Stored form of every field, by id.
	 */
	public static function from_values( array $values ): self {
		$effective = Plugin::settings()->effective_of( $values );
		return new self(
			static function ( string $id ) use ( $effective ) {
				return $effective[ $id ] ?? '';
			}
		);
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

	public function token(): string {
		return $this->text( 'partner_token' );
	}

	public function secret(): string {
		$value = ( $this->get )( 'partner_secret' );
		return is_string( $value ) ? $value : '';
	}

	public function wallet(): string {
		return $this->text( 'wallet_address' );
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

	public function debug(): bool {
		return $this->flag( 'debug_logging' );
	}

	/** Everything a payment needs is set and valid (the schema's rules, validated once per set of values: Settings_Store::problems()). */
	public function is_configured(): bool {
		return array() === Plugin::settings()->problems() && '' !== $this->token() && '' !== $this->secret() && '' !== $this->wallet() && '' !== $this->currency();
	}

	/**
	 * @param callable|null $logger fn(string $level, string $message) for the client's own lines; default Log::write().
	 * @throws \InvalidArgumentException When the credentials or address are unusable.
	 */
	public function api_client( ?callable $logger = null ): Partner_Api_Client {
		return new Partner_Api_Client(
			$this->base_url(),
			$this->token(),
			$this->secret(),
			array(
				// Short: a buyer's page waits on it, and a request stops asking once it spent Start_Budget::TIME_BUDGET.
				'timeout'   => 5.0,
				// wp_safe_remote_post(); only the sandbox environment may reach this computer, and there only its own API address.
				'transport' => new Wp_Http_Transport( 'sandbox' === $this->environment() ? $this->base_url() : false ),
				'logger'    => $logger ?? static function ( string $level, string $message ): void {
					Log::write( $level, $message );
				},
			)
		);
	}
}

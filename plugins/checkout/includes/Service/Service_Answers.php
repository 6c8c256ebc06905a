<?php
/**
 * What checkout pages show from the service (its countries, the BTC price
 * of the store's currency), served from the last good answer and never
 * fetched on a page's time.
 *
 * - Each answer is one record in the options table every web server shares:
 *   the value, when it was answered, the settings it was asked with, and when
 *   it may be asked again (next: the answer's lifetime after a good answer;
 *   the Retry-After of a 429 or 5xx, or a short wait after any other failure).
 * - read() gives the last good answer whatever its age (null: never
 *   answered). A record that is due is refreshed after the page's answer is
 *   sent (PHP-FPM, LiteSpeed: fastcgi_finish_request), by one request at a
 *   time across web servers (a database lock, not waited for), else by one
 *   queued Action Scheduler action; exactly as Service_Health's check.
 * - A failure keeps the last good answer; a 429 or 5xx is recorded like an
 *   answer: nobody asks again before its Retry-After.
 *
 * A store that has no answer yet shows the checkout without them: the
 * method offered in every billing country, no "about … BTC" line
 * (docs/decisions.md, "Checkout: pages never wait on the service").
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Service;

use Card2Crypto\Checkout\Base\After_Answer;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Partner\Service_Door;
use Card2Crypto\Checkout\Rules\Payment_Match;
use Card2Crypto\Checkout\Rules\Service_Lanes;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Service_Answers implements Hooks {

	/** The service's countries: alpha-2 codes. */
	const COUNTRIES = 'countries';

	/** The exchange prices to BTC: [from amount, to amount] by fiat currency code. */
	const PRICES = 'prices';

	/** Seconds a good answer is served before it is asked again. */
	const LIFETIME = array(
		self::COUNTRIES => 43200,
		self::PRICES    => 60,
	);

	/** Seconds before asking again after a failure that gave no Retry-After. */
	const FAILED_WAIT = array(
		self::COUNTRIES => 300,
		self::PRICES    => 60,
	);

	/** The longest Retry-After taken (seconds). */
	const MAX_WAIT = 3600;

	/** Each answer's option: this prefix and its kind. */
	const OPTION = 'card2crypto_checkout_answer_';

	/** The queued refresh where the answer cannot be sent first (Action Scheduler). */
	const HOOK = 'card2crypto_checkout_refresh_answers';

	/** The database lock of the one request that refreshes (per site: Shared_Store->lock_name()). */
	const LOCK = 'card2crypto_checkout_answers';

	/** The answers kept before these records (read once as a last good answer, then replaced). */
	const OLD_COUNTRIES = 'card2crypto_checkout_countries_last';

	/** @var array<string, true> Kinds this request refreshes after its answer. */
	private $due = array();

	/** @var Service_Door */
	private $gateway;

	/** @var Service_Health */
	private $health;

	/** @var After_Answer */
	private $after;

	public function __construct( Service_Door $gateway, Service_Health $health, After_Answer $after ) {
		$this->gateway = $gateway;
		$this->health  = $health;
		$this->after   = $after;
	}

	public function register(): void {
		add_action( self::HOOK, array( $this, 'queued_refresh' ) );
	}

	/** The queued refresh (Action Scheduler): every kind that is due. */
	public function queued_refresh(): void {
		foreach ( array_keys( self::LIFETIME ) as $kind ) {
			$this->refresh_if_due( $kind );
		}
	}

	/** @return array{value?: mixed, at?: int, key?: string, asked?: int, next?: int, status?: string}|null */
	public function record( string $kind ): ?array {
		$record = get_option( self::OPTION . $kind, null );
		return is_array( $record ) ? $record : null;
	}

	/**
	 * The last good answer of $kind, whatever its age; null when the service
	 * never answered. Never asks the service: a due record is refreshed after
	 * this request's answer, or by one queued action.
	 *
	 * @return mixed
	 */
	public function read( string $kind, ?int $now = null ) {
		$record = $this->record( $kind );
		if ( $this->due( $record, $this->health->fingerprint(), $now ?? time() ) ) {
			$this->refresh_later( $kind );
		}
		if ( null !== $record && array_key_exists( 'value', $record ) && null !== $record['value'] ) {
			return $record['value'];
		}
		if ( self::COUNTRIES === $kind ) {
			// The list kept before these records, until the first refresh.
			$old = get_option( self::OLD_COUNTRIES );
			return is_array( $old ) ? $old : null;
		}
		return null;
	}

	/**
	 * Whether a record is to be asked again: none, asked with other settings,
	 * its time to ask again come, or times from the future (a clock moved back). Pure.
	 *
	 * @param array|null $record The stored record.
	 */
	public function due( $record, string $fingerprint, int $now ): bool {
		if ( ! is_array( $record ) || ( $record['key'] ?? '' ) !== $fingerprint || ! isset( $record['next'], $record['asked'] ) ) {
			return true;
		}
		return $now >= (int) $record['next'] || $now < (int) $record['asked'] || (int) $record['next'] - $now > self::MAX_WAIT + self::LIFETIME[ self::COUNTRIES ];
	}

	/**
	 * Asks the service for $kind when its record is still due (another
	 * request may have asked meanwhile) and records the answer. The refresh
	 * after an answer, the queued action and tests call it.
	 */
	public function refresh_if_due( string $kind ): void {
		$config = $this->gateway->config();
		if ( ! $config->credentials()->complete() || ! isset( self::LIFETIME[ $kind ] ) ) {
			return;
		}
		$this->forget_loaded( $kind );
		if ( $this->due( $this->record( $kind ), $this->health->fingerprint(), time() ) ) {
			$this->refresh( $kind );
		}
	}

	/**
	 * Asks the service for $kind now, in the gateway's info lane (through the
	 * store-wide bucket: a request it keeps back is a 429 like the service's),
	 * and records what it said (a failure keeps the last good answer).
	 */
	public function refresh( string $kind ): void {
		$now    = time();
		$record = $this->record( $kind ) ?? array();
		$record = array(
			'value' => $record['value'] ?? null,
			'at'    => (int) ( $record['at'] ?? 0 ),
			'key'   => $this->health->fingerprint(),
			'asked' => $now,
		);
		try {
			$record['value']  = self::COUNTRIES === $kind ? $this->ask_countries() : $this->ask_prices();
			$record['at']     = $now;
			$record['next']   = $now + self::LIFETIME[ $kind ];
			$record['status'] = 'ok';
			// A signed answer, its signature checked: the service accepts the store (no health check of its own this minute).
			$this->health->answered( $now );
		} catch ( \Throwable $e ) {
			$busy             = $this->health->busy_wait( $e );
			$record['next']   = $now + ( $busy ?? self::FAILED_WAIT[ $kind ] );
			$record['status'] = null !== $busy ? 'busy' : 'failed';
			Log::warning( sprintf( 'The service\'s %s could not be fetched (the last answer is kept; asked again in %d s): %s', $kind, $record['next'] - $now, $e->getMessage() ) );
			// A refusal of the store itself withdraws the method at once.
			$this->health->saw( $e );
		}
		update_option( self::OPTION . $kind, $record, true );
	}

	/** @return string[] Alpha-2 codes. */
	private function ask_countries(): array {
		$codes = array();
		foreach ( $this->gateway->client( Service_Lanes::INFO )->countries() as $country ) {
			$codes[] = strtoupper( (string) $country['alpha2'] );
		}
		return $codes;
	}

	/** @return array<string, array{0: int, 1: int}> [fiat reference amount, satoshis it buys] by currency code. */
	private function ask_prices(): array {
		$pairs = array();
		foreach ( $this->gateway->client( Service_Lanes::INFO )->exchange() as $pair ) {
			if ( Payment_Match::ASSET_BTC === ( $pair['to']['code'] ?? '' ) ) {
				$pairs[ (string) $pair['from']['code'] ] = array( (int) $pair['from']['amount'], (int) $pair['to']['amount'] );
			}
		}
		return $pairs;
	}

	/**
	 * Refreshes $kind without holding anyone's page: after this request's
	 * answer where the server can send it first, else one queued action.
	 */
	private function refresh_later( string $kind ): void {
		if ( ! $this->gateway->config()->credentials()->complete() ) {
			return;
		}
		$this->due[ $kind ] = true;
		$later = $this->after->later(
			self::LOCK,
			function (): void {
				$this->refresh_due();
			},
			'The refresh of the service\'s answers after the page'
		);
		if ( ! $later ) {
			// Never in the way of a page: the next view queues it again.
			$this->health->queue_once( self::HOOK, 'debug', 'The refresh of the service\'s answers could not be queued' );
		}
	}

	/** Refreshes each kind this request found due, if still due. */
	private function refresh_due(): void {
		try {
			foreach ( array_keys( $this->due ) as $kind ) {
				$this->refresh_if_due( $kind );
			}
		} finally {
			$this->due = array();
		}
	}

	/** Forgets this request's copy of the record: another request may have refreshed it. */
	private function forget_loaded( string $kind ): void {
		wp_cache_delete( 'alloptions', 'options' );
		wp_cache_delete( 'notoptions', 'options' );
		wp_cache_delete( self::OPTION . $kind, 'options' );
	}
}

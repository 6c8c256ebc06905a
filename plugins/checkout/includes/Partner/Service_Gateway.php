<?php
/**
 * The one door to the service: every request of the store to the partner
 * API is sent by a client this object makes (client()), in a lane
 * (Rules\Service_Lanes), and first takes a token of the store-wide bucket
 * kept in the database every web server and PHP worker shares (one options
 * row, changed by compare-and-swap: no lock is held while anyone waits).
 *
 * - The bucket holds the administrator's "Service requests a second" and
 *   refills at that rate; each lane leaves its share to the lanes before it
 *   (callback confirmations and buyers in the middle of paying first,
 *   background work last).
 * - A lane waits for a token at most Service_Lanes::WAITS_MS in one PHP
 *   request (a buyer is answered within a second); pages and background
 *   work never wait: their request is answered as a 429 with Retry-After
 *   (Lane_Transport), which their callers already handle.
 * - A 429 of the service pauses every lane of the store until its
 *   Retry-After has passed.
 *
 * Plugin::build() makes one and passes it in wherever the service is asked,
 * typed as the Service_Door it implements (a test passes a door of its own);
 * with_config() gives the settings page's check of unsaved values a door
 * of its own settings over the same bucket.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Partner;

use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Deadline_Transport;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Request_Deadline;
use Card2Crypto\Checkout\Rules\Service_Lanes;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Client;
use Card2Crypto\Checkout\Shared\Api\Wp_Http_Transport;

defined( 'ABSPATH' ) || exit;

final class Service_Gateway implements Service_Door {

	/** The options row that holds the bucket (autoload off; read and written with SQL of our own, never cached). */
	const BUCKET_OPTION = 'card2crypto_checkout_service_bucket';

	/** Compare-and-swap turns one take may lose to other requests before it gives up (as an empty bucket). */
	const SWAP_TRIES = 8;

	/** @var Config */
	private $config;

	/** @var Request_Deadline This request's time on the service, shared by its visitors' clients. */
	private $deadline;

	/** @var int Milliseconds this PHP request has waited for tokens (every lane's waits together). */
	private $waited_ms = 0;

	/** @var callable(): int Milliseconds since the epoch. */
	private $clock;

	/** @var callable(int): void Waits that many milliseconds. */
	private $sleep;

	/**
	 * @param callable|null $clock fn(): int ms since the epoch; default the system clock.
	 * @param callable|null $sleep fn(int $ms): void; default usleep().
	 */
	public function __construct( Config $config, Request_Deadline $deadline, ?callable $clock = null, ?callable $sleep = null ) {
		$this->config   = $config;
		$this->deadline = $deadline;
		$this->clock    = $clock ?? static function (): int {
			return (int) floor( microtime( true ) * 1000 );
		};
		$this->sleep    = $sleep ?? static function ( int $ms ): void {
			usleep( $ms * 1000 );
		};
	}

	/** The settings the clients are made from. */
	public function config(): Config {
		return $this->config;
	}

	/** A door for other settings (the settings page's check of values not saved yet), over the same store-wide bucket. */
	public function with_config( Config $config ): Service_Door {
		return new self( $config, $this->deadline, $this->clock, $this->sleep );
	}

	/**
	 * A client whose every request travels in $lane.
	 *
	 * @param string        $lane   A Service_Lanes lane.
	 * @param callable|null $logger fn(string $level, string $message) for the client's own lines; default Log::write().
	 * @param callable|null $wrap   fn(Http_Transport): Http_Transport around the door (reconciliation's own pacing).
	 * @throws \InvalidArgumentException When the credentials or address are unusable.
	 */
	public function client( string $lane, ?callable $logger = null, ?callable $wrap = null ): Partner_Api_Client {
		$config      = $this->config;
		$credentials = $config->credentials();
		// wp_safe_remote_post(); only the sandbox environment may reach this computer, and there only its own API address.
		$lane = Service_Lanes::lane( $lane );
		$wire = new Wp_Http_Transport( 'sandbox' === $config->environment() ? $config->base_url() : false );
		if ( Service_Lanes::for_visitors( $lane ) ) {
			// Each call within what remains of a visitor request's time on the service (Request_Deadline), the wait for a token included.
			$wire = new Deadline_Transport( $wire, $this->deadline );
		}
		$transport = new Lane_Transport(
			$wire,
			function () use ( $lane ): ?int {
				return $this->admit( $lane );
			},
			function ( ?int $retry_after ): void {
				$this->pause( $retry_after );
			}
		);
		return new Partner_Api_Client(
			$config->base_url(),
			$credentials->token(),
			$credentials->secret(),
			array(
				// Short: a buyer waits on it. A visitor request's calls also share one deadline (Request_Deadline, Start_Budget::TIME_BUDGET).
				'timeout'   => 3.0,
				'transport' => null === $wrap ? $transport : $wrap( $transport ),
				'logger'    => static function ( string $level, string $message ) use ( $logger ): void {
					if ( false !== strpos( $message, Lane_Transport::KEPT_BACK_TEXT ) ) {
						// A request the store kept back is no error of the service's: a flood must not fill the log (admit() says it in debug).
						Log::debug( $message );
						return;
					}
					if ( null !== $logger ) {
						$logger( $level, $message );
						return;
					}
					Log::write( $level, $message );
				},
			)
		);
	}

	/**
	 * One request of $lane may leave: null once it took its token (after
	 * waiting, within the lane's wait, when the bucket refills soon enough),
	 * else the whole seconds until it could.
	 */
	public function admit( string $lane ): ?int {
		$lane  = Service_Lanes::lane( $lane );
		$rate  = $this->rate();
		$limit = Service_Lanes::WAITS_MS[ $lane ];
		while ( true ) {
			$taken = $this->swap(
				static function ( $state, int $now ) use ( $lane, $rate ): array {
					return Service_Lanes::take( $state, $lane, $rate, $now );
				}
			);
			if ( null === $taken ) {
				// Others kept winning the swap: the bucket is as good as empty for this request.
				$taken = array(
					'ok'      => false,
					'wait_ms' => 1000,
				);
			}
			if ( $taken['ok'] ) {
				return null;
			}
			if ( $this->waited_ms + $taken['wait_ms'] > $limit ) {
				Log::debug( sprintf( 'Service gateway: a %s request was kept back (%d ms to wait).', $lane, $taken['wait_ms'] ) );
				return Service_Lanes::retry_seconds( $taken['wait_ms'] );
			}
			( $this->sleep )( $taken['wait_ms'] );
			$this->waited_ms += $taken['wait_ms'];
		}
	}

	/** The service answered 429: every lane of the store waits $retry_after seconds (at least 1). */
	public function pause( ?int $retry_after ): void {
		$rate = $this->rate();
		$this->swap(
			static function ( $state, int $now ) use ( $retry_after, $rate ): array {
				return array( 'state' => Service_Lanes::pause( $state, $retry_after, $rate, $now ) );
			}
		);
		Log::warning( sprintf( 'The service asked the store to slow down (429): every request to it waits %d s.', null === $retry_after ? 1 : $retry_after ) );
	}

	/** Milliseconds until the store may ask the service again after a 429 (0: not paused). */
	public function paused_ms(): int {
		$now   = ( $this->clock )();
		$state = Service_Lanes::normal( $this->read()['state'], $this->rate(), $now );
		return max( 0, $state['paused_until'] - $now );
	}

	/** The store-wide requests a second. */
	public function rate(): int {
		return $this->config->service_rate();
	}

	/**
	 * Reads the bucket, lets $change compute the next one and writes it only
	 * if no one wrote since it was read; again on a lost race.
	 *
	 * @param callable(mixed, int): array{state: array} $change
	 * @return array|null What $change returned, or null when every try lost.
	 */
	private function swap( callable $change ): ?array {
		global $wpdb;
		for ( $try = 0; $try < self::SWAP_TRIES; $try++ ) {
			$read   = $this->read();
			$result = $change( $read['state'], ( $this->clock )() );
			$next   = (string) wp_json_encode( $result['state'] );
			if ( false === ( $result['ok'] ?? true ) || $next === $read['raw'] ) {
				// Nothing taken, or nothing changed: nothing to write.
				return $result;
			}
			if ( null === $read['raw'] ) {
				// Portable (MariaDB, MySQL, SQLite): the row made if missing; only one request makes it.
				$done = $wpdb->query( $wpdb->prepare( 'INSERT IGNORE INTO %i (option_name, option_value, autoload) VALUES (%s, %s, %s)', $wpdb->options, self::BUCKET_OPTION, $next, 'no' ) ); // phpcs:ignore WordPress.DB
			} else {
				$done = $wpdb->query( $wpdb->prepare( 'UPDATE %i SET option_value = %s WHERE option_name = %s AND option_value = %s', $wpdb->options, $next, self::BUCKET_OPTION, $read['raw'] ) ); // phpcs:ignore WordPress.DB
			}
			if ( false === $done ) {
				// The database refused the write: the request goes on as if the bucket allowed it (the service still limits).
				Log::warning( 'Service gateway: the store-wide request budget could not be written; the request is sent anyway.' );
				return $result;
			}
			if ( $done > 0 ) {
				return $result;
			}
		}
		return null;
	}

	/** @return array{raw: string|null, state: mixed} The stored row's text (null: no row) and what it holds. */
	private function read(): array {
		global $wpdb;
		$raw = $wpdb->get_var( $wpdb->prepare( 'SELECT option_value FROM %i WHERE option_name = %s', $wpdb->options, self::BUCKET_OPTION ) ); // phpcs:ignore WordPress.DB
		return array(
			'raw'   => null === $raw ? null : (string) $raw,
			'state' => null === $raw ? null : json_decode( (string) $raw, true ),
		);
	}
}

<?php
/**
 * Whether the service accepts this store, kept as one cached state (an
 * option: ok or refused, with the owner's reason, the time and the
 * credentials it was found with), so that a service that refuses the store
 * (blocked partner, wrong secret or token, unreachable address) withdraws
 * the payment method instead of sending buyers to a dead end.
 *
 * - Checkout pages only read the state. When it is older than its lifetime
 *   (ok: 5 minutes, refused: 1 minute) the page keeps the previous answer
 *   and the service is asked once (a signed params request, ask()) without
 *   holding anyone's page: under PHP-FPM or LiteSpeed by
 *   the same request after its answer is sent (one request at a time, a
 *   database lock shared by every web server), elsewhere by an Action
 *   Scheduler action. So the method comes back on its own, within a minute
 *   of the next visit, once the service accepts the store, even where
 *   WP-Cron's loopback requests never arrive.
 * - A real request (landing route, widget settings, fixed rate,
 *   reconciliation) whose refusal means the store itself is refused (wrong
 *   signature, blocked or unknown partner) marks the state refused at once.
 *   A per-operation error (400, 429, 500) never does.
 * - A check answered 429 or 5xx keeps the last answer and records when it
 *   may ask again (retry_at: the Retry-After, else a minute): until then
 *   nobody asks, neither pages nor payment starts, as after an answer.
 * - Before the buyer is sent to the service (landing route, widget
 *   settings) one real signed request is made: the fixed rate's calculate
 *   when the owner fixes rates (no params check before it: one request's
 *   time on the service is one budget, Request_Deadline), else a fresh
 *   params check.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Service;

use Card2Crypto\Checkout\Attempts\Service_Refused;
use Card2Crypto\Checkout\Base\After_Answer;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Other_Methods;
use Card2Crypto\Checkout\Base\Request_Deadline;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Partner\Service_Door;
use Card2Crypto\Checkout\Rules\Service_Lanes;
use Card2Crypto\Checkout\Shared\Api\Connection_Refusal;
use Card2Crypto\Checkout\Shared\Api\Credentials_Answer;
use Card2Crypto\Checkout\Shared\Api\Credentials_Check;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Exception;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Service_Health implements Hooks {

	const OPTION  = 'card2crypto_checkout_service_health';
	const OK      = 'ok';
	const REFUSED = 'refused';
	const STALE   = 'stale';
	/** Stored only: the service answered 429 or 5xx before any answer about the store (the method stays offered). */
	const BUSY = 'busy';

	/** Seconds a check answered 429 or 5xx without Retry-After waits before asking again. */
	const BUSY_WAIT = 60;

	/** The longest Retry-After taken (seconds); a longer one is taken as this. */
	const MAX_BUSY_WAIT = 3600;

	/** Seconds an accepted state is trusted before checkout pages ask again. */
	const LIFETIME_OK = 300;
	/** Seconds a refused state is trusted: then the service is asked again, so the method comes back on its own. */
	const LIFETIME_REFUSED = 60;
	/**
	 * Seconds an acceptance stands when a buyer presses "Place order" or
	 * "Pay" (Start_Gate): older, the service is asked first. Two minutes:
	 * every signed answer renews it (answered(): the price refresh each
	 * minute, each fixed rate), so a store taking orders a minute apart asks
	 * nothing of its own; a refusal met by any request withdraws the method
	 * at once (saw()), and the landing's own signed request tells the buyer
	 * of one that began since.
	 */
	const CHECKOUT_AGE = 120;

	/** Seconds an acceptance recorded from a real answer (answered()) stands before another answer writes it again. */
	const ANSWER_WRITE_AGE = 30;

	/** The background check's Action Scheduler hook and group. */
	const HOOK  = 'card2crypto_checkout_health_check';
	const GROUP = 'card2crypto-checkout';

	/**
	 * Fired when the service accepts the store again after refusing it
	 * (Outage_Pay_Links mails the buyers who were told their order is kept).
	 *
	 * @since 0.1.0
	 */
	const CAME_BACK = 'card2crypto_checkout_service_came_back';

	/**
	 * Fired when the service starts refusing the store (Refusal_Mail e-mails the owner).
	 *
	 * @since 0.1.0
	 *
	 * @param string $reason Why, in the owner's words.
	 */
	const WENT_AWAY = 'card2crypto_checkout_service_refused';

	/** The database lock held by the one request that asks (per site: Shared_Store->when_free()). */
	const LOCK = 'card2crypto_checkout_health';

	/** @var Service_Door */
	private $gateway;

	/** @var After_Answer */
	private $after;

	/** @var Request_Deadline */
	private $deadline;

	/** @var Shared_Store */
	private $shared;

	public function __construct( Service_Door $gateway, After_Answer $after, Request_Deadline $deadline, Shared_Store $shared ) {
		$this->gateway  = $gateway;
		$this->after    = $after;
		$this->deadline = $deadline;
		$this->shared   = $shared;
	}

	public function register(): void {
		add_action( self::HOOK, array( $this, 'queued_check' ) );
	}

	/** The queued check (Action Scheduler). */
	public function queued_check(): void {
		$this->run_check();
	}

	/**
	 * The same checks for other settings (the settings page's check of
	 * values not saved yet): a health over the gateway's door for them.
	 */
	public function with_config( Config $config ): self {
		return $this->for_gateway( $this->gateway->with_config( $config ) );
	}

	/** The same checks through another door (Service_Gateway::with_config()): this health for its own. */
	public function for_gateway( Service_Door $gateway ): self {
		return $gateway === $this->gateway ? $this : new self( $gateway, $this->after, $this->deadline, $this->shared );
	}

	/** The credentials and address of this health's settings, as a state records them (the status check's cache key too). */
	public function fingerprint(): string {
		$config = $this->gateway->config();
		return md5( $config->base_url() . "\n" . $config->credentials()->fingerprint() );
	}

	/**
	 * What a stored state says now: ok, refused, or stale (none, other
	 * credentials, older than its lifetime, or from the future).
	 *
	 * @param array|null $state  The stored state.
	 * @param int|null   $ok_age Seconds an accepted state is trusted (LIFETIME_OK by default; 0: ask again).
	 */
	public function decide( $state, string $fingerprint, int $now, ?int $ok_age = null ): string {
		if ( ! is_array( $state ) || ( $state['key'] ?? '' ) !== $fingerprint || ! isset( $state['state'], $state['at'] ) ) {
			return self::STALE;
		}
		$refused = self::REFUSED === $state['state'];
		// The service answered 429 or 5xx: the last answer stands until it may be asked again.
		$retry_at = (int) ( $state['retry_at'] ?? 0 );
		if ( $now < $retry_at && $retry_at - $now <= self::MAX_BUSY_WAIT ) {
			return $refused ? self::REFUSED : self::OK;
		}
		if ( self::BUSY === $state['state'] ) {
			return self::STALE;
		}
		$age  = $now - (int) $state['at'];
		$life = $refused ? self::LIFETIME_REFUSED : ( $ok_age ?? self::LIFETIME_OK );
		if ( $age < 0 || $age >= $life ) {
			return self::STALE;
		}
		return $refused ? self::REFUSED : self::OK;
	}

	/** @return array{state?: string, reason?: string, at?: int, key?: string}|null */
	public function state(): ?array {
		$state = get_option( self::OPTION, null );
		return is_array( $state ) ? $state : null;
	}

	/**
	 * Whether the method may be offered: from the cached state, never asking
	 * the service on the page's time. A stale state queues a background
	 * check and keeps its answer meanwhile (none yet: offered). A store
	 * without credentials is not this class's concern (the settings checks
	 * withdraw it).
	 */
	public function available( ?int $now = null ): bool {
		$config = $this->gateway->config();
		if ( ! $config->credentials()->complete() ) {
			return true;
		}
		$key   = $this->fingerprint();
		$state = $this->state();
		if ( self::STALE === $this->decide( $state, $key, $now ?? time() ) ) {
			$this->check_later();
		}
		return ! ( null !== $state && ( $state['key'] ?? '' ) === $key && self::REFUSED === ( $state['state'] ?? '' ) );
	}

	/**
	 * Asks the service once, never on a page's time: after this request's
	 * answer where the server can send it first (PHP-FPM, LiteSpeed), else
	 * one queued Action Scheduler check (at most one waits at a time; without
	 * Action Scheduler, WooCommerce not loaded, there is no checkout to
	 * protect, so nothing is asked).
	 */
	private function check_later(): void {
		$later = $this->after->later(
			self::LOCK,
			function (): void {
				$this->after_answer();
			},
			'The service check after the answer'
		);
		if ( ! $later ) {
			// Never in the way of a page: the next view queues it again.
			$this->queue_once( self::HOOK, 'debug', 'The service check could not be queued' );
		}
	}

	private function after_answer(): void {
		// Another request may have asked while this one ran: its answer is in the database, not in this request's options.
		// The options are read again (the autoloaded set is cached per request); run_check() asks only while still stale.
		$this->forget_loaded();
		$this->run_check();
	}

	/**
	 * The verdict a background job acts on (Outage_Pay_Links mails buyers a pay
	 * link when it is OK): the state as stored now, never the copy this
	 * request loaded with its options (an Action Scheduler runner loads them
	 * once and may run the job after another request saw the service accept
	 * the store), and asked again when that state is stale, exactly as the
	 * background check asks: once per state lifetime (a refusal found less
	 * than a minute ago stands), under the check's own lock. OK, REFUSED, or
	 * STALE when it cannot be told now (another request is asking at this
	 * moment, the answer said nothing about the store, no credentials).
	 */
	public function fresh_verdict(): string {
		$config = $this->gateway->config();
		if ( ! $config->credentials()->complete() ) {
			return self::STALE;
		}
		$key = $this->fingerprint();
		$this->forget_loaded();
		$decision = $this->decide( $this->state(), $key, time() );
		if ( self::STALE !== $decision ) {
			// Only an answer about the store tells that it is accepted (a 429 before any answer tells nothing).
			return self::OK === $decision && self::BUSY === ( $this->state()['state'] ?? '' ) ? self::STALE : $decision;
		}
		$asked = $this->shared->when_free(
			self::LOCK,
			function (): void {
				// Asked meanwhile by the request that held the lock? run_check() asks only while still stale.
				$this->forget_loaded();
				$this->run_check();
			}
		);
		if ( ! $asked ) {
			return self::STALE; // Another request is asking right now: its answer is for the job's next run.
		}
		$this->forget_loaded();
		$decision = $this->decide( $this->state(), $key, time() );
		return self::OK === $decision && self::BUSY === ( $this->state()['state'] ?? '' ) ? self::STALE : $decision;
	}

	/** Forgets the options this request loaded, so that the state is read from the database again. */
	private function forget_loaded(): void {
		wp_cache_delete( 'alloptions', 'options' );
		wp_cache_delete( 'notoptions', 'options' );
		wp_cache_delete( self::OPTION, 'options' );
	}

	/**
	 * Queues one Action Scheduler async action of $hook unless one already
	 * waits; nothing without Action Scheduler. A failure is logged at $level.
	 */
	public function queue_once( string $hook, string $level, string $failure ): void {
		if ( ! function_exists( 'as_enqueue_async_action' ) || ! function_exists( 'as_has_scheduled_action' ) ) {
			return;
		}
		try {
			if ( ! as_has_scheduled_action( $hook, array(), self::GROUP ) ) {
				as_enqueue_async_action( $hook, array(), self::GROUP );
			}
		} catch ( \Throwable $e ) {
			Log::write( $level, $failure . ': ' . $e->getMessage() );
		}
	}

	/**
	 * The background check (Action Scheduler, or after a page's answer):
	 * asks the service when the state is still stale (another request or a
	 * payment start may have asked meanwhile).
	 */
	public function run_check(): void {
		$config = $this->gateway->config();
		if ( ! $config->credentials()->complete() ) {
			return;
		}
		if ( self::STALE === $this->decide( $this->state(), $this->fingerprint(), time() ) ) {
			$this->ask( Service_Lanes::INFO );
		}
	}

	/**
	 * Before a payment starts: true when the service accepts the store,
	 * asking it when the state is older than $ok_age (a refused state within
	 * its lifetime is not asked again).
	 */
	public function confirm( int $ok_age, ?int $now = null ): bool {
		return self::REFUSED !== $this->current( $now ?? time(), $ok_age );
	}

	/**
	 * Before the buyer is sent to the service (landing route, widget
	 * settings): one real signed request. The fixed rate's calculate is that
	 * request when rates are fixed (Payment_Flows::fixed_rate() reports its
	 * refusal); else a fresh params check.
	 *
	 * @throws Service_Refused When the service refuses the store.
	 */
	public function before_sending(): void {
		$config = $this->gateway->config();
		if ( $config->fix_rate() ) {
			// Calculate is the request: only a refusal found within its lifetime stops the buyer here, nothing is asked.
			if ( self::REFUSED === $this->decide( $this->state(), $this->fingerprint(), time() ) ) {
				throw new Service_Refused( $this->buyer_message() );
			}
			return;
		}
		if ( ! $this->confirm( 0 ) ) {
			throw new Service_Refused( $this->buyer_message() );
		}
	}

	/** The state now, asking the service when it is stale. */
	private function current( int $now, ?int $ok_age ): string {
		$key      = $this->fingerprint();
		$state    = $this->state();
		$decision = $this->decide( $state, $key, $now, $ok_age );
		if ( self::STALE !== $decision ) {
			return $decision;
		}
		if ( null !== $state && ( $state['key'] ?? '' ) === $key && isset( $state['state'] ) && self::BUSY !== $state['state'] ) {
			// Other requests keep the previous answer while this one asks.
			$state['at'] = $now;
			$this->write( $state );
		}
		// A fresh signed params request (a buyer is starting to pay); its answer is recorded.
		$this->ask( Service_Lanes::START );
		$after = $this->state();
		// An answer that says nothing about the store (a 429 or 500) leaves the previous answer, or the method offered.
		return null !== $after && ( $after['key'] ?? '' ) === $key && self::REFUSED === ( $after['state'] ?? '' ) ? self::REFUSED : self::OK;
	}

	/**
	 * Asks the service with a signed params request (the shared
	 * Credentials_Check, the widget's too) and records its answer
	 * (record_check()): the background check, a payment start, and the
	 * settings page's status check (Settings_Status) all ask through here.
	 *
	 * @param string $lane   The service gateway's lane (Service_Lanes) the request travels in.
	 * @param bool   $record Record the answer as the store's state (not for credentials a save may yet refuse).
	 * @return Credentials_Answer The partner's fee, or why the request failed.
	 */
	public function ask( string $lane, bool $record = true ): Credentials_Answer {
		try {
			$answer = ( new Credentials_Check() )->ask( $this->gateway->client( $lane ) );
		} catch ( \InvalidArgumentException $e ) {
			// Settings that cannot call the service.
			$answer = Credentials_Answer::refused( $e, time() );
		}
		if ( $record ) {
			$this->record_check( $answer->error() );
		}
		return $answer;
	}

	/** The settings page's cached status check for this health's credentials and address (Settings_Status). */
	public function status_cache_key(): string {
		return 'card2crypto_checkout_status_' . $this->fingerprint();
	}

	/**
	 * Records what a params check found (ask()): accepted,
	 * or refused when the service refuses the store or cannot be reached.
	 * A 429 or 5xx keeps the last answer and the time it may be asked again
	 * (busy()). Other errors leave the state as it was.
	 */
	public function record_check( ?\Throwable $error, ?int $now = null ): void {
		if ( null === $error ) {
			$this->record( self::OK, '', $now );
		} elseif ( $this->refuses_store( $error ) || $this->unreachable( $error ) ) {
			$this->record( self::REFUSED, Connection_Refusal::of( $error )['why'], $now );
		} elseif ( null !== $this->busy_wait( $error ) ) {
			$this->busy( (int) $this->busy_wait( $error ), $now ?? time() );
		}
	}

	/**
	 * Seconds not to ask again after $error when it is a 429 or a 5xx: its
	 * Retry-After (1 s to MAX_BUSY_WAIT), else BUSY_WAIT; null for any other
	 * error. Pure.
	 */
	public function busy_wait( \Throwable $error ): ?int {
		if ( ! $error instanceof Partner_Api_Exception || Partner_Api_Exception::HTTP !== $error->kind || ( 429 !== $error->status && $error->status < 500 ) ) {
			return null;
		}
		return null === $error->retry_after ? self::BUSY_WAIT : max( 1, min( self::MAX_BUSY_WAIT, (int) $error->retry_after ) );
	}

	/** The service answered 429 or 5xx: the last answer stands (none: BUSY) and nobody asks for $wait seconds. */
	private function busy( int $wait, int $now ): void {
		$key      = $this->fingerprint();
		$previous = $this->state();
		$state    = null !== $previous && ( $previous['key'] ?? '' ) === $key && isset( $previous['state'], $previous['at'] )
			? $previous
			: array(
				'state'  => self::BUSY,
				'reason' => '',
				'at'     => $now,
				'key'    => $key,
			);
		$state['retry_at'] = $now + $wait;
		$this->write( $state );
	}

	/**
	 * A real request failed: when the failure means the service refuses the
	 * store, the state is marked refused at once. True when it was.
	 */
	public function saw( \Throwable $error, ?int $now = null ): bool {
		if ( ! $this->refuses_store( $error ) ) {
			return false;
		}
		$this->record( self::REFUSED, Connection_Refusal::of( $error )['why'], $now );
		// The status box asks again rather than showing a cached "Connected".
		delete_transient( $this->status_cache_key() );
		return true;
	}

	/**
	 * A signed request of the store (a price refresh, a fixed rate) was
	 * answered and its answer's signature checked: the service accepts the
	 * store now, as a params check would have said, so the state is recorded
	 * accepted and no check of its own is spent on the order's minute
	 * (issue 33: at most two service calls per order). Written only when the
	 * stored state is not an acceptance of these credentials younger than
	 * ANSWER_WRITE_AGE (one write a minute at most under traffic).
	 */
	public function answered( ?int $now = null ): void {
		$now   = $now ?? time();
		$state = $this->state();
		if ( null !== $state && ( $state['key'] ?? '' ) === $this->fingerprint() && self::OK === ( $state['state'] ?? '' )
			&& $now >= (int) ( $state['at'] ?? 0 ) && $now - (int) $state['at'] < self::ANSWER_WRITE_AGE ) {
			return;
		}
		$this->record( self::OK, '', $now );
	}

	/** Wrong signature, blocked or unknown partner, or an answer not signed with our secret. */
	public function refuses_store( \Throwable $error ): bool {
		if ( ! $error instanceof Partner_Api_Exception ) {
			return false;
		}
		return Partner_Api_Exception::BAD_SIGNATURE === $error->kind
			|| ( Partner_Api_Exception::HTTP === $error->kind && in_array( $error->status, array( 401, 403, 404 ), true ) );
	}

	/**
	 * No answer, or not the service's answer, or settings that cannot call
	 * it. A timeout of this request's own deadline ($this->deadline->cut():
	 * the call was not sent, or had less than the client's timeout) is not.
	 */
	public function unreachable( \Throwable $error ): bool {
		if ( ! $error instanceof Partner_Api_Exception ) {
			return true;
		}
		if ( Partner_Api_Exception::TIMEOUT === $error->kind && $this->deadline->cut() ) {
			return false;
		}
		return in_array( $error->kind, array( Partner_Api_Exception::NETWORK, Partner_Api_Exception::TIMEOUT, Partner_Api_Exception::INVALID_RESPONSE ), true );
	}

	private function record( string $state, string $reason, ?int $now ): void {
		$key      = $this->fingerprint();
		$previous = $this->state();
		$changed  = null === $previous || ( $previous['key'] ?? '' ) !== $key || ( $previous['state'] ?? '' ) !== $state;
		$this->write(
			array(
				'state'  => $state,
				'reason' => $reason,
				'at'     => $now ?? time(),
				// When the service first refused (kept while it still does), for the owner.
				'since'  => self::REFUSED === $state && ! $changed && isset( $previous['since'] ) ? (int) $previous['since'] : ( $now ?? time() ),
				'key'    => $key,
			)
		);
		if ( $changed && self::REFUSED === $state ) {
			Log::warning( 'The service refuses this store; card payment is withdrawn from the checkout until it accepts it again: ' . $reason );
			// The owner is e-mailed, once (Refusal_Mail).
			do_action( self::WENT_AWAY, $reason );
		} elseif ( $changed && null !== $previous && self::REFUSED === ( $previous['state'] ?? '' ) ) {
			Log::info( 'The service accepts this store again; card payment is offered again.' );
			// The status box no longer shows the refusal it cached.
			delete_transient( $this->status_cache_key() );
			// The buyers who were told so get their order's pay link (Outage_Pay_Links).
			do_action( self::CAME_BACK );
		}
	}

	private function write( array $state ): void {
		try {
			update_option( self::OPTION, $state, true );
		} catch ( \Throwable $e ) {
			// Never in the way of a page or a payment.
			unset( $e );
		}
	}

	/**
	 * What a buyer is told: plain words, never the service's message; "choose
	 * another payment method" only where the store offers one now.
	 *
	 * @param bool|null $others Whether another payment method is offered; null: asked (Other_Methods).
	 */
	public function buyer_message( ?bool $others = null ): string {
		return ( $others ?? Other_Methods::exist() )
			? __( 'Card payment is unavailable right now. Please choose another payment method.', 'card2crypto-checkout' )
			: __( 'Card payment is unavailable right now. Please try again later.', 'card2crypto-checkout' );
	}

	/**
	 * Whether the method is withdrawn because the service refuses the store
	 * (the cached state, as is_available() reads it), for a store whose
	 * method is otherwise on and set up: what the checkout says instead.
	 */
	public function withdrawn(): bool {
		return $this->gateway->config()->offers_payment() && ! $this->available();
	}

	/** The owner's line while the method is withdrawn for these settings, else null. */
	public function owner_line(): ?string {
		$state = $this->state();
		if ( null === $state || self::REFUSED !== ( $state['state'] ?? '' ) || ( $state['key'] ?? '' ) !== $this->fingerprint() ) {
			return null;
		}
		$format = get_option( 'date_format' ) . ' ' . get_option( 'time_format' );
		// The reason is a sentence of its own (it ends with its period, often after a bracket): never inside "(…)." here.
		return sprintf(
			/* translators: 1: date and time, 2: why the service refuses the store (a sentence, ending with its period) */
			__( 'Card payment is withdrawn from the checkout: the service refuses this store since %1$s. Why: %2$s The store asks again every minute and offers card payment again as soon as the service accepts it.', 'card2crypto-checkout' ),
			(string) wp_date( (string) $format, (int) ( $state['since'] ?? $state['at'] ?? time() ) ),
			(string) ( $state['reason'] ?? '' )
		);
	}
}

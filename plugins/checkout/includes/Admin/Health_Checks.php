<?php
/**
 * What an owner should know about the payment method's health, as facts
 * with a verdict (good, recommended, critical), plain words and the action
 * that fixes each: shown by Tools → Site Health and by WooCommerce's
 * system status report (Site_Health renders both from these).
 *
 * Nothing here calls the service: each check reads what the store already
 * knows (the service's last verdict on the store: Service_Health; the
 * callbacks' counts: Callback_Health; the clock offset the store measured
 * against the service's answers; Action Scheduler's queue; the settings),
 * and says when it was found.
 *
 * - credentials: whether the service accepts the store's token and secret.
 * - callbacks:   whether the service's callbacks reach the store lately.
 * - clock:       the store's clock within the service's window (a request's
 *                timestamp may be 30 s ahead of the service's time, 5 s behind).
 * - scheduler:   the plugin's background actions run (none long past due).
 * - https:       live payments (production) over HTTPS.
 * - math:        GMP or BCMath, with a new address for each order.
 * - gap:         the wallet's gap limit, with a new address for each order.
 * - proxy:       no forwarding header arriving while no client address
 *                header is set (every buyer would share the proxy's budget).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Admin;

use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Callback\Client_Address;
use Card2Crypto\Checkout\Payment\Order_Address;
use Card2Crypto\Checkout\Rules\Address_Policy;
use Card2Crypto\Checkout\Rules\Clock_Refusal;
use Card2Crypto\Checkout\Rules\Proxy_Words;
use Card2Crypto\Checkout\Rules\Wallet_Words;
use Card2Crypto\Checkout\Service\Callback_Health;
use Card2Crypto\Checkout\Service\Clock_Offset;
use Card2Crypto\Checkout\Service\Reconciler;
use Card2Crypto\Checkout\Service\Service_Health;
use Card2Crypto\Checkout\Settings\Settings_Status;
use Card2Crypto\Checkout\Shared\Btc\Bip32;

defined( 'ABSPATH' ) || exit;

final class Health_Checks {

	const GOOD        = 'good';
	const RECOMMENDED = 'recommended';
	const CRITICAL    = 'critical';

	/** How far a request's timestamp may be ahead of the service's time, and behind it (the spec), in ms. */
	const CLOCK_AHEAD_MS  = 30000;
	const CLOCK_BEHIND_MS = 5000;

	/** A background action this many seconds past due is late (recommended); LATE_CRITICAL: critical. */
	const LATE          = 600;
	const LATE_CRITICAL = 3600;

	/** @var Config */
	private $config;

	/** @var Order_Address */
	private $addresses;

	/** @var Operation_Store */
	private $operations;

	/** @var Service_Health */
	private $health;

	/** @var Callback_Health */
	private $callbacks;

	/** @var Clock_Offset */
	private $clock_offset;

	/** @var Settings_Status */
	private $status;

	/** @var Client_Address */
	private $client_address;

	public function __construct( Config $config, Order_Address $addresses, Operation_Store $operations, Service_Health $health, Callback_Health $callbacks, Clock_Offset $clock, Settings_Status $status, Client_Address $client_address ) {
		$this->config       = $config;
		$this->addresses    = $addresses;
		$this->operations   = $operations;
		$this->health       = $health;
		$this->callbacks    = $callbacks;
		$this->clock_offset = $clock;
		$this->status         = $status;
		$this->client_address = $client_address;
	}

	/**
	 * The checks that apply to this store: none while the payment method is
	 * off; the address checks only with a new address for each order.
	 *
	 * @return string[]
	 */
	public function ids(): array {
		if ( ! $this->config->enabled() ) {
			return array();
		}
		$ids = array( 'credentials', 'callbacks', 'clock', 'scheduler', 'https', 'proxy' );
		if ( $this->config->derives_addresses() ) {
			$ids[] = 'math';
			$ids[] = 'gap';
		}
		return $ids;
	}

	/** What a check looks at, in a few words (Site Health's test label, the status report's row). */
	public function name( string $id ): string {
		switch ( $id ) {
			case 'credentials':
				return __( 'Card2Crypto: credentials accepted by the service', 'card2crypto-checkout' );
			case 'callbacks':
				return __( 'Card2Crypto: callbacks reaching the store', 'card2crypto-checkout' );
			case 'clock':
				return __( 'Card2Crypto: the store\'s clock within the service\'s window', 'card2crypto-checkout' );
			case 'scheduler':
				return __( 'Card2Crypto: background jobs running', 'card2crypto-checkout' );
			case 'https':
				return __( 'Card2Crypto: HTTPS for live payments', 'card2crypto-checkout' );
			case 'math':
				return __( 'Card2Crypto: GMP or BCMath for new addresses', 'card2crypto-checkout' );
			case 'proxy':
				return __( 'Card2Crypto: each buyer\'s own address behind a proxy', 'card2crypto-checkout' );
			default:
				return __( 'Card2Crypto: the wallet\'s gap limit', 'card2crypto-checkout' );
		}
	}

	/**
	 * One check's result.
	 *
	 * @return array{status: string, label: string, description: string, actions: array<int, array{url: string, label: string}>, value: string}
	 *         label: the verdict in one line; description: why it matters and what was found;
	 *         actions: what fixes it (empty when good); value: the finding in a few words (status report).
	 */
	public function run( string $id, ?int $now = null ): array {
		$now = $now ?? time();
		switch ( $id ) {
			case 'credentials':
				return $this->credentials( $now );
			case 'callbacks':
				return $this->callbacks( $now );
			case 'clock':
				return $this->clock( $this->clock_offset->last(), $now );
			case 'scheduler':
				return $this->scheduler( $now );
			case 'https':
				return $this->https( $this->config->environment(), (string) home_url( '/' ) );
			case 'math':
				return $this->math( $this->config->derives_addresses(), Bip32::support() );
			case 'gap':
				return $this->gap();
			case 'proxy':
				return $this->proxy( $this->config->trust_proxy_header(), $this->client_address->forwarding_seen(), $now );
		}
		throw new \InvalidArgumentException( 'No such check: ' . $id );
	}

	/** The payment method's settings page. */
	public function settings_url(): string {
		return admin_url( 'admin.php?page=wc-settings&tab=checkout&section=' . Keys::GATEWAY_ID );
	}

	/** @return array{url: string, label: string} */
	private function settings_action(): array {
		return array(
			'url'   => $this->settings_url(),
			'label' => __( 'Open the Card2Crypto payment settings', 'card2crypto-checkout' ),
		);
	}

	/**
	 * @param array<int, array{url: string, label: string}> $actions
	 * @return array{status: string, label: string, description: string, actions: array<int, array{url: string, label: string}>, value: string}
	 */
	private function result( string $status, string $label, string $description, string $value, array $actions = array() ): array {
		return array(
			'status'      => $status,
			'label'       => $label,
			'description' => $description,
			'actions'     => self::GOOD === $status ? array() : $actions,
			'value'       => $value,
		);
	}

	/** "<date> (<n> ago)". */
	private function when( int $at, int $now ): string {
		$format = get_option( 'date_format' ) . ' ' . get_option( 'time_format' );
		return sprintf(
			/* translators: 1: date and time, 2: how long ago, e.g. "5 mins" */
			__( '%1$s (%2$s ago)', 'card2crypto-checkout' ),
			(string) wp_date( (string) $format, $at ),
			human_time_diff( $at, max( $at, $now ) )
		);
	}

	/** The service's last verdict on the store (Service_Health's state), never asked here. */
	private function credentials( int $now ): array {
		if ( ! $this->config->credentials()->complete() ) {
			return $this->result(
				self::CRITICAL,
				__( 'Card2Crypto has no partner token or secret', 'card2crypto-checkout' ),
				__( 'Card payment is not offered at checkout until the partner token and secret your partner manager gave you are entered in the payment settings.', 'card2crypto-checkout' ),
				__( 'Not set', 'card2crypto-checkout' ),
				array( $this->settings_action() )
			);
		}
		$state = $this->health->state();
		// BUSY: the service answered 429 or 5xx before it said anything about the store.
		if ( null === $state || ( $state['key'] ?? '' ) !== $this->health->fingerprint() || ! isset( $state['state'], $state['at'] ) || Service_Health::BUSY === $state['state'] ) {
			return $this->result(
				self::RECOMMENDED,
				__( 'The service has not been asked about the current Card2Crypto credentials yet', 'card2crypto-checkout' ),
				__( 'The store asks the service whether it accepts its partner token and secret in the background, when buyers open the checkout, and when you open the payment settings (Site Health does not ask it). Open the payment settings to check them now.', 'card2crypto-checkout' ),
				__( 'Not checked yet', 'card2crypto-checkout' ),
				array( $this->settings_action() )
			);
		}
		$checked = $this->when( (int) $state['at'], $now );
		if ( Service_Health::REFUSED === $state['state'] ) {
			return $this->result(
				self::CRITICAL,
				__( 'The service refuses the store\'s Card2Crypto credentials', 'card2crypto-checkout' ),
				sprintf(
					/* translators: 1: date and time it first refused, 2: why (a sentence, ending with its period), 3: date and time of the last answer */
					__( 'Card payment is withdrawn from the checkout: the service has refused this store since %1$s. Why: %2$s Last answer: %3$s. The store asks again every minute and offers card payment again as soon as the service accepts it. Check the partner token, the partner secret and the API address, or ask your partner manager whether the partner account is blocked.', 'card2crypto-checkout' ),
					$this->when( (int) ( $state['since'] ?? $state['at'] ), $now ),
					(string) ( $state['reason'] ?? '' ),
					$checked
				),
				/* translators: %s: date and time of the last answer */
				sprintf( __( 'Refused (last answer: %s)', 'card2crypto-checkout' ), $checked ),
				array( $this->settings_action() )
			);
		}
		return $this->result(
			self::GOOD,
			__( 'The service accepts the store\'s Card2Crypto credentials', 'card2crypto-checkout' ),
			/* translators: %s: date and time of the last answer */
			sprintf( __( 'The service last accepted a signed request with the partner token and secret on %s. The store asks again in the background while buyers use the checkout.', 'card2crypto-checkout' ), $checked ),
			/* translators: %s: date and time of the last answer */
			sprintf( __( 'Accepted (last answer: %s)', 'card2crypto-checkout' ), $checked )
		);
	}

	/** The callbacks' counts (Callback_Health): refused lately, the last verified one. */
	private function callbacks( int $now ): array {
		$health  = $this->callbacks->summary( $now );
		$reasons = array();
		foreach ( $health['refused'] as $reason => $count ) {
			/* translators: 1: why callbacks were refused, 2: how many */
			$reasons[] = sprintf( __( '%1$s: %2$d', 'card2crypto-checkout' ), $this->callbacks->reason_words( $reason ), $count );
		}
		$logs = array(
			'url'   => $this->callbacks->logs_url(),
			'label' => __( 'View the plugin\'s logs', 'card2crypto-checkout' ),
		);
		$last = null === $health['verified'] ? __( 'none yet', 'card2crypto-checkout' ) : $this->when( $health['verified'], $now );
		if ( $health['failing'] ) {
			return $this->result(
				self::CRITICAL,
				__( 'Card2Crypto callbacks are being refused', 'card2crypto-checkout' ),
				sprintf(
					/* translators: 1: number of callbacks, 2: the reasons with their counts, 3: date and time of the last verified callback, or "none yet" */
					_n( '%1$d callback from the service was refused in the last 24 hours (%2$s), and none has been accepted since. Orders are then updated only by the store\'s background checks with the service, later. Last verified callback: %3$s.', '%1$d callbacks from the service were refused in the last 24 hours (%2$s), and none has been accepted since. Orders are then updated only by the store\'s background checks with the service, later. Last verified callback: %3$s.', $health['total'], 'card2crypto-checkout' ),
					$health['total'],
					implode( '; ', $reasons ),
					$last
				),
				/* translators: %d: number of callbacks */
				sprintf( _n( '%d refused in 24 hours, none accepted since', '%d refused in 24 hours, none accepted since', $health['total'], 'card2crypto-checkout' ), $health['total'] ),
				array( $this->settings_action(), $logs )
			);
		}
		if ( $health['total'] > 0 ) {
			return $this->result(
				self::RECOMMENDED,
				__( 'Some Card2Crypto callbacks were refused lately', 'card2crypto-checkout' ),
				sprintf(
					/* translators: 1: number of callbacks, 2: the reasons with their counts, 3: date and time of the last verified callback */
					_n( '%1$d callback from the service was refused in the last 24 hours (%2$s); callbacks have been accepted since. Last verified callback: %3$s.', '%1$d callbacks from the service were refused in the last 24 hours (%2$s); callbacks have been accepted since. Last verified callback: %3$s.', $health['total'], 'card2crypto-checkout' ),
					$health['total'],
					implode( '; ', $reasons ),
					$last
				),
				/* translators: %d: number of callbacks */
				sprintf( _n( '%d refused in 24 hours', '%d refused in 24 hours', $health['total'], 'card2crypto-checkout' ), $health['total'] ),
				array( $logs, $this->settings_action() )
			);
		}
		if ( null !== $health['verified'] ) {
			return $this->result(
				self::GOOD,
				__( 'Callbacks from the Card2Crypto service reach the store', 'card2crypto-checkout' ),
				/* translators: %s: date and time of the last verified callback */
				sprintf( __( 'Last verified callback: %s. None was refused in the last 24 hours.', 'card2crypto-checkout' ), $last ),
				/* translators: %s: date and time of the last verified callback */
				sprintf( __( 'Last verified: %s', 'card2crypto-checkout' ), $last )
			);
		}
		$callback_url = $this->status->callback_url();
		if ( $this->operations->operation_count() > 0 ) {
			return $this->result(
				self::RECOMMENDED,
				__( 'No Card2Crypto callback has reached the store yet', 'card2crypto-checkout' ),
				sprintf(
					/* translators: %s: the callback URL */
					__( 'Buyers have paid or started paying with the service, but no callback from it has arrived: orders are updated only by the store\'s background checks, later. Ask the service\'s support to send callbacks to %s, and check that nothing (a firewall, a security plugin, a maintenance mode) blocks it.', 'card2crypto-checkout' ),
					$callback_url
				),
				__( 'None received yet', 'card2crypto-checkout' ),
				array( $this->settings_action() )
			);
		}
		return $this->result(
			self::GOOD,
			__( 'No Card2Crypto callback expected yet', 'card2crypto-checkout' ),
			sprintf(
				/* translators: %s: the callback URL */
				__( 'No buyer has paid with the service yet, so no callback was expected. The service sends them to %s.', 'card2crypto-checkout' ),
				$callback_url
			),
			__( 'None expected yet', 'card2crypto-checkout' )
		);
	}

	/** A duration in ms in words: "12.3 s". */
	private function seconds( int $ms ): string {
		/* translators: %s: a number of seconds */
		return sprintf( __( '%s s', 'card2crypto-checkout' ), number_format_i18n( abs( $ms ) / 1000, 1 ) );
	}

	/**
	 * The store's clock against the service's: the last timestamp refusal
	 * (Clock_Offset: recorded when the service refuses a request for its
	 * time, with how far off the clock is, and cleared once a request is
	 * judged past its time again), or nothing when none stands.
	 *
	 * @param mixed $refused Clock_Offset::last(): array{offset_ms: int|null, at: int} (the service's clock minus ours), or null.
	 */
	public function clock( $refused, int $now ): array {
		$window = sprintf(
			/* translators: 1: seconds ahead allowed, 2: seconds behind allowed */
			__( 'The service refuses a request whose time is more than %1$d seconds ahead of its own or %2$d seconds behind it.', 'card2crypto-checkout' ),
			self::CLOCK_AHEAD_MS / 1000,
			self::CLOCK_BEHIND_MS / 1000
		);
		if ( ! is_array( $refused ) || ! isset( $refused['at'] ) || ! is_numeric( $refused['at'] ) ) {
			return $this->result(
				self::GOOD,
				__( 'The store\'s clock agrees with the Card2Crypto service\'s', 'card2crypto-checkout' ),
				$window . ' ' . __( 'No request of the store has been refused for its time.', 'card2crypto-checkout' ),
				__( 'No refusal', 'card2crypto-checkout' )
			);
		}
		$offset = isset( $refused['offset_ms'] ) && is_numeric( $refused['offset_ms'] ) ? (int) $refused['offset_ms'] : null;
		$found  = sprintf(
			/* translators: 1: how far this server's clock is off, in words, 2: when the service refused a request */
			__( 'The service refused a request of the store for its time (%2$s): %1$s', 'card2crypto-checkout' ),
			Clock_Refusal::words( $offset ),
			$this->when( (int) $refused['at'], $now )
		);
		$value = null === $offset
			? __( 'Refused', 'card2crypto-checkout' )
			/* translators: %s: how far, e.g. "3.2 s" */
			: sprintf( $offset > 0 ? __( '%s behind', 'card2crypto-checkout' ) : __( '%s ahead', 'card2crypto-checkout' ), $this->seconds( $offset ) );
		return $this->result(
			self::CRITICAL,
			__( 'The store\'s clock is outside the Card2Crypto service\'s window', 'card2crypto-checkout' ),
			$found . ' ' . $window . ' ' . __( 'Payments cannot start and the store\'s checks with the service wait until the clock is right.', 'card2crypto-checkout' ) . ' ' . __( 'Have the server\'s clock kept in time (NTP): ask your host.', 'card2crypto-checkout' ),
			$value,
			array( $this->settings_action() )
		);
	}

	/** The plugin's Action Scheduler actions: the oldest one still pending past its time. */
	public function scheduler( int $now ): array {
		$url = admin_url( 'admin.php?page=wc-status&tab=action-scheduler&status=past-due&s=card2crypto_checkout' );
		$why = __( 'The store\'s background jobs check payments whose callbacks were lost and whether the service accepts the store; they run through WooCommerce\'s Action Scheduler, started by WP-Cron.', 'card2crypto-checkout' );
		if ( ! function_exists( 'as_get_datetime_object' ) || ! class_exists( '\ActionScheduler' ) || ! class_exists( '\ActionScheduler_Store' ) ) {
			return $this->result(
				self::RECOMMENDED,
				__( 'Action Scheduler is not available for Card2Crypto\'s background jobs', 'card2crypto-checkout' ),
				$why . ' ' . __( 'Action Scheduler comes with WooCommerce: keep WooCommerce active and up to date.', 'card2crypto-checkout' ),
				__( 'Not available', 'card2crypto-checkout' )
			);
		}
		$query = array(
			'group'        => Reconciler::GROUP,
			'status'       => \ActionScheduler_Store::STATUS_PENDING,
			'date'         => as_get_datetime_object( $now - self::LATE ),
			'date_compare' => '<=',
		);
		try {
			$store  = \ActionScheduler::store();
			$late   = (int) $store->query_actions( $query, 'count' );
			$oldest = $late > 0 ? $store->query_actions( $query + array( 'per_page' => 1, 'orderby' => 'date', 'order' => 'ASC' ) ) : array();
			$due    = array() !== $oldest ? $store->get_date( (int) reset( $oldest ) )->getTimestamp() : null;
		} catch ( \Throwable $e ) {
			return $this->result(
				self::RECOMMENDED,
				__( 'Card2Crypto\'s background jobs could not be looked at', 'card2crypto-checkout' ),
				$why . ' ' . $e->getMessage(),
				__( 'Unknown', 'card2crypto-checkout' )
			);
		}
		if ( 0 === $late || null === $due ) {
			return $this->result(
				self::GOOD,
				__( 'Card2Crypto\'s background jobs run on time', 'card2crypto-checkout' ),
				$why . ' ' . sprintf(
					/* translators: %d: minutes */
					__( 'None of them is more than %d minutes late.', 'card2crypto-checkout' ),
					self::LATE / 60
				),
				__( 'On time', 'card2crypto-checkout' )
			);
		}
		$cron = defined( 'DISABLE_WP_CRON' ) && DISABLE_WP_CRON
			? __( 'WP-Cron is turned off on this site (DISABLE_WP_CRON): a server cron job must request wp-cron.php every minute or so.', 'card2crypto-checkout' )
			: __( 'WP-Cron runs them when the site has visits and can request its own pages (see the loopback test in Site Health); on a quiet site, have a server cron job request wp-cron.php every minute or so.', 'card2crypto-checkout' );
		return $this->result(
			$now - $due >= self::LATE_CRITICAL ? self::CRITICAL : self::RECOMMENDED,
			__( 'Card2Crypto\'s background jobs are late', 'card2crypto-checkout' ),
			$why . ' ' . sprintf(
				/* translators: 1: number of jobs, 2: how late the oldest is, e.g. "2 hours" */
				_n( '%1$d of them is past due, by %2$s.', '%1$d of them are past due, the oldest by %2$s.', $late, 'card2crypto-checkout' ),
				$late,
				human_time_diff( $due, $now )
			) . ' ' . $cron,
			/* translators: 1: number of jobs, 2: how late the oldest is */
			sprintf( _n( '%1$d past due (by %2$s)', '%1$d past due (oldest by %2$s)', $late, 'card2crypto-checkout' ), $late, human_time_diff( $due, $now ) ),
			array(
				array(
					'url'   => $url,
					'label' => __( 'See the past-due actions (Tools → Scheduled Actions)', 'card2crypto-checkout' ),
				),
			)
		);
	}

	/**
	 * Forwarding headers arriving while no client address header is set.
	 *
	 * @param array{at: int, header: string}|null $seen The last sighting (Client_Address::forwarding_seen()).
	 */
	public function proxy( string $trusted, ?array $seen, int $now ): array {
		$warning = Proxy_Words::owner_warning( $trusted, $seen );
		if ( null === $warning ) {
			return $this->result(
				self::GOOD,
				__( 'Card2Crypto tells buyers apart by their own address', 'card2crypto-checkout' ),
				'' !== $trusted
					/* translators: %s: the header's name */
					? sprintf( __( 'Each buyer\'s address is read from the %s header your proxy sets.', 'card2crypto-checkout' ), $trusted )
					: __( 'No forwarding header has arrived lately: the connection\'s address is each buyer\'s own.', 'card2crypto-checkout' ),
				'' !== $trusted ? $trusted : __( 'Connection address', 'card2crypto-checkout' )
			);
		}
		return $this->result(
			self::RECOMMENDED,
			__( 'Card2Crypto may count every buyer as your proxy\'s address', 'card2crypto-checkout' ),
			/* translators: 1: what the owner should do, 2: when the header was last seen */
			sprintf( __( '%1$s Last seen: %2$s.', 'card2crypto-checkout' ), $warning, $this->when( (int) $seen['at'], $now ) ),
			/* translators: %s: a forwarding header's name */
			sprintf( __( '%s arrives, no header set', 'card2crypto-checkout' ), (string) $seen['header'] ),
			array( $this->settings_action() )
		);
	}

	/** Live payments (the production environment) over HTTPS. */
	public function https( string $environment, string $home ): array {
		$secure = 'https' === strtolower( (string) wp_parse_url( $home, PHP_URL_SCHEME ) );
		if ( 'production' !== $environment ) {
			return $this->result(
				self::GOOD,
				__( 'Card2Crypto is in the sandbox: HTTPS is not required yet', 'card2crypto-checkout' ),
				__( 'Test payments in the sandbox work over plain HTTP. Before taking live payments (environment: production), serve the site over HTTPS.', 'card2crypto-checkout' ),
				$secure ? __( 'Sandbox, HTTPS', 'card2crypto-checkout' ) : __( 'Sandbox, HTTP', 'card2crypto-checkout' )
			);
		}
		if ( ! $secure ) {
			return $this->result(
				self::CRITICAL,
				__( 'Card2Crypto takes live payments without HTTPS', 'card2crypto-checkout' ),
				sprintf(
					/* translators: %s: the site's address */
					__( 'The payment method is in production, but the site\'s address (%s) is not HTTPS: buyers\' order pages, their way back from the service and the service\'s callbacks travel unencrypted and can be read or changed on the way. Install a certificate (your host can) and change the WordPress and site addresses to https://.', 'card2crypto-checkout' ),
					$home
				),
				__( 'Production over HTTP', 'card2crypto-checkout' ),
				array(
					array(
						'url'   => admin_url( 'options-general.php' ),
						'label' => __( 'Change the site address (Settings → General)', 'card2crypto-checkout' ),
					),
					$this->settings_action(),
				)
			);
		}
		return $this->result(
			self::GOOD,
			__( 'Card2Crypto\'s live payments use HTTPS', 'card2crypto-checkout' ),
			__( 'The payment method is in production and the site is served over HTTPS.', 'card2crypto-checkout' ),
			__( 'Production, HTTPS', 'card2crypto-checkout' )
		);
	}

	/**
	 * GMP or BCMath, needed to derive a new address for each order.
	 *
	 * @param array{available: bool, backend: string|null} $support What the host has (Bip32::support()).
	 */
	public function math( bool $derives, array $support ): array {
		$backend = 'gmp' === ( $support['backend'] ?? null ) ? 'GMP' : 'BCMath';
		if ( ! $derives ) {
			return $this->result(
				self::GOOD,
				__( 'Card2Crypto uses one address for every order: GMP or BCMath is not needed', 'card2crypto-checkout' ),
				__( 'Only a new address for each order, derived from the wallet\'s extended public key, needs PHP\'s GMP or BCMath extension.', 'card2crypto-checkout' ),
				__( 'Not needed', 'card2crypto-checkout' )
			);
		}
		if ( empty( $support['available'] ) ) {
			return $this->result(
				self::CRITICAL,
				__( 'Card2Crypto cannot derive a new address for each order', 'card2crypto-checkout' ),
				__( 'This server\'s PHP has neither the GMP nor the BCMath extension, which deriving an address from the wallet\'s extended public key needs: card payments cannot start. Ask your host to enable one of them (GMP is faster), or choose one address for every order in the payment settings.', 'card2crypto-checkout' ),
				__( 'Neither GMP nor BCMath', 'card2crypto-checkout' ),
				array( $this->settings_action() )
			);
		}
		return $this->result(
			self::GOOD,
			/* translators: %s: GMP or BCMath */
			sprintf( __( 'Card2Crypto derives a new address for each order with PHP\'s %s extension', 'card2crypto-checkout' ), $backend ),
			__( 'Deriving an address from the wallet\'s extended public key needs PHP\'s GMP or BCMath extension; this server has it.', 'card2crypto-checkout' ),
			$backend
		);
	}

	/** How close the addresses in use come to the wallet's gap limit (Order_Address::gap()). */
	private function gap(): array {
		try {
			$gap = $this->addresses->gap();
		} catch ( \Throwable $e ) {
			return $this->result(
				self::CRITICAL,
				__( 'Card2Crypto cannot read the wallet\'s extended public key', 'card2crypto-checkout' ),
				__( 'A new address for each order is chosen, but the extended public key in the settings cannot be used, so card payments cannot start:', 'card2crypto-checkout' ) . ' ' . $e->getMessage(),
				__( 'Key unusable', 'card2crypto-checkout' ),
				array( $this->settings_action() )
			);
		}
		/* translators: 1: addresses in use past the last paid one, 2: the gap limit */
		$value = sprintf( __( '%1$d of %2$d', 'card2crypto-checkout' ), $gap['gap'], $gap['limit'] );
		$labels = array(
			Address_Policy::NEAR => __( 'Card2Crypto\'s addresses come close to the wallet\'s gap limit', 'card2crypto-checkout' ),
			Address_Policy::FULL => __( 'New orders cannot be paid by card: every address your wallet sees is in use', 'card2crypto-checkout' ),
			Address_Policy::PAST => __( 'Card2Crypto\'s addresses are past the wallet\'s gap limit', 'card2crypto-checkout' ),
		);
		if ( isset( $labels[ $gap['standing'] ] ) ) {
			return $this->result(
				Address_Policy::NEAR === $gap['standing'] ? self::RECOMMENDED : self::CRITICAL,
				$labels[ $gap['standing'] ],
				Wallet_Words::gap_text( $gap ),
				$value,
				array( $this->settings_action() )
			);
		}
		return $this->result(
			self::GOOD,
			__( 'Card2Crypto\'s addresses stay within the wallet\'s gap limit', 'card2crypto-checkout' ),
			Wallet_Words::gap_text( $gap ),
			$value
		);
	}
}

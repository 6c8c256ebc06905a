<?php
/**
 * Wires the plugin into WordPress and WooCommerce, in one place: boot()
 * builds the plugin's services once (the settings, the configuration and
 * the credentials read from them, the service client, the start gate ...),
 * passes each the services it needs through its constructor, and has each
 * register its own hooks. No other class names this one.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

use Card2Crypto\Checkout\Admin\Address_Gap_Notice;
use Card2Crypto\Checkout\Admin\Books_Chart;
use Card2Crypto\Checkout\Admin\Books_Export;
use Card2Crypto\Checkout\Admin\Admin_Order_Panel;
use Card2Crypto\Checkout\Admin\Books;
use Card2Crypto\Checkout\Admin\Health_Checks;
use Card2Crypto\Checkout\Admin\Privacy;
use Card2Crypto\Checkout\Admin\Site_Health;
use Card2Crypto\Checkout\Attempts\Address_Store;
use Card2Crypto\Checkout\Attempts\Attempt_Store;
use Card2Crypto\Checkout\Attempts\Books_Store;
use Card2Crypto\Checkout\Attempts\Check_Queue;
use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Attempts\Tables;
use Card2Crypto\Checkout\Attempts\Start_Budget;
use Card2Crypto\Checkout\Base\After_Answer;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Request_Deadline;
use Card2Crypto\Checkout\Base\Script_Asset;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Buyer\Buyer_Cancel;
use Card2Crypto\Checkout\Buyer\Buyer_Return;
use Card2Crypto\Checkout\Buyer\Order_Pay;
use Card2Crypto\Checkout\Buyer\Order_Routes;
use Card2Crypto\Checkout\Buyer\Order_View;
use Card2Crypto\Checkout\Buyer\State_Poll;
use Card2Crypto\Checkout\Buyer\Range_Notice;
use Card2Crypto\Checkout\Callback\Callback_Controller;
use Card2Crypto\Checkout\Callback\Client_Address;
use Card2Crypto\Checkout\Rules\Callback_Guard;
use Card2Crypto\Checkout\Gateway\Blocks_Integration;
use Card2Crypto\Checkout\Gateway\Gateway;
use Card2Crypto\Checkout\Gateway\Gateway_Rest;
use Card2Crypto\Checkout\Order\Buyer_Mail;
use Card2Crypto\Checkout\Order\Confirm_Queue;
use Card2Crypto\Checkout\Order\Manual_Refunds;
use Card2Crypto\Checkout\Order\Confirm_Retry;
use Card2Crypto\Checkout\Order\Operation_Events;
use Card2Crypto\Checkout\Order\Order_Actions;
use Card2Crypto\Checkout\Order\Owner_Notice;
use Card2Crypto\Checkout\Partner\Service_Gateway;
use Card2Crypto\Checkout\Payment\Availability;
use Card2Crypto\Checkout\Payment\Order_Address;
use Card2Crypto\Checkout\Payment\Payment_Flows;
use Card2Crypto\Checkout\Payment\Return_Pages;
use Card2Crypto\Checkout\Payment\Start_Gate;
use Card2Crypto\Checkout\Service\Callback_Health;
use Card2Crypto\Checkout\Service\Clock_Offset;
use Card2Crypto\Checkout\Service\Reconciler;
use Card2Crypto\Checkout\Service\Refusal_Mail;
use Card2Crypto\Checkout\Service\Outage_Pay_Links;
use Card2Crypto\Checkout\Service\Service_Answers;
use Card2Crypto\Checkout\Service\Service_Health;
use Card2Crypto\Checkout\Service\Widget_Retry;
use Card2Crypto\Checkout\Settings\Payout_Change_Notice;
use Card2Crypto\Checkout\Settings\Settings_Status;
use Card2Crypto\Checkout\Settings\Test_Mode;
use Card2Crypto\Checkout\Shared\Budget\Visitor_Budget;
use Card2Crypto\Checkout\Shared\Database\Network_Sites;
use Card2Crypto\Checkout\Shared\Hooks;
use Card2Crypto\Checkout\Shared\Plugin_Bootstrap;
use Card2Crypto\Checkout\Shared\Settings\Settings_Store;

defined( 'ABSPATH' ) || exit;

final class Plugin {

	/** The services that hook themselves in at boot, whether or not WooCommerce is active; the rest once it is loaded. */
	const WITHOUT_WOOCOMMERCE = array( Payout_Change_Notice::class, Callback_Controller::class );

	/** @var array<string, object> The services boot() built, by class name. */
	private static $services = array();

	/** @var array<string, object> The services of this wiring, by class name (build()). */
	private $built;

	/** @var string The plugin's main file. */
	private $file;

	/**
	 * The wiring of one boot: what its hooks run once they fire.
	 *
	 * @param array<string, object> $services By class name (build()).
	 */
	private function __construct( array $services, string $file ) {
		$this->built = $services;
		$this->file  = $file;
	}

	/** Builds the services and registers every hook of the plugin (called once by Plugin_Bootstrap::start() from the main file). */
	public static function boot( string $file ): void {
		// A thank-you page's poll of an unchanged state is answered here, before anything is built (State_Poll).
		( new State_Poll() )->answer_if_unchanged();
		$services       = self::build( new Settings_Store( Plugin_Bootstrap::schema(), 'checkout', Keys::SETTINGS_OPTION ) );
		self::$services = $services;
		$settings       = $services[ Settings_Store::class ];
		$config         = $services[ Config::class ];
		$plugin         = new self( $services, $file );

		// The log redacts the credentials in use and keeps debug lines only when the owner asks for them.
		Log::wire( array( $config, 'credentials' ), array( $config, 'debug' ) );
		// A save (or a change made some other way) is read again: credentials, client and service state follow it.
		add_action( 'add_option_' . Keys::SETTINGS_OPTION, array( $config, 'forget' ) );
		add_action( 'update_option_' . Keys::SETTINGS_OPTION, array( $config, 'forget' ) );

		// Before anything can save the settings: the secret kept apart, title and description sanitised.
		add_action( 'init', array( $settings, 'protect' ), 0 );
		// What hooks whether or not WooCommerce is active: every change of where the money goes is e-mailed to the site's
		// administration address and logged, whatever saved it; the service's callback route.
		foreach ( self::WITHOUT_WOOCOMMERCE as $class ) {
			$services[ $class ]->register();
		}
		// A proxy header saved before the list of forwarding headers, spelt in another case, reads as the listed one.
		add_filter( 'option_' . Keys::SETTINGS_OPTION, array( Callback_Guard::class, 'canonical_settings' ) );
		add_action(
			'before_woocommerce_init',
			static function () use ( $plugin ): void {
				$plugin->declare_compatibility();
			}
		);
		add_action(
			'plugins_loaded',
			static function () use ( $plugin ): void {
				$plugin->on_plugins_loaded();
			}
		);
		add_filter( 'plugin_action_links_' . plugin_basename( $file ), array( $plugin, 'action_links' ) );
		// The tables: this site's, or every site's of a network (Network_Sites); a site made later, a site deleted.
		$sites = $services[ Network_Sites::class ];
		register_activation_hook( $file, array( $sites, 'activate' ) );
		if ( is_multisite() ) {
			add_action(
				'wp_initialize_site',
				static function ( $site ) use ( $sites, $file ): void {
					$sites->initialize_site( $site, plugin_basename( $file ) );
				},
				200
			);
			add_filter( 'wpmu_drop_tables', array( $sites, 'drop_tables' ), 10, 2 );
			// Another site's settings after switch_to_blog(): its credentials and client, not this site's.
			add_action( 'switch_blog', array( $config, 'forget' ) );
		}
	}

	/**
	 * The plugin's object graph over a settings store: each service gets
	 * what it uses, built once, through its constructor.
	 *
	 * @return array<string, object> By class name.
	 */
	public static function build( Settings_Store $settings ): array {
		$config        = new Config( $settings );
		$scripts       = new Script_Asset();
		$shared        = new Shared_Store();
		$deadline      = new Request_Deadline();
		$after         = new After_Answer( $shared, $deadline );
		$door          = new Service_Gateway( $config, $deadline );
		$orders        = new Order_Attempts();
		$budget        = new Start_Budget( new Visitor_Budget( Tables::BUDGETS, $shared->locks(), Start_Budget::CLEAN_HOOK ), $deadline );
		$tables        = new Tables( $budget );
		$attempts      = new Attempt_Store( $orders );
		$operations    = new Operation_Store( $attempts, $shared );
		$queue         = new Check_Queue();
		$address_store = new Address_Store( $attempts, $shared );
		$books_store   = new Books_Store();
		$books         = new Books( $books_store, $orders );
		$books_export  = new Books_Export( $books, $books_store );
		$health        = new Service_Health( $door, $after, $deadline, $shared );
		$answers       = new Service_Answers( $door, $health, $after );
		$availability  = new Availability( $config, $answers, $orders );
		$back          = new Outage_Pay_Links( $health, $shared );
		$callbacks     = new Callback_Health( $config, $health );
		$clock         = new Clock_Offset();
		$client        = new Client_Address();
		$confirms      = new Confirm_Queue();
		$notices       = new Owner_Notice();
		$mail          = new Buyer_Mail( $attempts );
		$actions       = new Order_Actions( $config, $door, $address_store, $confirms, $mail, $notices );
		$events        = new Operation_Events( $config, $actions, $door, $attempts, $operations, $address_store, $orders, $notices );
		$reconciler    = new Reconciler( $config, $events, $door, $attempts, $operations, $queue, $address_store, $health, $clock, $orders, $budget, $shared );
		$gate          = new Start_Gate( $config, $reconciler, $door, $attempts, $health, $availability, $back, $orders, $budget );
		$addresses     = new Order_Address( $config, $address_store, $attempts, $budget );
		$pages         = new Return_Pages( $shared );
		$routes        = new Order_Routes();
		$test_mode     = new Test_Mode( $config );
		$payments      = new Payment_Flows( $config, $gate, $addresses, $door, $attempts, $operations, $reconciler, $pages, $health, $orders, $budget, $test_mode, $client );
		$return        = new Buyer_Return( $config, $reconciler, $health, $back, $attempts, $operations, $pages, $orders, $budget, $routes, $client );
		$retry         = new Widget_Retry( $reconciler, $attempts, $operations, $orders, $actions );
		$status        = new Settings_Status( $health, $callbacks, $clock, $client );
		$checks        = new Health_Checks( $config, $addresses, $operations, $health, $callbacks, $clock, $status, $client );
		$services      = array(
			// The services without hooks of their own.
			Settings_Store::class       => $settings,
			Config::class               => $config,
			Shared_Store::class         => $shared,
			Request_Deadline::class     => $deadline,
			After_Answer::class         => $after,
			Script_Asset::class         => $scripts,
			Service_Gateway::class      => $door,
			Order_Attempts::class       => $orders,
			Tables::class               => $tables,
			Network_Sites::class        => new Network_Sites( array( $tables, 'install' ), array( $tables, 'tables_of' ) ),
			Attempt_Store::class        => $attempts,
			Operation_Store::class      => $operations,
			Check_Queue::class          => $queue,
			Address_Store::class        => $address_store,
			Books_Store::class          => $books_store,
			Books::class                => $books,
			Confirm_Queue::class        => $confirms,
			Owner_Notice::class         => $notices,
			Order_Actions::class        => $actions,
			Operation_Events::class     => $events,
			Start_Gate::class           => $gate,
			Order_Address::class        => $addresses,
			Return_Pages::class         => $pages,
			Payment_Flows::class        => $payments,
			Availability::class         => $availability,
			Order_Routes::class         => $routes,
			Settings_Status::class      => $status,
			Clock_Offset::class         => $clock,
			Client_Address::class       => $client,
			Health_Checks::class        => $checks,
			Books_Chart::class          => new Books_Chart( $config, $books, $scripts, $books_export ),
			// The services that hook themselves in (Hooks), in the order they do (boot()).
			Payout_Change_Notice::class => new Payout_Change_Notice( $settings ),
			Callback_Controller::class  => new Callback_Controller( $config, $events, $callbacks, $shared ),
			Gateway_Rest::class         => new Gateway_Rest( $config ),
			Reconciler::class           => $reconciler,
			Service_Health::class       => $health,
			Service_Answers::class      => $answers,
			Outage_Pay_Links::class     => $back,
			Refusal_Mail::class         => new Refusal_Mail( $config, $health, $notices, $shared ),
			Widget_Retry::class         => $retry,
			Confirm_Retry::class        => new Confirm_Retry( $events, $door, $attempts, $confirms, $notices ),
			Test_Mode::class            => $test_mode,
			Order_Pay::class            => new Order_Pay( $config, $payments, $return, $retry, $pages, $back, $scripts, $orders, $routes ),
			Buyer_Return::class         => $return,
			Range_Notice::class         => new Range_Notice( $config, $health, $availability, $back ),
			Order_View::class           => new Order_View( $attempts, $scripts, $routes, new State_Poll() ),
			Buyer_Cancel::class         => new Buyer_Cancel( $attempts, $orders ),
			Manual_Refunds::class       => new Manual_Refunds(),
			Buyer_Mail::class           => $mail,
			Privacy::class              => new Privacy( $attempts, $operations, $addresses ),
			Site_Health::class          => new Site_Health( $config, $checks ),
			Books_Export::class         => $books_export,
			Admin_Order_Panel::class    => new Admin_Order_Panel( $reconciler, $door, $attempts, $operations, $addresses, $test_mode ),
			Callback_Health::class      => $callbacks,
			Address_Gap_Notice::class   => new Address_Gap_Notice( $addresses ),
			// The visitors' budgets: rows whose windows have passed are deleted hourly.
			Start_Budget::class         => $budget,
		);
		return $services;
	}

	/**
	 * One service boot() built, for tests and tools (WP-CLI): the plugin's own
	 * classes get theirs through their constructors.
	 *
	 * @template T of object
	 * @param class-string<T> $class
	 * @return T
	 */
	public static function service( string $class ) {
		if ( ! isset( self::$services[ $class ] ) ) {
			throw new \LogicException( $class . ' is not a service of Card2Crypto Checkout, or the plugin has not booted.' );
		}
		return self::$services[ $class ];
	}

	/** HPOS (custom order tables) and the block checkout. */
	private function declare_compatibility(): void {
		if ( class_exists( \Automattic\WooCommerce\Utilities\FeaturesUtil::class ) ) {
			\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'custom_order_tables', $this->file, true );
			\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'cart_checkout_blocks', $this->file, true );
		}
	}

	/** WooCommerce is loaded (or not): the payment side's hooks. */
	private function on_plugins_loaded(): void {
		if ( ! class_exists( 'WC_Payment_Gateway' ) ) {
			add_action( 'admin_notices', array( $this, 'woocommerce_missing_notice' ) );
			return;
		}
		$services = $this->built;
		$config   = $services[ Config::class ];
		// One gateway object for WooCommerce, built with its services (WooCommerce takes objects as well as class names).
		$gateway = null;
		add_filter(
			'woocommerce_payment_gateways',
			static function ( array $gateways ) use ( $services, &$gateway ): array {
				$gateway    = $gateway ?? new Gateway( $services[ Config::class ], $services[ Payment_Flows::class ], $services[ Order_Address::class ], $services[ Books_Chart::class ], $services[ Service_Gateway::class ], $services[ Service_Health::class ], $services[ Availability::class ], $services[ Settings_Status::class ] );
				$gateways[] = $gateway;
				return $gateways;
			}
		);
		add_action(
			'woocommerce_blocks_payment_method_type_registration',
			static function ( $registry ) use ( $config, $services ): void {
				if ( class_exists( '\Automattic\WooCommerce\Blocks\Payments\Integrations\AbstractPaymentMethodType' ) ) {
					$registry->register( new Blocks_Integration( $config, $services[ Service_Health::class ], $services[ Availability::class ], $services[ Script_Asset::class ] ) );
				}
			}
		);

		// The plugin's tables, after an update that did not run the activation hook.
		add_action( 'init', array( $services[ Tables::class ], 'maybe_install' ), 5 );
		// WooCommerce's hold-stock timer never cancels an order whose payment is in flight.
		$attempts = $services[ Attempt_Store::class ];
		add_filter(
			'woocommerce_cancel_unpaid_order',
			function ( $cancel, $order ) use ( $attempts ) {
				return $this->keep_paying_orders( $cancel, $order, $attempts );
			},
			10,
			2
		);

		// Every other service hooks itself in (Hooks), in build()'s order: WooCommerce's gateway REST answers; the service
		// (reconciliation, its acceptance of the store, the orders kept while it refused); the buyer (the order-pay page and
		// its routes, the return from the service, the order's page, notices); the order (refunds recorded by hand, the
		// buyer's e-mail); the owner (privacy, Site Health and the status report, also run from WP-Cron; the books; on admin
		// screens only, the order's payment panel, callback and service health).
		foreach ( $services as $class => $service ) {
			if ( $service instanceof Hooks && ! in_array( $class, self::WITHOUT_WOOCOMMERCE, true ) ) {
				$service->register();
			}
		}
	}

	/**
	 * @param bool|mixed $cancel Whether WooCommerce cancels the unpaid order.
	 * @param mixed      $order  The order.
	 * @return bool|mixed
	 */
	private function keep_paying_orders( $cancel, $order, Attempt_Store $attempts ) {
		// A decline inside the widget waits for the buyer's next try there (Widget_Retry): not cancelled meanwhile.
		if ( $cancel && $order instanceof \WC_Order && Keys::GATEWAY_ID === $order->get_payment_method() && ( $attempts->payment_in_progress( $order ) || '' !== (string) $order->get_meta( Keys::META_RETRY_UNTIL ) ) ) {
			return false;
		}
		return $cancel;
	}

	public function woocommerce_missing_notice(): void {
		if ( ! current_user_can( 'activate_plugins' ) ) {
			return;
		}
		echo '<div class="notice notice-error"><p>' . esc_html__( 'Card2Crypto Checkout needs WooCommerce: install and activate WooCommerce to offer card payments.', 'card2crypto-checkout' ) . '</p></div>';
	}

	/**
	 * @param string[] $links
	 * @return string[]
	 */
	public function action_links( array $links ): array {
		if ( class_exists( 'WC_Payment_Gateway' ) ) {
			$url = admin_url( 'admin.php?page=wc-settings&tab=checkout&section=' . Keys::GATEWAY_ID );
			array_unshift( $links, '<a href="' . esc_url( $url ) . '">' . esc_html__( 'Settings', 'card2crypto-checkout' ) . '</a>' );
		}
		return $links;
	}
}

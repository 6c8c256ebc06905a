<?php
/**
 * Test-only must-use plugin, mounted into the WordPress that
 * packages/php/test/wordpress.test.ts boots (never shipped): REST routes
 * under /wp-json/c2c-test/v1 that report which copy of the shared library
 * each plugin uses, and run library code inside WordPress (the API client
 * on wp_remote_post, settings saves).
 */

defined( 'ABSPATH' ) || exit;

// The secret sweep (wordpress-security.test.ts) calls WooCommerce's REST API with
// an API key, which WooCommerce accepts as plain parameters only over HTTPS;
// the test site is plain HTTP, so a test request says "treat me as HTTPS".
if ( isset( $_SERVER['HTTP_X_C2C_TEST_HTTPS'] ) ) {
	$_SERVER['HTTPS'] = 'on';
}

add_action(
	'rest_api_init',
	static function (): void {
		register_rest_route(
			'c2c-test/v1',
			'/state',
			array(
				'methods'             => 'GET',
				'permission_callback' => '__return_true',
				'callback'            => 'c2c_test_state',
			)
		);
		register_rest_route(
			'c2c-test/v1',
			'/run',
			array(
				'methods'             => 'POST',
				'permission_callback' => '__return_true',
				'callback'            => 'c2c_test_run',
			)
		);
	}
);

/** Which shared library each plugin loaded, from where, and at which version. */
function c2c_test_library( string $plugin_namespace ): ?array {
	$class = $plugin_namespace . '\\Shared\\Library';
	if ( ! class_exists( $class ) ) {
		return null;
	}
	$classes = array();
	foreach ( array( 'Signing\\Signer', 'Signing\\Canonical', 'Settings\\Settings_Validator', 'Callback\\Callback_Verifier' ) as $name ) {
		$full             = $plugin_namespace . '\\Shared\\' . $name;
		$classes[ $name ] = class_exists( $full ) ? ( new ReflectionClass( $full ) )->getFileName() : null;
	}
	return array(
		'version'   => constant( $class . '::VERSION' ),
		'namespace' => $class::namespace_name(),
		'file'      => ( new ReflectionClass( $class ) )->getFileName(),
		'classes'   => $classes,
	);
}

function c2c_test_state(): WP_REST_Response {
	if ( ! function_exists( 'is_plugin_active' ) ) {
		require_once ABSPATH . 'wp-admin/includes/plugin.php';
	}
	$gateways = function_exists( 'WC' ) ? array_keys( WC()->payment_gateways()->payment_gateways() ) : array();
	return new WP_REST_Response(
		array(
			'php'            => PHP_VERSION,
			'wordpress'      => get_bloginfo( 'version' ),
			'woocommerce'    => defined( 'WC_VERSION' ) ? WC_VERSION : null,
			'active_plugins' => get_option( 'active_plugins' ),
			'checkout'       => c2c_test_library( 'Card2Crypto\\Checkout' ),
			'widget'         => c2c_test_library( 'Card2Crypto\\Widget' ),
			'plugins_dir'    => WP_PLUGIN_DIR,
			'gateways'       => $gateways,
			'unprefixed'     => class_exists( 'Card2Crypto\\Shared\\Library', false ),
		)
	);
}

/**
 * Runs one test action: {"action": "...", ...}.
 */
function c2c_test_run( WP_REST_Request $request ): WP_REST_Response {
	$input = json_decode( $request->get_body(), true );
	try {
		switch ( $input['action'] ) {
			case 'api':
				return new WP_REST_Response( c2c_test_api( $input ) );
			case 'set_option':
				update_option( $input['name'], $input['value'] );
				return new WP_REST_Response( get_option( $input['name'] ) );
			case 'get_option':
				return new WP_REST_Response( get_option( $input['name'], null ) );
			case 'set_raw_option':
				// What an older version left in the database, written around update_option's filters.
				global $wpdb;
				$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name = %s", $input['name'] ) );
				$wpdb->insert( $wpdb->options, array( 'option_name' => $input['name'], 'option_value' => maybe_serialize( $input['value'] ), 'autoload' => 'on' ) );
				wp_cache_delete( 'alloptions', 'options' );
				wp_cache_delete( $input['name'], 'options' );
				return new WP_REST_Response( true );
			case 'delete_option':
				return new WP_REST_Response( delete_option( $input['name'] ) );
			case 'options_like':
				global $wpdb;
				return new WP_REST_Response( $wpdb->get_results( $wpdb->prepare( "SELECT option_name, option_value, autoload FROM {$wpdb->options} WHERE option_name LIKE %s ORDER BY option_name", $input['like'] ), ARRAY_A ) );
			case 'users':
				// A shop manager and a customer with known passwords, and WooCommerce REST API keys.
				$ids = array();
				foreach ( $input['users'] as $user ) {
					$existing = get_user_by( 'login', $user['login'] );
					$ids[ $user['login'] ] = $existing ? $existing->ID : wp_insert_user(
						array(
							'user_login' => $user['login'],
							'user_pass'  => $user['password'],
							'user_email' => $user['login'] . '@example.com',
							'role'       => $user['role'],
						)
					);
					// Capabilities the role grants that this user is denied (e.g. an administrator without
					// unfiltered_html, as a site administrator of a multisite network is).
					foreach ( $user['without'] ?? array() as $cap ) {
						( new WP_User( $ids[ $user['login'] ] ) )->add_cap( $cap, false );
					}
				}
				global $wpdb;
				$keys = array();
				foreach ( $input['keys'] as $key ) {
					$wpdb->insert(
						$wpdb->prefix . 'woocommerce_api_keys',
						array(
							'user_id'         => 'admin' === $key['user'] ? 1 : $ids[ $key['user'] ],
							'description'     => 'c2c test ' . $key['permissions'],
							'permissions'     => $key['permissions'],
							'consumer_key'    => wc_api_hash( $key['consumer_key'] ),
							'consumer_secret' => $key['consumer_secret'],
							'truncated_key'   => substr( $key['consumer_key'], -7 ),
						)
					);
					$keys[] = $wpdb->insert_id;
				}
				return new WP_REST_Response( array( 'users' => $ids, 'keys' => $keys ) );
			case 'config_api':
				// The checkout plugin's own client (its service gateway's, in the owner's lane: its transport, its environment).
				// Playground declares every host external (its own mu-plugin); a real WordPress does not:
				// take that out so WordPress's rules for local and private addresses apply as on a real host.
				remove_filter( 'http_request_host_is_external', '__return_true' );
				$client = Card2Crypto\Checkout\Plugin::service( Card2Crypto\Checkout\Partner\Service_Gateway::class )->client( 'admin' );
				try {
					return new WP_REST_Response( array( 'value' => $client->params() ) );
				} catch ( Throwable $e ) {
					return new WP_REST_Response( array( 'exception' => array( 'kind' => $e->kind ?? null, 'message' => $e->getMessage() ) ) );
				}
			case 'transport_post':
				// The checkout's transport alone: which loopback address it lets through, and how a failure reads.
				remove_filter( 'http_request_host_is_external', '__return_true' );
				$transport_class = 'Card2Crypto\\Checkout\\Shared\\Api\\Wp_Http_Transport';
				try {
					$response = ( new $transport_class( $input['loopback'] ) )->post( $input['url'], '{}', array(), 3.0 );
					return new WP_REST_Response( array( 'status' => $response->status ) );
				} catch ( Throwable $e ) {
					return new WP_REST_Response( array( 'exception' => array( 'kind' => $e->kind ?? null, 'message' => $e->getMessage() ) ) );
				}
			case 'sweep':
				return new WP_REST_Response( c2c_test_sweep( $input ) );
			case 'gateway_texts':
				$gateway = WC()->payment_gateways()->payment_gateways()['card2crypto'] ?? null;
				return new WP_REST_Response( $gateway ? array( 'title' => $gateway->get_title(), 'description' => $gateway->get_description() ) : null );
			case 'uninstall':
				// What "Delete" on the Plugins screen runs (uninstall_plugin()): the plugin's
				// uninstall.php with WP_UNINSTALL_PLUGIN defined; here once per scenario.
				$results = array();
				foreach ( $input['scenarios'] as $scenario ) {
					// What the site holds when the owner deletes the plugin, written as is (a save would judge it).
					global $wpdb;
					$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name = %s", $scenario['option'] ) );
					$wpdb->insert( $wpdb->options, array( 'option_name' => $scenario['option'], 'option_value' => maybe_serialize( $scenario['stored'] ), 'autoload' => 'on' ) );
					wp_cache_delete( 'alloptions', 'options' );
					wp_cache_delete( $scenario['option'], 'options' );
					if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
						define( 'WP_UNINSTALL_PLUGIN', $scenario['plugin'] );
					}
					// Options the plugin keeps besides its settings, which uninstall removes always.
					foreach ( $scenario['always'] ?? array() as $other ) {
						update_option( $other, array( 'written' => 'by the test' ), false );
					}
					// Tables the plugin keeps, which uninstall drops always (made here when an earlier scenario dropped them).
					foreach ( $scenario['tables'] ?? array() as $table ) {
						$wpdb->query( "CREATE TABLE IF NOT EXISTS {$wpdb->prefix}{$table} (id int)" );
					}
					include WP_PLUGIN_DIR . '/' . dirname( $scenario['plugin'] ) . '/uninstall.php';
					$results[] = get_option( $scenario['option'], null );
					foreach ( $scenario['tables'] ?? array() as $table ) {
						if ( null !== $wpdb->get_var( $wpdb->prepare( 'SHOW TABLES LIKE %s', $wpdb->esc_like( $wpdb->prefix . $table ) ) ) ) {
							$results[] = 'left behind: table ' . $table;
						}
					}
					foreach ( $scenario['always'] ?? array() as $other ) {
						wp_cache_delete( $other, 'options' );
						if ( null !== get_option( $other, null ) ) {
							$results[] = 'left behind: ' . $other;
						}
					}
				}
				return new WP_REST_Response( $results );
			case 'budget':
				return new WP_REST_Response( c2c_test_budget( $input ) );
			case 'site_lock':
				return new WP_REST_Response( c2c_test_site_lock( (string) $input['name'] ) );
			case 'deactivate':
				require_once ABSPATH . 'wp-admin/includes/plugin.php';
				deactivate_plugins( $input['plugin'], true );
				return new WP_REST_Response( get_option( 'active_plugins' ) );
			case 'create_order':
				// A guest's order awaiting payment by the checkout's payment method.
				$order = wc_create_order();
				$order->set_currency( $input['currency'] );
				$order->set_payment_method( 'card2crypto' );
				$order->set_billing_email( 'buyer@example.com' );
				$order->set_total( $input['total'] );
				$order->set_status( 'pending' );
				if ( ! empty( $input['customer'] ) ) {
					// A registered customer's order.
					$order->set_customer_id( (int) $input['customer'] );
				}
				$order->save();
				return new WP_REST_Response(
					array(
						'id'    => $order->get_id(),
						'key'   => $order->get_order_key(),
						// What the order-pay page hands the starter script (Order_Pay::render()), for a visitor.
						'nonce' => wp_create_nonce( Card2Crypto\Checkout\Buyer\Order_Pay::NONCE_ACTION . $order->get_id() ),
					)
				);
			case 'order_address':
				// A new order whose first payment is signed: it takes the next address of the wallet in the settings
				// (Order_Address::for_signing(): an index taken in one transaction with the attempt), from a client of its
				// own; with "free", that attempt's order gives its address back; with "order", a further payment of that order.
				$addresses = Card2Crypto\Checkout\Plugin::service( Card2Crypto\Checkout\Payment\Order_Address::class );
				if ( isset( $input['free'] ) ) {
					$freed = Card2Crypto\Checkout\Plugin::service( Card2Crypto\Checkout\Attempts\Attempt_Store::class )->attempt( (int) $input['free'] );
					Card2Crypto\Checkout\Plugin::service( Card2Crypto\Checkout\Attempts\Address_Store::class )->release( $freed->order_id(), $freed->wallet() );
					return new WP_REST_Response( $addresses->gap() );
				}
				if ( ! empty( $input['gap'] ) ) {
					return new WP_REST_Response( $addresses->gap() + array( 'first' => $addresses->first( 3 ) ) );
				}
				if ( isset( $input['order'] ) ) {
					$order = wc_get_order( (int) $input['order'] );
				} else {
					$order = wc_create_order();
					$order->set_currency( 'EUR' );
					$order->set_payment_method( 'card2crypto' );
					$order->set_total( '25.00' );
					$order->save();
				}
				$attempt = Card2Crypto\Checkout\Plugin::service( Card2Crypto\Checkout\Attempts\Attempt_Store::class )->create_attempt( $order->get_id(), 'wc-' . $order->get_id() . '-' . bin2hex( random_bytes( 6 ) ), 2500, 'EUR', $addresses->held_address( $order ) );
				try {
					$attempt = $addresses->for_signing( $order, $attempt, '198.51.100.' . wp_rand( 1, 254 ) . '-' . bin2hex( random_bytes( 4 ) ) );
				} catch ( Card2Crypto\Checkout\Attempts\Payment_Refused $e ) {
					return new WP_REST_Response( array( 'refused' => $e->getMessage(), 'order' => $order->get_id() ) );
				}
				$row = Card2Crypto\Checkout\Plugin::service( Card2Crypto\Checkout\Attempts\Address_Store::class )->held_by_order( $addresses->wallet_id(), $order->get_id() );
				return new WP_REST_Response(
					array(
						'order'   => $order->get_id(),
						'attempt' => null === $attempt ? 0 : $attempt->id(),
						'wallet'  => null === $attempt ? null : $attempt->wallet(),
						'index'   => $row['address_index'],
						'address' => $row['address'],
						'meta'    => Card2Crypto\Checkout\Plugin::service( Card2Crypto\Checkout\Payment\Order_Address::class )->of_order( wc_get_order( $order->get_id() ) ),
					)
				);
			case 'start_payment':
				// What "Place order" does for the order (Payment_Flows::start() at checkout): an attempt, not yet signed for the buyer.
				$attempt = Card2Crypto\Checkout\Plugin::service( Card2Crypto\Checkout\Payment\Payment_Flows::class )->start( wc_get_order( (int) $input['id'] ), '127.0.0.1', Card2Crypto\Checkout\Payment\Start_Gate::AT_CHECKOUT );
				return new WP_REST_Response( array( 'partner_operation_id' => $attempt->partner_operation_id() ) );
			case 'set_order_total':
				// An order edited after the buyer was sent to pay.
				$order = wc_get_order( (int) $input['id'] );
				$order->set_total( $input['total'] );
				$order->save();
				return new WP_REST_Response( $order->get_total() );
			case 'order_attempts':
				$order = wc_get_order( (int) $input['id'] );
				return new WP_REST_Response(
					array(
						'current'  => $order->get_meta( Card2Crypto\Checkout\Base\Keys::META_ATTEMPT ),
						'attempts' => Card2Crypto\Checkout\Plugin::service( Card2Crypto\Checkout\Attempts\Attempt_Store::class )->attempts_of_order( (int) $input['id'] ),
					)
				);
			case 'service_health':
				// The checkout's cached answer of the service (Service_Health): written aged by "age" seconds
				// ("write": ok or refused), or read as a checkout page reads it ("read"). Both say how many
				// background checks wait in Action Scheduler.
				$health = 'Card2Crypto\\Checkout\\Service\\Service_Health';
				$answer = array();
				if ( isset( $input['write'] ) ) {
					$at = time() - (int) ( $input['age'] ?? 0 );
					update_option( $health::OPTION, array( 'state' => $input['write'], 'reason' => 'refused by the test', 'at' => $at, 'since' => $at, 'key' => Card2Crypto\Checkout\Plugin::service( $health )->fingerprint() ), true );
				}
				if ( ! empty( $input['read'] ) ) {
					$answer['available'] = Card2Crypto\Checkout\Plugin::service( $health )->available();
				}
				$answer['queued'] = count( as_get_scheduled_actions( array( 'hook' => $health::HOOK, 'status' => ActionScheduler_Store::STATUS_PENDING ), 'ids' ) );
				return new WP_REST_Response( $answer );
			case 'log_files':
				$dir   = wp_upload_dir()['basedir'] . '/wc-logs';
				$lines = array();
				foreach ( glob( $dir . '/card2crypto-checkout-*.log' ) ?: array() as $file ) {
					$lines = array_merge( $lines, file( $file, FILE_IGNORE_NEW_LINES ) );
				}
				return new WP_REST_Response( $lines );
		}
	} catch ( Throwable $e ) {
		return new WP_REST_Response( array( 'error' => get_class( $e ) . ': ' . $e->getMessage() ), 500 );
	}
	return new WP_REST_Response( array( 'error' => 'unknown action' ), 400 );
}

/** A Partner_Api_Client call through the checkout plugin's copy and WordPress's HTTP API. */
function c2c_test_api( array $input ): array {
	$client_class    = 'Card2Crypto\\Checkout\\Shared\\Api\\Partner_Api_Client';
	$transport_class = 'Card2Crypto\\Checkout\\Shared\\Api\\Wp_Http_Transport';
	$logs         = array();
	$client       = new $client_class(
		$input['base_url'],
		$input['token'],
		$input['secret'],
		array(
			'timeout'   => $input['timeout'] ?? 5,
			// The suite's fake service listens on 127.0.0.1: let loopback through unless the test asks for production's rules.
			'transport' => new $transport_class( 'safe' !== ( $input['transport'] ?? 'loopback' ) ),
			'logger'    => static function ( string $level, string $message ) use ( &$logs ): void {
				$logs[] = $level . ': ' . $message;
			},
		)
	);
	try {
		$value = $client->{$input['method']}( ...$input['args'] );
		if ( is_object( $value ) ) {
			$value = $value->to_array();
		}
		return array(
			'value' => $value,
			'logs'  => $logs,
		);
	} catch ( Throwable $e ) {
		return array(
			'exception' => array(
				'class'   => get_class( $e ),
				'kind'    => $e->kind ?? null,
				'status'  => $e->status ?? null,
				'meaning' => $e->meaning ?? null,
				'message' => $e->getMessage(),
				'trace'   => $e->getTraceAsString(),
			),
			'logs'      => $logs,
		);
	}
}

/**
 * GETs REST paths inside WordPress (rest_do_request) as one user, and says
 * which of the needles each answer contains: the secret sweep of
 * wordpress-security.test.ts, hundreds of routes in one request instead of
 * one WordPress boot each. Nothing leaves the machine meanwhile.
 */
function c2c_test_sweep( array $input ): array {
	add_filter(
		'pre_http_request',
		static function ( $pre, $args, $url ) {
			$host = (string) wp_parse_url( $url, PHP_URL_HOST );
			return in_array( $host, array( '127.0.0.1', 'localhost' ), true ) ? $pre : new WP_Error( 'c2c_test_offline', 'offline test' );
		},
		10,
		3
	);
	wp_set_current_user( (int) $input['user'] );
	$results = array();
	foreach ( $input['paths'] as $path ) {
		// A visitor reads the view context; a user the edit context (which shows more), or view where edit is refused.
		$contexts = 0 === (int) $input['user'] ? array( 'view' ) : array( 'edit', 'view' );
		foreach ( $contexts as $context ) {
			$query = array();
			parse_str( (string) wp_parse_url( $path, PHP_URL_QUERY ), $query );
			$request = new WP_REST_Request( 'GET', (string) wp_parse_url( $path, PHP_URL_PATH ) );
			$request->set_query_params( array_merge( array( 'context' => $context, 'per_page' => 100 ), $query ) );
			ob_start();
			try {
				$response = rest_do_request( $request );
				$status   = $response->get_status();
				$body     = wp_json_encode( rest_get_server()->response_to_data( $response, true ) );
			} catch ( Throwable $e ) {
				$status = 'exception';
				$body   = get_class( $e ) . ': ' . $e->getMessage();
			}
			$body .= ob_get_clean();
			$hits  = array();
			foreach ( $input['needles'] as $needle ) {
				if ( false !== strpos( (string) $body, $needle ) ) {
					$hits[] = $needle;
				}
			}
			$results[] = array( $path, $context, $status, $hits );
			if ( 400 !== $status ) {
				break;
			}
		}
	}
	return $results;
}

/**
 * Site_Lock::run_if_free() (the widget's copy of the library) against a
 * second connection to this site's database holding the same lock, as
 * another web server's request would: what ran, and whether the lock was
 * held while it ran and free after. Where the database has no named locks
 * (SQLite), only what ran.
 */
function c2c_test_site_lock( string $name ) {
	global $wpdb;
	$locks  = new Card2Crypto\Widget\Shared\Database\Site_Lock( 'c2c-test' );
	$lock   = $locks->name( $name );
	$answer = array( 'native' => $wpdb instanceof wpdb && 'mysqli' === get_class( $wpdb->dbh ?? new stdClass() ) );
	$ran    = array();
	// Another connection to the same database, as WordPress reads DB_HOST (a host, a port or a socket).
	$connect = function () use ( $wpdb ) {
		list( $host, $port, $socket ) = $wpdb->parse_db_host( DB_HOST );
		return new mysqli( $host ?? 'localhost', DB_USER, DB_PASSWORD, DB_NAME, (int) ( $port ?? 3306 ), $socket );
	};
	if ( $answer['native'] ) {
		$other = $connect();
		$held  = $other->query( "SELECT GET_LOCK('" . $other->real_escape_string( $lock ) . "', 0)" )->fetch_row()[0];
		$t0    = microtime( true );
		// Held by the other connection: not run, and not waited for.
		$answer['busy']      = array( 'held' => $held, 'result' => $locks->run_if_free( $name, function () use ( &$ran ) { $ran[] = 'busy'; } ), 'ms' => (int) round( ( microtime( true ) - $t0 ) * 1000 ) );
		$other->query( "SELECT RELEASE_LOCK('" . $other->real_escape_string( $lock ) . "')" );
	}
	$answer['free'] = $locks->run_if_free(
		$name,
		function () use ( &$ran, $lock, $answer, $connect ) {
			$ran[] = 'free';
			if ( $answer['native'] ) {
				$other = $connect();
				$ran[] = 'while running, free to another connection: ' . $other->query( "SELECT IS_FREE_LOCK('" . $other->real_escape_string( $lock ) . "')" )->fetch_row()[0];
				$other->close();
			}
		}
	);
	if ( $answer['native'] ) {
		$answer['after'] = $wpdb->get_var( $wpdb->prepare( 'SELECT IS_FREE_LOCK(%s)', $lock ) );
		// A failure inside: the lock is still given back.
		try {
			$locks->run_if_free( $name, function () { throw new RuntimeException( 'inside' ); } );
		} catch ( RuntimeException $e ) {
			$ran[] = 'threw: ' . $e->getMessage();
		}
		$answer['after_throw'] = $wpdb->get_var( $wpdb->prepare( 'SELECT IS_FREE_LOCK(%s)', $lock ) );
	}
	$answer['ran'] = $ran;
	return $answer;
}

/**
 * The shared Visitor_Budget (the widget's copy of the library) on a table of
 * the test's own on this site's database: {op: install | take | spent |
 * clean | drop, name, limit, span, count_refused, times, now}. take answers
 * what each of `times` takes in a row answered (0: it fit, else the wait).
 */
function c2c_test_budget( array $input ) {
	$budget = new Card2Crypto\Widget\Shared\Budget\Visitor_Budget( 'c2c_test_budgets', new Card2Crypto\Widget\Shared\Database\Site_Lock( 'c2c-test' ), 'c2c_test_clean_budgets' );
	global $wpdb;
	switch ( $input['op'] ) {
		case 'install':
		case 'drop':
			'install' === $input['op'] ? $budget->install() : $budget->drop();
			return null !== $wpdb->get_var( $wpdb->prepare( 'SHOW TABLES LIKE %s', $wpdb->esc_like( $budget->table() ) ) );
		case 'take':
			$waits = array();
			for ( $i = 0; $i < (int) ( $input['times'] ?? 1 ); $i++ ) {
				$waits[] = $budget->take( (string) $input['name'], (int) $input['limit'], (int) $input['span'], (bool) $input['count_refused'], (int) $input['now'] );
			}
			return $waits;
		case 'spent':
			return $budget->spent( (string) $input['name'] );
		case 'clean':
			return $budget->clean( (int) $input['now'] );
	}
	throw new InvalidArgumentException( 'No such budget op: ' . $input['op'] );
}

<?php
/**
 * What the payment code needs of WordPress and WooCommerce, faked for the
 * PHP scripts that run it without them (events.php, callback.php): options
 * and transients in memory, $wpdb over SQLite (INSERT IGNORE read as INSERT
 * OR IGNORE; claim and compare-and-swap keep their meaning), a WC_Order
 * stand-in whose hooks fail on request, the REST request and response
 * classes, and the service as a transport answering from a list, signed.
 *
 * Reads the scenario every runner is given, /work/scenario.json (settings,
 * order, attempts, and the runner's own steps or requests), into $scenario;
 * sets $service and $order. The plugin's own service gateway sends through
 * the faked wp_safe_remote_post(), which hands each request to
 * $GLOBALS['c2c_http_handler'] (by default $service; health.php answers
 * from its own list).
 */

define( 'ABSPATH', '/nowhere/' );
define( 'ARRAY_A', 'ARRAY_A' );
define( 'MINUTE_IN_SECONDS', 60 );
define( 'HOUR_IN_SECONDS', 3600 );
define( 'DAY_IN_SECONDS', 86400 );
require __DIR__ . '/bootstrap.php';

use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Shared\Api\Http_Response;
use Card2Crypto\Checkout\Shared\Api\Http_Transport;
use Card2Crypto\Checkout\Shared\Api\Transport_Exception;
use Card2Crypto\Checkout\Shared\Json\Lossless_Json;
use Card2Crypto\Checkout\Shared\Signing\Signer;

/** Where the test layout (/plugin, /php, /work) is rooted: the runner's C2C_TEST_ROOT when it sets one. */
$root     = C2C_TEST_ROOT;
$scenario = json_decode( file_get_contents( $root . '/work/scenario.json' ), true );

// ---- WordPress functions the payment code calls. ----
// As a store keeps them: the partner secret in its own option (Settings_Store), never in the settings.
$c2c_settings = $scenario['settings'];
unset( $c2c_settings['partner_secret'] );
$GLOBALS['c2c_options'] = array(
	'woocommerce_card2crypto_settings'    => $c2c_settings,
	'card2crypto_checkout_partner_secret' => array( 'value' => (string) $scenario['settings']['partner_secret'] ),
	'admin_email'                         => 'owner@shop.test',
);
$GLOBALS['c2c_mails']   = array();
function __( $text, $domain = '' ) {
	return $text;
}
function get_option( $name, $default = false ) {
	return $GLOBALS['c2c_options'][ $name ] ?? $default;
}
/** WordPress's default REST prefix (State_Poll looks for its route under it). */
function rest_get_url_prefix() {
	return 'wp-json';
}
function maybe_serialize( $data ) {
	return is_array( $data ) || is_object( $data ) ? serialize( $data ) : $data;
}
function maybe_unserialize( $data ) {
	if ( ! is_string( $data ) ) {
		return $data;
	}
	$value = @unserialize( $data, array( 'allowed_classes' => false ) ); // phpcs:ignore
	return false === $value && 'b:0;' !== $data ? $data : $value;
}
function get_transient( $name ) {
	return $GLOBALS['c2c_options'][ '_transient_' . $name ] ?? false;
}
function set_transient( $name, $value, $expiration = 0 ) {
	$GLOBALS['c2c_options'][ '_transient_' . $name ] = $value;
	return true;
}
function delete_transient( $name ) {
	unset( $GLOBALS['c2c_options'][ '_transient_' . $name ] );
	return true;
}
function sanitize_text_field( $text ) {
	return trim( (string) $text );
}
function wp_unslash( $value ) {
	return $value;
}
$GLOBALS['c2c_actions'] = array();
// The plugin's own actions (card2crypto_*) run what was added to them; WordPress's are only recorded.
$GLOBALS['c2c_hooks'] = array();
function do_action( $hook, ...$args ) {
	$GLOBALS['c2c_actions'][] = $hook;
	foreach ( $GLOBALS['c2c_hooks'][ $hook ] ?? array() as $callback ) {
		$callback( ...$args );
	}
}
function apply_filters( $hook, $value ) {
	return $value;
}
function is_multisite() {
	return false; // One site, as most stores.
}
function add_action( $hook = '', $callback = null ) {
	if ( 0 === strpos( (string) $hook, 'card2crypto_' ) && null !== $callback ) {
		$GLOBALS['c2c_hooks'][ $hook ][] = $callback;
	}
}
function add_filter() {
}
function register_activation_hook() {
}
function plugin_basename( $file ) {
	return basename( dirname( $file ) ) . '/' . basename( $file );
}
function current_time( $type, $gmt = false ) {
	return gmdate( 'Y-m-d H:i:s' );
}
function esc_url_raw( $url ) {
	return $url;
}
function wp_specialchars_decode( $text ) {
	return $text;
}
function get_bloginfo() {
	return 'Shop';
}
function wp_mail( $to, $subject, $body ) {
	$GLOBALS['c2c_mails'][] = $subject;
	return true;
}
function wc_format_decimal( $number, $dp ) {
	return number_format( (float) $number, $dp, '.', '' );
}
function wc_get_price_decimals() {
	return 2;
}
function wc_get_order( $id ) {
	return $GLOBALS['c2c_order']->get_id() === (int) $id ? $GLOBALS['c2c_order'] : false;
}
$GLOBALS['c2c_log'] = array();
function wc_get_logger() {
	return new class() {
		public function log( $level, $message ) {
			$GLOBALS['c2c_log'][] = $level . ': ' . $message;
		}
	};
}

/** The parts of WC_Order the plugin uses; hooks fail on request, as WooCommerce reports them. */
class WC_Order {
	public $id;
	public $status;
	public $total;
	public $currency;
	public $meta  = array();
	public $notes = array();
	public $saves = 0;
	/** @var array{payment_complete?: string, update_status?: bool} Failures still to happen (each once). */
	public $fail = array();
	/** @var callable|null Runs once at the start of the next status change: another request arriving meanwhile. */
	public $during;

	private function meanwhile() {
		if ( null !== $this->during ) {
			$during       = $this->during;
			$this->during = null;
			$during();
		}
	}

	public function get_id() {
		return $this->id;
	}
	public function get_meta( $key ) {
		return $this->meta[ $key ] ?? '';
	}
	public function update_meta_data( $key, $value ) {
		$this->meta[ $key ] = $value;
	}
	public function delete_meta_data( $key ) {
		unset( $this->meta[ $key ] );
	}
	public function save() {
		++$this->saves;
		return $this->id;
	}
	public function save_meta_data() {
		// WC_Data::save_meta_data(): the meta alone (kept in memory here, as the rest of the order).
	}
	public function add_order_note( $note ) {
		$this->notes[] = $note;
		return count( $this->notes );
	}
	public function get_status() {
		return $this->status;
	}
	public function has_status( $status ) {
		return in_array( $this->status, (array) $status, true );
	}
	public function is_paid() {
		return $this->has_status( array( 'processing', 'completed' ) );
	}
	public function get_total() {
		return $this->total;
	}
	public function get_currency() {
		return $this->currency;
	}
	public function get_edit_order_url() {
		return 'https://shop.test/wp-admin/post.php?post=' . $this->id;
	}
	public function get_order_number() {
		return (string) $this->id;
	}
	public function get_order_key() {
		return 'wc_order_key' . $this->id;
	}
	/** The customer account the order belongs to (0: a guest's order). */
	public $customer_id = 0;
	public function get_customer_id() {
		return $this->customer_id;
	}
	public function get_payment_method() {
		return $this->meta['_payment_method'] ?? 'card2crypto';
	}
	public function needs_payment() {
		return $this->has_status( array( 'pending', 'failed' ) );
	}
	public function get_checkout_payment_url() {
		return 'https://shop.test/checkout/order-pay/' . $this->id . '/?pay_for_order=true&key=' . $this->get_order_key();
	}
	/** Like WooCommerce: an exception inside is logged and noted, and the answer is false. */
	public function update_status( $to, $note = '' ) {
		$fail = ! empty( $this->fail['update_status'] );
		unset( $this->fail['update_status'] );
		$this->meanwhile();
		if ( $fail ) {
			$this->notes[] = 'Update status event failed.';
			return false;
		}
		$this->status = $to;
		if ( '' !== $note ) {
			$this->notes[] = $note;
		}
		return true;
	}
	/**
	 * Like WooCommerce: woocommerce_pre_payment_complete runs first
	 * ("before": nothing changed), woocommerce_payment_complete after the
	 * order was saved as processing ("after"); either failure answers false.
	 */
	public function payment_complete( $transaction_id = '' ) {
		$fail = $this->fail['payment_complete'] ?? '';
		unset( $this->fail['payment_complete'] );
		$this->meanwhile();
		if ( 'before' === $fail ) {
			$this->notes[] = 'Payment complete event failed. pre hook';
			return false;
		}
		if ( $this->has_status( array( 'on-hold', 'pending', 'failed', 'cancelled' ) ) ) {
			$this->meta['_transaction_id'] = $transaction_id;
			$this->status                  = 'processing';
			$this->notes[]                 = 'Payment complete.';
			$this->save();
		}
		if ( 'after' === $fail ) {
			$this->notes[] = 'Payment complete event failed. hook';
			return false;
		}
		return true;
	}
}

/** The parts of the REST classes the callback route uses. */
class WP_REST_Request {
	private $body;
	private $headers;

	public function __construct( string $body, array $headers ) {
		$this->body    = $body;
		$this->headers = $headers;
	}
	public function get_body() {
		return $this->body;
	}
	/** Like WordPress: names are matched lower-cased with "-" as "_". */
	public function get_header( $name ) {
		foreach ( $this->headers as $key => $value ) {
			if ( str_replace( '-', '_', strtolower( $key ) ) === str_replace( '-', '_', strtolower( $name ) ) ) {
				return $value;
			}
		}
		return null;
	}
}
class WP_REST_Response {
	public $data;
	public $status;
	public $headers = array();

	public function __construct( $data = null, $status = 200 ) {
		$this->data   = $data;
		$this->status = $status;
	}
	public function header( $name, $value ) {
		$this->headers[ $name ] = $value;
	}
}

// ---- WordPress's HTTP API, as Wp_Http_Transport uses it: each request handed to $GLOBALS['c2c_http_handler']. ----
function remove_filter() {
	return true;
}
function wp_json_encode( $data, $options = 0 ) {
	return json_encode( $data, $options );
}
function wp_parse_url( $url, $component = -1 ) {
	return parse_url( $url, $component );
}
function wp_http_validate_url( $url ) {
	return $url;
}
function is_wp_error( $thing ) {
	return $thing instanceof WP_Error;
}
class WP_Error {
	public $code;
	public $message;
	public $data;
	public function __construct( $code = '', $message = '', $data = '' ) {
		$this->code    = $code;
		$this->message = $message;
		$this->data    = $data;
	}
	public function get_error_code() {
		return $this->code;
	}
	public function get_error_message() {
		return $this->message;
	}
}
function wp_safe_remote_post( $url, $args ) {
	return ( $GLOBALS['c2c_http_handler'] )( $url, $args );
}
function wp_remote_retrieve_headers( $response ) {
	return $response['headers'];
}
function wp_remote_retrieve_response_code( $response ) {
	return $response['status'];
}
function wp_remote_retrieve_body( $response ) {
	return $response['body'];
}

// ---- $wpdb over SQLite. ----
final class C2C_Sqlite_Wpdb {
	public $prefix     = 'wp_';
	public $options    = 'wp_options';
	public $last_error = '';
	private $pdo;

	public function __construct() {
		$this->pdo = new PDO( 'sqlite::memory:' );
		$this->pdo->setAttribute( PDO::ATTR_ERRMODE, PDO::ERRMODE_SILENT );
		$this->pdo->exec( "CREATE TABLE wp_card2crypto_attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, order_id INTEGER NOT NULL, partner_operation_id TEXT NOT NULL UNIQUE, operation_id TEXT DEFAULT NULL, expected_amount INTEGER NOT NULL, expected_currency TEXT NOT NULL, expected_wallet TEXT NOT NULL, status TEXT NOT NULL DEFAULT '', status_code INTEGER NOT NULL DEFAULT -1, version INTEGER NOT NULL DEFAULT 0, mismatch INTEGER NOT NULL DEFAULT 0, checks INTEGER NOT NULL DEFAULT 0, unsent INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)" );
		$this->pdo->exec( "CREATE TABLE wp_card2crypto_operations (id INTEGER PRIMARY KEY AUTOINCREMENT, attempt_id INTEGER NOT NULL, order_id INTEGER NOT NULL, operation_id TEXT NOT NULL, status TEXT NOT NULL DEFAULT '', status_code INTEGER NOT NULL DEFAULT -1, version INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (attempt_id, operation_id))" );
		$this->pdo->exec( 'CREATE TABLE wp_card2crypto_budgets (budget_key TEXT PRIMARY KEY, window_start INTEGER NOT NULL, window_count INTEGER NOT NULL DEFAULT 0, previous_count INTEGER NOT NULL DEFAULT 0, expires_at INTEGER NOT NULL)' );
		$this->pdo->exec( "CREATE TABLE wp_options (option_id INTEGER PRIMARY KEY AUTOINCREMENT, option_name TEXT NOT NULL UNIQUE, option_value TEXT NOT NULL, autoload TEXT NOT NULL DEFAULT 'yes')" );
		$this->pdo->exec( "CREATE TABLE wp_card2crypto_events (id INTEGER PRIMARY KEY AUTOINCREMENT, event_key TEXT NOT NULL UNIQUE, attempt_id INTEGER NOT NULL, operation_id TEXT NOT NULL, status TEXT NOT NULL, status_code INTEGER NOT NULL, source TEXT NOT NULL, outcome TEXT NOT NULL DEFAULT '', received_at TEXT NOT NULL)" );
	}

	public function prepare( $query, ...$args ) {
		$i   = 0;
		$pdo = $this->pdo;
		return preg_replace_callback(
			'/%[isd]/',
			static function ( $m ) use ( &$i, $args, $pdo ) {
				$value = $args[ $i++ ];
				if ( '%i' === $m[0] ) {
					return '`' . str_replace( '`', '``', $value ) . '`';
				}
				return '%d' === $m[0] ? (string) (int) $value : $pdo->quote( (string) $value );
			},
			$query
		);
	}

	/** @var string A regular expression: statements it matches fail as if the database had gone away. */
	public $fail = '';

	public function query( $sql ) {
		if ( '' !== $this->fail && preg_match( $this->fail, $sql ) ) {
			$this->last_error = 'MySQL server has gone away';
			return false;
		}
		$sql = preg_replace( '/^INSERT IGNORE /', 'INSERT OR IGNORE ', $sql );
		$st  = $this->pdo->query( $sql );
		if ( false === $st ) {
			$this->last_error = implode( ' ', $this->pdo->errorInfo() );
			return false;
		}
		return $st->rowCount();
	}

	public function get_results( $sql ) {
		$st = $this->pdo->query( $sql );
		return false === $st ? null : $st->fetchAll( PDO::FETCH_ASSOC );
	}

	public function get_row( $sql ) {
		$rows = $this->get_results( $sql );
		return $rows ? $rows[0] : null;
	}

	public function get_var( $sql ) {
		$row = $this->get_row( $sql );
		return null === $row ? null : reset( $row );
	}

	public function insert( $table, array $data ) {
		$names = array_keys( $data );
		$st    = $this->pdo->prepare( 'INSERT INTO ' . $table . ' (' . implode( ', ', $names ) . ') VALUES (' . implode( ', ', array_fill( 0, count( $names ), '?' ) ) . ')' );
		return $st->execute( array_values( $data ) ) ? 1 : false;
	}

	public function update( $table, array $data, array $where ) {
		$set = implode( ', ', array_map( static function ( $n ) { return $n . ' = ?'; }, array_keys( $data ) ) );
		$cond = implode( ' AND ', array_map( static function ( $n ) { return $n . ' = ?'; }, array_keys( $where ) ) );
		$st   = $this->pdo->prepare( 'UPDATE ' . $table . ' SET ' . $set . ' WHERE ' . $cond );
		return $st->execute( array_merge( array_values( $data ), array_values( $where ) ) ) ? $st->rowCount() : false;
	}

	public function delete( $table, array $where ) {
		$cond = implode( ' AND ', array_map( static function ( $n ) { return $n . ' = ?'; }, array_keys( $where ) ) );
		$st   = $this->pdo->prepare( 'DELETE FROM ' . $table . ' WHERE ' . $cond );
		return $st->execute( array_values( $where ) ) ? $st->rowCount() : false;
	}

	public function rows( $table ) {
		return $this->pdo->query( 'SELECT * FROM ' . $table . ' ORDER BY id' )->fetchAll( PDO::FETCH_ASSOC );
	}
}
$GLOBALS['wpdb'] = new C2C_Sqlite_Wpdb();

/**
 * The service: answers the operation-info endpoint from a list (signed with
 * the partner secret), counting calls; a params request (the health check)
 * is answered "accepted" apart from the list.
 */
final class C2C_Service implements Http_Transport {
	public $answers = array();
	public $calls   = array();
	/** @var callable|null Runs once, at the next call: what another request does while this one waits on the service. */
	public $meanwhile = null;
	private $secret;

	public function __construct( string $secret ) {
		$this->secret = $secret;
	}

	/** @var int The service-acceptance checks (params) asked, answered "accepted" apart from the list. */
	public $params_calls = 0;

	public function post( string $url, string $body, array $headers, float $timeout_seconds ): Http_Response {
		if ( '/api/partner/params' === substr( $url, -strlen( '/api/partner/params' ) ) ) {
			// A health check (Service_Health) before a payment is sent: the service accepts the store.
			++$this->params_calls;
			return new Http_Response( 200, Lossless_Json::encode( Signer::with_signature( array( 'service_fee' => 0.01 ), $this->secret ) ) );
		}
		$request       = json_decode( $body, true );
		$this->calls[] = array(
			'url'                  => $url,
			'operation_id'         => $request['operation_id'] ?? null,
			'partner_operation_id' => $request['partner_operation_id'] ?? null,
		);
		if ( null !== $this->meanwhile ) {
			$meanwhile       = $this->meanwhile;
			$this->meanwhile = null;
			$meanwhile();
		}
		$answer = array_shift( $this->answers );
		if ( null === $answer || isset( $answer['network'] ) ) {
			throw new Transport_Exception( Transport_Exception::NETWORK, 'cURL error 7: Failed to connect' );
		}
		if ( isset( $answer['empty'] ) ) {
			// Confirmation and cancellation: 200 with no body.
			return new Http_Response( 200, '' );
		}
		if ( isset( $answer['operation_data'] ) ) {
			return new Http_Response( 200, Lossless_Json::encode( Signer::with_signature( array( 'operation_data' => $answer['operation_data'] ), $this->secret ) ) );
		}
		return new Http_Response( $answer['status'], (string) json_encode( array( 'error' => $answer['error'] ) ), array( 'content-type' => 'application/json' ) );
	}
}

Plugin::boot( $root . '/plugin/card2crypto-checkout.php' );
$secret  = (string) $scenario['settings']['partner_secret'];
$service = new C2C_Service( $secret );
// The service gateway's requests (Wp_Http_Transport over wp_safe_remote_post()) reach $service.
$GLOBALS['c2c_http_handler'] = static function ( string $url, array $args ) use ( $service ) {
	try {
		$response = $service->post( $url, (string) $args['body'], (array) $args['headers'], (float) $args['timeout'] );
	} catch ( Transport_Exception $e ) {
		return new WP_Error( 'http_request_failed', $e->getMessage() );
	}
	return array(
		'status'  => $response->status,
		'body'    => $response->body,
		'headers' => $response->headers,
	);
};

$order           = new WC_Order();
$order->id       = (int) $scenario['order']['id'];
$order->status   = (string) $scenario['order']['status'];
$order->total    = (string) $scenario['order']['total'];
$order->currency = (string) $scenario['order']['currency'];
$order->meta     = $scenario['order']['meta'];
$GLOBALS['c2c_order'] = $order;
foreach ( $scenario['attempts'] as $attempt ) {
	$GLOBALS['wpdb']->insert( 'wp_card2crypto_attempts', $attempt + array( 'created_at' => gmdate( 'Y-m-d H:i:s' ), 'updated_at' => gmdate( 'Y-m-d H:i:s' ) ) );
}

/**
 * A callback body as a scenario's request describes it: {raw, raw_times?}
 * (that text, repeated), or {operation, sign: right|wrong} (the
 * operation_data signed with the partner secret, or with another one).
 */
function c2c_callback_body( array $request, string $secret ): string {
	if ( isset( $request['raw'] ) ) {
		return str_repeat( (string) $request['raw'], (int) ( $request['raw_times'] ?? 1 ) );
	}
	$key = 'right' === $request['sign'] ? $secret : $secret . 'x';
	return Lossless_Json::encode( Signer::with_signature( array( 'operation_data' => Lossless_Json::decode_object( json_encode( $request['operation'] ) ) ), $key ) );
}

/** The logged-in user: $GLOBALS['c2c_user'] (0: a visitor), by the REST API's reckoning. */
if ( ! function_exists( 'get_current_user_id' ) ) {
	function get_current_user_id() {
		return (int) ( $GLOBALS['c2c_user'] ?? 0 );
	}
}
/** The user a logged-in cookie names: $GLOBALS['c2c_cookie_user'] (false: none). */
if ( ! function_exists( 'wp_validate_auth_cookie' ) ) {
	function wp_validate_auth_cookie( $cookie = '', $scheme = '' ) {
		return empty( $GLOBALS['c2c_cookie_user'] ) ? false : (int) $GLOBALS['c2c_cookie_user'];
	}
}

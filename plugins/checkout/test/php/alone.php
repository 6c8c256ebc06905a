<?php
/**
 * One class of the plugin built alone, as Plugin::build() would build it but
 * with nothing else: no Plugin::boot(), no other service, only what its
 * constructor takes. The service gateway is a door of the test's own (the
 * Service_Door interface) whose clients answer from recorded answers, signed
 * with the partner secret as the service signs them. WordPress is reduced to
 * the options (in memory) and the actions fired.
 *
 * Input /work/scenario.json: {settings: {id: value}, class: "Service_Health",
 * steps: [{do, answers?}]}: do is "confirm" (Service_Health::confirm(0),
 * a buyer starting to pay) or "available" (what a checkout page reads); the
 * answers are the service's, in turn: {signed: {...}} (a 200 signed with the
 * partner secret) or {status, body}. After each step: its result, the lanes
 * the class asked clients for, the requests sent, the stored state, the
 * actions fired; at the end the buyer's words.
 */

require __DIR__ . '/bootstrap.php';

use Card2Crypto\Checkout\Base\After_Answer;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Request_Deadline;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Partner\Service_Door;
use Card2Crypto\Checkout\Service\Service_Health;
use Card2Crypto\Checkout\Shared\Api\Http_Response;
use Card2Crypto\Checkout\Shared\Api\Http_Transport;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Client;
use Card2Crypto\Checkout\Shared\Json\Lossless_Json;
use Card2Crypto\Checkout\Shared\Plugin_Bootstrap;
use Card2Crypto\Checkout\Shared\Settings\Settings_Store;
use Card2Crypto\Checkout\Shared\Signing\Signer;

$scenario = json_decode( file_get_contents( C2C_TEST_ROOT . '/work/scenario.json' ), true );

// ---- WordPress, as far as the class alone reaches it. ----
$GLOBALS['c2c_options'] = array();
$GLOBALS['c2c_actions'] = array();
function __( $text, $domain = '' ) {
	return $text;
}
function get_option( $name, $default = false ) {
	return $GLOBALS['c2c_options'][ $name ] ?? $default;
}
function update_option( $name, $value, $autoload = null ) {
	$GLOBALS['c2c_options'][ $name ] = $value;
	return true;
}
function delete_transient( $name ) {
	unset( $GLOBALS['c2c_options'][ '_transient_' . $name ] );
	return true;
}
function wp_cache_delete( $key, $group = '' ) {
	return true;
}
function do_action( $hook, ...$args ) {
	$GLOBALS['c2c_actions'][] = $hook;
}

/** The service's answers in turn, as recorded; each request's path kept. */
final class C2C_Recorded_Service implements Http_Transport {
	/** @var array<int, array> */
	public $answers = array();
	/** @var string[] */
	public $sent = array();
	/** @var string */
	private $secret;

	public function __construct( string $secret ) {
		$this->secret = $secret;
	}

	public function post( string $url, string $body, array $headers, float $timeout_seconds ): Http_Response {
		$this->sent[] = (string) parse_url( $url, PHP_URL_PATH );
		$answer       = array_shift( $this->answers );
		if ( null === $answer ) {
			throw new LogicException( 'The test recorded no answer for ' . $url );
		}
		if ( isset( $answer['signed'] ) ) {
			return new Http_Response( 200, Lossless_Json::encode( Signer::with_signature( Lossless_Json::decode_object( (string) json_encode( $answer['signed'] ) ), $this->secret ) ) );
		}
		return new Http_Response( (int) $answer['status'], is_string( $answer['body'] ) ? $answer['body'] : (string) json_encode( $answer['body'] ), array( 'content-type' => 'application/json' ) );
	}
}

/** The test's door to the service: the settings given, clients over the recorded service, the lanes asked for. */
final class C2C_Recorded_Door implements Service_Door {
	/** @var string[] */
	public $lanes = array();
	/** @var Config */
	private $config;
	/** @var C2C_Recorded_Service */
	private $service;

	public function __construct( Config $config, C2C_Recorded_Service $service ) {
		$this->config  = $config;
		$this->service = $service;
	}

	public function config(): Config {
		return $this->config;
	}

	public function with_config( Config $config ): Service_Door {
		return new self( $config, $this->service );
	}

	public function client( string $lane, ?callable $logger = null, ?callable $wrap = null ): Partner_Api_Client {
		$this->lanes[] = $lane;
		$credentials   = $this->config->credentials();
		return new Partner_Api_Client(
			$this->config->base_url(),
			$credentials->token(),
			$credentials->secret(),
			array(
				'transport' => null === $wrap ? $this->service : $wrap( $this->service ),
				'logger'    => $logger,
			)
		);
	}
}

$values  = $scenario['settings'];
$config  = new Config(
	new Settings_Store( Plugin_Bootstrap::schema(), 'checkout', Keys::SETTINGS_OPTION ),
	static function ( string $id ) use ( $values ) {
		return $values[ $id ] ?? '';
	}
);
$service = new C2C_Recorded_Service( (string) $values['partner_secret'] );
$door    = new C2C_Recorded_Door( $config, $service );
if ( 'Service_Health' !== $scenario['class'] ) {
	throw new LogicException( 'No class ' . $scenario['class'] . ' to build alone.' );
}
// What Plugin::build() gives it besides the door: this request's deadline, the work after its answer and the shared store's locks (unused here).
$deadline = new Request_Deadline();
$shared   = new Shared_Store();
$health   = new Service_Health( $door, new After_Answer( $shared, $deadline ), $deadline, $shared );

$steps = array();
foreach ( $scenario['steps'] as $step ) {
	$service->answers = $step['answers'] ?? array();
	$service->sent    = array();
	$door->lanes      = array();
	$GLOBALS['c2c_actions'] = array();
	switch ( $step['do'] ) {
		case 'confirm':
			$result = $health->confirm( 0 );
			break;
		case 'available':
			$result = $health->available();
			break;
		default:
			throw new LogicException( 'Unknown step ' . $step['do'] );
	}
	$state   = $health->state();
	$steps[] = array(
		'result'  => $result,
		'lanes'   => $door->lanes,
		'sent'    => $service->sent,
		'state'   => $state['state'] ?? null,
		'reason'  => $state['reason'] ?? null,
		'waits'   => isset( $state['retry_at'] ) ? (int) $state['retry_at'] - time() : null,
		'actions' => $GLOBALS['c2c_actions'],
		'left'    => count( $service->answers ),
	);
}

echo json_encode(
	array(
		'steps' => $steps,
		'buyer' => $health->buyer_message( false ),
	)
);

<?php
/**
 * Callback health and the settings check without WordPress (fakes in
 * wordpress-fakes.php, plus options written through update_option and the
 * partner API reached through a faked wp_safe_remote_post()).
 *
 * Input /work/scenario.json: {settings, order, attempts, case, ...}; case:
 * - "callbacks": {requests} as callback.php, then the health summary after each;
 * - "broken_option": update_option throws; {requests} answered as usual;
 * - "buckets": {refusals: [seconds ago...]} recorded, then the summary now;
 * - "check": {answers: [{status, body}|{network}], values: settings to save, fresh: [bool...]}
 *   Settings_Status::check() of Config::from_values() per fresh flag;
 * - "reconcile": {answers} Reconciler::check() with the configured client; the log.
 */

require __DIR__ . '/wordpress-fakes.php';

use Card2Crypto\Checkout\Callback_Controller;
use Card2Crypto\Checkout\Callback_Health;
use Card2Crypto\Checkout\Config;
use Card2Crypto\Checkout\Reconciler;
use Card2Crypto\Checkout\Settings_Status;
use Card2Crypto\Checkout\Shared\Json\Lossless_Json;
use Card2Crypto\Checkout\Shared\Signing\Signer;

$GLOBALS['c2c_update_option_fails'] = 'broken_option' === $scenario['case'];
function update_option( $name, $value, $autoload = null ) {
	if ( $GLOBALS['c2c_update_option_fails'] ) {
		throw new RuntimeException( 'the database is gone' );
	}
	$GLOBALS['c2c_options'][ $name ] = $value;
	return true;
}
function _n( $single, $plural, $number, $domain = '' ) {
	return 1 === (int) $number ? $single : $plural;
}
function remove_filter() {
	return true;
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
	private $message;
	public function __construct( $code, $message ) {
		$this->message = $message;
	}
	public function get_error_message() {
		return $this->message;
	}
}
/** The service's answers, in turn: {status, body} or {network: true}; {signed: {...}} is a 200 signed with the partner secret. */
$GLOBALS['c2c_http']       = $scenario['answers'] ?? array();
$GLOBALS['c2c_http_calls'] = array();
function wp_safe_remote_post( $url, $args ) {
	$GLOBALS['c2c_http_calls'][] = $url;
	$answer                      = array_shift( $GLOBALS['c2c_http'] );
	if ( null === $answer || isset( $answer['network'] ) ) {
		return new WP_Error( 'http_request_failed', 'cURL error 7: Failed to connect to service.test port 443' );
	}
	if ( isset( $answer['signed'] ) ) {
		$answer = array(
			'status' => 200,
			'body'   => Lossless_Json::encode( Signer::with_signature( Lossless_Json::decode_object( json_encode( $answer['signed'] ) ), $answer['secret'] ?? $GLOBALS['secret'] ) ),
		);
	}
	return array(
		'status'  => $answer['status'],
		'body'    => is_string( $answer['body'] ) ? $answer['body'] : json_encode( $answer['body'] ),
		'headers' => array(),
	);
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

/** @param array $request As callback.php. */
function c2c_send_callback( array $request, string $secret ) {
	$body = c2c_callback_body( $request, $secret );
	$_SERVER['REMOTE_ADDR'] = $request['ip'];
	return Callback_Controller::handle( new WP_REST_Request( $body, $request['headers'] ?? array() ) );
}

$results = array();
switch ( $scenario['case'] ) {
	case 'callbacks':
	case 'broken_option':
		foreach ( $scenario['requests'] as $request ) {
			$response  = c2c_send_callback( $request, $secret );
			$results[] = array(
				'status'  => $response->status,
				'summary' => Callback_Health::summary(),
			);
		}
		break;
	case 'buckets':
		$now = time();
		foreach ( $scenario['refusals'] as $ago ) {
			Callback_Health::record_refused( Callback_Health::SIGNATURE, $now - (int) $ago );
		}
		$results = array(
			'summary' => Callback_Health::summary( $now ),
			'hours'   => count( get_option( Callback_Health::OPTION )['hours'] ),
		);
		break;
	case 'check':
		$values = array_merge( get_option( 'woocommerce_card2crypto_settings' ), array( 'partner_secret' => $secret ), $scenario['values'] ?? array() );
		foreach ( $scenario['fresh'] as $fresh ) {
			$results[] = Settings_Status::check( Config::from_values( $values ), (bool) $fresh );
		}
		$results = array(
			'checks' => $results,
			'calls'  => count( $GLOBALS['c2c_http_calls'] ),
		);
		break;
	case 'reconcile':
		$attempt = $GLOBALS['wpdb']->rows( 'wp_card2crypto_attempts' )[0];
		$attempt['status_code'] = (int) $attempt['status_code'];
		$attempt['checks']      = (int) $attempt['checks'];
		$results                = array(
			'check' => Reconciler::check( $order, $attempt, 'reconcile' ),
			'log'   => $GLOBALS['c2c_log'],
		);
		break;
}
c2c_test_output( $results );

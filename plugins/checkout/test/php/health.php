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
 *   Settings_Status::check() of the gateway with_config() of those values per fresh flag;
 * - "reconcile": {answers} Reconciler::check() with the configured client; the log.
 * - "service_health": Service_Health->decide() on fixed states ("decide"), then
 *   {steps: [{do, answers?, seconds?}]}: do is "available", "confirm" (ok_age 0),
 *   "before_sending", "fixed_rate", "landing_url", "reconcile" (a real request), "age" (the
 *   state's time moved back by seconds), "status_box" (the status check, cached)
 *   or "run_queue" (the background checks queued so far run, as Action Scheduler
 *   would); after each: the result, the service calls, the state, the owner's
 *   line and how many background checks wait.
 */

require __DIR__ . '/wordpress-fakes.php';

use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Payment\Return_Pages;
use Card2Crypto\Checkout\Callback\Callback_Controller;
use Card2Crypto\Checkout\Service\Callback_Health;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Attempts\Attempt;
use Card2Crypto\Checkout\Partner\Service_Gateway;
use Card2Crypto\Checkout\Payment\Payment_Flows;
use Card2Crypto\Checkout\Service\Reconciler;
use Card2Crypto\Checkout\Service\Outage_Pay_Links;
use Card2Crypto\Checkout\Service\Service_Health;
use Card2Crypto\Checkout\Settings\Settings_Status;
use Card2Crypto\Checkout\Shared\Json\Lossless_Json;
use Card2Crypto\Checkout\Shared\Signing\Signer;
use Card2Crypto\Checkout\Attempts\Attempt_Store;

$GLOBALS['c2c_update_option_fails'] = 'broken_option' === $scenario['case'];
function update_option( $name, $value, $autoload = null ) {
	if ( $GLOBALS['c2c_update_option_fails'] ) {
		throw new RuntimeException( 'the database is gone' );
	}
	$GLOBALS['c2c_options'][ $name ] = $value;
	return true;
}
// Action Scheduler, as far as Service_Health uses it: a list of queued hooks.
$GLOBALS['c2c_queued'] = array();
function as_has_scheduled_action( $hook, $args = null, $group = '' ) {
	return in_array( $hook, $GLOBALS['c2c_queued'], true );
}
function as_enqueue_async_action( $hook, $args = array(), $group = '', $unique = false ) {
	$GLOBALS['c2c_queued'][] = $hook;
	return count( $GLOBALS['c2c_queued'] );
}
function as_schedule_single_action( $timestamp, $hook, $args = array(), $group = '', $unique = false ) {
	return as_enqueue_async_action( $hook, $args, $group );
}
function as_get_scheduled_actions( $args = array(), $return_format = 'OBJECT' ) {
	return array_keys( array_intersect( $GLOBALS['c2c_queued'], array( $args['hook'] ) ) );
}
function as_unschedule_all_actions( $hook, $args = array(), $group = '' ) {
	$GLOBALS['c2c_queued'] = array_values( array_diff( $GLOBALS['c2c_queued'], array( $hook ) ) );
}
function _n( $single, $plural, $number, $domain = '' ) {
	return 1 === (int) $number ? $single : $plural;
}
function wp_date( $format, $timestamp ) {
	return gmdate( 'Y-m-d H:i', $timestamp );
}
if ( ! function_exists( 'add_query_arg' ) ) {
	function add_query_arg( $key, $value, $url ) {
		return $url . ( false === strpos( $url, '?' ) ? '?' : '&' ) . $key . '=' . $value;
	}
}
/** The service's answers, in turn: {status, body} or {network: true}; {signed: {...}} is a 200 signed with the partner secret. */
$GLOBALS['c2c_http']       = $scenario['answers'] ?? array();
$GLOBALS['c2c_http_calls'] = array();
$GLOBALS['c2c_http_handler'] = static function ( $url, $args ) {
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
		'headers' => $answer['headers'] ?? array(),
	);
};

/** @param array $request As callback.php. */
function c2c_send_callback( array $request, string $secret ) {
	$body = c2c_callback_body( $request, $secret );
	$_SERVER['REMOTE_ADDR'] = $request['ip'];
	return Plugin::service( Callback_Controller::class )->handle( new WP_REST_Request( $body, $request['headers'] ?? array() ) );
}

$results = array();
switch ( $scenario['case'] ) {
	case 'callbacks':
	case 'broken_option':
		foreach ( $scenario['requests'] as $request ) {
			$response  = c2c_send_callback( $request, $secret );
			$results[] = array(
				'status'  => $response->status,
				'summary' => Plugin::service( Callback_Health::class )->summary(),
			);
		}
		break;
	case 'buckets':
		$now = time();
		foreach ( $scenario['refusals'] as $ago ) {
			Plugin::service( Callback_Health::class )->record_refused( Callback_Health::SIGNATURE, $now - (int) $ago );
		}
		$results = array(
			'summary' => Plugin::service( Callback_Health::class )->summary( $now ),
			'hours'   => count( get_option( Callback_Health::OPTION )['hours'] ),
		);
		break;
	case 'check':
		$values = array_merge( get_option( 'woocommerce_card2crypto_settings' ), array( 'partner_secret' => $secret ), $scenario['values'] ?? array() );
		foreach ( $scenario['fresh'] as $fresh ) {
			$results[] = Plugin::service( Settings_Status::class )->check( Plugin::service( Service_Gateway::class )->with_config( Plugin::service( Config::class )->with_values( $values ) ), (bool) $fresh );
		}
		$results = array(
			'checks' => $results,
			'calls'  => count( $GLOBALS['c2c_http_calls'] ),
		);
		break;
	case 'reconcile':
		$attempt = Attempt::from_row( $GLOBALS['wpdb']->rows( 'wp_card2crypto_attempts' )[0] );
		$results                = array(
			'check' => Plugin::service( Reconciler::class )->check( $order, $attempt, 'reconcile' ),
			'log'   => $GLOBALS['c2c_log'],
		);
		break;
	case 'service_health':
		// As the wiring (Plugin::boot()) registers it: the service's return queues the waiting orders' e-mails.
		Plugin::service( Outage_Pay_Links::class )->register();
		$config  = Plugin::service( Config::class );
		$door    = Plugin::service( Service_Gateway::class );
		$health  = Plugin::service( Service_Health::class );
		$key     = $health->fingerprint();
		$now     = time();
		$state   = static function ( string $state, int $ago, ?string $other = null ) use ( $key, $now ) {
			return array(
				'state' => $state,
				'at'    => $now - $ago,
				'key'   => $other ?? $key,
			);
		};
		$decide  = array(
			'none'             => $health->decide( null, $key, $now ),
			'other_settings'   => $health->decide( $state( 'refused', 1, 'another' ), $key, $now ),
			'ok_299s'          => $health->decide( $state( 'ok', 299 ), $key, $now ),
			'ok_300s'          => $health->decide( $state( 'ok', 300 ), $key, $now ),
			'refused_59s'      => $health->decide( $state( 'refused', 59 ), $key, $now ),
			'refused_60s'      => $health->decide( $state( 'refused', 60 ), $key, $now ),
			'from_the_future'  => $health->decide( $state( 'ok', -30 ), $key, $now ),
			'ok_ask_again'     => $health->decide( $state( 'ok', 1 ), $key, $now, 0 ),
			'refused_no_again' => $health->decide( $state( 'refused', 1 ), $key, $now, 0 ),
			// A 429 or 5xx: the last verdict stands until retry_at, whatever its age; before any verdict, offered.
			'ok_busy_wait'     => $health->decide( $state( 'ok', 900 ) + array( 'retry_at' => $now + 30 ), $key, $now, 0 ),
			'refused_busy'     => $health->decide( $state( 'refused', 900 ) + array( 'retry_at' => $now + 30 ), $key, $now ),
			'busy_waits'       => $health->decide( $state( 'busy', 5 ) + array( 'retry_at' => $now + 30 ), $key, $now ),
			'busy_over'        => $health->decide( $state( 'busy', 31 ) + array( 'retry_at' => $now - 1 ), $key, $now ),
			'busy_too_far'     => $health->decide( $state( 'ok', 900 ) + array( 'retry_at' => $now + 7200 ), $key, $now ),
		);
		$attempt = Attempt::from_row( $GLOBALS['wpdb']->rows( 'wp_card2crypto_attempts' )[0] );
		$steps                  = array();
		foreach ( $scenario['steps'] as $step ) {
			$GLOBALS['c2c_http']       = $step['answers'] ?? array();
			$GLOBALS['c2c_http_calls'] = array();
			$result                    = null;
			try {
				switch ( $step['do'] ) {
					case 'available':
						$result = $health->available();
						break;
					case 'confirm':
						$result = $health->confirm( 0 );
						break;
					case 'before_sending':
						$health->before_sending();
						$result = 'sent';
						break;
					case 'fixed_rate':
						$result = Plugin::service( Payment_Flows::class )->fixed_rate( $attempt );
						break;
					case 'landing_url':
						$result = Plugin::service( Payment_Flows::class )->landing_url( $order, $attempt, Plugin::service( Return_Pages::class )->fail_url( $order ) );
						break;
					case 'reconcile':
						$result = Plugin::service( Reconciler::class )->check( $order, $attempt, 'reconcile' )->ok();
						break;
					case 'status_box':
						$result = Plugin::service( Settings_Status::class )->check( $door );
						break;
					case 'started':
						// Attempts that count toward the order's hourly cap.
						$result = Plugin::service( Attempt_Store::class )->attempts_started_since( 7, '1970-01-01 00:00:00' );
						break;
					case 'run_queue':
						$queued                = $GLOBALS['c2c_queued'];
						$GLOBALS['c2c_queued'] = array();
						foreach ( $queued as $hook ) {
							if ( Service_Health::HOOK === $hook ) {
								$health->run_check();
							}
							// Outage_Pay_Links::HOOK (mailing the orders waiting for card payment) is counted, not run: it needs WooCommerce's orders and mailer (e2e: checkout-service-refuses.spec.ts).
						}
						$result = count( array_diff( $queued, array( Outage_Pay_Links::HOOK ) ) );
						break;
					case 'age':
						$moved = get_option( Service_Health::OPTION );
						if ( is_array( $moved ) ) {
							$moved['at'] = (int) $moved['at'] - (int) $step['seconds'];
							if ( isset( $moved['retry_at'] ) ) {
								// Time moves for the wait a 429 or 5xx asked for too.
								$moved['retry_at'] = (int) $moved['retry_at'] - (int) $step['seconds'];
							}
							update_option( Service_Health::OPTION, $moved );
						}
						// The store-wide budget ages too: a 429's pause (Service_Gateway) has passed as well.
						$bucket = json_decode( (string) $GLOBALS['wpdb']->get_var( $GLOBALS['wpdb']->prepare( 'SELECT option_value FROM wp_options WHERE option_name = %s', Service_Gateway::BUCKET_OPTION ) ), true );
						if ( is_array( $bucket ) ) {
							$bucket['at']           -= 1000 * (int) $step['seconds'];
							$bucket['paused_until'] -= 1000 * (int) $step['seconds'];
							$GLOBALS['wpdb']->update( 'wp_options', array( 'option_value' => json_encode( $bucket ) ), array( 'option_name' => Service_Gateway::BUCKET_OPTION ) );
						}
						break;
				}
			} catch ( Throwable $e ) {
				$result = ( new ReflectionClass( $e ) )->getShortName() . ': ' . $e->getMessage();
			}
			$now_state = $health->state();
			$steps[]   = array(
				'result' => $result,
				'calls'  => array_map( 'basename', $GLOBALS['c2c_http_calls'] ),
				'state'  => null === $now_state ? null : $now_state['state'],
				'reason' => null === $now_state ? null : $now_state['reason'],
				'owner'  => $health->owner_line(),
				// Background checks waiting; the pay-link e-mails of waiting orders (Outage_Pay_Links) apart.
				'queued' => count( array_diff( $GLOBALS['c2c_queued'], array( Outage_Pay_Links::HOOK ) ) ),
				'mail'   => count( array_intersect( $GLOBALS['c2c_queued'], array( Outage_Pay_Links::HOOK ) ) ),
			);
		}
		$results = array(
			'decide'  => $decide,
			'steps'   => $steps,
			'buyer'   => $health->buyer_message(),
			'others'  => $health->buyer_message( true ),
			'alone'   => $health->buyer_message( false ),
			'log'     => $GLOBALS['c2c_log'],
		);
		break;
}
c2c_test_output( $results );

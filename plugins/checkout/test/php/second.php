<?php
/**
 * Runs Payment_Flows::start() / fitting() without WordPress (fakes
 * in wordpress-fakes.php) while the order's one earlier attempt may still be
 * under way: the store asks the service (answers from a list), applies the
 * answer and decides. Prints, per step, whether a new attempt started or what
 * the buyer is told, the order's status and new notes, the attempts and the
 * service calls.
 *
 * Input /work/scenario.json: {settings, order, attempts, steps}; each step
 * {call: start|fitting, service: [answers], attempt?: {status, status_code,
 * minutes_ago?, news_minutes_ago?}, meanwhile?: true} (attempt: what the store
 * knew before Pay was pressed; started minutes_ago, last news
 * news_minutes_ago, by default the same; meanwhile: another request, a second
 * press of Pay, starts attempt wc-7-meanwhile while this one asks the service;
 * other_server: the step lands on another web server, whose object cache holds
 * none of the transients the earlier steps set).
 */

require __DIR__ . '/wordpress-fakes.php';

use Card2Crypto\Checkout\Attempts\Start_Budget;
use Card2Crypto\Checkout\Attempts\Payment_Held;
use Card2Crypto\Checkout\Payment\Payment_Flows;
use Card2Crypto\Checkout\Payment\Start_Gate;
use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Service\Service_Health;

// The service accepted the store a moment ago: the gate does not ask it again (Service_Health).
Plugin::service( Service_Health::class )->record_check( null );
$payments = Plugin::service( Payment_Flows::class );
$results  = array();
foreach ( $scenario['steps'] as $step ) {
	$service->answers = $step['service'] ?? array();
	$service->calls   = array();
	if ( isset( $step['attempt'] ) ) {
		$GLOBALS['wpdb']->query(
			$GLOBALS['wpdb']->prepare(
				"UPDATE wp_card2crypto_attempts SET status = %s, status_code = %d, operation_id = CASE WHEN %d = -1 THEN NULL ELSE 'op-1' END, created_at = %s, updated_at = %s",
				$step['attempt']['status'],
				$step['attempt']['status_code'],
				$step['attempt']['status_code'],
				gmdate( 'Y-m-d H:i:s', time() - 60 * (int) ( $step['attempt']['minutes_ago'] ?? 0 ) ),
				gmdate( 'Y-m-d H:i:s', time() - 60 * (int) ( $step['attempt']['news_minutes_ago'] ?? $step['attempt']['minutes_ago'] ?? 0 ) )
			)
		);
	}
	if ( ! empty( $step['other_server'] ) ) {
		foreach ( array_keys( $GLOBALS['c2c_options'] ) as $name ) {
			if ( 0 === strpos( $name, '_transient_' ) ) {
				unset( $GLOBALS['c2c_options'][ $name ] );
			}
		}
	}
	if ( ! empty( $step['meanwhile'] ) ) {
		$service->meanwhile = static function () use ( $order, $scenario ) {
			$GLOBALS['wpdb']->insert(
				'wp_card2crypto_attempts',
				array(
					'order_id'             => $order->get_id(),
					'partner_operation_id' => 'wc-7-meanwhile',
					'expected_amount'      => 7900,
					'expected_currency'    => 'EUR',
					'expected_wallet'      => $scenario['settings']['wallet_address'],
					'status'               => '',
					'status_code'          => -1,
					'version'              => 0,
					'created_at'           => gmdate( 'Y-m-d H:i:s' ),
					'updated_at'           => gmdate( 'Y-m-d H:i:s' ),
				)
			);
			$order->update_meta_data( '_card2crypto_partner_operation_id', 'wc-7-meanwhile' );
		};
	}
	$notes_before = count( $order->notes );
	try {
		$attempt = 'fitting' === ( $step['call'] ?? 'start' )
			? $payments->fitting( $order, '192.0.2.10' )
			: $payments->start( $order, '192.0.2.10', Start_Gate::SIGNING );
		$result  = array( 'started' => $attempt->partner_operation_id() );
	} catch ( Payment_Held $e ) {
		$result = array( 'held' => $e->outcome );
	} catch ( Throwable $e ) {
		$result = array( 'error' => get_class( $e ) . ': ' . $e->getMessage() );
	}
	$results[] = $result + array(
		'status'        => $order->status,
		'new_notes'     => array_slice( $order->notes, $notes_before ),
		'attempts'      => array_map(
			static function ( $row ) {
				return $row['partner_operation_id'] . ' ' . $row['status'] . ' ' . $row['status_code'];
			},
			$GLOBALS['wpdb']->rows( 'wp_card2crypto_attempts' )
		),
		'service_calls' => count( $service->calls ),
		// How many passes through the gate the order's budget counted in this minute (Start_Budget).
		'budget'        => Plugin::service( Start_Budget::class )->spent( 'order_' . $order->get_id() ),
		'cancelled'     => array_values(
			array_map(
				static function ( $call ) {
					return $call['operation_id'];
				},
				array_filter(
					$service->calls,
					static function ( $call ) {
						return '/params/cancel' === substr( $call['url'], -strlen( '/params/cancel' ) );
					}
				)
			)
		),
	);
}
c2c_test_output( $results );

<?php
/**
 * Calls the plugin's pure functions for the Node tests: reads
 * /work/calls.json, a list of [function, ...arguments], prints the results
 * ({"value": ...} or {"error": "Class: message"}).
 */

use Card2Crypto\Checkout\Rules\Address_Policy;
use Card2Crypto\Checkout\Rules\Attempt_Policy;
use Card2Crypto\Checkout\Rules\Callback_Guard;
use Card2Crypto\Checkout\Rules\Clock_Refusal;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Exception;
use Card2Crypto\Checkout\Shared\Client\Client_Ip;
use Card2Crypto\Checkout\Rules\Currencies;
use Card2Crypto\Checkout\Rules\Page_Language;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Rules\Order_Decision;
use Card2Crypto\Checkout\Rules\Payment_Match;
use Card2Crypto\Checkout\Rules\Reconcile_Pace;
use Card2Crypto\Checkout\Rules\Service_Lanes;
use Card2Crypto\Checkout\Attempts\Attempt;
use Card2Crypto\Checkout\Attempts\Start_Budget;
use Card2Crypto\Checkout\Rules\Service_Times;
use Card2Crypto\Checkout\Shared\Budget\Visitor_Budget;
use Card2Crypto\Checkout\Rules\Status_Flow;
use Card2Crypto\Checkout\Shared\Callback\Callback_Verifier;
use Card2Crypto\Checkout\Shared\Json\Lossless_Json;
use Card2Crypto\Checkout\Shared\Signing\Canonical;
use Card2Crypto\Checkout\Shared\Signing\Signer;

require __DIR__ . '/bootstrap.php';

$functions = array(
	'decide'          => static function ( ?array $from, array $to ) {
		return Status_Flow::decide( $from, $to );
	},
	'decide_all'      => static function ( array $cases ) {
		return array_map(
			static function ( array $c ) {
				return Status_Flow::decide( $c['from'], $c['to'] );
			},
			$cases
		);
	},
	'classify'        => array( Status_Flow::class, 'classify' ),
	'order_decision'  => static function ( array $facts ) {
		return Order_Decision::decide( $facts )->to_array();
	},
	'order_decisions' => static function ( array $cases ) {
		return array_map(
			static function ( array $facts ) {
				return Order_Decision::decide( $facts )->to_array();
			},
			$cases
		);
	},
	'match'           => array( Payment_Match::class, 'compare' ),
	'same_address'    => array( Payment_Match::class, 'same_address' ),
	'fiat'            => array( Currencies::class, 'all' ),
	'to_minor'        => array( Currencies::class, 'to_minor' ),
	'page_language'   => array( Page_Language::class, 'of' ),
	'limit_problem'   => array( Currencies::class, 'limit_problem' ),
	'canonical'       => static function ( string $json ) {
		return Canonical::of( Lossless_Json::decode_object( $json ) );
	},
	'ambiguity'       => static function ( string $json ) {
		return Callback_Verifier::ambiguity( Lossless_Json::decode_object( $json ) );
	},
	'reusable'        => static function ( ?array $row, ?int $amount, string $currency, string $wallet ) {
		// The test gives a row of the attempts table, as the store reads it.
		return Attempt_Policy::reusable( null === $row ? null : Attempt::from_row( $row )->reuse_facts(), $amount, $currency, $wallet );
	},
	'address_cap'     => array( Address_Policy::class, 'cap' ),
	'address_standing' => array( Address_Policy::class, 'standing' ),
	'address_releasable' => array( Address_Policy::class, 'releasable' ),
	'over_cap'        => array( Attempt_Policy::class, 'over_cap' ),
	'interval_ms'     => array( Reconcile_Pace::class, 'interval_ms' ),
	'next_send_ms'    => array( Reconcile_Pace::class, 'next_send_ms' ),
	'retry_wait'      => array( Reconcile_Pace::class, 'retry_wait' ),
	'batch_size'      => array( Reconcile_Pace::class, 'batch_size' ),
	'before_new_payment' => array( Attempt_Policy::class, 'before_new_payment' ),
	'too_large'       => array( Callback_Guard::class, 'body_too_large' ),
	'is_route'        => array( Callback_Guard::class, 'is_route' ),
	'client_ip'       => array( Client_Ip::class, 'of' ),
	'canonical_settings' => array( Callback_Guard::class, 'canonical_settings' ),
	'counts'          => array( Callback_Guard::class, 'counts_toward_budget' ),
	'failures'        => static function ( array $times ) {
		// Counts a refusal at each time and says, after each, whether the address is now over the limit.
		$window = null;
		$over   = array();
		foreach ( $times as $now ) {
			$window = Callback_Guard::count_failure( $window, $now );
			$over[] = Callback_Guard::over_limit( $window, $now );
		}
		return $over;
	},
	'leading'         => array( Status_Flow::class, 'leading' ),
	'budget_take'     => static function ( array $times, int $limit, bool $count_refused = true ) {
		// One request at each time; after each, whether it fit the budget.
		$window = null;
		$fit    = array();
		foreach ( $times as $now ) {
			$window = Visitor_Budget::window( $window, $limit, $now, Start_Budget::WINDOW, $count_refused );
			$fit[]  = $window['ok'];
		}
		return $fit;
	},
	'rate_valid'      => array( Service_Times::class, 'still_valid' ),
	'window_start'    => array( Service_Times::class, 'window_start' ),
	'forwarding'      => array( Client_Ip::class, 'forwarding_header' ),
	'lock_name_for'   => array( new Shared_Store(), 'lock_name_for' ),
	'lane_reserve'    => array( Service_Lanes::class, 'reserve' ),
	'lane_rate'       => array( Service_Lanes::class, 'rate' ),
	'lane_of'         => array( Service_Lanes::class, 'lane' ),
	'lane_for_visitors' => array( Service_Lanes::class, 'for_visitors' ),
	'lane_pause'      => array( Service_Lanes::class, 'pause' ),
	'lane_take'       => array( Service_Lanes::class, 'take' ),
	'lane_requests'   => static function ( array $requests, int $rate ) {
		// [lane, ms] in turn, from a full bucket at the first time (a state kept as the database keeps it: JSON);
		// after each: taken, or the wait.
		$state = null;
		$out   = array();
		foreach ( $requests as $request ) {
			$taken = Service_Lanes::take( null === $state ? null : json_decode( (string) json_encode( $state ), true ), $request[0], $rate, $request[1] );
			if ( null === $state || $taken['ok'] ) {
				$state = $taken['state'];
			}
			$out[] = $taken['ok'] ? 'ok' : $taken['wait_ms'];
		}
		return $out;
	},
	'clock_refusal'   => static function ( array $details ) {
		return Clock_Refusal::is( new Partner_Api_Exception( $details ) );
	},
	'sign_settings'   => static function ( array $settings, string $secret ) {
		return Signer::with_signature( $settings, $secret, 'simple' );
	},
);

c2c_test_run_calls( $functions );

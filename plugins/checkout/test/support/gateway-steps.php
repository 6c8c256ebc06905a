<?php
/**
 * Steps of test/wordpress/service-gateway.test.ts inside a real store (run
 * by the harness's runPhp with WordPress loaded, as reconcile-steps.php):
 *
 * - "flood": {lane, count | lanes, start_at?, spend?, spent_ms?, sandbox?, tokens?}: from
 *   `start_at` (ms since the epoch, so that several processes start
 *   together), `count` signed params requests through the store's service
 *   gateway in `lane` (or one in each of `lanes`, in turn), one after
 *   another; each "ok", "kept" (the store kept it back: store_rate_limit),
 *   "429" (the service refused it) or the error, with the milliseconds it
 *   took (sent). With `spend`, first that many requests of other traffic of
 *   the same partner, not through the gateway (other: their statuses); with
 *   `spent_ms` (and `sandbox`, its URL), the sandbox's dashboard spends the
 *   partner's rate that long, as other traffic would. With
 *   `tokens`, the bucket holds that many first ("set_bucket", in the same
 *   process: no time passes in between).
 * - "bucket": the store-wide bucket as stored, and the milliseconds its pause has left.
 * - "set_bucket": {tokens, paused_ms?}: the bucket holds `tokens` now (and,
 *   with paused_ms, the store is paused that long); time moved rather than waited for.
 * - "fixed_rate": {tokens?, paused_ms?}: the bucket set first as "set_bucket", then a buyer fixing the rate for an attempt of 79.00 in the
 *   store's currency (Payment_Flows::fixed_rate(), as the landing and widget
 *   routes do): whether a rate came, or the buyer's words, and the
 *   milliseconds it took.
 *
 * @package card2crypto-checkout
 */

use Card2Crypto\Checkout\Attempts\Attempt;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Partner\Lane_Transport;
use Card2Crypto\Checkout\Partner\Service_Gateway;
use Card2Crypto\Checkout\Payment\Payment_Flows;
use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Client;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Exception;
use Card2Crypto\Checkout\Shared\Api\Wp_Http_Transport;

/** The bucket holds $tokens now, paused $paused_ms more milliseconds. */
function c2c_gateway_bucket( float $tokens, int $paused_ms ): array {
	global $wpdb;
	$now   = (int) floor( microtime( true ) * 1000 );
	$state = array(
		'tokens'       => $tokens,
		'at'           => $now,
		'paused_until' => $now + $paused_ms,
	);
	$wpdb->query( $wpdb->prepare( 'DELETE FROM %i WHERE option_name = %s', $wpdb->options, Service_Gateway::BUCKET_OPTION ) );
	$wpdb->insert(
		$wpdb->options,
		array(
			'option_name'  => Service_Gateway::BUCKET_OPTION,
			'option_value' => wp_json_encode( $state ),
			'autoload'     => 'no',
		)
	);
	return $state;
}

function c2c_gateway_step( string $action, array $input ) {
	global $wpdb;
	$door = Plugin::service( Service_Gateway::class );
	switch ( $action ) {
		case 'flood':
			$start = (int) ( $input['start_at'] ?? 0 );
			$now   = (int) floor( microtime( true ) * 1000 );
			if ( $start > $now ) {
				usleep( ( $start - $now ) * 1000 );
			}
			$other = array();
			if ( ! empty( $input['spend'] ) ) {
				$config      = Plugin::service( Config::class );
				$credentials = $config->credentials();
				$outside     = new Partner_Api_Client( $config->base_url(), $credentials->token(), $credentials->secret(), array( 'transport' => new Wp_Http_Transport( $config->base_url() ) ) );
				for ( $i = 0; $i < (int) $input['spend']; $i++ ) {
					try {
						$outside->params();
						$other[] = 200;
					} catch ( Partner_Api_Exception $e ) {
						$other[] = $e->status;
					}
				}
			}
			if ( ! empty( $input['spent_ms'] ) ) {
				// Other traffic of the partner spent its rate at the service just now (the sandbox's dashboard says so, no race with its refill).
				$token = Plugin::service( Config::class )->credentials()->token();
				$reply = wp_remote_post(
					rtrim( (string) $input['sandbox'], '/' ) . '/dashboard/api/partners/' . rawurlencode( $token ) . '/rate',
					array(
						'headers' => array(
							'content-type'            => 'application/json',
							'x-card2crypto-dashboard' => '1',
						),
						'body'    => wp_json_encode( array( 'spent_ms' => (int) $input['spent_ms'] ) ),
					)
				);
				if ( 200 !== wp_remote_retrieve_response_code( $reply ) ) {
					throw new RuntimeException( 'the sandbox did not spend the rate: ' . wp_remote_retrieve_body( $reply ) );
				}
			}
			if ( isset( $input['tokens'] ) ) {
				c2c_gateway_bucket( (float) $input['tokens'], 0 );
			}
			$lanes = $input['lanes'] ?? array_fill( 0, (int) $input['count'], (string) $input['lane'] );
			$out   = array();
			foreach ( $lanes as $lane ) {
				$client = $door->client( (string) $lane, static function (): void {} );
				$began  = microtime( true );
				try {
					$client->params();
					$what = 'ok';
				} catch ( Partner_Api_Exception $e ) {
					$what = 429 === $e->status ? ( Lane_Transport::KEPT_BACK === $e->error_code ? 'kept' : '429' ) : $e->getMessage();
				}
				$out[] = array( $what, (int) round( ( microtime( true ) - $began ) * 1000 ) );
			}
			return array(
				'sent'  => $out,
				'other' => $other,
			);

		case 'bucket':
			return array(
				'row'       => json_decode( (string) $wpdb->get_var( $wpdb->prepare( 'SELECT option_value FROM %i WHERE option_name = %s', $wpdb->options, Service_Gateway::BUCKET_OPTION ) ), true ),
				'paused_ms' => $door->paused_ms(),
			);

		case 'set_bucket':
			return c2c_gateway_bucket( (float) $input['tokens'], (int) ( $input['paused_ms'] ?? 0 ) );

		case 'fixed_rate':
			if ( isset( $input['tokens'] ) ) {
				c2c_gateway_bucket( (float) $input['tokens'], (int) ( $input['paused_ms'] ?? 0 ) );
			}
			$attempt = Attempt::from_row(
				array(
					'order_id'             => 0,
					'partner_operation_id' => 'wc-0-' . bin2hex( random_bytes( 6 ) ),
					'expected_amount'      => 7900,
					'expected_currency'    => Plugin::service( Config::class )->currency(),
					'status_code'          => 0,
				)
			);
			$began   = microtime( true );
			try {
				$rate = Plugin::service( Payment_Flows::class )->fixed_rate( $attempt );
				$what = array( 'rate' => null !== $rate );
			} catch ( Throwable $e ) {
				$what = array( 'error' => get_class( $e ) . ': ' . $e->getMessage() );
			}
			return $what + array( 'ms' => (int) round( ( microtime( true ) - $began ) * 1000 ) );
	}
	throw new RuntimeException( "unknown step {$action}" );
}

try {
	$c2c_result = array( 'value' => c2c_gateway_step( $c2c_step['action'], $c2c_step['input'] ) );
} catch ( Throwable $c2c_error ) {
	$c2c_result = array( 'error' => get_class( $c2c_error ) . ': ' . $c2c_error->getMessage() );
}
file_put_contents( $c2c_step['out'], wp_json_encode( $c2c_result ) );

<?php
/**
 * Steps of test/wordpress/no-wait.test.ts inside a real store (run by the
 * harness's runPhp with WordPress loaded; test/support/reconcile-store.ts's
 * phpStep() writes $c2c_step = array( action, input, out ) before requiring
 * this file). Time is moved by ageing what the store keeps, never by waiting.
 * Written against the store's options and its lock names only where the
 * classes of the change are missing, so that the test also runs (and fails)
 * on the code before it.
 *
 * - "settings": {values}: merged into the checkout's settings as stored.
 * - "cold": the store never had an answer from the service: its kept answers,
 *   health state and queued refreshes are removed.
 * - "kept": what the store keeps of the service's answers (countries,
 *   prices) and its health state.
 * - "age": {seconds}: everything the store keeps from the service was
 *   answered (and may be asked again) that much earlier; the store-wide
 *   budget's refill and a 429's pause of the whole store moved as much.
 * - "hold": holds the locks of the refresh and the health check after the
 *   answer (another request refreshing right now) until {release} exists;
 *   writes {ready} once they are held.
 * - "order": a pending card order of the buyer's (EUR 79.00) with an
 *   attempt placing it started (not yet signed); its landing link.
 * - "signed": {order}: its current attempt as signed for the buyer (the
 *   landing link was followed once), its kept rate forgotten.
 * - "order_state": {order}: status, whether it needs payment, its attempts, notes.
 * - "queued": the refresh actions waiting (Action Scheduler).
 *
 * @package card2crypto-checkout
 */

use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Payment\Payment_Flows;
use Card2Crypto\Checkout\Service\Service_Health;
use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Attempts\Attempt_Store;

const C2C_ANSWERS = array( 'card2crypto_checkout_answer_countries', 'card2crypto_checkout_answer_prices' );

function c2c_nowait_forget(): void {
	wp_cache_delete( 'alloptions', 'options' );
	wp_cache_delete( 'notoptions', 'options' );
	foreach ( array_merge( C2C_ANSWERS, array( Service_Health::OPTION ) ) as $name ) {
		wp_cache_delete( $name, 'options' );
	}
}

function c2c_nowait_step( string $action, array $input ) {
	switch ( $action ) {
		case 'settings':
			global $wpdb;
			$settings = get_option( Keys::SETTINGS_OPTION, array() );
			$wpdb->update( $wpdb->options, array( 'option_value' => maybe_serialize( array_merge( is_array( $settings ) ? $settings : array(), $input ) ) ), array( 'option_name' => Keys::SETTINGS_OPTION ) );
			wp_cache_delete( 'alloptions', 'options' );
			wp_cache_delete( Keys::SETTINGS_OPTION, 'options' );
			return get_option( Keys::SETTINGS_OPTION );

		case 'cold':
			foreach ( array_merge( C2C_ANSWERS, array( Service_Health::OPTION, 'card2crypto_checkout_countries_last' ) ) as $name ) {
				delete_option( $name );
			}
			delete_transient( 'card2crypto_checkout_countries' );
			delete_transient( 'card2crypto_checkout_pairs' );
			if ( function_exists( 'as_unschedule_all_actions' ) ) {
				as_unschedule_all_actions( 'card2crypto_checkout_refresh_answers' );
				as_unschedule_all_actions( Service_Health::HOOK );
			}
			return null;

		case 'kept':
			c2c_nowait_forget();
			return array(
				'countries' => get_option( C2C_ANSWERS[0], null ),
				'prices'    => get_option( C2C_ANSWERS[1], null ),
				'health'    => get_option( Service_Health::OPTION, null ),
				'now'       => time(),
			);

		case 'age':
			global $wpdb;
			c2c_nowait_forget();
			$by = (int) $input['seconds'];
			foreach ( array_merge( C2C_ANSWERS, array( Service_Health::OPTION ) ) as $name ) {
				$kept = get_option( $name, null );
				if ( is_array( $kept ) ) {
					foreach ( array( 'at', 'asked', 'next', 'retry_at', 'since' ) as $field ) {
						if ( isset( $kept[ $field ] ) ) {
							$kept[ $field ] = (int) $kept[ $field ] - $by;
						}
					}
					update_option( $name, $kept );
				}
			}
			// The store-wide budget ages too (Partner\Service_Gateway's row, in milliseconds): a 429's pause of the whole store has passed as well.
			$bucket = json_decode( (string) $wpdb->get_var( $wpdb->prepare( 'SELECT option_value FROM %i WHERE option_name = %s', $wpdb->options, 'card2crypto_checkout_service_bucket' ) ), true );
			if ( is_array( $bucket ) ) {
				foreach ( array( 'at', 'paused_until' ) as $field ) {
					if ( isset( $bucket[ $field ] ) ) {
						$bucket[ $field ] = (int) $bucket[ $field ] - 1000 * $by;
					}
				}
				$wpdb->update( $wpdb->options, array( 'option_value' => wp_json_encode( $bucket ) ), array( 'option_name' => 'card2crypto_checkout_service_bucket' ) );
			}
			// The store before this change kept them as transients: the same time has passed for them.
			delete_transient( 'card2crypto_checkout_pairs' );
			if ( $by >= 12 * HOUR_IN_SECONDS ) {
				delete_transient( 'card2crypto_checkout_countries' );
			}
			return null;

		case 'hold':
			global $wpdb;
			$names = array( Plugin::service( Shared_Store::class )->lock_name( 'card2crypto_checkout_answers' ), Plugin::service( Shared_Store::class )->lock_name( Service_Health::LOCK ) );
			foreach ( $names as $name ) {
				if ( '1' !== (string) $wpdb->get_var( $wpdb->prepare( 'SELECT GET_LOCK(%s, 5)', $name ) ) ) {
					throw new RuntimeException( "the lock {$name} could not be taken" );
				}
			}
			file_put_contents( (string) $input['ready'], '1' );
			for ( $waited = 0; $waited < 1200 && ! file_exists( (string) $input['release'] ); $waited++ ) {
				usleep( 50000 );
			}
			foreach ( $names as $name ) {
				$wpdb->query( $wpdb->prepare( 'SELECT RELEASE_LOCK(%s)', $name ) );
			}
			return $names;

		case 'order':
			$order = wc_create_order();
			$order->set_currency( 'EUR' );
			$order->set_payment_method( Keys::GATEWAY_ID );
			$order->set_payment_method_title( 'Card' );
			$order->set_billing_first_name( 'Slow' );
			$order->set_billing_email( 'slow-' . bin2hex( random_bytes( 3 ) ) . '@example.com' );
			$order->set_billing_country( 'DE' );
			$order->set_total( '79.00' );
			$order->set_status( 'pending' );
			$order->save();
			$settings = get_option( Keys::SETTINGS_OPTION, array() );
			$pid      = 'wc-' . $order->get_id() . '-' . bin2hex( random_bytes( 12 ) );
			Plugin::service( Attempt_Store::class )->create_attempt( $order->get_id(), $pid, 7900, 'EUR', (string) $settings['wallet_address'] );
			$order->update_meta_data( Keys::META_ATTEMPT, $pid );
			$order->update_meta_data( Keys::META_UNSIGNED, $pid );
			$order->save();
			return array(
				'id'      => $order->get_id(),
				'landing' => \Card2Crypto\Checkout\Plugin::service( Payment_Flows::class )->landing_link( $order ),
			);

		case 'signed':
			$order = wc_get_order( (int) $input['order'] );
			$pid   = (string) $order->get_meta( Keys::META_ATTEMPT );
			$order->delete_meta_data( Keys::META_UNSIGNED );
			$order->save();
			delete_transient( 'card2crypto_checkout_rate_' . md5( $pid ) );
			return $pid;

		case 'order_state':
			$order = wc_get_order( (int) $input['order'] );
			return array(
				'status'        => $order->get_status(),
				'needs_payment' => $order->needs_payment(),
				'attempts'      => array_map(
					static function ( $a ) {
						return array(
							'partner_operation_id' => $a->partner_operation_id(),
							'unsent'               => (int) $a->unsent(),
						);
					},
					Plugin::service( Attempt_Store::class )->attempts_of_order( $order->get_id() )
				),
				'notes'         => array_map(
					static function ( $note ) {
						return $note->content;
					},
					array_reverse( wc_get_order_notes( array( 'order_id' => $order->get_id() ) ) )
				),
			);

		case 'queued':
			return function_exists( 'as_get_scheduled_actions' ) ? count(
				as_get_scheduled_actions(
					array(
						'hook'   => 'card2crypto_checkout_refresh_answers',
						'status' => ActionScheduler_Store::STATUS_PENDING,
					)
				)
			) : 0;
	}
	throw new RuntimeException( "unknown step {$action}" );
}

try {
	$c2c_result = array( 'value' => c2c_nowait_step( $c2c_step['action'], $c2c_step['input'] ) );
} catch ( Throwable $c2c_error ) {
	$c2c_result = array( 'error' => get_class( $c2c_error ) . ': ' . $c2c_error->getMessage() );
}
file_put_contents( $c2c_step['out'], wp_json_encode( $c2c_result ) );

<?php
/**
 * Steps of test/wordpress/confirm-retry.test.ts inside a real store (run by
 * the harness's runPhp with WordPress loaded; reconcile-store.ts's phpStep()
 * writes $c2c_step = array( action, input, out ) before requiring this
 * file). Time is moved by setting the store-wide bucket (a pause that has
 * ended) and running the queued try on demand, never by waiting.
 *
 * - "order": {tag}: an unpaid card order of 79.00 in the store's currency
 *   with one attempt sent to the service (partner operation id
 *   wc-<order>-<tag>, the store's wallet); what the service must report for it to match.
 * - "deliver": {order, operation, tokens?, paused_ms?}: the store asks the
 *   service about the operation (as reconciliation does), then, with
 *   `tokens`, the bucket holds that many and the store is paused
 *   `paused_ms` more (a 429's Retry-After), and the answer is applied
 *   (Operation_Events::process()); its outcome.
 * - "run": {order, times?, paused_ms?}: the pause has ended (the bucket
 *   full; with `paused_ms`, the store paused again that long); the earliest pending try of the order runs now, as
 *   Action Scheduler's runner does (due or not: time moved on). With
 *   `times`, its callback runs that many times more (duplicate runs of one
 *   try); answers what each did.
 * - "try": {order, operation, tries}: the pause has ended; the try's
 *   callback once (a web server's run of the action), for runs in parallel processes.
 * - "age": {order, seconds}: the queued confirmation failed first `seconds` ago.
 * - "unschedule": {order}: the order's pending tries are removed from Action
 *   Scheduler (as the owner could on the Scheduled Actions screen), its row kept.
 * - "sweep": {order, overdue?}: with `overdue`, the order's row was due that many
 *   seconds ago; then the hourly sweep's WP-Cron event runs (do_action); answers
 *   whether the event is scheduled and how many rows the sweep queued again.
 * - "state": {order}: the order's status and notes (oldest first), its
 *   queued confirmation, the tries pending.
 *
 * @package card2crypto-checkout
 */

use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Order\Confirm_Queue;
use Card2Crypto\Checkout\Order\Confirm_Retry;
use Card2Crypto\Checkout\Order\Operation_Events;
use Card2Crypto\Checkout\Partner\Service_Gateway;
use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Rules\Service_Lanes;
use Card2Crypto\Checkout\Attempts\Attempt_Store;

/** The bucket holds $tokens now, paused $paused_ms more milliseconds. */
function c2c_confirm_bucket( float $tokens, int $paused_ms ): void {
	global $wpdb;
	$now = (int) floor( microtime( true ) * 1000 );
	$wpdb->query( $wpdb->prepare( 'DELETE FROM %i WHERE option_name = %s', $wpdb->options, Service_Gateway::BUCKET_OPTION ) );
	$wpdb->insert(
		$wpdb->options,
		array(
			'option_name'  => Service_Gateway::BUCKET_OPTION,
			'option_value' => wp_json_encode(
				array(
					'tokens'       => $tokens,
					'at'           => $now,
					'paused_until' => $now + $paused_ms,
				)
			),
			'autoload'     => 'no',
		)
	);
}

/** The order's tries waiting: id, arguments, seconds until due. */
function c2c_confirm_pending( int $order_id ): array {
	$out = array();
	foreach ( as_get_scheduled_actions(
		array(
			'hook'     => Confirm_Queue::HOOK,
			'status'   => ActionScheduler_Store::STATUS_PENDING,
			'per_page' => 50,
			'orderby'  => 'date',
			'order'    => 'ASC',
		)
	) as $id => $action ) {
		$args = $action->get_args();
		if ( (int) ( $args[0] ?? 0 ) !== $order_id ) {
			continue;
		}
		$date  = $action->get_schedule()->get_date();
		$out[] = array(
			'id'   => (int) $id,
			'args' => $args,
			'in'   => null === $date ? 0 : (int) $date->format( 'U' ) - time(),
		);
	}
	return $out;
}

function c2c_confirm_step( string $action, array $input ) {
	global $wpdb;
	$config = Plugin::service( Config::class );
	switch ( $action ) {
		case 'order':
			$order = wc_create_order();
			$order->set_currency( $config->currency() );
			$order->set_payment_method( 'card2crypto' );
			$order->set_payment_method_title( 'Card' );
			$order->set_billing_email( 'buyer@example.com' );
			$order->set_total( '79.00' );
			$order->set_status( 'pending' );
			$order->save();
			$pid = 'wc-' . $order->get_id() . '-' . preg_replace( '/[^a-z0-9]/', '', (string) $input['tag'] );
			Plugin::service( Attempt_Store::class )->create_attempt( $order->get_id(), $pid, 7900, $config->currency(), $config->wallet() );
			$order->update_meta_data( Keys::META_ATTEMPT, $pid );
			$order->save();
			return array(
				'id'                   => $order->get_id(),
				'partner_operation_id' => $pid,
				'amount'               => 7900,
				'currency'             => $config->currency(),
				'wallet'               => $config->wallet(),
			);

		case 'deliver':
			$order   = wc_get_order( (int) $input['order'] );
			$attempt = Plugin::service( Attempt_Store::class )->attempt_by_partner_id( (string) $order->get_meta( Keys::META_ATTEMPT ) );
			c2c_confirm_bucket( (float) $config->service_rate(), 0 );
			$answer = Plugin::service( Service_Gateway::class )->client( Service_Lanes::BACKGROUND )->operation( (string) $input['operation'], $attempt->partner_operation_id() );
			if ( isset( $input['tokens'] ) ) {
				c2c_confirm_bucket( (float) $input['tokens'], (int) ( $input['paused_ms'] ?? 0 ) );
			}
			return Plugin::service( Operation_Events::class )->process( $answer, 'reconcile' );

		case 'run':
			$order_id = (int) $input['order'];
			c2c_confirm_bucket( (float) $config->service_rate(), (int) ( $input['paused_ms'] ?? 0 ) );
			$pending = c2c_confirm_pending( $order_id );
			if ( array() === $pending ) {
				throw new RuntimeException( 'no try is pending' );
			}
			$done = array();
			add_action(
				Confirm_Queue::HOOK,
				static function () use ( &$done ): void {
					$done[] = 'ran';
				},
				5
			);
			ActionScheduler::runner()->process_action( $pending[0]['id'], 'test' );
			$runs = array( count( $done ) );
			for ( $i = 0; $i < (int) ( $input['times'] ?? 0 ); $i++ ) {
				$runs[] = Plugin::service( Confirm_Retry::class )->run( ...$pending[0]['args'] );
			}
			return $runs;

		case 'try':
			c2c_confirm_bucket( (float) $config->service_rate(), 0 );
			return Plugin::service( Confirm_Retry::class )->run( (int) $input['order'], (string) $input['operation'], (int) $input['tries'] );

		case 'age':
			$name = Confirm_Queue::OPTION . (int) $input['order'];
			$row  = Plugin::service( Confirm_Queue::class )->read( (int) $input['order'] );
			$row['first'] = (int) $row['first'] - (int) $input['seconds'];
			$wpdb->query( $wpdb->prepare( 'UPDATE %i SET option_value = %s WHERE option_name = %s', $wpdb->options, wp_json_encode( $row ), $name ) );
			return $row;

		case 'unschedule':
			foreach ( c2c_confirm_pending( (int) $input['order'] ) as $pending ) {
				as_unschedule_action( Confirm_Queue::HOOK, $pending['args'], Confirm_Queue::GROUP );
			}
			return count( c2c_confirm_pending( (int) $input['order'] ) );

		case 'sweep':
			if ( isset( $input['overdue'] ) ) {
				$name       = Confirm_Queue::OPTION . (int) $input['order'];
				$row        = Plugin::service( Confirm_Queue::class )->read( (int) $input['order'] );
				$row['due'] = time() - (int) $input['overdue'];
				$wpdb->query( $wpdb->prepare( 'UPDATE %i SET option_value = %s WHERE option_name = %s', $wpdb->options, wp_json_encode( $row ), $name ) );
			}
			$before = count( c2c_confirm_pending( (int) $input['order'] ) );
			do_action( Confirm_Queue::SWEEP_HOOK );
			return array(
				'scheduled' => false !== wp_next_scheduled( Confirm_Queue::SWEEP_HOOK ),
				'queued'    => count( c2c_confirm_pending( (int) $input['order'] ) ) - $before,
			);

		case 'state':
			$order = wc_get_order( (int) $input['order'] );
			return array(
				'status'  => $order->get_status(),
				'notes'   => array_map(
					static function ( $note ) {
						return $note->content;
					},
					array_reverse( wc_get_order_notes( array( 'order_id' => $order->get_id() ) ) )
				),
				'queued'  => Plugin::service( Confirm_Queue::class )->read( $order->get_id() ),
				'pending' => c2c_confirm_pending( $order->get_id() ),
			);
	}
	throw new RuntimeException( "unknown step {$action}" );
}

try {
	$c2c_result = array( 'value' => c2c_confirm_step( $c2c_step['action'], $c2c_step['input'] ) );
} catch ( Throwable $c2c_error ) {
	$c2c_result = array( 'error' => get_class( $c2c_error ) . ': ' . $c2c_error->getMessage() );
}
file_put_contents( $c2c_step['out'], wp_json_encode( $c2c_result ) );

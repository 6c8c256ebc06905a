<?php
/**
 * Steps of the "card payment is back" test inside a real store (run by the
 * harness's runPhp with WordPress loaded; test/support/reconcile-store.ts's
 * phpStep() writes $c2c_step = array( action, input, out ) before requiring
 * this file). Time is moved by running the queued job on demand and by
 * ageing the stored health state, never by waiting.
 *
 * - "orders": {count, tag, total?}: `count` unpaid card orders (25.00, or `total`), each with its own buyer address.
 * - "check": the background health check (Service_Health::run_check(): asks
 *   the service only while the stored state is stale), as a page's check does.
 * - "found": {ago}: the stored health state was found `ago` seconds ago (time passes).
 * - "keep": {order}: the buyer presses "Place order" / "Pay" (Start_Gate, at
 *   checkout); answers what the buyer is told.
 * - "run": runs the waiting "service is back" action (due or not: the queue
 *   on demand), as Action Scheduler's runner does. With `race`, a second
 *   run (another web server) mails between this run's read of the waiting
 *   orders and its claims.
 * - "storage": {hpos}: orders kept in WooCommerce's order tables or in posts (both in sync).
 * - "came_back": another request's health check saw the service accept the store.
 * - "pay" / "cancel": {order}: the order is paid (another way) / cancelled meanwhile.
 * - "pay_url": {order}: the order's payment page (with its key).
 * - "state": {orders}: each order's status, mark and notes; the health state;
 *   the "service is back" actions waiting.
 *
 * @package card2crypto-checkout
 */

use Card2Crypto\Checkout\Attempts\Service_Refused;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Payment\Start_Gate;
use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Service\Outage_Pay_Links;
use Card2Crypto\Checkout\Service\Service_Health;

/** The "service is back" actions waiting: id, argument, seconds until due. */
function c2c_back_pending(): array {
	$out = array();
	foreach ( as_get_scheduled_actions(
		array(
			'hook'     => Outage_Pay_Links::HOOK,
			'status'   => ActionScheduler_Store::STATUS_PENDING,
			'per_page' => 20,
			'orderby'  => 'date',
			'order'    => 'ASC',
		)
	) as $id => $action ) {
		$date  = $action->get_schedule()->get_date();
		$out[] = array(
			'id'   => (int) $id,
			'args' => $action->get_args(),
			'in'   => null === $date ? 0 : (int) $date->format( 'U' ) - time(),
		);
	}
	return $out;
}

function c2c_back_step( string $action, array $input ) {
	switch ( $action ) {
		case 'orders':
			$ids = array();
			for ( $i = 1; $i <= (int) $input['count']; $i++ ) {
				$order = wc_create_order();
				$order->set_currency( Plugin::service( Config::class )->currency() );
				$order->set_payment_method( 'card2crypto' );
				$order->set_payment_method_title( 'Card' );
				$order->set_billing_first_name( 'Buyer' );
				$order->set_billing_email( sprintf( 'back-%s-%d@example.com', preg_replace( '/[^a-z0-9]/', '', (string) $input['tag'] ), $i ) );
				$order->set_total( (string) ( $input['total'] ?? '25.00' ) );
				$order->set_status( 'pending' );
				$order->save();
				$ids[ $order->get_id() ] = $order->get_billing_email();
			}
			return $ids;

		case 'check':
			Plugin::service( Service_Health::class )->queued_check();
			return Plugin::service( Service_Health::class )->state();

		case 'pay_url':
			return wc_get_order( (int) $input['order'] )->get_checkout_payment_url();

		case 'found':
			$state       = Plugin::service( Service_Health::class )->state();
			$state['at'] = time() - (int) $input['ago'];
			update_option( Service_Health::OPTION, $state, true );
			return $state;

		case 'keep':
			$order = wc_get_order( (int) $input['order'] );
			try {
				// Each buyer from an address of their own (the visitors' budget is not what is tested here).
				Plugin::service( Start_Gate::class )->pass( $order, '192.0.2.' . ( (int) $input['order'] % 250 + 1 ), Start_Gate::AT_CHECKOUT );
			} catch ( Service_Refused $e ) {
				return $e->getMessage();
			}
			throw new RuntimeException( 'the payment was not refused' );

		case 'run':
			$pending = c2c_back_pending();
			if ( array() === $pending ) {
				throw new RuntimeException( 'no "service is back" action waits' );
			}
			$raced = false;
			if ( ! empty( $input['race'] ) ) {
				// Another web server's run, between this run's read of the waiting orders and its claims: while this run
				// loads its first order (as read from the database: no order is cached yet in this process).
				add_filter(
					'woocommerce_order_class',
					static function ( $classname ) use ( &$raced ) {
						if ( ! $raced ) {
							$raced = true;
							Plugin::service( Outage_Pay_Links::class )->mail_waiting( 0 );
						}
						return $classname;
					}
				);
			}
			ActionScheduler::runner()->process_action( $pending[0]['id'], 'c2c-test' );
			$logs = ActionScheduler::logger()->get_logs( $pending[0]['id'] );
			return array(
				'ran'     => $pending[0],
				'status'  => ActionScheduler::store()->get_status( $pending[0]['id'] ),
				'log'     => array_map(
					static function ( $entry ) {
						return $entry->get_message();
					},
					$logs
				),
				'pending' => c2c_back_pending(),
				'raced'   => $raced,
			);

		case 'storage':
			// WooCommerce's order storage: its order tables (HPOS) or the posts tables, both kept in sync
			// (compatibility mode: every order is in both, so the switch is allowed).
			$sync = wc_get_container()->get( Automattic\WooCommerce\Internal\DataStores\Orders\DataSynchronizer::class );
			update_option( $sync::ORDERS_DATA_SYNC_ENABLED_OPTION, 'yes' );
			for ( $batch = $sync->get_next_batch_to_process( 200 ); array() !== $batch; $batch = $sync->get_next_batch_to_process( 200 ) ) {
				$sync->process_batch( $batch );
			}
			update_option( 'woocommerce_custom_orders_table_enabled', empty( $input['hpos'] ) ? 'no' : 'yes' );
			return get_option( 'woocommerce_custom_orders_table_enabled' );

		case 'came_back':
			do_action( Service_Health::CAME_BACK );
			return c2c_back_pending();

		case 'pay':
			wc_get_order( (int) $input['order'] )->payment_complete( 'paid-another-way' );
			return wc_get_order( (int) $input['order'] )->get_status();

		case 'cancel':
			wc_get_order( (int) $input['order'] )->update_status( 'cancelled' );
			return wc_get_order( (int) $input['order'] )->get_status();

		case 'state':
			$orders = array();
			foreach ( (array) $input['orders'] as $id ) {
				$order         = wc_get_order( (int) $id );
				$orders[ $id ] = array(
					'status' => $order->get_status(),
					'mark'   => (string) $order->get_meta( Outage_Pay_Links::META ),
					'notes'  => array_map(
						static function ( $note ) {
							return $note->content;
						},
						array_reverse( wc_get_order_notes( array( 'order_id' => (int) $id ) ) )
					),
				);
			}
			return array(
				'orders'  => $orders,
				'health'  => Plugin::service( Service_Health::class )->state(),
				'pending' => c2c_back_pending(),
			);
	}
	throw new RuntimeException( "unknown step {$action}" );
}

try {
	$c2c_result = array( 'value' => c2c_back_step( $c2c_step['action'], $c2c_step['input'] ) );
} catch ( Throwable $c2c_error ) {
	$c2c_result = array( 'error' => get_class( $c2c_error ) . ': ' . $c2c_error->getMessage() );
}
file_put_contents( $c2c_step['out'], wp_json_encode( $c2c_result ) );

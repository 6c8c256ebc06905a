<?php
/**
 * Steps of the reconciliation tests and benchmark inside a real store (run
 * by the harness's runPhp with WordPress loaded; test/support/reconcile-store.ts
 * writes $c2c_step = array( action, input, out ) before requiring this file):
 *
 * - "settings": merges values into the checkout's settings.
 * - "seed": {count, age, tag}: `count` stale orders awaiting payment, each
 *   with an attempt sent `age` seconds ago that never heard from the service
 *   and is due for a check now, cloned from one order WooCommerce made
 *   (INSERT ... SELECT over MariaDB's sequence engine: 10,000 in seconds);
 *   one batch action ensured. Returns the orders' ids, partner operation ids
 *   and what the service must have for them to match.
 * - "run": {seconds, batch_seconds, wait}: runs due reconciliation actions
 *   as Action Scheduler's queue runner does, one at a time, for up to
 *   `seconds`; before each, counts our group's pending actions (batch and
 *   per-order). With `wait`, sleeps until a pending batch comes due (a
 *   Retry-After) instead of stopping.
 * - "state": {orders}: the orders' statuses, notes and attempts; our pending actions.
 * - "schedule": {order}: Reconciler->schedule() of the order, as a payment start does.
 * - "panel": {order}: the owner's order panel as HTML.
 * - "old_action": {order}: queues a per-order action of the earlier versions, due now.
 * - "wallet": {key, gap_limit}: a new address per order from the extended public key `key`.
 * - "order": {customer, via}: a new order awaiting card payment (a guest's, or a new customer's with `customer`;
 *   made by `via`, WooCommerce's created_via: "checkout" as the checkouts make it); its id, key, landing link
 *   and payment page.
 * - "hold_stock": {orders, minutes}: WooCommerce's hold-stock job (woocommerce_cancel_unpaid_orders) with
 *   "Manage stock" on and "Hold stock" at `minutes`, run now, as its scheduler runs it once the hold time is
 *   up, after the orders' dates went `minutes` and a minute back (their time come, not waited for); the
 *   settings are given back after. The orders' statuses and notes.
 * - "addresses": {order}: the order's attempts, the addresses it holds or held, and its address meta.
 * - "age": {order, seconds}: the order's attempts started and last heard of `seconds` earlier, due for a check now.
 * - "check": {order}: the owner's "ask the service now" for each of the order's attempts (Reconciler::check()).
 * - "due": {order}: the order's current attempt's planned check made due now (its time come without
 *   waiting for it), one batch action ensured; then "run" runs it as the queue runner would.
 * - "status_box": the settings page's status box as HTML.
 * - "notes": {order}: the order's notes.
 * - "lock_names": the batch lock's name in the database: this site's, the
 *   same database's under another table prefix (a multisite network's
 *   second site, wp_2_), and the one name, global to the server, of the
 *   versions before names per site.
 * - "batch_now": {times}: runs the batch action's callback `times` times
 *   at once (as runners on several servers would); our pending actions.
 * - "run_next": runs the earliest pending batch action now, as if its time
 *   had come (time moved on rather than waited for); our pending actions.
 *
 * @package card2crypto-checkout
 */

use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Shared_Store;
use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Service\Reconciler;
use Card2Crypto\Checkout\Attempts\Tables;
use Card2Crypto\Checkout\Attempts\Attempt_Store;
use Card2Crypto\Checkout\Attempts\Check_Queue;
use Card2Crypto\Checkout\Admin\Admin_Order_Panel;

/** Our group's pending actions, by hook: [batch, per-order], and the earliest batch's time. */
function c2c_reconcile_pending(): array {
	global $wpdb;
	$rows  = $wpdb->get_results(
		$wpdb->prepare(
			"SELECT a.hook, COUNT(*) AS n, MIN(UNIX_TIMESTAMP(a.scheduled_date_gmt)) AS first FROM {$wpdb->prefix}actionscheduler_actions a JOIN {$wpdb->prefix}actionscheduler_groups g ON g.group_id = a.group_id WHERE g.slug = %s AND a.status = 'pending' AND a.hook IN (%s, %s) GROUP BY a.hook",
			Reconciler::GROUP,
			Reconciler::BATCH_HOOK,
			Reconciler::HOOK
		),
		ARRAY_A
	);
	$out = array(
		'batch'     => 0,
		'per_order' => 0,
		'first'     => null,
	);
	foreach ( $rows as $row ) {
		if ( Reconciler::BATCH_HOOK === $row['hook'] ) {
			$out['batch'] = (int) $row['n'];
			$out['first'] = (int) $row['first'];
		} else {
			$out['per_order'] = (int) $row['n'];
		}
	}
	return $out;
}

function c2c_reconcile_step( string $action, array $input ) {
	global $wpdb;
	switch ( $action ) {
		case 'settings':
			$settings = get_option( 'woocommerce_card2crypto_settings', array() );
			update_option( 'woocommerce_card2crypto_settings', array_merge( is_array( $settings ) ? $settings : array(), $input ) );
			return get_option( 'woocommerce_card2crypto_settings' );

		case 'seed':
			$count    = (int) $input['count'];
			$config   = Plugin::service( Config::class );
			$currency = $config->currency();
			$template = wc_create_order();
			$template->set_currency( $currency );
			$template->set_payment_method( 'card2crypto' );
			$template->set_payment_method_title( 'Card' );
			$template->set_billing_email( 'stale@example.com' );
			$template->set_total( '25.00' );
			$template->set_status( 'pending' );
			$template->save();
			$tid  = $template->get_id();
			$base = (int) $wpdb->get_var( "SELECT GREATEST(COALESCE(MAX(id), 0), 1000000) FROM {$wpdb->prefix}wc_orders" ) + 1000;
			$base = max( $base, (int) $wpdb->get_var( "SELECT MAX(ID) FROM {$wpdb->posts}" ) + 1000 );
			$seq  = "seq_1_to_{$count}";
			// Each table holding the template order, cloned once per number of the sequence (new id: base + seq).
			$clone = static function ( string $table, string $id_column, ?string $own_id, string $where ) use ( $wpdb, $seq, $base ): void {
				$columns = $wpdb->get_col( "SHOW COLUMNS FROM {$table}" );
				$names   = array();
				$values  = array();
				foreach ( $columns as $column ) {
					if ( $column === $own_id ) {
						continue; // Its own AUTO_INCREMENT id.
					}
					$names[]  = "`{$column}`";
					$values[] = $column === $id_column ? "({$base} + s.seq)" : "t.`{$column}`";
				}
				$done = $wpdb->query( 'INSERT INTO ' . $table . ' (' . implode( ', ', $names ) . ') SELECT ' . implode( ', ', $values ) . " FROM {$table} t JOIN {$seq} s WHERE {$where}" ); // phpcs:ignore WordPress.DB
				if ( false === $done ) {
					throw new RuntimeException( "{$table}: {$wpdb->last_error}" );
				}
			};
			$clone( "{$wpdb->prefix}wc_orders", 'id', null, "t.id = {$tid}" );
			$clone( "{$wpdb->prefix}wc_order_operational_data", 'order_id', 'id', "t.order_id = {$tid}" );
			$clone( "{$wpdb->prefix}wc_order_addresses", 'order_id', 'id', "t.order_id = {$tid}" );
			if ( $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->posts} WHERE ID = %d", $tid ) ) ) {
				// HPOS keeps a placeholder post per order (its ids come from the posts table).
				$clone( $wpdb->posts, 'ID', null, "t.ID = {$tid}" );
			}
			$tag      = preg_replace( '/[^a-z0-9]/', '', (string) $input['tag'] );
			$attempts = Plugin::service( Tables::class )->attempts_table();
			$sent     = gmdate( 'Y-m-d H:i:s', time() - (int) $input['age'] );
			// Due a minute ago; or, as in stores updated from before the batch, no due time (a per-order action stands for it).
			$due      = isset( $input['due'] ) && false === $input['due'] ? '' : gmdate( 'Y-m-d H:i:s', time() - 60 );
			$wpdb->query( $wpdb->prepare( "INSERT INTO {$wpdb->prefix}wc_orders_meta (order_id, meta_key, meta_value) SELECT {$base} + seq, %s, CONCAT('wc-', {$base} + seq, %s) FROM {$seq}", Keys::META_ATTEMPT, '-' . $tag ) ); // phpcs:ignore WordPress.DB
			$done = $wpdb->query( // phpcs:ignore WordPress.DB
				$wpdb->prepare(
					"INSERT INTO {$attempts} (order_id, partner_operation_id, expected_amount, expected_currency, expected_wallet, status, status_code, version, mismatch, checks, unsent, next_check_at, created_at, updated_at)
					SELECT {$base} + seq, CONCAT('wc-', {$base} + seq, %s), 2500, %s, %s, '', -1, 0, 0, 0, 0, NULLIF(%s, ''), %s, %s FROM {$seq}",
					'-' . $tag,
					$currency,
					$config->wallet(),
					$due,
					$sent,
					$sent
				)
			);
			if ( false === $done ) {
				throw new RuntimeException( $wpdb->last_error );
			}
			$template->delete( true );
			Plugin::service( Reconciler::class )->ensure_batch( time() );
			return array(
				'first'    => $base + 1,
				'last'     => $base + $count,
				'tag'      => $tag,
				'currency' => $currency,
				'amount'   => 2500,
				'wallet'   => $config->wallet(),
				'pending'  => c2c_reconcile_pending(),
			);

		case 'run':
			if ( isset( $input['batch_seconds'] ) ) {
				$seconds = (int) $input['batch_seconds'];
				add_filter(
					'card2crypto_checkout_reconcile_batch_seconds',
					static function () use ( $seconds ) {
						return $seconds;
					}
				);
			}
			$until   = microtime( true ) + (float) $input['seconds'];
			$rounds  = array();
			$store   = ActionScheduler::store();
			$runner  = ActionScheduler::runner();
			$started = microtime( true );
			while ( microtime( true ) < $until ) {
				$pending = c2c_reconcile_pending();
				$due     = $store->query_actions(
					array(
						'hook'         => Reconciler::BATCH_HOOK,
						'group'        => Reconciler::GROUP,
						'status'       => ActionScheduler_Store::STATUS_PENDING,
						'date'         => as_get_datetime_object(),
						'date_compare' => '<=',
						'orderby'      => 'date',
						'order'        => 'ASC',
						'per_page'     => 1,
					)
				);
				$old     = $store->query_actions(
					array(
						'hook'         => Reconciler::HOOK,
						'group'        => Reconciler::GROUP,
						'status'       => ActionScheduler_Store::STATUS_PENDING,
						'date'         => as_get_datetime_object(),
						'date_compare' => '<=',
						'per_page'     => 1,
					)
				);
				$id = $due ? (int) reset( $due ) : ( $old ? (int) reset( $old ) : 0 );
				if ( 0 === $id ) {
					if ( ! empty( $input['wait'] ) && $pending['batch'] > 0 && null !== $pending['first'] && $pending['first'] < $until ) {
						usleep( (int) max( 0, ( $pending['first'] - microtime( true ) + 0.05 ) * 1e6 ) );
						continue;
					}
					break;
				}
				$t0 = microtime( true );
				$runner->process_action( $id, 'c2c-test' );
				$rounds[] = array(
					'at'      => round( $t0 - $started, 2 ),
					'ms'      => (int) ( ( microtime( true ) - $t0 ) * 1000 ),
					'hook'    => $due ? 'batch' : 'per_order',
					'pending' => $pending,
					'after'   => c2c_reconcile_pending(),
					'ended'   => time(),
					'due'     => (int) $wpdb->get_var( $wpdb->prepare( 'SELECT COUNT(*) FROM %i WHERE next_check_at <= %s', Plugin::service( Tables::class )->attempts_table(), gmdate( 'Y-m-d H:i:s' ) ) ),
				);
				wp_cache_flush();
			}
			return array(
				'rounds'  => $rounds,
				'pending' => c2c_reconcile_pending(),
			);

		case 'state':
			$ids    = array_map( 'intval', (array) $input['orders'] );
			$in     = implode( ',', $ids ?: array( 0 ) );
			$orders = array();
			foreach ( $wpdb->get_results( "SELECT id, status FROM {$wpdb->prefix}wc_orders WHERE id IN ({$in})", ARRAY_A ) as $row ) {
				$orders[ $row['id'] ] = array( 'status' => $row['status'] );
			}
			foreach ( $wpdb->get_results( 'SELECT order_id, partner_operation_id, status, status_code, checks, next_check_at, claim_token, retired_at FROM ' . Plugin::service( Tables::class )->attempts_table() . " WHERE order_id IN ({$in})", ARRAY_A ) as $row ) {
				$orders[ $row['order_id'] ]['attempt'] = $row;
			}
			foreach ( $wpdb->get_results( "SELECT comment_post_ID AS id, comment_content AS note FROM {$wpdb->comments} WHERE comment_type = 'order_note' AND comment_post_ID IN ({$in}) ORDER BY comment_ID", ARRAY_A ) as $row ) {
				$orders[ $row['id'] ]['notes'][] = $row['note'];
			}
			return array(
				'orders'  => $orders,
				'pending' => c2c_reconcile_pending(),
			);

		case 'schedule':
			Plugin::service( Reconciler::class )->schedule( (int) $input['order'] );
			return c2c_reconcile_pending();

		case 'panel':
			// The owner's order panel, as the order screen renders it.
			ob_start();
			Plugin::service( Admin_Order_Panel::class )->render( wc_get_order( (int) $input['order'] ) );
			return ob_get_clean();

		case 'old_action':
			return as_schedule_single_action( time() - 1, Reconciler::HOOK, array( (int) $input['order'] ), Reconciler::GROUP );

		case 'wallet':
			update_option( 'card2crypto_checkout_wallet_key_secret', array( 'value' => (string) $input['key'] ), false );
			c2c_reconcile_step(
				'settings',
				array(
					'wallet_mode' => 'xpub',
					'gap_limit'   => (string) ( $input['gap_limit'] ?? '20' ),
				)
			);
			return Plugin::service( Card2Crypto\Checkout\Payment\Order_Address::class )->gap();

		case 'order':
			$order = wc_create_order();
			$order->set_currency( Plugin::service( Config::class )->currency() );
			$order->set_payment_method( 'card2crypto' );
			$order->set_payment_method_title( 'Card' );
			$order->set_billing_email( 'buyer@example.com' );
			$order->set_total( '79.00' );
			if ( ! empty( $input['customer'] ) ) {
				$login = 'customer' . wp_rand( 1000, 999999 );
				$order->set_customer_id( (int) wp_create_user( $login, wp_generate_password(), $login . '@example.com' ) );
			}
			if ( ! empty( $input['via'] ) ) {
				$order->set_created_via( (string) $input['via'] );
			}
			$order->set_status( 'pending' );
			$order->save();
			return array(
				'id'      => $order->get_id(),
				'key'     => $order->get_order_key(),
				'landing' => Card2Crypto\Checkout\Plugin::service( Card2Crypto\Checkout\Payment\Payment_Flows::class )->landing_link( $order ),
				'pay'     => $order->get_checkout_payment_url(),
			);

		case 'addresses':
			$order_id = (int) $input['order'];
			$rows     = $wpdb->get_results( $wpdb->prepare( 'SELECT address_index, address, order_id, attempt_id, state FROM %i WHERE order_id = %d ORDER BY id', Plugin::service( Tables::class )->addresses_table(), $order_id ), ARRAY_A );
			$order    = wc_get_order( $order_id );
			return array(
				'attempts' => $wpdb->get_results( $wpdb->prepare( 'SELECT id, partner_operation_id, expected_wallet, status, status_code, signed_at, retired_at, next_check_at FROM %i WHERE order_id = %d ORDER BY id', Plugin::service( Tables::class )->attempts_table(), $order_id ), ARRAY_A ),
				'rows'     => $rows,
				'meta'     => Plugin::service( Card2Crypto\Checkout\Payment\Order_Address::class )->of_order( $order ),
				'status'   => $order->get_status(),
			);

		case 'age':
			$at  = gmdate( 'Y-m-d H:i:s', time() - (int) $input['seconds'] );
			$due = gmdate( 'Y-m-d H:i:s', time() - 60 );
			$wpdb->query( $wpdb->prepare( 'UPDATE %i SET created_at = %s, updated_at = %s, next_check_at = %s WHERE order_id = %d AND retired_at IS NULL', Plugin::service( Tables::class )->attempts_table(), $at, $at, $due, (int) $input['order'] ) );
			Plugin::service( Reconciler::class )->ensure_batch( time() );
			return c2c_reconcile_pending();

		case 'hold_stock':
			$minutes  = (int) $input['minutes'];
			$previous = array(
				'woocommerce_manage_stock'        => get_option( 'woocommerce_manage_stock' ),
				'woocommerce_hold_stock_minutes' => get_option( 'woocommerce_hold_stock_minutes' ),
			);
			update_option( 'woocommerce_manage_stock', 'yes' );
			update_option( 'woocommerce_hold_stock_minutes', (string) $minutes );
			try {
				foreach ( (array) $input['orders'] as $id ) {
					$order = wc_get_order( (int) $id );
					$order->set_date_created( $order->get_date_created()->getTimestamp() - ( $minutes + 1 ) * MINUTE_IN_SECONDS );
					$order->set_date_modified( time() - ( $minutes + 1 ) * MINUTE_IN_SECONDS );
					$order->save();
				}
				do_action( 'woocommerce_cancel_unpaid_orders' );
			} finally {
				foreach ( $previous as $option => $value ) {
					update_option( $option, $value );
				}
			}
			$out = array();
			foreach ( (array) $input['orders'] as $id ) {
				$order              = wc_get_order( (int) $id );
				$out[ (int) $id ] = array(
					'status' => 'wc-' . $order->get_status(),
					'notes'  => array_map(
						static function ( $note ) {
							return $note->content;
						},
						wc_get_order_notes( array( 'order_id' => (int) $id ) )
					),
				);
			}
			return $out;

		case 'due':
			$attempt = Plugin::service( Attempt_Store::class )->current_attempt( wc_get_order( (int) $input['order'] ) );
			if ( null === $attempt ) {
				throw new RuntimeException( 'no attempt' );
			}
			Plugin::service( Check_Queue::class )->check_by( $attempt->id(), time() );
			Plugin::service( Reconciler::class )->ensure_batch( time() );
			return c2c_reconcile_pending();

		case 'check':
			$order   = wc_get_order( (int) $input['order'] );
			$results = array();
			foreach ( Plugin::service( Attempt_Store::class )->attempts_of_order( $order->get_id() ) as $attempt ) {
				$result    = Plugin::service( Reconciler::class )->check( $order, $attempt, 'refresh' );
				$results[] = array(
					'ok'      => $result->ok(),
					'reason'  => $result->reason(),
					'message' => $result->message(),
				);
			}
			return $results;

		case 'status_box':
			ob_start();
			Plugin::service( Card2Crypto\Checkout\Settings\Settings_Status::class )->render( Plugin::service( Card2Crypto\Checkout\Partner\Service_Gateway::class ) );
			return ob_get_clean();

		case 'notes':
			return array_map(
				static function ( $note ) {
					return $note->content;
				},
				wc_get_order_notes( array( 'order_id' => (int) $input['order'] ) )
			);

		case 'lock_names':
			return array(
				'mine'   => Plugin::service( Shared_Store::class )->lock_name( Reconciler::BATCH_LOCK ),
				'other'  => Plugin::service( Shared_Store::class )->lock_name_for( (string) $wpdb->dbname, $wpdb->prefix . '2_', Reconciler::BATCH_LOCK ),
				'global' => Reconciler::BATCH_LOCK,
			);

		case 'batch_now':
			for ( $i = 0; $i < (int) $input['times']; $i++ ) {
				do_action( Reconciler::BATCH_HOOK );
			}
			return c2c_reconcile_pending();

		case 'run_next':
			$next = ActionScheduler::store()->query_actions(
				array(
					'hook'     => Reconciler::BATCH_HOOK,
					'group'    => Reconciler::GROUP,
					'status'   => ActionScheduler_Store::STATUS_PENDING,
					'orderby'  => 'date',
					'order'    => 'ASC',
					'per_page' => 1,
				)
			);
			if ( ! $next ) {
				throw new RuntimeException( 'no pending batch' );
			}
			ActionScheduler::runner()->process_action( (int) reset( $next ), 'c2c-test' );
			return c2c_reconcile_pending();
	}
	throw new RuntimeException( "unknown step {$action}" );
}

try {
	$c2c_result = array( 'value' => c2c_reconcile_step( $c2c_step['action'], $c2c_step['input'] ) );
} catch ( Throwable $c2c_error ) {
	$c2c_result = array( 'error' => get_class( $c2c_error ) . ': ' . $c2c_error->getMessage() );
}
file_put_contents( $c2c_step['out'], wp_json_encode( $c2c_result ) );

<?php
/**
 * Steps of test/wordpress/books.test.ts inside a real store (run by the
 * harness's runPhp with WordPress loaded; the test writes
 * $c2c_step = array( action, input, out ) before requiring this file):
 *
 * - "setup": {timezone, password}: the site's time zone, and three users
 *   with that password: a shop manager, a shop manager whose own
 *   view_woocommerce_reports is taken away, and an accountant (a
 *   subscriber given view_woocommerce_reports alone).
 * - "unmark": {order}: the order's test-mode mark removed (as an order paid
 *   in production).
 * - "shift": {order, days}: the order's attempts and operations recorded
 *   `days` days earlier.
 * - "stored": {orders}: the orders' attempts and operations as stored
 *   (created_at in UTC).
 * - "nonce": {cookie, action}: the nonce WordPress gives the session of the
 *   logged-in cookie `cookie` (as a page of that session would print it).
 * - "pages": {size}: the books' stored rows read in pages of `size`
 *   (Books_Store::pages()): each page's rows, as [kind, id].
 * - "bulk": {count}: `count` paid operations of orders that do not exist
 *   (ids from 900000001), recorded in the last hour, for the memory check;
 *   {count: 0} removes them.
 * - "stream": writes the whole books as CSV (Books::write()) into a counting
 *   output buffer; the lines, the bytes and the peak memory it took.
 * - "indexes": the created_at indexes of the attempts and operations tables.
 * - "tables": {away}: the operations table renamed away (a broken or
 *   half-installed database), or back.
 *
 * @package card2crypto-checkout
 */

use Card2Crypto\Checkout\Admin\Books;
use Card2Crypto\Checkout\Attempts\Books_Store;
use Card2Crypto\Checkout\Settings\Test_Mode;
use Card2Crypto\Checkout\Plugin;
use Card2Crypto\Checkout\Attempts\Tables;

function c2c_books_step( string $action, array $input ) {
	global $wpdb;
	switch ( $action ) {
		case 'setup':
			update_option( 'timezone_string', (string) $input['timezone'] );
			update_option( 'gmt_offset', '' );
			$users = array();
			foreach ( array(
				'manager'    => 'shop_manager',
				'limited'    => 'shop_manager',
				'accountant' => 'subscriber',
			) as $name => $role ) {
				$login = 'books-' . $name;
				$id    = username_exists( $login );
				if ( ! $id ) {
					$id = wp_insert_user(
						array(
							'user_login' => $login,
							'user_pass'  => (string) $input['password'],
							'user_email' => $login . '@example.com',
							'role'       => $role,
						)
					);
				}
				$user = new WP_User( (int) $id );
				if ( 'limited' === $name ) {
					$user->add_cap( 'view_woocommerce_reports', false );
				}
				if ( 'accountant' === $name ) {
					$user->add_cap( 'view_woocommerce_reports', true );
				}
				$users[ $name ] = array(
					'login'   => $login,
					'reports' => user_can( $user, 'view_woocommerce_reports' ),
					'manage'  => user_can( $user, 'manage_woocommerce' ),
				);
			}
			return $users;

		case 'unmark':
			$order = wc_get_order( (int) $input['order'] );
			$order->delete_meta_data( Test_Mode::META );
			$order->save();
			return Plugin::service( Test_Mode::class )->is_test_order( wc_get_order( (int) $input['order'] ) );

		case 'shift':
			foreach ( array( Plugin::service( Tables::class )->attempts_table(), Plugin::service( Tables::class )->operations_table() ) as $table ) {
				$wpdb->query( $wpdb->prepare( 'UPDATE %i SET created_at = created_at - INTERVAL %d DAY WHERE order_id = %d', $table, (int) $input['days'], (int) $input['order'] ) );
			}
			return true;

		case 'stored':
			$ids = array_map( 'intval', (array) $input['orders'] );
			$in  = implode( ',', $ids ?: array( 0 ) );
			return array(
				'attempts'   => $wpdb->get_results( 'SELECT id, order_id, partner_operation_id, operation_id, expected_amount, expected_currency, expected_wallet, signed_at, created_at FROM ' . Plugin::service( Tables::class )->attempts_table() . " WHERE order_id IN ({$in}) ORDER BY id", ARRAY_A ),
				'operations' => $wpdb->get_results( 'SELECT id, attempt_id, order_id, operation_id, status, status_code, created_at FROM ' . Plugin::service( Tables::class )->operations_table() . " WHERE order_id IN ({$in}) ORDER BY id", ARRAY_A ),
			);

		case 'pages':
			$pages = array();
			$ended = gmdate( 'Y-m-d H:i:s', time() - HOUR_IN_SECONDS );
			foreach ( Plugin::service( Books_Store::class )->pages( null, null, $ended, (int) $input['size'] ) as $page ) {
				$pages[] = array_map(
					static function ( array $row ): array {
						return array( $row['kind'], '' === $row['operation_id'] ? $row['partner_operation_id'] : $row['operation_id'] );
					},
					$page
				);
			}
			return $pages;

		case 'bulk':
			$attempts = Plugin::service( Tables::class )->attempts_table();
			$ops      = Plugin::service( Tables::class )->operations_table();
			$wpdb->query( $wpdb->prepare( 'DELETE FROM %i WHERE order_id > 900000000', $ops ) );
			$wpdb->query( $wpdb->prepare( 'DELETE FROM %i WHERE order_id > 900000000', $attempts ) );
			$count = (int) $input['count'];
			if ( $count > 0 ) {
				$at = gmdate( 'Y-m-d H:i:s', time() - 1800 );
				$wpdb->query( $wpdb->prepare( "INSERT INTO %i (order_id, partner_operation_id, operation_id, expected_amount, expected_currency, expected_wallet, status, status_code, created_at, updated_at) SELECT 900000000 + seq, CONCAT('wc-bulk-', seq), CONCAT('op-bulk-', seq), 7900, 'EUR', 'bc1qbulk', 'success', 0, %s, %s FROM seq_1_to_{$count}", $attempts, $at, $at ) ); // phpcs:ignore WordPress.DB
				$wpdb->query( $wpdb->prepare( "INSERT INTO %i (attempt_id, order_id, operation_id, status, status_code, created_at, updated_at) SELECT id, order_id, operation_id, 'success', 0, created_at, created_at FROM %i WHERE order_id > 900000000", $ops, $attempts ) ); // phpcs:ignore WordPress.DB
			}
			return (int) $wpdb->get_var( $wpdb->prepare( 'SELECT COUNT(*) FROM %i WHERE order_id > 900000000', $ops ) );

		case 'stream':
			$GLOBALS['c2c_books_bytes'] = 0;
			$GLOBALS['c2c_books_lines'] = 0;
			ob_start(
				static function ( $chunk ) {
					$GLOBALS['c2c_books_bytes'] += strlen( $chunk );
					$GLOBALS['c2c_books_lines'] += substr_count( $chunk, "\r\n" );
					return '';
				},
				65536
			);
			$before = memory_get_usage();
			if ( function_exists( 'memory_reset_peak_usage' ) ) {
				memory_reset_peak_usage();
			}
			Plugin::service( Books::class )->write( 'csv', null, null );
			$peak = memory_get_peak_usage() - $before;
			ob_end_clean();
			return array(
				'lines' => $GLOBALS['c2c_books_lines'],
				'bytes' => $GLOBALS['c2c_books_bytes'],
				'peak'  => $peak,
			);

		case 'indexes':
			$out = array();
			foreach ( array( Plugin::service( Tables::class )->attempts_table(), Plugin::service( Tables::class )->operations_table() ) as $table ) {
				$out[] = $wpdb->get_col( $wpdb->prepare( "SHOW INDEX FROM %i WHERE Key_name = 'created_at'", $table ), 4 );
			}
			return array(
				'indexes' => $out,
				'version' => get_option( Tables::DB_VERSION_OPTION ),
			);

		case 'tables':
			$table = Plugin::service( Tables::class )->operations_table();
			$wpdb->query( $input['away'] ? "RENAME TABLE {$table} TO {$table}_away" : "RENAME TABLE {$table}_away TO {$table}" ); // phpcs:ignore WordPress.DB
			return '' === $wpdb->last_error ? true : $wpdb->last_error;

		case 'nonce':
			$cookie                    = urldecode( (string) $input['cookie'] );
			$_COOKIE[ LOGGED_IN_COOKIE ] = $cookie;
			$user                      = wp_validate_auth_cookie( $cookie, 'logged_in' );
			if ( ! $user ) {
				throw new RuntimeException( 'the cookie names no logged-in user' );
			}
			wp_set_current_user( $user );
			return wp_create_nonce( (string) $input['action'] );
	}
	throw new RuntimeException( "unknown step {$action}" );
}

try {
	$c2c_result = array( 'value' => c2c_books_step( $c2c_step['action'], $c2c_step['input'] ) );
} catch ( Throwable $c2c_error ) {
	$c2c_result = array( 'error' => get_class( $c2c_error ) . ': ' . $c2c_error->getMessage() . ' at ' . $c2c_error->getFile() . ':' . $c2c_error->getLine() );
}
file_put_contents( $c2c_step['out'], wp_json_encode( $c2c_result ) );

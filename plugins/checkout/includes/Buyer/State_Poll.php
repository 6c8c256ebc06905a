<?php
/**
 * The thank-you page's polls, answered cheaply when nothing changed.
 *
 * The page asks the payment-state route again and again (2 s growing to
 * 15 s) while the payment is under way; on a busy store a thousand buyers do
 * it at once. Each ask names the state it already shows (`since`, the
 * version Order_View gave it). Here, while WordPress is still loading
 * plugins (this plugin's main file runs before WooCommerce loads), one query
 * reads the order and its current attempt; when the version is unchanged the
 * answer is `{"changed":false}` and the request ends, about a tenth of the
 * full route's cost. Anything else (a changed state, a wrong key, an order
 * of a customer account, which needs its login checked, another payment
 * method, an unknown order) falls through to the REST route, which checks
 * everything and answers in full.
 *
 * The database is the only thing read: two web servers answer alike. It
 * needs none of the plugin's services: Plugin::boot() builds one and asks
 * it before building the others; Order_View gets its own from
 * Plugin::build() for the version it hands out.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Buyer;

use Card2Crypto\Checkout\Attempts\Attempt;
use Card2Crypto\Checkout\Attempts\Tables;
use Card2Crypto\Checkout\Base\Keys;

defined( 'ABSPATH' ) || exit;

final class State_Poll {

	/** The route's path after the REST prefix (Keys::STATE_ROUTE, which Order_View registers). */
	const ROUTE_PATTERN = '#/' . Keys::REST_NAMESPACE . Keys::STATE_ROUTE . '/?$#';

	/**
	 * The version of what the buyer is shown: it changes whenever anything
	 * Order_View's words depend on changes (the order's status, which
	 * attempt is current, its status pair, its mismatch flag, its version
	 * counter). Pure.
	 *
	 * @param string       $order_status With or without "wc-".
	 * @param Attempt|null $attempt      The current attempt, or null.
	 */
	public function version( string $order_status, ?Attempt $attempt ): string {
		return $this->version_of( $order_status, null === $attempt ? null : array( $attempt->partner_operation_id(), $attempt->status(), $attempt->status_code(), $attempt->mismatch(), $attempt->version() ) );
	}

	/**
	 * version() from the columns read in one query (read()).
	 *
	 * @param array|null $columns The current attempt's partner_operation_id, status, status_code, mismatch and version, in that order; null for none.
	 */
	private function version_of( string $order_status, ?array $columns ): string {
		$parts = array( 0 === strpos( $order_status, 'wc-' ) ? substr( $order_status, 3 ) : $order_status );
		if ( null !== $columns ) {
			list( $partner_operation_id, $status, $status_code, $mismatch, $version ) = $columns;
			$parts[] = (string) $partner_operation_id;
			$parts[] = (string) $status;
			$parts[] = (string) (int) $status_code;
			$parts[] = (string) (int) $mismatch;
			$parts[] = (string) (int) $version;
		}
		return substr( hash( 'sha256', implode( '|', $parts ) ), 0, 16 );
	}

	/**
	 * The order id a request asks the payment-state route about with a
	 * `since`, or 0 when it is another request. Pure.
	 *
	 * @param array  $server $_SERVER.
	 * @param array  $get    $_GET.
	 * @param string $prefix The REST prefix ("wp-json").
	 */
	public function polled_order( array $server, array $get, string $prefix ): int {
		if ( 'GET' !== ( $server['REQUEST_METHOD'] ?? '' ) || ! isset( $get['since'], $get['key'] ) || ! is_string( $get['since'] ) || ! is_string( $get['key'] ) ) {
			return 0;
		}
		if ( isset( $get['rest_route'] ) && is_string( $get['rest_route'] ) ) {
			$route = $get['rest_route'];
		} else {
			$path   = (string) wp_parse_url( (string) ( $server['REQUEST_URI'] ?? '' ), PHP_URL_PATH );
			$marker = '/' . trim( $prefix, '/' ) . '/';
			$at     = strpos( $path, $marker );
			if ( false === $at ) {
				return 0;
			}
			$route = substr( $path, $at + strlen( $marker ) - 1 );
		}
		return 1 === preg_match( self::ROUTE_PATTERN, $route, $m ) && 0 === strpos( $route, '/card2crypto/' ) ? (int) $m[1] : 0;
	}

	/**
	 * Answers `{"changed":false}` and ends the request when it is a poll of
	 * a guest's order of this method, with its key, whose state is still the
	 * version it names; otherwise does nothing.
	 */
	public function answer_if_unchanged(): void {
		// phpcs:disable WordPress.Security.NonceVerification.Recommended -- the order key is the buyer's proof, compared below.
		$order_id = $this->polled_order( $_SERVER, $_GET, rest_get_url_prefix() );
		if ( 0 === $order_id ) {
			return;
		}
		$key   = sanitize_text_field( wp_unslash( $_GET['key'] ) );
		$since = sanitize_text_field( wp_unslash( $_GET['since'] ) );
		// phpcs:enable
		$row = $this->read( $order_id );
		if ( null === $row
			|| '' === $key
			|| ! hash_equals( (string) $row['order_key'], $key )
			|| 0 !== (int) $row['customer_id']
			|| Keys::GATEWAY_ID !== $row['payment_method']
			|| ! hash_equals( $this->version_of( (string) $row['order_status'], null === $row['attempt'] ? null : array( $row['partner_operation_id'], $row['status'], $row['status_code'], $row['mismatch'], $row['version'] ) ), $since ) ) {
			return;
		}
		if ( ! headers_sent() ) {
			header( 'Content-Type: application/json; charset=UTF-8' );
			header( 'Cache-Control: no-store' );
			header( 'X-Content-Type-Options: nosniff' );
			header( 'X-Robots-Tag: noindex' );
		}
		echo '{"changed":false}';
		exit;
	}

	/**
	 * The order's status, key, customer, payment method and current attempt
	 * in one query, from WooCommerce's order tables (HPOS) or its posts,
	 * whichever the store uses; null when not found.
	 */
	private function read( int $order_id ): ?array {
		global $wpdb;
		$attempts = $wpdb->prefix . Tables::ATTEMPTS;
		// phpcs:disable WordPress.DB.DirectDatabaseQuery -- one indexed read, before WooCommerce loads, by design.
		if ( 'yes' === get_option( 'woocommerce_custom_orders_table_enabled' ) ) {
			$row = $wpdb->get_row(
				$wpdb->prepare(
					'SELECT o.status AS order_status, o.customer_id, o.payment_method, d.order_key, m.meta_value AS attempt,
						a.partner_operation_id, a.status, a.status_code, a.mismatch, a.version
					FROM %i o
					JOIN %i d ON d.order_id = o.id
					LEFT JOIN %i m ON m.order_id = o.id AND m.meta_key = %s
					LEFT JOIN %i a ON a.partner_operation_id = m.meta_value
					WHERE o.id = %d AND o.type = %s
					LIMIT 1',
					$wpdb->prefix . 'wc_orders',
					$wpdb->prefix . 'wc_order_operational_data',
					$wpdb->prefix . 'wc_orders_meta',
					Keys::META_ATTEMPT,
					$attempts,
					$order_id,
					'shop_order'
				),
				ARRAY_A
			);
		} else {
			$row = $wpdb->get_row(
				$wpdb->prepare(
					'SELECT p.post_status AS order_status, c.meta_value AS customer_id, pm.meta_value AS payment_method, k.meta_value AS order_key, m.meta_value AS attempt,
						a.partner_operation_id, a.status, a.status_code, a.mismatch, a.version
					FROM %i p
					LEFT JOIN %i k ON k.post_id = p.ID AND k.meta_key = %s
					LEFT JOIN %i c ON c.post_id = p.ID AND c.meta_key = %s
					LEFT JOIN %i pm ON pm.post_id = p.ID AND pm.meta_key = %s
					LEFT JOIN %i m ON m.post_id = p.ID AND m.meta_key = %s
					LEFT JOIN %i a ON a.partner_operation_id = m.meta_value
					WHERE p.ID = %d AND p.post_type = %s
					LIMIT 1',
					$wpdb->posts,
					$wpdb->postmeta,
					'_order_key',
					$wpdb->postmeta,
					'_customer_user',
					$wpdb->postmeta,
					'_payment_method',
					$wpdb->postmeta,
					Keys::META_ATTEMPT,
					$attempts,
					$order_id,
					'shop_order'
				),
				ARRAY_A
			);
		}
		// phpcs:enable
		if ( ! is_array( $row ) ) {
			return null;
		}
		// An attempt named on the order but not found reads as none, as Attempt_Store::current_attempt() does.
		if ( null === $row['partner_operation_id'] ) {
			$row['attempt'] = null;
		}
		return $row;
	}
}

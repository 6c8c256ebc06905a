<?php
/**
 * The owner's books (Books) as a download, two ways, for whoever may see
 * WooCommerce's reports (view_woocommerce_reports: administrators and shop
 * managers by default, and any role given WooCommerce's reports, such as an
 * accountant's):
 *
 * - WooCommerce's orders screen (HPOS and legacy): "Export card payments",
 *   with an optional date range, above the list. Its fields belong to a
 *   form of their own printed at the foot of the page (a form cannot sit
 *   inside the list's form): a GET to admin-post.php with a nonce.
 * - The REST API: GET /card2crypto/v1/books?from=YYYY-MM-DD&to=YYYY-MM-DD&format=csv|json
 *   (cookie and REST nonce, or an application password).
 *
 * Both write the rows while they are read (Books::write()), never holding
 * the store's payments in memory. A date that is not YYYY-MM-DD, or a range
 * that ends before it starts, is refused with 400 naming the field.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Admin;

use Card2Crypto\Checkout\Attempts\Books_Store;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Books_Export implements Hooks {

	/** The admin-post action, and its nonce's action. */
	const ACTION = 'card2crypto_checkout_books';

	/** Who may read the books: WooCommerce's capability for its reports. */
	const CAPABILITY = 'view_woocommerce_reports';

	/** The REST route, under Keys::REST_NAMESPACE. */
	const ROUTE = '/books';

	/** The id of the export's own form (the fields above the orders list name it). */
	const FORM_ID = 'card2crypto-books-export';

	/** @var bool Whether this page shows the export's fields (its form is then printed at the foot). */
	private $shown = false;

	/** @var Books */
	private $books;

	/** @var Books_Store */
	private $store;

	public function __construct( Books $books, Books_Store $store ) {
		$this->books = $books;
		$this->store = $store;
	}

	public function register(): void {
		add_action( 'rest_api_init', array( $this, 'register_route' ) );
		add_filter( 'rest_pre_serve_request', array( $this, 'serve' ), 10, 3 );
		add_action( 'woocommerce_order_list_table_extra_tablenav', array( $this, 'orders_tablenav' ), 10, 2 );
		add_action( 'manage_posts_extra_tablenav', array( $this, 'posts_tablenav' ) );
		add_action( 'admin_footer', array( $this, 'form' ) );
		add_action( 'admin_post_' . self::ACTION, array( $this, 'download' ) );
	}

	public function register_route(): void {
		register_rest_route(
			Keys::REST_NAMESPACE,
			self::ROUTE,
			array(
				'methods'             => 'GET',
				'callback'            => array( $this, 'rest_books' ),
				'permission_callback' => array( $this, 'allowed' ),
				'args'                => array(
					'from'   => array(
						'type'        => 'string',
						'description' => __( 'First day (YYYY-MM-DD, the site\'s time zone), included. Leave out for every payment since the first.', 'card2crypto-checkout' ),
					),
					'to'     => array(
						'type'        => 'string',
						'description' => __( 'Last day (YYYY-MM-DD, the site\'s time zone), included. Leave out for every payment up to now.', 'card2crypto-checkout' ),
					),
					'format' => array(
						'type'        => 'string',
						'enum'        => array( 'csv', 'json' ),
						'default'     => 'csv',
						'description' => __( 'csv (a header line, then one line per payment) or json (an array of objects).', 'card2crypto-checkout' ),
					),
				),
			)
		);
	}

	public function allowed(): bool {
		return current_user_can( self::CAPABILITY );
	}

	/**
	 * Checks the dates; the rows themselves are written by serve(), as they
	 * are read, once WordPress has sent the answer's status and headers.
	 *
	 * @return \WP_REST_Response|\WP_Error
	 */
	public function rest_books( \WP_REST_Request $request ) {
		$range = $this->books->range( $request->get_param( 'from' ), $request->get_param( 'to' ) );
		if ( $range instanceof \WP_Error ) {
			$field = $range->get_error_data()['field'];
			return new \WP_Error(
				'rest_invalid_param',
				$range->get_error_message(),
				array(
					'status' => 400,
					'params' => array( $field => $range->get_error_message() ),
				)
			);
		}
		if ( ! $this->store->readable() ) {
			return new \WP_Error( 'card2crypto_books_unreadable', $this->unreadable(), array( 'status' => 500 ) );
		}
		$format   = 'json' === $request->get_param( 'format' ) ? 'json' : 'csv';
		$response = new \WP_REST_Response(
			array(
				self::ACTION => array(
					'format' => $format,
					'from'   => $range['from'],
					'to'     => $range['to'],
				),
			),
			200
		);
		foreach ( $this->headers( $format, (string) $request->get_param( 'from' ), (string) $request->get_param( 'to' ) ) as $name => $value ) {
			$response->header( $name, $value );
		}
		return $response;
	}

	/**
	 * Writes the books for rest_books()'s answer in place of WordPress's JSON
	 * (rest_pre_serve_request: the status and headers are sent already).
	 *
	 * @param mixed $served
	 * @param mixed $result
	 * @param mixed $request
	 * @return mixed
	 */
	public function serve( $served, $result, $request ) {
		if ( $served || ! $result instanceof \WP_REST_Response || ! $request instanceof \WP_REST_Request || Keys::REST_NAMESPACE . self::ROUTE !== ltrim( $request->get_route(), '/' ) ) {
			return $served;
		}
		$data = $result->get_data();
		if ( 200 !== $result->get_status() || ! is_array( $data ) || ! isset( $data[ self::ACTION ] ) || 'HEAD' === $request->get_method() ) {
			return $served;
		}
		$books = $data[ self::ACTION ];
		$this->books->write( $books['format'], $books['from'], $books['to'] );
		return true;
	}

	private function unreadable(): string {
		Log::error( 'The card payments could not be exported: the plugin\'s tables cannot be read.' );
		return __( 'The card payments cannot be read from the database right now (details in WooCommerce > Status > Logs, source card2crypto-checkout).', 'card2crypto-checkout' );
	}

	/**
	 * The download's headers: the type, a file name with the range, never cached.
	 *
	 * @return array<string, string>
	 */
	private function headers( string $format, string $from, string $to ): array {
		$name = 'card2crypto-payments' . ( '' !== $from ? '-from-' . $from : '' ) . ( '' !== $to ? '-to-' . $to : '' ) . '.' . $format;
		return array(
			'Content-Type'           => ( 'json' === $format ? 'application/json' : 'text/csv' ) . '; charset=utf-8',
			'Content-Disposition'    => 'attachment; filename="' . $name . '"',
			'X-Content-Type-Options' => 'nosniff',
			'Cache-Control'          => 'no-store, private',
		);
	}

	/**
	 * HPOS orders screen: the export's fields above the list.
	 *
	 * @param mixed $order_type
	 * @param mixed $which
	 */
	public function orders_tablenav( $order_type, $which ): void {
		if ( 'shop_order' === $order_type && 'top' === $which ) {
			$this->fields();
		}
	}

	/**
	 * Legacy orders screen (posts): the same.
	 *
	 * @param mixed $which
	 */
	public function posts_tablenav( $which ): void {
		global $typenow;
		if ( 'shop_order' === $typenow && 'top' === $which ) {
			$this->fields();
		}
	}

	private function fields(): void {
		if ( ! $this->allowed() ) {
			return;
		}
		$this->shown = true;
		$form        = esc_attr( self::FORM_ID );
		echo '<div class="alignleft actions card2crypto-books-export" data-card2crypto="books-export">';
		echo '<label for="card2crypto-books-from">' . esc_html__( 'Card payments from', 'card2crypto-checkout' ) . '</label> ';
		echo '<input type="date" id="card2crypto-books-from" name="from" form="' . $form . '" pattern="[0-9]{4}-[0-9]{2}-[0-9]{2}" placeholder="YYYY-MM-DD" /> '; // phpcs:ignore WordPress.Security.EscapeOutput -- escaped above.
		echo '<label for="card2crypto-books-to">' . esc_html_x( 'to', 'the end of a date range', 'card2crypto-checkout' ) . '</label> ';
		echo '<input type="date" id="card2crypto-books-to" name="to" form="' . $form . '" pattern="[0-9]{4}-[0-9]{2}-[0-9]{2}" placeholder="YYYY-MM-DD" /> '; // phpcs:ignore WordPress.Security.EscapeOutput -- escaped above.
		echo '<button type="submit" class="button" form="' . $form . '" aria-describedby="card2crypto-books-help">' . esc_html__( 'Export card payments (CSV)', 'card2crypto-checkout' ) . '</button>'; // phpcs:ignore WordPress.Security.EscapeOutput -- escaped above.
		echo '<span id="card2crypto-books-help" class="screen-reader-text">' . esc_html__( 'Leave the dates empty for every card payment. Each operation of the service is a line: date, order, amounts, rate, wallet address, transaction, outcome and whether it was a test.', 'card2crypto-checkout' ) . '</span>';
		echo '</div>';
	}

	/** At the foot of a page that shows the fields: their form (a GET to admin-post.php with its nonce). */
	public function form(): void {
		if ( ! $this->shown ) {
			return;
		}
		echo '<form id="' . esc_attr( self::FORM_ID ) . '" method="get" action="' . esc_url( admin_url( 'admin-post.php' ) ) . '">';
		echo '<input type="hidden" name="action" value="' . esc_attr( self::ACTION ) . '" />';
		echo '<input type="hidden" name="_wpnonce" value="' . esc_attr( wp_create_nonce( self::ACTION ) ) . '" />';
		echo '</form>';
	}

	/** admin-post.php: the CSV download of the orders screen. */
	public function download(): void {
		check_admin_referer( self::ACTION );
		if ( ! $this->allowed() ) {
			wp_die( esc_html__( 'You are not allowed to export the card payments.', 'card2crypto-checkout' ), '', array( 'response' => 403 ) );
		}
		$from  = isset( $_GET['from'] ) ? sanitize_text_field( wp_unslash( $_GET['from'] ) ) : ''; // phpcs:ignore WordPress.Security.NonceVerification -- verified above.
		$to    = isset( $_GET['to'] ) ? sanitize_text_field( wp_unslash( $_GET['to'] ) ) : ''; // phpcs:ignore WordPress.Security.NonceVerification -- verified above.
		$range = $this->books->range( $from, $to );
		if ( $range instanceof \WP_Error ) {
			wp_die( esc_html( $range->get_error_message() ), esc_html__( 'Export card payments', 'card2crypto-checkout' ), array( 'response' => 400, 'back_link' => true ) );
		}
		if ( ! $this->store->readable() ) {
			wp_die( esc_html( $this->unreadable() ), esc_html__( 'Export card payments', 'card2crypto-checkout' ), array( 'response' => 500 ) );
		}
		nocache_headers();
		foreach ( $this->headers( 'csv', $from, $to ) as $name => $value ) {
			header( $name . ': ' . $value );
		}
		$this->books->write( 'csv', $range['from'], $range['to'] );
		exit;
	}
}

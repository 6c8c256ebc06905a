<?php
/**
 * The order screen panel (HPOS and legacy): operation id, status and code
 * with their meanings, amounts, card country, transaction and explorer link,
 * status page; buttons to confirm or cancel an operation awaiting
 * confirmation and to refresh from the service. Each button checks the
 * capability and a nonce, and its result is recorded as an order note.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Admin;

use Card2Crypto\Checkout\Attempts\Attempt;
use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Rules\Currencies;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Rules\Refund_Words;
use Card2Crypto\Checkout\Partner\Service_Door;
use Card2Crypto\Checkout\Payment\Order_Address;
use Card2Crypto\Checkout\Rules\Order_Words;
use Card2Crypto\Checkout\Rules\Payment_Match;
use Card2Crypto\Checkout\Rules\Service_Lanes;
use Card2Crypto\Checkout\Rules\Status_Flow;
use Card2Crypto\Checkout\Rules\Wallet_Words;
use Card2Crypto\Checkout\Service\Check_Result;
use Card2Crypto\Checkout\Service\Reconciler;
use Card2Crypto\Checkout\Settings\Test_Mode;
use Card2Crypto\Checkout\Shared\Api\Partner_Api_Exception;
use Card2Crypto\Checkout\Attempts\Attempt_Store;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Admin_Order_Panel implements Hooks {

	const ACTION = 'card2crypto_checkout_order_action';

	/** Query argument of the order screen after a failed action. */
	const FAILED_ARG = 'card2crypto_failed';

	/** @var Reconciler */
	private $reconciler;

	/** @var Service_Door */
	private $gateway;

	/** @var Attempt_Store */
	private $attempts;

	/** @var Operation_Store */
	private $operations;

	/** @var Order_Address */
	private $addresses;

	/** @var Test_Mode */
	private $test_mode;

	public function __construct( Reconciler $reconciler, Service_Door $gateway, Attempt_Store $attempts, Operation_Store $operations, Order_Address $addresses, Test_Mode $test_mode ) {
		$this->reconciler = $reconciler;
		$this->gateway    = $gateway;
		$this->attempts   = $attempts;
		$this->operations = $operations;
		$this->addresses  = $addresses;
		$this->test_mode  = $test_mode;
	}

	public function register(): void {
		// The owner's screens only.
		if ( ! is_admin() ) {
			return;
		}
		add_action( 'add_meta_boxes', array( $this, 'add_box' ), 10, 2 );
		add_action( 'admin_post_' . self::ACTION, array( $this, 'handle' ) );
		add_action( 'admin_notices', array( $this, 'failure_notice' ) );
	}

	public function add_box( $screen_id, $post_or_order = null ): void {
		$order = $post_or_order instanceof \WC_Order ? $post_or_order : ( $post_or_order instanceof \WP_Post ? wc_get_order( $post_or_order->ID ) : null );
		if ( ! $order instanceof \WC_Order || Keys::GATEWAY_ID !== $order->get_payment_method() ) {
			return;
		}
		$screen = function_exists( 'wc_get_page_screen_id' ) ? wc_get_page_screen_id( 'shop-order' ) : 'shop_order';
		add_meta_box( 'card2crypto-checkout-payment', __( 'Card2Crypto payment', 'card2crypto-checkout' ), array( $this, 'render' ), $screen, 'side', 'high' );
	}

	public function render( $post_or_order ): void {
		$order = $post_or_order instanceof \WC_Order ? $post_or_order : wc_get_order( $post_or_order->ID );
		if ( ! $order instanceof \WC_Order ) {
			return;
		}
		$op      = $order->get_meta( Keys::META_OPERATION );
		$op      = is_array( $op ) ? $op : array();
		$attempt = $this->attempts->current_attempt( $order );
		$rows    = array();
		if ( null !== $attempt ) {
			$rows[ __( 'Partner operation id', 'card2crypto-checkout' ) ] = $attempt->partner_operation_id();
		}
		if ( isset( $op['id'] ) ) {
			$rows[ __( 'Operation id', 'card2crypto-checkout' ) ] = $op['id'];
		}
		// A new address for each order: which address of the owner's wallet this order pays, and its index there.
		$own = $this->addresses->of_order( $order );
		if ( null !== $own ) {
			$rows[ __( 'Bitcoin address', 'card2crypto-checkout' ) ] = $own['address'];
			/* translators: %d: the address's index in the wallet's receive chain */
			$rows[ __( 'Address index', 'card2crypto-checkout' ) ] = sprintf( __( '%d (receive chain)', 'card2crypto-checkout' ), $own['index'] );
		}
		$status   = $op['status'] ?? null;
		$code     = $op['status_code'] ?? null;
		$received = Order_Words::received( $status, $code );
		$paid     = $this->paid_operations( $order );
		$twice    = count( $paid ) > 1;
		if ( null !== $status ) {
			$rows[ __( 'Status', 'card2crypto-checkout' ) ] = Order_Words::status( $status, $code );
		}
		if ( null !== $code ) {
			// The service's own code and meaning, for matching the partner portal and support.
			$rows[ __( 'Status code', 'card2crypto-checkout' ) ] = $code . ' — ' . ( Status_Flow::code_meaning( $code ) ?? __( 'unknown', 'card2crypto-checkout' ) );
		}
		if ( isset( $op['from_amount'], $op['from_currency'] ) && is_numeric( $op['from_amount'] ) && Currencies::is_supported( (string) $op['from_currency'] ) ) {
			// "Paid" only once the service says the card was charged; before that, or after a decline, it is what was asked.
			$label          = $received ? __( 'Paid', 'card2crypto-checkout' ) : __( 'Amount asked (not paid)', 'card2crypto-checkout' );
			$rows[ $label ] = Order_Words::money( (int) $op['from_amount'], (string) $op['from_currency'] );
		}
		if ( $twice ) {
			// Two card payments succeeded for one order (the owner was mailed "paid twice"): never "Paid €79.00" alone.
			/* translators: 1: the amounts paid, e.g. "€79.00 + €79.00" */
			$rows[ __( 'Paid', 'card2crypto-checkout' ) ] = sprintf( __( '%s: paid twice. Refund the duplicate payment.', 'card2crypto-checkout' ), implode( ' + ', array_column( $paid, 'amount' ) ) );
		}
		if ( isset( $op['to_amount'] ) && is_numeric( $op['to_amount'] ) ) {
			$label          = Order_Words::bought( $status, $code ) ? __( 'Bought', 'card2crypto-checkout' ) : __( 'To buy (not bought yet)', 'card2crypto-checkout' );
			$rows[ $label ] = Wallet_Words::btc( (int) $op['to_amount'] ) . ' ' . ( $op['to_currency'] ?? Payment_Match::ASSET_BTC );
		}
		if ( isset( $op['card_country'] ) ) {
			$rows[ __( 'Card country', 'card2crypto-checkout' ) ] = $op['card_country'];
		}
		if ( isset( $op['tx_id'] ) ) {
			$rows[ __( 'Transaction', 'card2crypto-checkout' ) ] = $op['tx_id'];
		}
		if ( $twice ) {
			// Each payment, and which one is the duplicate: the one that did not pay the order.
			$lines = array();
			foreach ( $paid as $payment ) {
				$lines[] = sprintf(
					/* translators: 1: operation id, 2: amount, 3: the payment's role ("paid the order" or "duplicate: refund it") */
					__( '%1$s: %2$s, %3$s', 'card2crypto-checkout' ),
					$payment['operation_id'],
					$payment['amount'],
					$payment['duplicate'] ? __( 'duplicate: refund it', 'card2crypto-checkout' ) : __( 'paid the order', 'card2crypto-checkout' )
				);
			}
			$rows[ __( 'Payments', 'card2crypto-checkout' ) ] = $lines;
		}
		$others = array();
		foreach ( $this->operations->operations_of_order( $order->get_id() ) as $other ) {
			if ( ( $op['id'] ?? null ) !== $other['operation_id'] && Operation_Store::NO_CODE !== $other['status_code'] && ! isset( $paid[ $other['operation_id'] ] ) ) {
				$others[] = $other['operation_id'] . ': ' . Order_Words::status( $other['status'], $other['status_code'] );
			}
		}
		if ( array() !== $others ) {
			// The buyer tried again (inside the widget, or on the landing page): every operation of the order, for the partner portal.
			$rows[ __( 'Other operations', 'card2crypto-checkout' ) ] = implode( '; ', $others );
		}
		if ( null !== $attempt && $attempt->is_retired() ) {
			// Reconciliation retired it (Reconciler): the service never heard of it and its payment window passed.
			$rows[ __( 'Background checks', 'card2crypto-checkout' ) ] = __( 'Stopped: the buyer never started paying, and the time to pay has passed.', 'card2crypto-checkout' );
		}
		if ( null !== $attempt && $attempt->mismatch() ) {
			$rows[ __( 'Check', 'card2crypto-checkout' ) ] = __( 'Does NOT match the order: see the notes.', 'card2crypto-checkout' );
		}
		// A transaction hash is one long word: let it wrap, or it widens the whole order screen.
		echo '<style>.card2crypto-order-panel dd{margin-left:0;overflow-wrap:anywhere;word-break:break-all}</style>';
		echo '<div class="card2crypto-order-panel">';
		if ( array() === $rows ) {
			echo '<p>' . esc_html__( 'No payment attempt yet.', 'card2crypto-checkout' ) . '</p>';
		}
		echo '<dl>';
		foreach ( $rows as $label => $value ) {
			echo '<dt>' . esc_html( $label ) . '</dt><dd data-card2crypto="' . esc_attr( sanitize_title( $label ) ) . '">';
			if ( is_array( $value ) ) {
				echo '<ul style="margin:0">';
				foreach ( $value as $line ) {
					echo '<li>' . esc_html( (string) $line ) . '</li>';
				}
				echo '</ul>';
			} else {
				echo esc_html( (string) $value );
			}
			echo '</dd>';
		}
		echo '</dl>';
		// The order's own address, else (one address for every order) the wallet the operation paid: on its network's explorer.
		$address = null !== $own ? $own['address'] : ( isset( $op['wallet'] ) && is_string( $op['wallet'] ) ? $op['wallet'] : '' );
		if ( '' !== $address ) {
			echo '<p><a data-card2crypto="address-explorer" href="' . esc_url( Wallet_Words::explorer_url( $address ) ) . '" target="_blank" rel="noopener noreferrer">' . esc_html__( 'View the address on a block explorer', 'card2crypto-checkout' ) . '</a></p>';
		}
		if ( ! empty( $op['explorer_url'] ) && $this->test_mode->is_test_order( $order ) ) {
			// The sandbox makes up its transaction ids: no block explorer knows them.
			echo '<p data-card2crypto="simulated-transaction">' . esc_html__( 'Test payment: the sandbox simulated this transaction; it is not on the blockchain.', 'card2crypto-checkout' ) . '</p>';
		} elseif ( ! empty( $op['explorer_url'] ) ) {
			echo '<p><a href="' . esc_url( $op['explorer_url'] ) . '" target="_blank" rel="noopener noreferrer">' . esc_html__( 'View the transaction', 'card2crypto-checkout' ) . '</a></p>';
		}
		if ( ! empty( $op['status_url'] ) ) {
			echo '<p><a href="' . esc_url( $op['status_url'] ) . '" target="_blank" rel="noopener noreferrer">' . esc_html__( 'Status page', 'card2crypto-checkout' ) . '</a></p>';
		}
		if ( $received ) {
			echo '<p class="card2crypto-refund-help">' . esc_html( Refund_Words::explanation() ) . '</p>';
		}
		if ( null !== $attempt && current_user_can( 'edit_shop_orders' ) ) {
			$awaiting = 'awaiting confirm' === $attempt->status() && 8 === $attempt->status_code();
			echo '<p class="card2crypto-actions">';
			if ( $awaiting ) {
				$this->button( $order, 'confirm', __( 'Confirm payment', 'card2crypto-checkout' ), true );
				$this->button( $order, 'cancel', __( 'Cancel payment', 'card2crypto-checkout' ), false );
			}
			$this->button( $order, 'refresh', __( 'Refresh from the service', 'card2crypto-checkout' ), false );
			echo '</p>';
		}
		echo '</div>';
	}

	/**
	 * The order's operations that succeeded (the card charged and the
	 * purchase done), oldest first, by operation id: each with its amount
	 * (what its attempt asked, which a success that paid must match) and
	 * whether it is a duplicate (not the one recorded as paying the order;
	 * with none recorded, not the first).
	 *
	 * @return array<string, array{operation_id: string, amount: string, duplicate: bool}>
	 */
	private function paid_operations( \WC_Order $order ): array {
		$payer = (string) $order->get_meta( Keys::META_PAID_BY_OPERATION );
		$paid  = array();
		foreach ( $this->operations->operations_of_order( $order->get_id() ) as $operation ) {
			$step = Status_Flow::find_step( $operation['status'], $operation['status_code'] );
			if ( null === $step || Status_Flow::PHASE_SUCCEEDED !== $step['phase'] ) {
				continue;
			}
			$attempt = $this->attempts->attempt( $operation['attempt_id'] );
			$paid[ $operation['operation_id'] ] = array(
				'operation_id' => $operation['operation_id'],
				'amount'       => null === $attempt ? '' : Order_Words::money( $attempt->amount(), $attempt->currency() ),
				'duplicate'    => true,
			);
		}
		if ( ! isset( $paid[ $payer ] ) ) {
			$payer = (string) array_key_first( $paid );
		}
		if ( isset( $paid[ $payer ] ) ) {
			$paid[ $payer ]['duplicate'] = false;
		}
		return $paid;
	}

	/** A link to admin-post.php (a form would nest inside the order form). */
	private function button( \WC_Order $order, string $do, string $label, bool $primary ): void {
		$url = wp_nonce_url(
			add_query_arg(
				array(
					'action'   => self::ACTION,
					'do'       => $do,
					'order_id' => $order->get_id(),
				),
				admin_url( 'admin-post.php' )
			),
			self::ACTION . '_' . $do . '_' . $order->get_id()
		);
		$confirm = 'cancel' === $do ? ' onclick="return confirm(\'' . esc_js( __( 'Cancel this payment? The buyer\'s operation will be declined.', 'card2crypto-checkout' ) ) . '\')"' : '';
		echo '<a class="button' . ( $primary ? ' button-primary' : '' ) . '" data-card2crypto-action="' . esc_attr( $do ) . '" href="' . esc_url( $url ) . '"' . $confirm . '>' . esc_html( $label ) . '</a> '; // phpcs:ignore WordPress.Security.EscapeOutput -- $confirm is built from esc_js().
	}

	public function handle(): void {
		$order_id = isset( $_GET['order_id'] ) ? absint( $_GET['order_id'] ) : 0; // phpcs:ignore WordPress.Security.NonceVerification -- verified below.
		$do       = isset( $_GET['do'] ) ? sanitize_key( wp_unslash( $_GET['do'] ) ) : ''; // phpcs:ignore WordPress.Security.NonceVerification -- verified below.
		if ( ! in_array( $do, array( 'confirm', 'cancel', 'refresh' ), true ) ) {
			wp_die( esc_html__( 'Unknown action.', 'card2crypto-checkout' ), '', array( 'response' => 400 ) );
		}
		check_admin_referer( self::ACTION . '_' . $do . '_' . $order_id );
		if ( ! current_user_can( 'edit_shop_orders' ) || ! current_user_can( 'edit_shop_order', $order_id ) ) {
			wp_die( esc_html__( 'You are not allowed to change this order.', 'card2crypto-checkout' ), '', array( 'response' => 403 ) );
		}
		$order = wc_get_order( $order_id );
		if ( ! $order instanceof \WC_Order ) {
			wp_die( esc_html__( 'This order cannot be found.', 'card2crypto-checkout' ), '', array( 'response' => 404 ) );
		}
		$back = $order->get_edit_order_url();
		try {
			$this->act( $order, $do, wp_get_current_user()->user_login );
		} catch ( \Throwable $e ) {
			// Even the note may have failed (the database is down): the log and the notice on the next screen tell the admin.
			Log::error( sprintf( 'Order %d: the "%s" action failed: %s', $order_id, $do, $e->getMessage() ) );
			$back = add_query_arg( self::FAILED_ARG, $do, $back );
		}
		wp_safe_redirect( $back );
		exit;
	}

	/** On the screen handle() returns to after a failure: says so (details are in the log). */
	public function failure_notice(): void {
		$failed = isset( $_GET[ self::FAILED_ARG ] ) ? sanitize_key( wp_unslash( $_GET[ self::FAILED_ARG ] ) ) : ''; // phpcs:ignore WordPress.Security.NonceVerification -- only chooses a message.
		if ( '' === $failed || ! current_user_can( 'edit_shop_orders' ) ) {
			return;
		}
		echo '<div class="notice notice-error"><p>' . esc_html__( 'Card2Crypto: the payment action could not be completed because of an internal error (for example the database). Nothing was changed by it; see WooCommerce > Status > Logs (card2crypto-checkout) and try again.', 'card2crypto-checkout' ) . '</p></div>';
	}

	/** Performs an action (the service asked in the owner's lane) and records the result as an order note. */
	public function act( \WC_Order $order, string $do, string $who ): bool {
		$attempt = $this->attempts->current_attempt( $order );
		if ( null === $attempt ) {
			$order->add_order_note( __( 'Card2Crypto: no payment attempt to act on.', 'card2crypto-checkout' ) );
			return false;
		}
		if ( 'refresh' === $do ) {
			$result = $this->refresh( $order, $attempt );
			/* translators: 1: user, 2: result */
			$order->add_order_note( sprintf( __( 'Card2Crypto: %1$s refreshed the payment from the service. %2$s', 'card2crypto-checkout' ), $who, $result->message() ) );
			return $result->ok();
		}
		try {
			$client = $this->gateway->client( Service_Lanes::ADMIN );
			$op_id  = '' !== $attempt->operation_id() ? $attempt->operation_id() : null;
			if ( 'confirm' === $do ) {
				$client->confirm( $op_id, $attempt->partner_operation_id() );
				/* translators: %s: user */
				$order->add_order_note( sprintf( __( 'Card2Crypto: %s confirmed the payment; the service continues with the purchase.', 'card2crypto-checkout' ), $who ) );
			} else {
				$client->cancel( $op_id, $attempt->partner_operation_id() );
				/* translators: %s: user */
				$order->add_order_note( sprintf( __( 'Card2Crypto: %s cancelled the payment at the service.', 'card2crypto-checkout' ), $who ) );
			}
		} catch ( Partner_Api_Exception $e ) {
			/* translators: 1: user, 2: action, 3: error */
			$order->add_order_note( sprintf( __( 'Card2Crypto: %1$s tried to %2$s the payment; the service refused: %3$s', 'card2crypto-checkout' ), $who, $do, $e->getMessage() ) );
			return false;
		} catch ( \InvalidArgumentException $e ) {
			/* translators: 1: user, 2: action, 3: error */
			$order->add_order_note( sprintf( __( 'Card2Crypto: %1$s tried to %2$s the payment: %3$s', 'card2crypto-checkout' ), $who, $do, $e->getMessage() ) );
			return false;
		}
		// The service's callback moves the order; ask now too, so the screen is current.
		$this->refresh( $order, $attempt );
		return true;
	}

	/**
	 * Reconciler::check(), with a failure to apply the answer (a database
	 * error, an order hook that threw) noted instead of thrown.
	 */
	private function refresh( \WC_Order $order, Attempt $attempt ): Check_Result {
		try {
			return $this->reconciler->check( $order, $attempt, 'refresh' );
		} catch ( \Throwable $e ) {
			Log::error( sprintf( 'Order %d: the refresh could not be applied: %s', $order->get_id(), $e->getMessage() ) );
			return Check_Result::failed( __( 'The answer could not be applied because of an internal error (details in WooCommerce > Status > Logs, source card2crypto-checkout); the payment state was left as it was. Try again.', 'card2crypto-checkout' ) );
		}
	}
}

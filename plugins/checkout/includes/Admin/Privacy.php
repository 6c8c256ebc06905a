<?php
/**
 * Privacy, as WordPress asks of a plugin that sends data to a third party:
 *
 * - Suggested privacy-policy text (Settings → Privacy → the policy guide):
 *   what reaches the card-to-crypto service, what the buyer types on the
 *   service's own page (never the store's), and what the store keeps.
 * - Personal-data export (Tools → Export Personal Data): each order's
 *   payment records join WooCommerce's export of that order (its
 *   woocommerce_privacy_export_order_personal_data filter).
 * - Erasure (Tools → Erase Personal Data, and WooCommerce's own removal of
 *   an order's personal data: its bulk action and its automatic
 *   anonymisation of old orders): what is the buyer's goes, the card's type,
 *   masked number and country and the payment's status page at the service;
 *   what the store's accounts need stays, said so in the eraser's messages:
 *   amounts and currencies, the payment's references and operation ids,
 *   the bitcoin transaction (the order's transaction id too, which
 *   WooCommerce would otherwise blank) and the wallet address, which is the
 *   store's own. The plugin's tables hold no personal data (no e-mail, no
 *   name, no card: an order id, amounts, the store's address, statuses).
 *
 * The eraser follows WooCommerce's choice for orders ("Remove personal data
 * from orders on request", and its woocommerce_privacy_erase_order_personal_data
 * filter): when WooCommerce keeps an order's personal data, so does this.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Admin;

use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Payment\Order_Address;
use Card2Crypto\Checkout\Rules\Order_Words;
use Card2Crypto\Checkout\Rules\Payment_Match;
use Card2Crypto\Checkout\Rules\Wallet_Words;
use Card2Crypto\Checkout\Attempts\Attempt_Store;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Privacy implements Hooks {

	/** The eraser's id (Tools → Erase Personal Data). */
	const ERASER = 'card2crypto-checkout';

	/** Orders looked at per eraser page (as WooCommerce's order eraser). */
	const PAGE = 10;

	/** What the order's payment meta (Keys::META_OPERATION) holds of the buyer: erased on request. */
	const PERSONAL = array( 'card_type', 'card_number', 'card_country', 'status_url' );

	/** @var Attempt_Store */
	private $attempts;

	/** @var Operation_Store */
	private $operations;

	/** @var Order_Address */
	private $addresses;

	public function __construct( Attempt_Store $attempts, Operation_Store $operations, Order_Address $addresses ) {
		$this->attempts   = $attempts;
		$this->operations = $operations;
		$this->addresses  = $addresses;
	}

	public function register(): void {
		add_action( 'admin_init', array( self::class, 'add_policy_text' ) );
		add_filter( 'woocommerce_privacy_export_order_personal_data', array( $this, 'export_order' ), 10, 2 );
		// Before WooCommerce's order eraser (priority 10): this one's messages say what it removed and what it kept.
		add_filter( 'wp_privacy_personal_data_erasers', array( $this, 'add_eraser' ), 5 );
		// WooCommerce's own removal of an order's personal data (its eraser, its bulk action, its old-order clean-up).
		add_action( 'woocommerce_privacy_before_remove_order_personal_data', array( self::class, 'erase_order' ) );
		add_filter( 'woocommerce_privacy_remove_order_personal_data_props', array( self::class, 'keep_transaction' ), 10, 2 );
	}

	/** The suggested text, in WordPress's privacy policy guide (admin_init). */
	public static function add_policy_text(): void {
		if ( function_exists( 'wp_add_privacy_policy_content' ) ) {
			wp_add_privacy_policy_content( __( 'Card2Crypto Checkout', 'card2crypto-checkout' ), self::policy_text() );
		}
	}

	/** The suggested privacy-policy text (HTML; the guide's own classes mark the notes for the owner). */
	public static function policy_text(): string {
		$paragraphs = array(
			'<p class="privacy-policy-tutorial">' . esc_html__( 'Card2Crypto Checkout lets buyers pay by bank card through an outside card-to-crypto service, which buys bitcoin and sends it to your wallet. The text below says what the store sends the service and what it keeps; adapt it to your store, name the service, and link to the service\'s own privacy policy.', 'card2crypto-checkout' ) . '</p>',
			'<p><strong class="privacy-policy-tutorial">' . esc_html__( 'Suggested text:', 'card2crypto-checkout' ) . ' </strong>'
				. esc_html__( 'When you pay by card, the payment is made with our card-to-crypto payment service, which buys bitcoin with your payment and sends it to our wallet. To start the payment we send the service the order\'s amount and currency, our bitcoin wallet address, a payment reference made for your order, your e-mail address (to fill in its form for you) and the language of our site. Before offering card payment we compare your billing country with the countries the service serves; your country is not sent for that.', 'card2crypto-checkout' ) . '</p>',
			'<p>' . esc_html__( 'You enter your card details on the service\'s own payment page or in its payment window on our order page, not in our store: they go to the service and never reach us. The same goes for anything else the service asks of you there, such as your e-mail address, a verification code or identity documents. Your browser loads that page from the service, which also receives your IP address and browser details. The service\'s privacy policy says how it uses them.', 'card2crypto-checkout' ) . '</p>',
			'<p>' . esc_html__( 'The service tells us how the payment went, and we keep this with your order: the payment\'s status, the amount paid and the bitcoin bought, the payment reference and the service\'s operation ids, the bitcoin transaction and our wallet address it paid, the type, country and masked number (the last digits only) of the card used, and the address of the payment\'s status page at the service.', 'card2crypto-checkout' ) . '</p>',
			'<p>' . esc_html__( 'We keep the payment records (amounts, references, the bitcoin transaction and our wallet address) as long as we keep the order for our accounts. When we remove your personal data from an order, we remove the card details and the status page address with it.', 'card2crypto-checkout' ) . '</p>',
		);
		return implode( '', $paragraphs );
	}

	/**
	 * The order's payment records, added to WooCommerce's export of the order.
	 *
	 * @param mixed $personal_data Name and value pairs WooCommerce exports for the order.
	 * @param mixed $order         The order.
	 * @return mixed
	 */
	public function export_order( $personal_data, $order ) {
		if ( ! is_array( $personal_data ) || ! $order instanceof \WC_Order ) {
			return $personal_data;
		}
		foreach ( $this->order_data( $order ) as $name => $value ) {
			$personal_data[] = array(
				'name'  => $name,
				'value' => $value,
			);
		}
		return $personal_data;
	}

	/**
	 * What the plugin keeps of an order, by name (nothing for an order it never took a payment for).
	 *
	 * @return array<string, string>
	 */
	public function order_data( \WC_Order $order ): array {
		$attempts = $this->attempts->attempts_of_order( $order->get_id() );
		$op       = $order->get_meta( Keys::META_OPERATION );
		$op       = is_array( $op ) ? $op : array();
		$data     = array();
		$lines    = array();
		$wallets  = array();
		foreach ( array_reverse( $attempts ) as $attempt ) {
			$lines[] = sprintf(
				/* translators: 1: the payment's reference, 2: amount and currency, 3: date and time it started (UTC) */
				__( '%1$s: %2$s, started %3$s UTC', 'card2crypto-checkout' ),
				$attempt->partner_operation_id(),
				Order_Words::money( $attempt->amount(), $attempt->currency() ),
				(string) $attempt->created_at()
			);
			if ( '' !== $attempt->wallet() ) {
				$wallets[ $attempt->wallet() ] = true;
			}
		}
		if ( array() !== $lines ) {
			$data[ __( 'Card payment attempts', 'card2crypto-checkout' ) ] = implode( '; ', $lines );
		}
		$ops = array();
		foreach ( $this->operations->operations_of_order( $order->get_id() ) as $operation ) {
			$ops[] = $operation['operation_id'] . ( Operation_Store::NO_CODE === $operation['status_code'] ? '' : ' (' . Order_Words::status( $operation['status'], $operation['status_code'] ) . ')' );
		}
		if ( array() === $ops && isset( $op['id'] ) ) {
			$ops[] = (string) $op['id'];
		}
		if ( array() !== $ops ) {
			$data[ __( 'Card payment operations', 'card2crypto-checkout' ) ] = implode( '; ', $ops );
		}
		if ( isset( $op['from_amount'], $op['from_currency'] ) && is_numeric( $op['from_amount'] ) && '' !== (string) $op['from_currency'] ) {
			$label          = Order_Words::received( $op['status'] ?? null, $op['status_code'] ?? null ) ? __( 'Card payment amount paid', 'card2crypto-checkout' ) : __( 'Card payment amount asked', 'card2crypto-checkout' );
			$data[ $label ] = Order_Words::money( (int) $op['from_amount'], (string) $op['from_currency'] );
		}
		if ( isset( $op['to_amount'] ) && is_numeric( $op['to_amount'] ) ) {
			$data[ __( 'Bitcoin bought', 'card2crypto-checkout' ) ] = Wallet_Words::btc( (int) $op['to_amount'] ) . ' ' . ( $op['to_currency'] ?? Payment_Match::ASSET_BTC );
		}
		$own = $this->addresses->of_order( $order );
		if ( null !== $own ) {
			$wallets[ $own['address'] ] = true;
		}
		if ( array() !== $wallets ) {
			$data[ __( 'Bitcoin address paid (the store\'s wallet)', 'card2crypto-checkout' ) ] = implode( ', ', array_keys( $wallets ) );
		}
		if ( isset( $op['tx_id'] ) && '' !== (string) $op['tx_id'] ) {
			$data[ __( 'Bitcoin transaction', 'card2crypto-checkout' ) ] = (string) $op['tx_id'];
		}
		$card = trim( ( isset( $op['card_type'] ) ? (string) $op['card_type'] : '' ) . ' ' . ( isset( $op['card_number'] ) ? (string) $op['card_number'] : '' ) );
		if ( '' !== $card ) {
			$data[ __( 'Card used', 'card2crypto-checkout' ) ] = $card;
		}
		if ( isset( $op['card_country'] ) && '' !== (string) $op['card_country'] ) {
			$data[ __( 'Card country', 'card2crypto-checkout' ) ] = (string) $op['card_country'];
		}
		if ( isset( $op['status_url'] ) && '' !== (string) $op['status_url'] ) {
			$data[ __( 'Payment status page at the service', 'card2crypto-checkout' ) ] = (string) $op['status_url'];
		}
		return $data;
	}

	/**
	 * @param mixed $erasers Erasers by id.
	 * @return mixed
	 */
	public function add_eraser( $erasers ) {
		if ( ! is_array( $erasers ) ) {
			return $erasers;
		}
		$erasers[ self::ERASER ] = array(
			'eraser_friendly_name' => __( 'Card2Crypto card payments', 'card2crypto-checkout' ),
			'callback'             => array( $this, 'erase' ),
		);
		return $erasers;
	}

	/**
	 * The eraser: the e-mail's orders (by billing e-mail, and the customer
	 * account of that e-mail), ten a page as WooCommerce's order eraser.
	 *
	 * @param mixed $email_address The person's e-mail address.
	 * @param mixed $page          1, 2, ...
	 * @return array{items_removed: bool, items_retained: bool, messages: string[], done: bool}
	 */
	public function erase( $email_address, $page = 1 ): array {
		$response = array(
			'items_removed'  => false,
			'items_retained' => false,
			'messages'       => array(),
			'done'           => true,
		);
		$email = sanitize_email( (string) $email_address );
		if ( '' === $email || ! function_exists( 'wc_get_orders' ) ) {
			return $response;
		}
		$customers = array( $email );
		$user      = get_user_by( 'email', $email );
		if ( $user instanceof \WP_User ) {
			$customers[] = (int) $user->ID;
		}
		$orders = wc_get_orders(
			array(
				'limit'    => self::PAGE,
				'page'     => max( 1, (int) $page ),
				'customer' => $customers,
			)
		);
		foreach ( is_array( $orders ) ? $orders : array() as $order ) {
			if ( ! $order instanceof \WC_Order || array() === $this->order_data( $order ) ) {
				continue;
			}
			$number = $order->get_order_number();
			if ( self::erases_orders( $order ) ) {
				$removed = self::erase_order( $order );
				if ( array() !== $removed ) {
					$order->save();
					$response['items_removed'] = true;
					$response['messages'][]    = sprintf(
						/* translators: 1: order number, 2: what was removed, e.g. "the card's type, the card's masked number" */
						__( 'Card2Crypto: removed from order %1$s: %2$s.', 'card2crypto-checkout' ),
						$number,
						implode( ', ', $removed )
					);
				}
			} else {
				$response['items_retained'] = true;
				$response['messages'][]     = sprintf(
					/* translators: %s: order number */
					__( 'Card2Crypto: the card details of order %s were retained, as WooCommerce keeps the personal data of orders on erasure requests (WooCommerce → Settings → Accounts & Privacy).', 'card2crypto-checkout' ),
					$number
				);
			}
			$response['items_retained'] = true;
			$response['messages'][]     = sprintf(
				/* translators: %s: order number */
				__( 'Card2Crypto: kept for the store\'s accounts in order %s: the payment\'s amounts and currencies, its references and operation ids, the bitcoin transaction and the wallet address it paid (the store\'s own address).', 'card2crypto-checkout' ),
				$number
			);
		}
		$response['done'] = ! is_array( $orders ) || count( $orders ) < self::PAGE;
		return $response;
	}

	/** Whether an erasure request removes the order's personal data: WooCommerce's setting and filter decide. */
	private static function erases_orders( \WC_Order $order ): bool {
		$enabled = function_exists( 'wc_string_to_bool' ) && wc_string_to_bool( get_option( 'woocommerce_erasure_request_removes_order_data', 'no' ) );
		// phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- WooCommerce's own filter: the same decision as its order eraser.
		return (bool) apply_filters( 'woocommerce_privacy_erase_order_personal_data', $enabled, $order );
	}

	/**
	 * Removes the buyer's data from the order's payment meta (not saved:
	 * WooCommerce saves the order after its before-removal action; the
	 * eraser saves it itself).
	 *
	 * @param mixed $order The order.
	 * @return string[] What was removed, in words.
	 */
	public static function erase_order( $order ): array {
		if ( ! $order instanceof \WC_Order ) {
			return array();
		}
		$op = $order->get_meta( Keys::META_OPERATION );
		if ( ! is_array( $op ) ) {
			return array();
		}
		$removed = array();
		foreach ( self::PERSONAL as $key ) {
			if ( isset( $op[ $key ] ) ) {
				unset( $op[ $key ] );
				$removed[] = self::personal_words( $key );
			}
		}
		if ( array() !== $removed ) {
			$order->update_meta_data( Keys::META_OPERATION, $op );
		}
		return $removed;
	}

	private static function personal_words( string $key ): string {
		switch ( $key ) {
			case 'card_type':
				return __( 'the card\'s type', 'card2crypto-checkout' );
			case 'card_number':
				return __( 'the card\'s masked number', 'card2crypto-checkout' );
			case 'card_country':
				return __( 'the card\'s country', 'card2crypto-checkout' );
			default:
				return __( 'the payment\'s status page at the service', 'card2crypto-checkout' );
		}
	}

	/**
	 * An order paid through the service keeps its transaction id, the
	 * bitcoin transaction to the store's wallet: the store's accounts need
	 * it, and it names no buyer.
	 *
	 * @param mixed $props Order props WooCommerce anonymises, with their data types.
	 * @param mixed $order The order.
	 * @return mixed
	 */
	public static function keep_transaction( $props, $order ) {
		if ( is_array( $props ) && $order instanceof \WC_Order && Keys::GATEWAY_ID === $order->get_payment_method() ) {
			unset( $props['transaction_id'] );
		}
		return $props;
	}
}

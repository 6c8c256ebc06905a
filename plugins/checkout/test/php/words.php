<?php
/**
 * Calls Order_Words, Buyer_Words, Clock_Refusal, Payment_State, Manual_Refunds, Test_Mode_Titles and Range_Words for the Node tests. /work/store.json
 * is the store's price format as WooCommerce would give it:
 * {symbols: {EUR: "&euro;"}, thousand, decimal, format}; "null": the
 * WooCommerce functions do not exist and the plain form is used.
 */

use Card2Crypto\Checkout\Rules\Buyer_Words;
use Card2Crypto\Checkout\Rules\Clock_Refusal;
use Card2Crypto\Checkout\Order\Manual_Refunds;
use Card2Crypto\Checkout\Rules\Payment_State;
use Card2Crypto\Checkout\Rules\Refund_Words;
use Card2Crypto\Checkout\Rules\Decision;
use Card2Crypto\Checkout\Rules\Order_Words;
use Card2Crypto\Checkout\Rules\Plain_Text;
use Card2Crypto\Checkout\Rules\Range_Words;
use Card2Crypto\Checkout\Rules\Test_Mode_Titles;
use Card2Crypto\Checkout\Rules\Wallet_Words;

require __DIR__ . '/bootstrap.php';

function __( $text, $domain = '' ) {
	return $text;
}
function _n( $single, $plural, $number, $domain = '' ) {
	return 1 === (int) $number ? $single : $plural;
}

/** WordPress's own for a string (wp-includes/formatting.php). */
function wp_strip_all_tags( $text, $remove_breaks = false ) {
	$text = preg_replace( '@<(script|style)[^>]*?>.*?</\\1>@si', '', $text );
	$text = strip_tags( $text );
	if ( $remove_breaks ) {
		$text = preg_replace( '/[\r\n\t ]+/', ' ', $text );
	}
	return trim( $text );
}

$c2c_store = json_decode( file_get_contents( C2C_TEST_ROOT . '/work/store.json' ), true );
if ( null !== $c2c_store ) {
	function get_woocommerce_currency_symbol( $currency = '' ) {
		return $GLOBALS['c2c_store']['symbols'][ $currency ] ?? $currency;
	}
	function wc_get_price_thousand_separator() {
		return $GLOBALS['c2c_store']['thousand'];
	}
	function wc_get_price_decimal_separator() {
		return $GLOBALS['c2c_store']['decimal'];
	}
	function get_woocommerce_price_format() {
		return $GLOBALS['c2c_store']['format'];
	}
}

/** Just enough of WooCommerce's orders for Manual_Refunds::record(): orders and refunds by id, notes kept. */
class WC_Payment_Gateway {
}
class WC_Order {
	public $notes = array();
	public $method;
	public $currency;
	public function __construct( string $method, string $currency ) {
		$this->method   = $method;
		$this->currency = $currency;
	}
	public function get_payment_method() {
		return $this->method;
	}
	public function get_currency() {
		return $this->currency;
	}
	public function add_order_note( $note ) {
		$this->notes[] = $note;
	}
}
class WC_Order_Refund {
	public $amount;
	public $reason;
	public function __construct( string $amount, string $reason ) {
		$this->amount = $amount;
		$this->reason = $reason;
	}
	public function get_amount() {
		return $this->amount;
	}
	public function get_reason() {
		return $this->reason;
	}
}
function wc_get_order( $id ) {
	return $GLOBALS['c2c_orders'][ $id ] ?? false;
}

c2c_test_run_calls(
	array(
		'money'    => array( Order_Words::class, 'money' ),
		'status'   => array( Order_Words::class, 'status' ),
		'received' => array( Order_Words::class, 'received' ),
		'bought'   => array( Order_Words::class, 'bought' ),
		'decision' => static function ( array $action, string $label, ?array $state, string $via, string $operation_id ) {
			return Order_Words::decision( Decision::from_array( $action ), $label, $state, $via, $operation_id );
		},
		'buyer'    => array( Buyer_Words::class, 'outcome' ),
		'failure'  => array( Buyer_Words::class, 'failure' ),
		'view'     => array( Payment_State::class, 'words' ),
		'note'     => array( Refund_Words::class, 'note' ),
		'range'    => array( Range_Words::class, 'message' ),
		'ranges'   => array( Range_Words::class, 'messages' ),
		'plain'    => array( Plain_Text::class, 'from_html' ),
		'btc'      => array( Wallet_Words::class, 'btc' ),
		'explorer' => array( Wallet_Words::class, 'explorer_url' ),
		'gap_text' => array( Wallet_Words::class, 'gap_text' ),
		'clock'    => array( Clock_Refusal::class, 'words' ),
		'buyer_title' => array( Test_Mode_Titles::class, 'buyer_title' ),
		'admin_title' => array( Test_Mode_Titles::class, 'admin_title' ),
		'plain_title' => array( Test_Mode_Titles::class, 'plain_title' ),
		// Records refund 2 ({amount, reason}) of order 1 ({method, currency}); answers the order's notes.
		'record'   => static function ( array $order, array $refund ) {
			$GLOBALS['c2c_orders'] = array(
				1 => new WC_Order( $order['method'], $order['currency'] ),
				2 => new WC_Order_Refund( $refund['amount'], $refund['reason'] ),
			);
			( new Manual_Refunds() )->record( 1, 2 );
			return $GLOBALS['c2c_orders'][1]->notes;
		},
	)
);

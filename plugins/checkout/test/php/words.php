<?php
/**
 * Calls Order_Words for the Node tests. /work/store.json
 * is the store's price format as WooCommerce would give it:
 * {symbols: {EUR: "&euro;"}, thousand, decimal, format}; "null": the
 * WooCommerce functions do not exist and the plain form is used.
 */

use Card2Crypto\Checkout\Order_Words;

require __DIR__ . '/bootstrap.php';

function __( $text, $domain = '' ) {
	return $text;
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

c2c_test_run_calls(
	array(
		'money'    => array( Order_Words::class, 'money' ),
		'status'   => array( Order_Words::class, 'status' ),
		'received' => array( Order_Words::class, 'received' ),
		'bought'   => array( Order_Words::class, 'bought' ),
	)
);

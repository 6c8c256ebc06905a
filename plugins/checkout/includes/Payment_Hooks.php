<?php
/**
 * Wires the payment side (orders, callbacks' effects, reconciliation, block
 * checkout, order screens) into WordPress and WooCommerce. Plugin::boot()
 * calls register() once WooCommerce is known to be loaded.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout;

use Card2Crypto\Checkout\Admin\Admin_Order_Panel;
use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Buyer\Buyer_Cancel;
use Card2Crypto\Checkout\Buyer\Buyer_Return;
use Card2Crypto\Checkout\Buyer\Order_Pay;
use Card2Crypto\Checkout\Buyer\Order_View;
use Card2Crypto\Checkout\Buyer\Range_Notice;
use Card2Crypto\Checkout\Gateway\Blocks_Integration;
use Card2Crypto\Checkout\Order\Buyer_Mail;
use Card2Crypto\Checkout\Order\Manual_Refunds;
use Card2Crypto\Checkout\Service\Callback_Health;
use Card2Crypto\Checkout\Service\Reconciler;
use Card2Crypto\Checkout\Service\Service_Back;
use Card2Crypto\Checkout\Service\Service_Health;
use Card2Crypto\Checkout\Settings\Test_Mode;

defined( 'ABSPATH' ) || exit;

final class Payment_Hooks {

	public static function register(): void {
		add_action( 'init', array( Operation_Store::class, 'maybe_install' ), 5 );
		Reconciler::register();
		Service_Health::register();
		Service_Back::register();
		Order_View::register();
		Manual_Refunds::register();
		Test_Mode::register();
		Range_Notice::register();
		Buyer_Return::register();
		Buyer_Cancel::register();
		Buyer_Mail::register();
		if ( is_admin() ) {
			Admin_Order_Panel::register();
			Callback_Health::register();
		}
		add_action( 'rest_api_init', array( Order_Pay::class, 'register_route' ) );
		add_filter( 'woocommerce_cancel_unpaid_order', array( self::class, 'keep_paying_orders' ), 10, 2 );
		add_action( 'woocommerce_receipt_' . Keys::GATEWAY_ID, array( Order_Pay::class, 'render' ) );
		add_action( 'woocommerce_blocks_payment_method_type_registration', array( self::class, 'register_blocks' ) );
	}

	/** Activation: the plugin's tables. */
	public static function activate(): void {
		Operation_Store::install();
	}

	/** WooCommerce's hold-stock timer never cancels an order whose payment is in flight. */
	public static function keep_paying_orders( $cancel, $order ) {
		if ( $cancel && $order instanceof \WC_Order && Keys::GATEWAY_ID === $order->get_payment_method() && Order_Attempts::payment_in_progress( $order ) ) {
			return false;
		}
		return $cancel;
	}

	public static function register_blocks( $registry ): void {
		if ( class_exists( '\Automattic\WooCommerce\Blocks\Payments\Integrations\AbstractPaymentMethodType' ) ) {
			$registry->register( new Blocks_Integration() );
		}
	}
}

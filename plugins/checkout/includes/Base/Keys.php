<?php
/**
 * The names the checkout's classes share and the outside world sees: the
 * payment method's id, the REST namespace and callback route, the order meta
 * keys and the settings option. A leaf: it names no other class, so any
 * class may read these without depending on the class that acts on them.
 *
 * Stored values: changing one orphans what shops already saved.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Base;

defined( 'ABSPATH' ) || exit;

final class Keys {

	/** The payment method's id: WooCommerce's gateway id and every order's payment_method. */
	const GATEWAY_ID = 'card2crypto';

	/** WooCommerce's option for a gateway's settings: woocommerce_<gateway id>_settings. */
	const SETTINGS_OPTION = 'woocommerce_card2crypto_settings';

	/** The REST namespace of every route of the plugin. */
	const REST_NAMESPACE = 'card2crypto/v1';

	/** The thank-you page's payment-state route after the namespace (Order_View registers it; State_Poll answers its polls early). */
	const STATE_ROUTE = '/orders/(?P<order_id>\\d+)/payment-state';

	/** The route the service posts its callbacks to (the partner's callback address). */
	const CALLBACK_ROUTE = '/callback';

	/** Order meta: partner_operation_id of the order's current attempt. */
	const META_ATTEMPT = '_card2crypto_partner_operation_id';

	/**
	 * Order meta: the current attempt while it has never been signed for the
	 * buyer (no landing URL or widget settings made for it yet), so the
	 * service cannot know it and is not asked about it (Start_Gate).
	 */
	const META_UNSIGNED = '_card2crypto_unsigned_attempt';

	/**
	 * Order meta: partner_operation_id of the attempt last signed for the
	 * embedded widget: after a decline the buyer may try again inside that
	 * widget, under the same attempt (Order_Decision waits for it).
	 */
	const META_WIDGET_ATTEMPT = '_card2crypto_widget_attempt';

	/**
	 * Order meta: a decline inside the widget left the order waiting for the
	 * buyer's next try until this Unix time (Order_Actions, Widget_Retry).
	 */
	const META_RETRY_UNTIL = '_card2crypto_retry_until';

	/** Order meta: the index and the address of the owner's wallet the order holds (a new address per order). */
	const META_ADDRESS_INDEX = '_card2crypto_address_index';
	const META_ADDRESS       = '_card2crypto_address';

	/** Order meta: "yes" on an order placed while the store used the sandbox, whose transactions are simulated. */
	const META_TEST_MODE = '_card2crypto_test_mode';

	/** Order meta: the last applied operation data (for display). */
	const META_OPERATION = '_card2crypto_operation';

	/** Order meta: partner_operation_id of the attempt that paid the order. */
	const META_PAID_BY = '_card2crypto_paid_by';

	/** Order meta: the service's id of the operation that paid the order. */
	const META_PAID_BY_OPERATION = '_card2crypto_paid_by_operation';

	/** Element id of the embedded widget on the order-pay page. */
	const WIDGET_ELEMENT = 'card2crypto-widget';
}

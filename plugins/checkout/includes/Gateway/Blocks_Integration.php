<?php
/**
 * The payment method in the block checkout: a tiny script (build/blocks.js,
 * registered from its build/blocks.asset.php) that calls registerPaymentMethod
 * with its data from getSetting('card2crypto_data'). Loaded only when
 * WooCommerce Blocks asks. It holds no translatable text: every text comes
 * translated from get_payment_method_data().
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Gateway;

use Automattic\WooCommerce\Blocks\Payments\Integrations\AbstractPaymentMethodType;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Rules\Currencies;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Other_Methods;
use Card2Crypto\Checkout\Rules\Plain_Text;
use Card2Crypto\Checkout\Base\Script_Asset;
use Card2Crypto\Checkout\Payment\Availability;
use Card2Crypto\Checkout\Rules\Range_Words;
use Card2Crypto\Checkout\Service\Service_Health;
use Card2Crypto\Checkout\Rules\Test_Mode_Titles;

defined( 'ABSPATH' ) || exit;

final class Blocks_Integration extends AbstractPaymentMethodType {

	const HANDLE = 'card2crypto-checkout-blocks';

	/** @var string */
	protected $name = Keys::GATEWAY_ID;

	/** @var Config */
	private $config;

	/** @var Service_Health */
	private $health;

	/** @var Availability */
	private $availability;

	/** @var Script_Asset */
	private $scripts;

	public function __construct( Config $config, Service_Health $health, Availability $availability, Script_Asset $scripts ) {
		$this->config       = $config;
		$this->health       = $health;
		$this->availability = $availability;
		$this->scripts      = $scripts;
	}

	public function initialize() {
		$this->settings = get_option( Keys::SETTINGS_OPTION, array() );
	}

	/**
	 * Enabled and set up (Config::offers_payment(), the gateway's own first
	 * rule). While the service refuses the store the script
	 * still loads: the gateway's is_available() withdraws the method (the
	 * Store API does not list it), and the script says why in the store's
	 * words in place of WooCommerce's "no payment methods" (get_payment_method_data()).
	 */
	public function is_active() {
		return $this->config->offers_payment();
	}

	public function get_payment_method_script_handles() {
		return $this->scripts->register( self::HANDLE, 'blocks' ) ? array( self::HANDLE ) : array();
	}

	/** Everything the script shows or checks, decided here; texts as plain text (Plain_Text). */
	public function get_payment_method_data() {
		$config   = $this->config;
		$currency = $config->currency();
		$limits   = Currencies::limits( $currency ) ?? array( 2, 0, 0 );
		// The Store API gives totals in the store's price decimals; convert the limits to that unit.
		$shift     = wc_get_price_decimals() - $limits[0];
		$scale     = 10 ** abs( $shift );
		$countries = $this->availability->countries();
		$others    = Other_Methods::exist();
		return array(
			'title'     => Plain_Text::from_html( Test_Mode_Titles::buyer_title( $config->title(), $config->environment() ) ),
			'lines'     => array_map( array( Plain_Text::class, 'from_html' ), $this->availability->lines( $this->availability->cart_total_minor( $currency ) ) ),
			'countries' => null === $countries ? null : array_values( $countries ),
			'min'       => $shift >= 0 ? $limits[1] * $scale : intdiv( $limits[1], $scale ),
			'max'       => $shift >= 0 ? $limits[2] * $scale : intdiv( $limits[2], $scale ),
			// Withdrawn (the service refuses the store): the same words whatever the total.
			'range'     => $this->health->withdrawn() ? array_fill( 0, 3, $this->health->buyer_message( $others ) ) : Range_Words::messages( $currency, $others ),
			// The only method: outside the range or withdrawn, our words stand in for WooCommerce's "no payment methods" (Range_Notice::block_style()).
			'alone'     => ! $others,
			'supports'  => array( 'features' => array( 'products' ) ),
		);
	}
}

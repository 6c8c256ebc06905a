<?php
/**
 * When the payment method is offered, and what it tells the buyer: the
 * service's countries (countries endpoint) and a BTC estimate from the
 * exchange price endpoint, both the last good answer the store keeps
 * (Service_Answers: refreshed after a page's answer, never on its time).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Payment;

use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Attempts\Payment_Refused;
use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Rules\Currencies;
use Card2Crypto\Checkout\Rules\Wallet_Words;
use Card2Crypto\Checkout\Service\Service_Answers;

defined( 'ABSPATH' ) || exit;

final class Availability {

	/** Payment methods the service accepts (spec, "Supported payment methods"). */
	const METHODS = 'Visa, Maestro, MasterCard, SEPA, Google Pay';

	/** @var Config */
	private $config;

	/** @var Service_Answers */
	private $answers;

	/** @var Order_Attempts */
	private $order_attempts;

	public function __construct( Config $config, Service_Answers $answers, Order_Attempts $order_attempts ) {
		$this->config         = $config;
		$this->answers        = $answers;
		$this->order_attempts = $order_attempts;
	}

	/**
	 * Why the method cannot be offered for this total and country, or null.
	 *
	 * @param int|null    $total_minor Order/cart total in the currency's minor units; null: unknown yet.
	 * @param string|null $country     Billing country (alpha-2); null or '': not entered yet.
	 */
	public function problem( string $currency, ?int $total_minor, ?string $country ): ?string {
		$config = $this->config;
		if ( ! $config->offers_payment() ) {
			return 'not_offered';
		}
		if ( ! Currencies::is_supported( $currency ) || $currency !== $config->currency() ) {
			return 'currency';
		}
		if ( null !== $total_minor && null !== Currencies::limit_problem( $total_minor, $currency ) ) {
			return 'amount';
		}
		if ( null !== $country && '' !== $country ) {
			$countries = $this->countries();
			if ( null !== $countries && ! in_array( strtoupper( $country ), $countries, true ) ) {
				return 'country';
			}
		}
		return null;
	}

	/**
	 * Alpha-2 codes the service serves (its last good answer, whatever its
	 * age), or null when it never answered: then every country is offered.
	 * Never asks the service on the page's time (Service_Answers).
	 *
	 * @return string[]|null
	 */
	public function countries(): ?array {
		$codes = $this->answers->read( Service_Answers::COUNTRIES );
		return is_array( $codes ) ? array_values( array_map( 'strval', $codes ) ) : null;
	}

	/**
	 * Satoshis an amount buys at the last price the service gave (after the
	 * partner's commission), or null when it never gave one for the
	 * currency. Never asks the service on the page's time (Service_Answers).
	 */
	public function btc_estimate( string $currency, int $total_minor ): ?int {
		$pairs = $this->answers->read( Service_Answers::PRICES );
		if ( ! is_array( $pairs ) || ! isset( $pairs[ $currency ] ) || ! is_array( $pairs[ $currency ] ) || (int) $pairs[ $currency ][0] <= 0 ) {
			return null;
		}
		$from = (int) $pairs[ $currency ][0];
		$to   = (int) $pairs[ $currency ][1];
		if ( $total_minor > intdiv( PHP_INT_MAX, max( 1, $to ) ) ) {
			return null;
		}
		return intdiv( $total_minor * $to, $from );
	}

	/**
	 * The lines shown under the method at checkout.
	 *
	 * @return string[]
	 */
	public function lines( ?int $total_minor ): array {
		$config = $this->config;
		$lines = array();
		if ( '' !== $config->description() ) {
			$lines[] = $config->description();
		}
		$lines[] = __( 'Pay by card; the amount buys bitcoin (BTC), which goes straight to the store.', 'card2crypto-checkout' );
		// The service shows the receiving address in an editable field and offers no way to lock it: said before the buyer gets there.
		$lines[] = Wallet_Words::wallet_line();
		/* translators: %s: list of payment methods */
		$lines[] = sprintf( __( 'Accepted: %s.', 'card2crypto-checkout' ), self::METHODS );
		if ( null !== $total_minor && $total_minor > 0 ) {
			$sats = $this->btc_estimate( $config->currency(), $total_minor );
			if ( null !== $sats ) {
				/* translators: %s: BTC amount */
				$lines[] = sprintf( __( 'This order buys about %s BTC at the current price.', 'card2crypto-checkout' ), Wallet_Words::btc( $sats ) );
			}
		}
		return $lines;
	}

	/**
	 * The total being paid in minor units: the order's on its payment page
	 * (an order the store made for the buyer has no cart), else the cart's;
	 * null when neither.
	 */
	public function paying_total_minor( string $currency ): ?int {
		if ( function_exists( 'is_wc_endpoint_url' ) && is_wc_endpoint_url( 'order-pay' ) ) {
			$order = wc_get_order( absint( get_query_var( 'order-pay' ) ) );
			if ( $order instanceof \WC_Order && $order->get_currency() === $currency ) {
				return $this->order_total_minor( $order );
			}
		}
		return $this->cart_total_minor( $currency );
	}

	/** The order's total in minor units, or null when it cannot be expressed in them (Order_Attempts::order_amount()). */
	public function order_total_minor( \WC_Order $order ): ?int {
				try {
			return $this->order_attempts->order_amount( $order );
				} catch ( Payment_Refused $e ) {
					return null;
				}
			}

	/** The cart total in minor units, or null outside a cart. */
	public function cart_total_minor( string $currency ): ?int {
		if ( ! function_exists( 'WC' ) || null === WC()->cart ) {
			return null;
		}
		try {
			return Currencies::to_minor( wc_format_decimal( WC()->cart->get_total( 'edit' ), wc_get_price_decimals() ), $currency );
		} catch ( \DomainException $e ) {
			return null;
		}
	}
}

<?php
/**
 * The payment method's health where WordPress and WooCommerce show theirs:
 *
 * - Tools → Site Health: one direct test per check (Health_Checks), named
 *   card2crypto_checkout_<check>, each with its verdict, a plain
 *   description and the action that fixes it. Direct tests only: none asks
 *   the service (each reads what the store last found, and says when).
 * - WooCommerce → Status → System status: a "Card2Crypto Checkout" section
 *   with the same facts, in WooCommerce's own table (and so in the report
 *   an owner copies for support).
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Admin;

use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Site_Health implements Hooks {

	/** Site Health's test ids: PREFIX . the check's id. */
	const PREFIX = 'card2crypto_checkout_';

	/** @var Config */
	private $config;

	/** @var Health_Checks */
	private $checks;

	public function __construct( Config $config, Health_Checks $checks ) {
		$this->config = $config;
		$this->checks = $checks;
	}

	public function register(): void {
		add_filter( 'site_status_tests', array( $this, 'add_tests' ) );
		add_action( 'woocommerce_system_status_report', array( $this, 'status_report' ) );
	}

	/**
	 * @param mixed $tests Site Health's tests: {direct: [...], async: [...]}.
	 * @return mixed
	 */
	public function add_tests( $tests ) {
		if ( ! is_array( $tests ) ) {
			return $tests;
		}
		foreach ( $this->checks->ids() as $id ) {
			$tests['direct'][ self::PREFIX . $id ] = array(
				'label' => $this->checks->name( $id ),
				'test'  => function () use ( $id ): array {
					return $this->test( $id );
				},
			);
		}
		return $tests;
	}

	/**
	 * One check as Site Health shows a test: verdict, label, badge,
	 * description and actions (HTML, escaped here).
	 *
	 * @return array{label: string, status: string, badge: array{label: string, color: string}, description: string, actions: string, test: string}
	 */
	public function test( string $id ): array {
		$result  = $this->checks->run( $id );
		$actions = array();
		foreach ( $result['actions'] as $action ) {
			$actions[] = '<a href="' . esc_url( $action['url'] ) . '">' . esc_html( $action['label'] ) . '</a>';
		}
		return array(
			'label'       => $result['label'],
			'status'      => $result['status'],
			'badge'       => array(
				'label' => 'https' === $id ? __( 'Security', 'card2crypto-checkout' ) : __( 'Payments', 'card2crypto-checkout' ),
				'color' => Health_Checks::GOOD === $result['status'] ? 'blue' : ( Health_Checks::CRITICAL === $result['status'] ? 'red' : 'orange' ),
			),
			'description' => '<p>' . esc_html( $result['description'] ) . '</p>',
			'actions'     => array() === $actions ? '' : '<p>' . implode( ' | ', $actions ) . '</p>',
			'test'        => self::PREFIX . $id,
		);
	}

	/** The "Card2Crypto Checkout" section of WooCommerce's system status report. */
	public function status_report(): void {
		$mark = static function ( string $status, string $text ): string {
			if ( Health_Checks::GOOD === $status ) {
				return '<mark class="yes"><span class="dashicons dashicons-yes"></span> ' . esc_html( $text ) . '</mark>';
			}
			return '<mark class="error"><span class="dashicons dashicons-' . ( Health_Checks::CRITICAL === $status ? 'warning' : 'info' ) . '"></span> ' . esc_html( $text ) . '</mark>';
		};
		$rows = array(
			array(
				'export' => 'Version',
				'label'  => __( 'Version', 'card2crypto-checkout' ),
				'tip'    => __( 'The version of Card2Crypto Checkout.', 'card2crypto-checkout' ),
				'html'   => esc_html( defined( 'CARD2CRYPTO_CHECKOUT_VERSION' ) ? (string) CARD2CRYPTO_CHECKOUT_VERSION : '' ),
			),
			array(
				'export' => 'Enabled',
				'label'  => __( 'Enabled', 'card2crypto-checkout' ),
				'tip'    => __( 'Whether card payment is turned on in the payment settings.', 'card2crypto-checkout' ),
				'html'   => $this->config->enabled() ? $mark( Health_Checks::GOOD, __( 'Yes', 'card2crypto-checkout' ) ) : esc_html__( 'No', 'card2crypto-checkout' ),
			),
			array(
				'export' => 'Environment',
				'label'  => __( 'Environment', 'card2crypto-checkout' ),
				'tip'    => __( 'Sandbox (test payments) or production (live payments).', 'card2crypto-checkout' ),
				'html'   => esc_html( $this->config->environment() ),
			),
			array(
				'export' => 'Wallet',
				'label'  => __( 'Wallet', 'card2crypto-checkout' ),
				'tip'    => __( 'Where the bitcoin goes: one address for every order, or a new address for each order.', 'card2crypto-checkout' ),
				'html'   => $this->config->derives_addresses() ? esc_html__( 'A new address for each order', 'card2crypto-checkout' ) : esc_html__( 'One address for every order', 'card2crypto-checkout' ),
			),
		);
		foreach ( $this->checks->ids() as $id ) {
			$result = $this->checks->run( $id );
			$rows[] = array(
				'export' => $id,
				'label'  => $this->short_name( $id ),
				'tip'    => $result['label'],
				'html'   => $mark( $result['status'], $result['value'] ) . ( Health_Checks::GOOD === $result['status'] ? '' : ' ' . esc_html( $result['description'] ) ),
			);
		}
		echo '<table class="wc_status_table widefat" cellspacing="0" id="card2crypto-checkout-status"><thead><tr><th colspan="3" data-export-label="Card2Crypto Checkout"><h2>'
			. esc_html__( 'Card2Crypto Checkout', 'card2crypto-checkout' )
			. $this->tip( __( 'The card payment method\'s set-up and health (the same checks as Tools → Site Health).', 'card2crypto-checkout' ) )
			. '</h2></th></tr></thead><tbody>';
		foreach ( $rows as $row ) {
			echo '<tr><td data-export-label="' . esc_attr( $row['export'] ) . '">' . esc_html( $row['label'] ) . ':</td><td class="help">' . $this->tip( $row['tip'] ) . '</td><td>' . $row['html'] . '</td></tr>'; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- Built from escaped parts above.
		}
		echo '</tbody></table>';
	}

	/** A check's name without the plugin's prefix (the section names the plugin). */
	private function short_name( string $id ): string {
		switch ( $id ) {
			case 'credentials':
				return __( 'Credentials', 'card2crypto-checkout' );
			case 'callbacks':
				return __( 'Callbacks', 'card2crypto-checkout' );
			case 'clock':
				return __( 'Clock', 'card2crypto-checkout' );
			case 'scheduler':
				return __( 'Background jobs', 'card2crypto-checkout' );
			case 'https':
				return __( 'HTTPS', 'card2crypto-checkout' );
			case 'math':
				return __( 'GMP or BCMath', 'card2crypto-checkout' );
			default:
				return __( 'Gap limit', 'card2crypto-checkout' );
		}
	}

	/** WooCommerce's help tip (it escapes the text), or nothing when WooCommerce's helper is missing. */
	private function tip( string $text ): string {
		return function_exists( 'wc_help_tip' ) ? (string) wc_help_tip( $text ) : '';
	}
}

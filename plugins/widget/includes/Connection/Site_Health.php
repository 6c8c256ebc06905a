<?php
/**
 * Tools → Site Health: whether the card-to-crypto service accepts the
 * widget's credentials (test card2crypto_widget_credentials), from the
 * last answer Connection_Check kept and when it came. A direct test that
 * never asks the service itself: the background check and the settings
 * page's "Check the connection now" do.
 *
 * @package card2crypto-widget
 */

namespace Card2Crypto\Widget\Connection;

use Card2Crypto\Widget\Settings\Settings_Address;
use Card2Crypto\Widget\Settings\Widget_Settings;
use Card2Crypto\Widget\Shared\Hooks;

defined( 'ABSPATH' ) || exit;

final class Site_Health implements Hooks {

	const TEST = 'card2crypto_widget_credentials';

	/** @var Connection_Check */
	private $connection;

	/** @var Widget_Settings */
	private $settings;

	public function __construct( Connection_Check $connection, Widget_Settings $settings ) {
		$this->connection = $connection;
		$this->settings   = $settings;
	}

	/** Tools → Site Health's check of the credentials (the last answer, never a new call). */
	public function register(): void {
		add_filter( 'site_status_tests', array( $this, 'add_tests' ) );
	}

	/**
	 * @param mixed $tests Site Health's tests: {direct: [...], async: [...]}.
	 * @return mixed
	 */
	public function add_tests( $tests ) {
		if ( is_array( $tests ) ) {
			$tests['direct'][ self::TEST ] = array(
				'label' => __( 'Card2Crypto Widget: credentials accepted by the service', 'card2crypto-widget' ),
				'test'  => array( $this, 'test' ),
			);
		}
		return $tests;
	}

	/**
	 * The test's result, as Site Health shows it.
	 *
	 * @return array{label: string, status: string, badge: array{label: string, color: string}, description: string, actions: string, test: string}
	 */
	public function test( ?int $now = null ): array {
		$now     = $now ?? time();
		$fix     = '<p><a href="' . esc_url( Settings_Address::url() ) . '">' . esc_html__( 'Open Settings → Card2Crypto Widget', 'card2crypto-widget' ) . '</a></p>';
		$store   = $this->settings->store();
		$present = '' !== $store->get( 'partner_token' ) && '' !== $store->get( 'partner_secret' );
		$last    = $present ? $this->connection->last() : null;
		if ( ! $present ) {
			$status      = 'recommended';
			$label       = __( 'The purchase widget has no partner credentials', 'card2crypto-widget' );
			$description = __( 'Visitors see "not set up yet" instead of the purchase widget and the "Buy crypto" button until the partner token and secret your partner manager gave you are entered.', 'card2crypto-widget' );
		} elseif ( null === $last ) {
			$status      = 'recommended';
			$label       = __( 'The service has not been asked about the widget\'s current credentials yet', 'card2crypto-widget' );
			$description = __( 'The site asks the service in the background whether it accepts the partner token and secret (Site Health does not ask it). To ask now, press "Check the connection now" on the widget\'s settings page.', 'card2crypto-widget' );
		} else {
			$format  = get_option( 'date_format' ) . ' ' . get_option( 'time_format' );
			$checked = sprintf(
				/* translators: 1: date and time, 2: how long ago, e.g. "5 mins" */
				__( '%1$s (%2$s ago)', 'card2crypto-widget' ),
				(string) wp_date( (string) $format, (int) $last['at'] ),
				human_time_diff( (int) $last['at'], max( (int) $last['at'], $now ) )
			);
			if ( $last['ok'] ) {
				$status      = 'good';
				$label       = __( 'The service accepts the purchase widget\'s credentials', 'card2crypto-widget' );
				/* translators: %s: date and time of the last answer */
				$description = sprintf( __( 'The service last accepted a signed request with the partner token and secret on %s. The site asks again in the background every few hours.', 'card2crypto-widget' ), $checked );
			} else {
				$status      = 'critical';
				$label       = __( 'The service refuses the purchase widget\'s credentials', 'card2crypto-widget' );
				$description = sprintf(
					/* translators: 1: why the service refuses the credentials, 2: date and time of the last answer */
					__( 'Visitors see "unavailable right now" instead of the purchase widget: the service refuses this site\'s credentials (%1$s). Last answer: %2$s. Check the partner token, the partner secret and the API address, then press "Check the connection now".', 'card2crypto-widget' ),
					(string) $last['why'],
					$checked
				);
			}
		}
		return array(
			'label'       => $label,
			'status'      => $status,
			'badge'       => array(
				'label' => __( 'Purchase widget', 'card2crypto-widget' ),
				'color' => 'good' === $status ? 'blue' : ( 'critical' === $status ? 'red' : 'orange' ),
			),
			'description' => '<p>' . esc_html( $description ) . '</p>',
			'actions'     => 'good' === $status ? '' : $fix,
			'test'        => self::TEST,
		);
	}
}

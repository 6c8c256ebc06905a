<?php
/**
 * The last 30 days of card payments beside the status box of the payment
 * method's settings page (Gateway::admin_options()): per day of the site's
 * calendar, the payments paid, declined and abandoned, and the bitcoin
 * received (Books::days()). The page carries the numbers (window.card2cryptoBooksChart,
 * before the script), so the chart costs no request; src/books-chart.ts
 * draws them with @wordpress/element (plain SVG, for sighted readers) and a
 * table for screen readers. Without the script the box still says the
 * totals in a sentence.
 *
 * In the sandbox it counts the test payments, in production the real ones,
 * so the chart speaks of the payments the settings take now.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Admin;

use Card2Crypto\Checkout\Base\Config;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Base\Script_Asset;
use Card2Crypto\Checkout\Rules\Books_Numbers;

defined( 'ABSPATH' ) || exit;

final class Books_Chart {

	const HANDLE = 'card2crypto-checkout-books-chart';

	/** The global the script reads its data from. */
	const DATA = 'card2cryptoBooksChart';

	/** The element the script draws into. */
	const ROOT_ID = 'card2crypto-books-chart-root';

	const DAYS = 30;

	/** @var Config */
	private $config;

	/** @var Books */
	private $books;

	/** @var Script_Asset */
	private $scripts;

	/** @var Books_Export */
	private $export;

	public function __construct( Config $config, Books $books, Script_Asset $scripts, Books_Export $export ) {
		$this->config  = $config;
		$this->books   = $books;
		$this->scripts = $scripts;
		$this->export  = $export;
	}

	/**
	 * The chart's data: the days (oldest first) with a short label each,
	 * the totals, and the words the script shows.
	 *
	 * @return array<string, mixed>
	 */
	public function data( int $now ): array {
		$test   = 'sandbox' === $this->config->environment();
		$days   = $this->books->days( $now, self::DAYS, $test );
		$totals = array(
			'paid'      => 0,
			'declined'  => 0,
			'abandoned' => 0,
			'sats'      => '0',
		);
		foreach ( $days as $i => $day ) {
			$days[ $i ]['label'] = (string) wp_date( 'M j', (int) ( new \DateTimeImmutable( $day['date'] . ' 12:00:00', wp_timezone() ) )->getTimestamp() );
			foreach ( array( 'paid', 'declined', 'abandoned' ) as $outcome ) {
				$totals[ $outcome ] += $day[ $outcome ];
			}
			$totals['sats'] = Books_Numbers::add_digits( $totals['sats'], $day['sats'] );
		}
		$totals['btc'] = Books_Numbers::btc( $totals['sats'] );
		return array(
			'test'    => $test,
			'days'    => $days,
			'totals'  => $totals,
			'summary' => $this->summary( $totals, $test ),
			'texts'   => array(
				'title'     => $test ? __( 'Test card payments, last 30 days (sandbox)', 'card2crypto-checkout' ) : __( 'Card payments, last 30 days', 'card2crypto-checkout' ),
				'payments'  => __( 'Payments per day', 'card2crypto-checkout' ),
				'bitcoin'   => __( 'Bitcoin received per day (BTC)', 'card2crypto-checkout' ),
				'day'       => __( 'Day', 'card2crypto-checkout' ),
				'paid'      => __( 'Paid', 'card2crypto-checkout' ),
				'declined'  => __( 'Declined', 'card2crypto-checkout' ),
				'abandoned' => __( 'Abandoned', 'card2crypto-checkout' ),
				'btc'       => __( 'Bitcoin received (BTC)', 'card2crypto-checkout' ),
				'table'     => __( 'Card payments per day, last 30 days', 'card2crypto-checkout' ),
			),
		);
	}

	/** The totals in one sentence: the box's words without the script, and the chart's summary. */
	private function summary( array $totals, bool $test ): string {
		if ( 0 === $totals['paid'] + $totals['declined'] + $totals['abandoned'] ) {
			return $test ? __( 'No test card payments in the last 30 days.', 'card2crypto-checkout' ) : __( 'No card payments in the last 30 days.', 'card2crypto-checkout' );
		}
		/* translators: 1: payments paid, 2: declined, 3: abandoned, 4: bitcoin received, e.g. 0.00125000 */
		return sprintf( __( 'Last 30 days: %1$d paid, %2$d declined, %3$d abandoned; %4$s BTC received.', 'card2crypto-checkout' ), $totals['paid'], $totals['declined'], $totals['abandoned'], $totals['btc'] );
	}

	/** The box, and the script that draws the chart in it (for those who may read the books). */
	public function render(): void {
		if ( ! $this->export->allowed() ) {
			return;
		}
		try {
			$data = $this->data( time() );
		} catch ( \Throwable $e ) {
			Log::error( 'The card payments of the last 30 days could not be read: ' . $e->getMessage() );
			echo '<div class="card2crypto-books-chart notice inline notice-warning" style="padding:8px 12px"><p>' . esc_html__( 'The card payments of the last 30 days could not be read (details in WooCommerce > Status > Logs, source card2crypto-checkout).', 'card2crypto-checkout' ) . '</p></div>';
			return;
		}
		$orders = class_exists( '\Automattic\WooCommerce\Utilities\OrderUtil' ) && \Automattic\WooCommerce\Utilities\OrderUtil::custom_orders_table_usage_is_enabled()
			? admin_url( 'admin.php?page=wc-orders' )
			: admin_url( 'edit.php?post_type=shop_order' );
		echo '<div class="card2crypto-books-chart notice inline notice-info" style="padding:8px 12px;flex:1 1 420px;max-width:720px" data-card2crypto="books-chart">';
		echo '<p><strong>' . esc_html( $data['texts']['title'] ) . '</strong></p>';
		echo '<div id="' . esc_attr( self::ROOT_ID ) . '"></div>';
		echo '<p data-card2crypto="books-summary">' . esc_html( $data['summary'] ) . '</p>';
		echo '<p><a data-card2crypto="books-export-link" href="' . esc_url( $orders ) . '">' . esc_html__( 'Export the card payments (CSV) from the orders screen', 'card2crypto-checkout' ) . '</a></p>';
		echo '</div>';
		if ( $this->scripts->register( self::HANDLE, 'books-chart' ) ) {
			$this->scripts->data( self::HANDLE, self::DATA, $data );
			wp_enqueue_script( self::HANDLE );
		}
	}
}

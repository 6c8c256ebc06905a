<?php
/**
 * The owner's books: one row per card payment operation the service made for
 * the store, and one per payment a buyer was sent to and abandoned, with the
 * date, the order, the fiat amount and currency, the bitcoin amount, the
 * rate, the wallet address, the transaction hash, the operation id, its
 * outcome and whether it was a test (docs/decisions.md, "Checkout: the
 * owner's books"). Read page by page (Attempts\Books_Store), written as CSV
 * or JSON while it is read, so a store of any size is exported in constant
 * memory. Amounts are exact decimal text made from the integer minor units
 * stored, never through a float. Nothing secret is read: no credential, no
 * wallet key, no card detail.
 *
 * Books_Export serves the rows (orders screen, REST API); Books_Chart draws
 * the last 30 days on the settings page.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Admin;

use Card2Crypto\Checkout\Attempts\Books_Store;
use Card2Crypto\Checkout\Attempts\Operation_Store;
use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Rules\Currencies;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Base\Log;
use Card2Crypto\Checkout\Rules\Books_Numbers;
use Card2Crypto\Checkout\Rules\Payment_Match;
use Card2Crypto\Checkout\Rules\Status_Flow;
use Card2Crypto\Checkout\Settings\Test_Mode;
use Card2Crypto\Checkout\Shared\Settings\Decimal_Amount;

defined( 'ABSPATH' ) || exit;

final class Books {

	/** The columns, in order: the CSV's header line and the JSON rows' members. */
	const COLUMNS = array(
		'date',
		'order_id',
		'partner_operation_id',
		'operation_id',
		'outcome',
		'status',
		'status_code',
		'fiat_amount',
		'fiat_currency',
		'btc_amount',
		'rate',
		'wallet_address',
		'transaction_hash',
		'test',
	);

	/** Outcomes: the bitcoin was sent to the store's wallet (status success). */
	const PAID = 'paid';

	/** The operation ended without payment (status declined). */
	const DECLINED = 'declined';

	/** The operation is still under way (pending, awaiting confirm). */
	const PENDING = 'pending';

	/** The buyer was sent to pay and no operation was ever reported, and the payment's time is over. */
	const ABANDONED = 'abandoned';

	/** An operation the store recorded with no state it could apply (a pair outside the status model, kept for review). */
	const UNKNOWN = 'unknown';

	/** @var Books_Store */
	private $store;

	/** @var Order_Attempts */
	private $order_attempts;

	public function __construct( Books_Store $store, Order_Attempts $order_attempts ) {
		$this->store          = $store;
		$this->order_attempts = $order_attempts;
	}

	/**
	 * A date range from the two dates the owner gives (YYYY-MM-DD, days of
	 * the site's time zone, both included; '' or null for no bound), as Unix
	 * times [from, to) (null: open), or an error naming the field.
	 *
	 * @param mixed $from
	 * @param mixed $to
	 * @return array{from: ?int, to: ?int}|\WP_Error
	 */
	public function range( $from, $to ) {
		$bounds = array();
		foreach ( array(
			'from' => $from,
			'to'   => $to,
		) as $field => $value ) {
			if ( null === $value || '' === $value ) {
				$bounds[ $field ] = null;
				continue;
			}
			$day = is_string( $value ) ? $this->day( $value ) : null;
			if ( null === $day ) {
				return new \WP_Error(
					'card2crypto_books_date',
					/* translators: %s: the name of the field, "from" or "to" */
					sprintf( __( '%s must be a date written YYYY-MM-DD, for example 2025-01-31.', 'card2crypto-checkout' ), $field ),
					array(
						'status' => 400,
						'field'  => $field,
					)
				);
			}
			// The end date is included: the range ends at the next day's midnight.
			$bounds[ $field ] = 'to' === $field ? $day->modify( '+1 day' )->getTimestamp() : $day->getTimestamp();
		}
		if ( null !== $bounds['from'] && null !== $bounds['to'] && $bounds['to'] <= $bounds['from'] ) {
			return new \WP_Error(
				'card2crypto_books_range',
				/* translators: 1: the name of the field "to", 2: the name of the field "from" (both as the address writes them) */
				sprintf( __( '%1$s must be the same day as %2$s or a later one.', 'card2crypto-checkout' ), 'to', 'from' ),
				array(
					'status' => 400,
					'field'  => 'to',
				)
			);
		}
		return $bounds;
	}

	/** Midnight of a YYYY-MM-DD day in the site's time zone, or null when the text is not such a day. */
	private function day( string $text ): ?\DateTimeImmutable {
		if ( 1 !== preg_match( '/^([0-9]{4})-([0-9]{2})-([0-9]{2})$/D', $text, $m ) || ! checkdate( (int) $m[2], (int) $m[3], (int) $m[1] ) ) {
			return null;
		}
		$day = \DateTimeImmutable::createFromFormat( '!Y-m-d', $text, wp_timezone() );
		return false === $day ? null : $day;
	}

	/**
	 * The rows recorded in [$from, $to) (Unix times; null: open), oldest
	 * first: each holds COLUMNS as text, and `_at` (Unix time) and `_sats`
	 * (the satoshis a paid operation sent, decimal digits, or null) for the
	 * chart.
	 *
	 * @return \Generator<int, array<string, mixed>>
	 */
	public function rows( ?int $from, ?int $to ): \Generator {
		$utc   = static function ( ?int $time ): ?string {
			return null === $time ? null : gmdate( 'Y-m-d H:i:s', $time );
		};
		$ended = gmdate( 'Y-m-d H:i:s', time() - $this->order_attempts->payment_window() );
		foreach ( $this->store->pages( $utc( $from ), $utc( $to ), $ended ) as $page ) {
			$meta = $this->store->order_meta( array_column( $page, 'order_id' ), array( Keys::META_OPERATION, Test_Mode::META ) );
			foreach ( $page as $stored ) {
				yield $this->row( $stored, $meta[ $stored['order_id'] ] ?? array() );
			}
		}
	}

	/**
	 * One row of the books from a stored row and its order's meta.
	 *
	 * @param array<string, mixed> $stored A row of $this->store->pages().
	 * @param array<string, mixed> $meta   The order's meta (Keys::META_OPERATION, Test_Mode::META).
	 * @return array<string, mixed>
	 */
	public function row( array $stored, array $meta ): array {
		$op = is_array( $meta[ Keys::META_OPERATION ] ?? null ) ? $meta[ Keys::META_OPERATION ] : array();
		// The order keeps the details (amounts reported, rate, transaction) of the one operation that speaks for it.
		$own     = Books_Store::OPERATION === $stored['kind'] && '' !== $stored['operation_id'] && ( $op['id'] ?? null ) === $stored['operation_id'];
		$outcome = $this->outcome( $stored );
		$applied = Books_Store::ABANDONED !== $stored['kind'] && Operation_Store::NO_CODE !== $stored['status_code'];

		$fiat_amount   = $stored['expected_amount'];
		$fiat_currency = (string) $stored['expected_currency'];
		if ( $own && $this->digits( $op['from_amount'] ?? null ) && is_string( $op['from_currency'] ?? null ) ) {
			$fiat_amount   = $op['from_amount'];
			$fiat_currency = $op['from_currency'];
		}
		$sats = $own && $this->digits( $op['to_amount'] ?? null ) && Payment_Match::ASSET_BTC === ( $op['to_currency'] ?? Payment_Match::ASSET_BTC ) ? (string) $op['to_amount'] : null;
		$at   = (int) strtotime( $stored['recorded_at'] . ' UTC' );

		return array(
			'date'                 => (string) wp_date( 'c', $at ),
			'order_id'             => (string) $stored['order_id'],
			'partner_operation_id' => (string) $stored['partner_operation_id'],
			'operation_id'         => (string) $stored['operation_id'],
			'outcome'              => $outcome,
			'status'               => $applied ? (string) $stored['status'] : '',
			'status_code'          => $applied ? (string) $stored['status_code'] : '',
			// The currency's own decimals; one the service does not list has none known here: left empty rather than guessed.
			'fiat_amount'          => Currencies::is_supported( $fiat_currency ) ? Decimal_Amount::to_decimal( (string) $fiat_amount, Currencies::decimals( $fiat_currency ) ) : '',
			'fiat_currency'        => $fiat_currency,
			'btc_amount'           => null === $sats ? '' : Books_Numbers::btc( $sats ),
			'rate'                 => $own && isset( $op['currency_rate'] ) ? Books_Numbers::number_text( $op['currency_rate'] ) : '',
			'wallet_address'       => $own && is_string( $op['wallet'] ?? null ) && '' !== $op['wallet'] ? $op['wallet'] : (string) $stored['expected_wallet'],
			'transaction_hash'     => $own && is_string( $op['tx_id'] ?? null ) ? $op['tx_id'] : '',
			'test'                 => 'yes' === (string) ( $meta[ Test_Mode::META ] ?? '' ) ? 'yes' : 'no',
			'_at'                  => $at,
			'_sats'                => self::PAID === $outcome ? $sats : null,
		);
	}

	/** paid, declined, pending, abandoned or unknown. */
	private function outcome( array $stored ): string {
		if ( Books_Store::ABANDONED === $stored['kind'] ) {
			return self::ABANDONED;
		}
		$step = Status_Flow::find_step( (string) $stored['status'], (int) $stored['status_code'] );
		if ( null === $step ) {
			return self::UNKNOWN;
		}
		switch ( $step['phase'] ) {
			case Status_Flow::PHASE_SUCCEEDED:
				return self::PAID;
			case Status_Flow::PHASE_FAILED:
				return self::DECLINED;
			default:
				return self::PENDING;
		}
	}

	/** Whether a stored amount is whole minor units: an int >= 0, or decimal digits (beyond PHP_INT_MAX). */
	private function digits( $value ): bool {
		return ( is_int( $value ) && $value >= 0 ) || ( is_string( $value ) && 1 === preg_match( '/^[0-9]{1,40}$/D', $value ) );
	}

	/**
	 * One CSV line (RFC 4180, CRLF) of cells: a cell a spreadsheet would read
	 * as a formula (starting with =, +, -, @, a tab or a carriage return) is
	 * prefixed with an apostrophe; a cell with a comma, quote or line break is
	 * quoted; text that is not valid UTF-8 is dropped.
	 *
	 * @param array<int|string, mixed> $cells
	 */
	public function csv_line( array $cells ): string {
		$out = array();
		foreach ( $cells as $cell ) {
			$text = wp_check_invalid_utf8( (string) $cell, true );
			if ( '' !== $text && false !== strpos( "=+-@\t\r", $text[0] ) ) {
				$text = "'" . $text;
			}
			if ( 1 === preg_match( '/[",\r\n]/', $text ) ) {
				$text = '"' . str_replace( '"', '""', $text ) . '"';
			}
			$out[] = $text;
		}
		return implode( ',', $out ) . "\r\n";
	}

	/** A row's columns only, in order. */
	private function cells( array $row ): array {
		$cells = array();
		foreach ( self::COLUMNS as $column ) {
			$cells[ $column ] = $row[ $column ];
		}
		return $cells;
	}

	/**
	 * A row as the JSON answer gives it: the CSV's cells (text, exact
	 * amounts), but status_code a number (null when none) and test a boolean.
	 *
	 * @return array<string, mixed>
	 */
	private function json_row( array $row ): array {
		$cells                = $this->cells( $row );
		$cells['status_code'] = '' === $cells['status_code'] ? null : (int) $cells['status_code'];
		$cells['test']        = 'yes' === $cells['test'];
		return $cells;
	}

	/**
	 * Writes the rows of [$from, $to) to the output as they are read: the
	 * header line then one line per row (csv), or one JSON array (json),
	 * flushed page by page.
	 */
	public function write( string $format, ?int $from, ?int $to ): void {
		if ( function_exists( 'wc_set_time_limit' ) ) {
			wc_set_time_limit( 0 );
		}
		$csv = 'json' !== $format;
		echo $csv ? $this->csv_line( self::COLUMNS ) : '['; // phpcs:ignore WordPress.Security.EscapeOutput -- CSV or JSON, not HTML.
		// A failure past the first byte cannot change the answer's status any more: it is logged and thrown on, so the
		// file ends in PHP's error rather than looking complete.
		try {
			$this->write_rows( $csv, $from, $to );
		} catch ( \Throwable $e ) {
			Log::error( 'The card payments export stopped: ' . $e->getMessage() );
			throw $e;
		}
		flush();
	}

	private function write_rows( bool $csv, ?int $from, ?int $to ): void {
		$count = 0;
		foreach ( $this->rows( $from, $to ) as $row ) {
			if ( $csv ) {
				echo $this->csv_line( $this->cells( $row ) ); // phpcs:ignore WordPress.Security.EscapeOutput -- CSV, not HTML.
			} else {
				echo ( 0 === $count ? '' : ',' ) . wp_json_encode( $this->json_row( $row ), JSON_UNESCAPED_SLASHES ); // phpcs:ignore WordPress.Security.EscapeOutput -- JSON, not HTML.
			}
			if ( 0 === ++$count % Books_Store::PAGE ) {
				flush();
			}
		}
		if ( ! $csv ) {
			echo ']';
		}
	}

	/**
	 * The last $days days of the site's calendar, today included: per day
	 * the payments paid, declined and abandoned, and the bitcoin received
	 * (the satoshis of the paid ones). Only test payments ($test true) or
	 * only real ones (false).
	 *
	 * @return array<int, array{date: string, paid: int, declined: int, abandoned: int, sats: string, btc: string}>
	 */
	public function days( int $now, int $days, bool $test ): array {
		$today = ( new \DateTimeImmutable( '@' . $now ) )->setTimezone( wp_timezone() )->setTime( 0, 0 );
		$first = $today->modify( '-' . ( $days - 1 ) . ' days' );
		$out   = array();
		for ( $day = $first; $day <= $today; $day = $day->modify( '+1 day' ) ) {
			$out[ $day->format( 'Y-m-d' ) ] = array(
				'date'      => $day->format( 'Y-m-d' ),
				'paid'      => 0,
				'declined'  => 0,
				'abandoned' => 0,
				'sats'      => '0',
			);
		}
		foreach ( $this->rows( $first->getTimestamp(), null ) as $row ) {
			$date = (string) wp_date( 'Y-m-d', $row['_at'] );
			if ( ! isset( $out[ $date ] ) || ( 'yes' === $row['test'] ) !== $test || ! in_array( $row['outcome'], array( self::PAID, self::DECLINED, self::ABANDONED ), true ) ) {
				continue;
			}
			++$out[ $date ][ $row['outcome'] ];
			if ( null !== $row['_sats'] ) {
				$out[ $date ]['sats'] = Books_Numbers::add_digits( $out[ $date ]['sats'], $row['_sats'] );
			}
		}
		foreach ( $out as $date => $day ) {
			$out[ $date ]['btc'] = Books_Numbers::btc( $day['sats'] );
		}
		return array_values( $out );
	}
}

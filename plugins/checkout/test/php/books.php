<?php
/**
 * Calls Admin\Books for the Node tests (test/books.test.ts), without
 * WordPress: what it needs of WordPress faked below (the site in Tokyo's time
 * zone). Reads /work/calls.json, a list of [function, ...arguments].
 */

use Card2Crypto\Checkout\Admin\Books;
use Card2Crypto\Checkout\Attempts\Books_Store;
use Card2Crypto\Checkout\Attempts\Order_Attempts;
use Card2Crypto\Checkout\Base\Keys;
use Card2Crypto\Checkout\Rules\Books_Numbers;
use Card2Crypto\Checkout\Settings\Test_Mode;

require __DIR__ . '/bootstrap.php';

function __( $text, $domain = '' ) {
	return $text;
}

function wp_timezone() {
	return new DateTimeZone( 'Asia/Tokyo' );
}

/** WordPress's: a Unix time in the site's time zone. */
function wp_date( $format, $timestamp = null ) {
	return ( new DateTimeImmutable( '@' . ( $timestamp ?? time() ) ) )->setTimezone( wp_timezone() )->format( $format );
}

/** Valid UTF-8 is returned as it is (what every cell here is). */
function wp_check_invalid_utf8( $text, $strip = false ) {
	return 1 === preg_match( '//u', $text ) ? $text : '';
}

class WP_Error {
	private $code;
	private $message;
	private $data;
	public function __construct( $code = '', $message = '', $data = '' ) {
		$this->code    = $code;
		$this->message = $message;
		$this->data    = $data;
	}
	public function get_error_code() {
		return $this->code;
	}
	public function get_error_message() {
		return $this->message;
	}
	public function get_error_data() {
		return $this->data;
	}
}

$books     = new Books( new Books_Store(), new Order_Attempts() );
$functions = array(
	'csv_line'    => array( $books, 'csv_line' ),
	'number_text' => array( Books_Numbers::class, 'number_text' ),
	// JSON has no float for a whole number: the test names the floats it means.
	'number_float' => static function ( string $text ) {
		return Books_Numbers::number_text( (float) $text );
	},
	'add_digits'  => array( Books_Numbers::class, 'add_digits' ),
	'btc'         => array( Books_Numbers::class, 'btc' ),
	'range'       => static function ( $from, $to ) use ( $books ) {
		$range = $books->range( $from, $to );
		return $range instanceof WP_Error ? array(
			'error'   => $range->get_error_code(),
			'message' => $range->get_error_message(),
			'data'    => $range->get_error_data(),
		) : $range;
	},
	// A stored row with its order's meta, as the books write it (the chart's own keys kept).
	'row'         => static function ( array $stored, ?array $operation, bool $test ) use ( $books ) {
		$meta = array();
		if ( null !== $operation ) {
			$meta[ Keys::META_OPERATION ] = $operation;
		}
		if ( $test ) {
			$meta[ Test_Mode::META ] = 'yes';
		}
		return $books->row( $stored + array( 'row_id' => 1, 'source' => 'operations' ), $meta );
	},
);

c2c_test_run_calls( $functions );

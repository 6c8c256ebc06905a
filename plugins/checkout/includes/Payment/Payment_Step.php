<?php
/**
 * What a payment flow (Payment_Flows::place(), widget()) decided for the buyer,
 * for its adapter to send as it is: the browser goes somewhere, the
 * embedded widget gets its signed settings, or the buyer stays and is told.
 *
 * @package card2crypto-checkout
 */

namespace Card2Crypto\Checkout\Payment;

defined( 'ABSPATH' ) || exit;

final class Payment_Step {

	/** The browser goes to url() (the landing link, the order's payment page, the order-received page). */
	const GO = 'go';

	/** The embedded widget starts with settings(), signed now. */
	const SETTINGS = 'settings';

	/** No payment starts: the buyer is told message() (a REST answer of http_status(), or a checkout notice). */
	const TOLD = 'told';

	/** @var string */
	private $kind;

	/** @var string */
	private $url;

	/** @var array<string, mixed> */
	private $settings;

	/** @var string|null */
	private $expires_at;

	/** @var string */
	private $code;

	/** @var string */
	private $message;

	/** @var string */
	private $notice_html;

	/** @var int */
	private $http_status;

	/** @var array<string, mixed> */
	private $extra;

	/** @var bool */
	private $error;

	private function __construct( string $kind ) {
		$this->kind        = $kind;
		$this->url         = '';
		$this->settings    = array();
		$this->expires_at  = null;
		$this->code        = '';
		$this->message     = '';
		$this->notice_html = '';
		$this->http_status = 200;
		$this->extra       = array();
		$this->error       = false;
	}

	public static function go( string $url ): self {
		$step      = new self( self::GO );
		$step->url = $url;
		return $step;
	}

	/**
	 * @param array<string, mixed> $settings Signed widget settings.
	 * @param string|null          $expires_at When the fixed rate in them ends, or null.
	 */
	public static function settings( array $settings, ?string $expires_at ): self {
		$step             = new self( self::SETTINGS );
		$step->settings   = $settings;
		$step->expires_at = $expires_at;
		return $step;
	}

	/**
	 * The buyer is told, and stays (or, with $url, is sent there to read it).
	 *
	 * @param string               $code        A machine-readable code for the page's script (card2crypto_held, ...).
	 * @param string               $message     Plain words (text).
	 * @param int                  $http_status The REST answer's status.
	 * @param array<string, mixed> $extra       More for the page's script (kind, link, redirect).
	 * @param string               $notice_html The words as a checkout notice (HTML); '' for the message as it is, as WooCommerce takes a notice.
	 * @param bool                 $error       A REST error (WP_Error) rather than an answer of the route's own shape.
	 */
	public static function told( string $code, string $message, int $http_status, array $extra = array(), string $notice_html = '', bool $error = false ): self {
		$step              = new self( self::TOLD );
		$step->code        = $code;
		$step->message     = $message;
		$step->http_status = $http_status;
		$step->extra       = $extra;
		$step->notice_html = '' !== $notice_html ? $notice_html : $message;
		$step->error       = $error;
		return $step;
	}

	public function kind(): string {
		return $this->kind;
	}

	public function url(): string {
		return $this->url;
	}

	public function message(): string {
		return $this->message;
	}

	public function code(): string {
		return $this->code;
	}

	public function http_status(): int {
		return $this->http_status;
	}

	/** The words as a WooCommerce notice (wc_add_notice() takes HTML). */
	public function notice_html(): string {
		return $this->notice_html;
	}

	/** A REST error (sent as a WP_Error: code, message, data.status) rather than an answer of the route's shape. */
	public function is_error(): bool {
		return $this->error;
	}

	/**
	 * What a REST route sends for this step (but an error: is_error()).
	 *
	 * @return array<string, mixed>
	 */
	public function rest_body(): array {
		if ( self::SETTINGS === $this->kind ) {
			return array(
				'settings'   => $this->settings,
				'expires_at' => $this->expires_at,
			);
		}
		if ( self::GO === $this->kind ) {
			return array( 'redirect' => $this->url );
		}
		return array(
			'code'    => $this->code,
			'message' => $this->message,
		) + $this->extra;
	}
}
